import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { seedBuiltinRoles } from '../../api/src/access/builtinRoles.js';
import { createPerson } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { demoPassword, launchChromium, screenshotsAtBothWidths, seriousViolations, signInThroughProvider } from './browser.js';

const SUPPORT = 'support@paybench.test';

describe('premium benchmarking in a real browser', () => {
  let browser: Browser;
  let buyer: Awaited<ReturnType<typeof createPerson>>;
  let companyName: string;
  const base = () => inject('baseUrl');
  const engine = inject('engine');

  beforeAll(async () => {
    const db = await testDb();
    buyer = await createPerson(db);
    const existing = await db('roles').where({ company_id: buyer.companyId, key: 'admin' }).first<{ id: string } | undefined>();
    const adminRoleId = existing?.id ?? (await seedBuiltinRoles(db, buyer.companyId)).get('admin') ?? '';
    await replaceUserRoles(db, { companyId: buyer.companyId }, buyer.id, [adminRoleId]);
    await db('users').where({ id: buyer.id }).update({ terms_accepted_at: new Date().toISOString() });
    companyName = (await db('companies').where({ id: buyer.companyId }).first<{ name: string }>()).name;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('an admin requests an invoice and is told what happens; support marks it fulfilled and premium is on', async () => {
    const customer = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await customer.newPage();
    await signInThroughProvider(page, base(), buyer.email, buyer.password);
    await page.goto(`${base()}/benchmarkingsurvey/premium`);
    const form = page.getByRole('form', { name: 'Get premium benchmarking' });
    await form.waitFor({ timeout: 30_000 });
    await form.getByRole('radio', { name: /Monthly/ }).check();
    await form.getByRole('button', { name: 'Request an invoice' }).click();

    const confirmation = page.getByRole('status').filter({ hasText: 'Premium benchmarking requested' });
    await confirmation.waitFor({ timeout: 30_000 });
    expect(await confirmation.textContent()).toContain(`We have recorded your request; Paybench will send an invoice to ${buyer.email}.`);
    const reference = /Reference (PB-[0-9A-F]{8})/.exec((await confirmation.textContent()) ?? '')?.[1];
    expect(reference).toBeDefined();
    expect(await page.getByRole('button', { name: 'Request an invoice' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshotsAtBothWidths(page, `premium-requested-${engine}`);

    // Paybench staff see the request with who asked, and mark it fulfilled once paid.
    const staff = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const internal = await staff.newPage();
    await signInThroughProvider(internal, base(), SUPPORT, demoPassword(inject('serverEnv')));
    await internal.getByRole('link', { name: 'Internal' }).click();
    const table = internal.getByRole('table', { name: 'Invoice requests for premium benchmarking' });
    const row = table.getByRole('row').filter({ hasText: reference ?? 'no reference' });
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain(companyName);
    expect(await row.textContent()).toContain('Premium benchmarking, billed monthly');
    expect(await row.textContent()).toContain(buyer.email);
    await row.getByRole('button', { name: `Mark ${reference} fulfilled` }).click();
    await internal.getByText(`Premium benchmarking is now on for ${companyName}.`).waitFor();
    await expect.poll(async () => row.textContent()).toContain('Fulfilled');
    await staff.close();

    await page.reload();
    await page.getByRole('heading', { name: 'Your company has premium benchmarking' }).waitFor({ timeout: 30_000 });
    await customer.close();
  });
});
