import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { request } from '../../api/test/http.js';
import { apiTokenOf, demoPassword, expectNoSidewaysScroll, launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

const EMPLOYEE = 'employee@acme.test';
const ADMIN = 'admin@acme.test';

describe('pay transparency in the browser', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('an employee asks on a 375 px phone, HR approves, and the employee reads the answer', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', timezoneId: 'UTC' });
    const page = await phone.newPage();
    await signInThroughProvider(page, base(), EMPLOYEE, demoPassword(inject('serverEnv')));
    // The home card leads to the page.
    const card = page.getByRole('region', { name: 'Your pay information' });
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('link', { name: 'Your pay information' }).click();
    await page.waitForURL('**/pay-information');
    const ask = page.getByRole('form', { name: 'Ask for your pay information' });
    await ask.waitFor({ timeout: 30_000 });
    await ask.getByLabel('Anything HR should know? (optional)').fill('Please include my bonus.');
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Ask for my pay information' }).click();
    const pending = page.getByText(/HR is checking your answer\. It reaches you here, and by e-mail, by .+ at the latest\./);
    await pending.waitFor({ timeout: 30_000 });
    expect(await page.getByText('Being prepared').count()).toBeGreaterThan(0);
    await screenshot(page, `pay-information-asked-${inject('engine')}-375`);

    // HR, on a desktop: the queue, the request, a note, approve and deliver.
    const desk = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
    const hr = await desk.newPage();
    await signInThroughProvider(hr, base(), ADMIN, demoPassword(inject('serverEnv')));
    await hr.goto(`${base()}/pay-transparency`);
    await hr.getByRole('heading', { name: 'Pay transparency', level: 1 }).waitFor({ timeout: 30_000 });
    const adminToken = await apiTokenOf(ADMIN);
    const queue = await request<{ data: { id: string; employee: { name: string }; state: string }[] }>('/api/pay-transparency/requests', { headers: { Authorization: `Bearer ${adminToken}` } });
    const waiting = queue.body.data.find((entry) => entry.state === 'review');
    expect(waiting).toBeDefined();
    await hr.getByRole('link', { name: waiting?.employee.name ?? '' }).first().click();
    await hr.waitForURL(`**/pay-transparency/requests/${waiting?.id}`);
    await hr.getByText('Please include my bonus.').waitFor({ timeout: 30_000 });
    await hr.getByLabel('A note to the employee, delivered with the answer (optional)').fill('Your bonus target is included in your pay level.');
    await hr.getByRole('button', { name: 'Approve and deliver' }).click();
    await hr.getByRole('heading', { name: 'The answer delivered' }).waitFor({ timeout: 30_000 });
    expect(await seriousViolations(hr)).toEqual([]);
    // The queue on a phone too: the request answered, nothing scrolls sideways.
    await hr.setViewportSize({ width: 375, height: 800 });
    await hr.goto(`${base()}/pay-transparency`);
    await hr.getByRole('heading', { name: 'Requests' }).waitFor({ timeout: 30_000 });
    await hr.getByText('Answered').first().waitFor({ timeout: 30_000 });
    await expectNoSidewaysScroll(hr, 375);
    await screenshot(hr, `pay-transparency-queue-${inject('engine')}-375`);
    await desk.close();

    // The employee reads the answer on the phone.
    await page.reload();
    await page.getByRole('heading', { name: 'Your pay level' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('Answered').count()).toBeGreaterThan(0);
    expect(await page.getByText(/Answered on [A-Z][a-z]{2} \d{1,2}, \d{4}\./).count()).toBe(1);
    expect(await page.getByText('Your bonus target is included in your pay level.').count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'How pay and progression are set' }).count()).toBe(1);
    expect(await page.getByTestId('own-annual').textContent()).toMatch(/\d/);
    expect(await page.getByRole('table', { name: 'Average pay levels by sex' }).count()).toBe(1);
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `pay-information-answered-${inject('engine')}-375`);
    await phone.close();
  }, 240_000);
});
