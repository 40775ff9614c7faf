import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { components } from '../../openapi.d.ts';
import { apiTokenOf, demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

type Participation = components['schemas']['MarketParticipation'];

const ADMIN = 'admin@acme.test';
const ANALYST = 'analyst@acme.test';

async function participationOf(token: string, body?: unknown): Promise<Participation> {
  const reply = await fetch(`${inject('baseUrl')}/api/benchmarking/participation`, {
    method: body ? 'PUT' : 'GET',
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { data: Participation }).data;
}

describe('market participation in a real browser', () => {
  let browser: Browser;
  let adminToken: string;
  let before: Participation;

  beforeAll(async () => {
    browser = await launchChromium();
    adminToken = await apiTokenOf(ADMIN);
    before = await participationOf(adminToken);
  });
  afterAll(async () => {
    // Leave the demo company as it was for the tests that follow on this server.
    await participationOf(adminToken, { participates: before.participates, ...(before.profile ?? {}) });
    await browser?.close();
  });

  it('the demo admin sees what a release would take and why the rest cannot be placed, and opts in with the company’s profile', async () => {
    expect(before.participates).toBe(false);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, inject('baseUrl'), ADMIN, demoPassword(inject('serverEnv')));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Market data' }).click();
    await page.getByRole('link', { name: 'Participation' }).click();
    await page.getByRole('heading', { name: 'Market participation' }).waitFor();
    expect(await page.getByTestId('participation-status').textContent()).toBe('Not taking part');

    // The counts are the API's: contributed, and every other active employee by reason.
    const excluded = before.excludedEmployees.reduce((sum, entry) => sum + entry.employees, 0);
    const coverage = await page.getByTestId('coverage').textContent();
    expect(coverage).toContain(`${before.contributedEmployees.toLocaleString('en-US')} of your ${(before.contributedEmployees + excluded).toLocaleString('en-US')} active employees`);
    expect(before.contributedEmployees).toBeGreaterThan(0);
    for (const entry of before.excludedEmployees) {
      expect(await page.locator(`li[data-reason="${entry.reason}"]`).textContent()).toBe(`${entry.description}${entry.employees.toLocaleString('en-US')}`);
    }
    expect(await page.locator('li[data-reason]').count()).toBe(before.excludedEmployees.length);

    // Opting in needs the profile market filters select the company by.
    await page.getByLabel('Add our employees, anonymised').check();
    await page.getByLabel('Company stage').selectOption('series_b');
    await page.getByLabel('Ownership').selectOption('venture_backed');
    await page.getByLabel('Industry').selectOption('ind_tech_saas');
    await page.getByLabel('Equity programme').selectOption('yes');
    await page.getByRole('button', { name: 'Save participation' }).click();
    await page.getByText('Saved. The next release will hold your employees, anonymised.').waitFor();
    await expect.poll(() => page.getByTestId('participation-status').textContent()).toBe('Taking part: the next release will hold your employees');
    const after = await participationOf(adminToken);
    expect(after).toMatchObject({ participates: true, status: 'awaiting_data', profile: { companyStage: 'series_b', ownershipGroup: 'venture_backed', industry: 'ind_tech_saas', equityProgramme: 'yes' } });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `participation-${inject('engine')}`);
    await context.close();
  });

  it('shows an analyst without benchmarking edit the same page, read-only', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, inject('baseUrl'), ANALYST, demoPassword(inject('serverEnv')));
    await page.goto(`${inject('baseUrl')}/benchmarkingsurvey/participation`);
    await page.getByRole('heading', { name: 'Market participation' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save participation' }).count()).toBe(0);
    expect(await page.getByLabel('Company stage').isDisabled()).toBe(true);
    await page.getByText('Changing this needs the benchmarking edit permission.').waitFor();
    await context.close();
  });
});
