import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newId } from '../../api/src/db/ids.js';
import { hashPassword } from '../../api/src/identity/passwords.js';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { insertEmployee, insertPay } from '../../api/src/team/test/fixtures.js';
import { testDb } from '../../api/test/factories.js';
import { expectNoSidewaysScroll, launchChromium, screenshot, seriousViolations } from './browser.js';
import { signedIn, switchOn } from './companySetup.js';

/*
 * After the answer is prepared, a man's pay changes: HR sees the answer is stale, prepares it again
 * and delivers it; the employee, on a phone, finds it incomplete and asks for clarification (Art.
 * 7(5)); HR replies with reasons and the figures prepared again; the employee reads the reply.
 * A company of its own: five women (the employee one of them) and five men of one category.
 */
describe('clarification of pay information in a real browser', () => {
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof createAdmin>>;
  const employee = { email: '', password: 'correct horse clarity' };
  let raisedMan = '';

  beforeAll(async () => {
    const db = await testDb();
    admin = await createAdmin(db);
    await switchOn(db, admin.companyId, ['pay_equity']);
    const role = (await db('roles').where({ company_id: admin.companyId, key: 'employee' }).first('id')) as { id: string };
    const userId = newId();
    employee.email = `ana-${userId.slice(-8)}@${admin.email.split('@')[1]}`;
    const now = new Date().toISOString();
    await db('users').insert({ id: userId, company_id: admin.companyId, email: employee.email, first_name: 'Ana', last_name: 'Clear', password_hash: await hashPassword(employee.password), email_verified: true, created_at: now, updated_at: now });
    await db('user_roles').insert({ user_id: userId, role_id: role.id, company_id: admin.companyId });
    const person = async (first: string, gender: string, base: number, user: string | null = null) => {
      const id = await insertEmployee(db, admin.companyId, { firstName: first, lastName: 'Clear', userId: user, levelId: 'p3', jobFamilyId: 'software_engineering', demographics: { gender } });
      await insertPay(db, admin.companyId, id, [{ type: 'base_salary', amount: base * 100, effectiveDate: '2025-01-01' }]);
      return id;
    };
    await person('Ana', 'woman', 60_000, userId);
    for (const [index, base] of [40_000, 50_000, 70_000, 80_000].entries()) await person(`W${index}`, 'woman', base);
    for (const [index, base] of [50_000, 60_000, 70_000, 80_000, 90_000].entries()) raisedMan = await person(`M${index}`, 'man', base);
    browser = await launchChromium();
  }, 120_000);
  afterAll(() => browser?.close());

  it('a stale answer is prepared again, then the employee asks for clarification on a phone and reads HR’s reply', async () => {
    const db = await testDb();
    const base = inject('baseUrl');
    const phone = await signedIn(browser, employee, employee.password, 375);
    const page = phone.page;
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${base}/pay-information`);
    await page.getByRole('button', { name: 'Ask for my pay information' }).click();
    await page.getByText(/HR is checking your answer/).waitFor();

    // The highest-paid man is raised to 100,000 from today: the prepared answer's men's mean (70,000) is stale.
    await insertPay(db, admin.companyId, raisedMan, [{ type: 'base_salary', amount: 100_000 * 100, effectiveDate: new Date().toISOString().slice(0, 10) }]);
    const desk = await signedIn(browser, admin, admin.password);
    const hr = desk.page;
    await hr.goto(`${base}/pay-transparency`);
    await hr.getByText('Data changed').first().waitFor();
    await hr.getByRole('link', { name: 'Ana Clear' }).first().click();
    await hr.getByText('People data changed since this answer was prepared.').waitFor();
    await hr.getByRole('button', { name: 'Prepare the answer again' }).click();
    await hr.getByText('People data changed since this answer was prepared.').waitFor({ state: 'detached' });
    // Men 50,000 60,000 70,000 80,000 100,000: mean 72,000.
    await hr.getByRole('table', { name: 'Average pay levels by sex' }).getByText('$72,000').first().waitFor();
    await hr.getByRole('button', { name: 'Approve and deliver' }).click();
    await hr.getByRole('heading', { name: 'The answer delivered' }).waitFor();

    // The employee reads it and asks for clarification.
    await page.reload();
    await page.getByRole('heading', { name: 'Your pay level' }).waitFor();
    await page.getByRole('button', { name: 'Something is wrong or missing? Ask for clarification' }).click();
    const form = page.getByRole('form', { name: 'Ask for clarification' });
    await form.getByLabel('What is inaccurate or incomplete?').fill('My on-call allowance is missing from my pay level.');
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Send my question' }).click();
    await page.getByText('Waiting for HR').waitFor();
    await page.getByText(/HR replies by .+ at the latest\./).waitFor();

    // HR: the queue says a clarification is due; the reply goes with the figures prepared again.
    await insertPay(db, admin.companyId, (await db('employees').where({ company_id: admin.companyId, first_name: 'Ana' }).first<{ id: string }>('id'))?.id ?? '', [
      { type: 'variable_pay', amount: 3_000 * 100, effectiveDate: new Date().toISOString().slice(0, 10) },
    ]);
    await hr.goto(`${base}/pay-transparency`);
    await hr.getByText(/Clarification due/).first().waitFor();
    await hr.getByRole('link', { name: 'Ana Clear' }).first().click();
    const reply = hr.getByRole('form', { name: 'Reply to the question' });
    await reply.getByLabel('Your reply, with its reasons').fill('The on-call allowance was recorded today as variable pay; the figures below include it.');
    await reply.getByLabel('Prepare the figures again from today’s people data and send them with the reply').check();
    expect(await seriousViolations(hr)).toEqual([]);
    await reply.getByRole('button', { name: 'Send the reply' }).click();
    await hr.getByRole('form', { name: 'Reply to the question' }).waitFor({ state: 'detached' });
    await hr.getByText(/replied by/).first().waitFor();
    await desk.context.close();

    // The employee reads the reply and her figures prepared again: 60,000 + 3,000 = 63,000.
    await page.reload();
    await page.getByText('The on-call allowance was recorded today as variable pay; the figures below include it.').waitFor();
    await page.getByRole('heading', { name: /Your figures, prepared again on/ }).waitFor();
    expect(await page.getByTestId('own-annual').allTextContents()).toEqual(['$60,000', '$63,000']);
    expect(await page.getByText('Replied').count()).toBeGreaterThan(0);
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `pay-information-clarified-${inject('engine')}-375`);
    await phone.context.close();
  }, 300_000);
});
