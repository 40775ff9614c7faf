import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { apiTokenOf, demoPassword, launchChromium, screenshot, seriousViolations, signInThroughProvider, expectNoSidewaysScroll } from './browser.js';

const EMPLOYEE = 'employee@acme.test';
const ADMIN = 'admin@acme.test';
const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Survey {
  id: string;
  version: number;
  questions: { id: string; text: string }[];
}

describe('pulse surveys in the browser', () => {
  let browser: Browser;
  const base = () => inject('baseUrl');
  const title = `Pay pulse ${Math.random().toString(36).slice(2, 7)}`;
  let adminToken: string;
  let survey: Survey;

  beforeAll(async () => {
    browser = await launchChromium();
    adminToken = await apiTokenOf(ADMIN);
    const db = await testDb();
    const demo = await db('users').where({ email: EMPLOYEE }).first<{ company_id: string }>();
    const employeeRole = await db('roles').where({ company_id: demo.company_id, key: 'employee' }).first<{ id: string }>();
    // Four more colleagues with a sign-in, in a department of their own, so the survey can reach 5 answers.
    // They are whole records, job and pay copied from a demo employee, so the demo company stays one a
    // real company would be for every other test on this server (everyone priced against the market).
    const model = await db('employees as e')
      .join('compensation_records as c', 'c.employee_id', 'e.id')
      .where({ 'e.company_id': demo.company_id, 'e.status': 'active', 'c.type': 'base_salary' })
      .whereNotNull('e.job_family_id')
      .orderBy('c.effective_date', 'desc')
      .first<{ job_family_id: string; level_id: string; location_id: string; country_code: string; currency: string; amount: number; pay_currency: string; effective_date: string | Date }>(
        'e.job_family_id', 'e.level_id', 'e.location_id', 'e.country_code', 'e.currency', 'c.amount', 'c.currency as pay_currency', 'c.effective_date',
      );
    const colleagues: { token: string }[] = [];
    for (let i = 0; i < 4; i += 1) {
      const user = await createTestUser(db, { companyId: demo.company_id, roleIds: [employeeRole.id] });
      const employeeId = await insertEmployee(db, demo.company_id, {
        firstName: 'Pulse',
        lastName: `Colleague ${i + 1}`,
        userId: user.id,
        email: user.email,
        department: 'Pulse Panel',
        jobFamilyId: model.job_family_id,
        levelId: model.level_id,
        locationId: model.location_id,
        countryCode: model.country_code,
        currency: model.currency,
      });
      await insertPay(db, demo.company_id, employeeId, [{ type: 'base_salary', amount: Number(model.amount), currency: model.pay_currency, effectiveDate: new Date(model.effective_date).toISOString().slice(0, 10) }]);
      colleagues.push(user);
    }
    const created = await request<{ data: Survey }>('/api/data-lab/pulse-surveys', {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}` },
      json: { title, questions: ['I understand how my pay is set', 'My pay is fair for the work I do'], target: { kind: 'everyone', values: [] }, opensOn: day(0), closesOn: day(7) },
    });
    expect(created.status).toBe(201);
    const opened = await request<{ data: Survey }>(`/api/data-lab/pulse-surveys/${created.body.data.id}/open`, { method: 'POST', headers: { Authorization: `Bearer ${adminToken}`, 'If-Match': `"${created.body.data.version}"` } });
    expect(opened.status).toBe(200);
    survey = opened.body.data;
    // The colleagues answer (5, 4, 4, 3) and (2, 2, 3, 4).
    const scores = [
      [5, 2],
      [4, 2],
      [4, 3],
      [3, 4],
    ];
    for (const [index, colleague] of colleagues.entries()) {
      const answered = await request(`/api/data-lab/pulse-surveys/${survey.id}/answers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${colleague.token}` },
        json: { scores: survey.questions.map((question, at) => ({ questionId: question.id, score: scores[index]?.[at] ?? 3 })) },
      });
      expect(answered.status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    // Closed again, so the survey leaves the demo people's home screens.
    const current = await request<{ data: Survey & { state: string } }>(`/api/data-lab/pulse-surveys/${survey?.id}`, { headers: { Authorization: `Bearer ${adminToken}` } });
    if (current.body.data?.state === 'open') {
      await request(`/api/data-lab/pulse-surveys/${survey.id}/close`, { method: 'POST', headers: { Authorization: `Bearer ${adminToken}`, 'If-Match': `"${current.body.data.version}"` } });
    }
    await browser?.close();
  });

  it('an employee answers on a 375 px phone from their home screen', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), EMPLOYEE, demoPassword(inject('serverEnv')));
    const card = page.getByRole('list', { name: 'Surveys for you' }).getByRole('listitem').filter({ hasText: title });
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.textContent()).toContain('Waiting for you');
    await card.getByRole('link', { name: 'Answer the survey' }).click();
    await page.waitForURL(`**/pulse/${survey.id}`);
    await page.getByRole('heading', { name: title }).waitFor({ timeout: 30_000 });

    const send = page.getByRole('button', { name: /Answer 2 more questions|Send my answer/ });
    expect(await send.textContent()).toBe('Answer 2 more questions');
    expect(await send.isDisabled()).toBe(true);
    await page.getByRole('radiogroup', { name: 'I understand how my pay is set' }).getByRole('radio', { name: '2: Disagree' }).check();
    await page.getByRole('radiogroup', { name: 'My pay is fair for the work I do' }).getByRole('radio', { name: '4: Agree' }).check();
    await page.getByLabel('Anything to add? (optional)').fill('More clarity on bands, please');
    // Every scale step is a full tap target and the form fits the phone without sideways scrolling.
    const step = await page.locator('.pulse-step').first().boundingBox();
    expect(step?.height ?? 0).toBeGreaterThanOrEqual(44);
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `pulse-answer-${inject('engine')}-375`);

    await page.getByRole('button', { name: 'Send my answer' }).click();
    await page.getByRole('heading', { name: 'Thank you, your answer is in' }).waitFor({ timeout: 30_000 });
    // Reloading still says so: one answer per person.
    await page.reload();
    await page.getByRole('heading', { name: 'Thank you, your answer is in' }).waitFor({ timeout: 30_000 });
    await context.close();
  });

  it('an admin sees the results once 5 have answered, with the comment, closes the survey and drafts the next', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
    const page = await context.newPage();
    await signInThroughProvider(page, base(), ADMIN, demoPassword(inject('serverEnv')));
    await page.goto(`${base()}/paybench-data-lab/pulse-surveys`);
    await page.getByRole('heading', { name: 'Pulse surveys' }).waitFor({ timeout: 30_000 });
    const row = page.getByRole('row').filter({ hasText: title });
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/5 of \d+/);
    await row.getByRole('link', { name: title }).click();
    await page.getByText(/^5 of \d+ answered\.$/).waitFor({ timeout: 30_000 });

    // (5 + 4 + 4 + 3 + 2) / 5 = 3.60 and (2 + 2 + 3 + 4 + 4) / 5 = 3.00
    const first = page.getByRole('article', { name: 'I understand how my pay is set' });
    await expect.poll(() => first.locator('.pulse-average strong').textContent()).toBe('3.60');
    const second = page.getByRole('article', { name: 'My pay is fair for the work I do' });
    expect(await second.locator('.pulse-average strong').textContent()).toBe('3.00');
    // How many answered each score of the first question: one 2, one 3, two 4s, one 5.
    const distribution = first.getByRole('figure', { name: 'Answers to “I understand how my pay is set”' });
    expect(await distribution.getByRole('row').filter({ hasText: '4 · Agree' }).locator('.bar-value').textContent()).toBe('2');
    expect(await page.getByRole('region', { name: 'Comments' }).textContent()).toContain('More clarity on bands, please');
    // The panel's department has 4 answers: it shows only that it has fewer than 5.
    const panel = page.getByRole('table', { name: 'Average score by department' }).getByRole('row').filter({ hasText: 'Pulse Panel' });
    expect(await panel.textContent()).toContain('Fewer than 5 answers');
    expect(await panel.textContent()).not.toContain('3.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `pulse-results-${inject('engine')}-1280`);

    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByText('Closed', { exact: true }).first().waitFor({ timeout: 30_000 });

    // A new draft, through the form: a department of 4 is warned that its results will never show.
    await page.goto(`${base()}/paybench-data-lab/pulse-surveys`);
    await page.getByRole('link', { name: 'New survey' }).click();
    await page.getByRole('heading', { name: 'New pulse survey' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Title').fill(`${title} follow-up`);
    expect(await page.getByLabel('Question 1').inputValue()).toBe('I understand how my pay is set');
    await page.getByLabel('Sent to', { exact: true }).selectOption('department');
    await page.getByLabel('Departments', { exact: true }).selectOption(['Pulse Panel']);
    await expect.poll(() => page.getByText(/can answer \(active employees who can sign in\)/).textContent()).toBe('4 people can answer (active employees who can sign in). With fewer than 5, results will never show.');
    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.getByRole('heading', { name: `${title} follow-up` }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Open and send' }).isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: 'Questions' }).textContent()).toContain('I understand how my pay is set');
    expect(await seriousViolations(page)).toEqual([]);

    // The draft is edited before it goes out: a question reworded, one added, a later closing date.
    const draftUrl = page.url();
    await page.getByRole('link', { name: 'Edit the draft' }).click();
    await page.getByRole('heading', { name: 'Edit the draft' }).waitFor({ timeout: 30_000 });
    const form = page.getByRole('form', { name: 'Edit the draft' });
    expect(await form.getByLabel('Title').inputValue()).toBe(`${title} follow-up`);
    expect(await form.getByLabel('Departments', { exact: true }).evaluate((select: HTMLSelectElement) => [...select.selectedOptions].map((option) => option.value))).toEqual(['Pulse Panel']);
    await form.getByLabel('Question 1', { exact: true }).fill('I know how my pay is set');
    await form.getByRole('button', { name: 'Add a question' }).click();
    await form.getByLabel('Question 2', { exact: true }).fill('I know where my pay sits in its band');
    await form.getByLabel('Closes on').fill(day(21));
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Save the draft' }).click();
    await page.waitForURL(draftUrl);
    const questions = page.getByRole('region', { name: 'Questions' });
    await expect.poll(() => questions.getByRole('listitem').allTextContents()).toEqual(['I know how my pay is set', 'I know where my pay sits in its band']);
    const draftId = draftUrl.split('/').at(-1) ?? '';
    const stored = await request<{ data: Survey & { closesOn: string; target: { values: string[] } } }>(`/api/data-lab/pulse-surveys/${draftId}`, { headers: { Authorization: `Bearer ${adminToken}` } });
    expect(stored.body.data).toMatchObject({ version: 2, closesOn: day(21), target: { values: ['Pulse Panel'] } });
    await context.close();
    // The walk covers results, closing, a new draft and its edit: the time budget of the other long browser walks.
  }, 180_000);
});
