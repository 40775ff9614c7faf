import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAdmin } from '../../api/src/identity/provider/testSupport.js';
import { testDb } from '../../api/test/factories.js';
import { demoPassword, launchChromium, seriousViolations, signInThroughProvider } from './browser.js';
import { signedIn } from './companySetup.js';

/*
 * The spec's remote override of the error screen (§4): support sets the words for a company on the
 * internal screen; a page of that company's admin that fails to render (the server answered
 * something the screen cannot read) shows them instead of the error's own; cleared, the error's
 * own words are back.
 */
describe('the error screen’s text set by support, in a real browser', () => {
  let browser: Browser;
  let admin: Awaited<ReturnType<typeof createAdmin>>;
  let companyName: string;

  beforeAll(async () => {
    const db = await testDb();
    admin = await createAdmin(db);
    companyName = (await db('companies').where({ id: admin.companyId }).first<{ name: string }>()).name;
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('support sets it, a failing page of the company shows it, support clears it', async () => {
    const base = inject('baseUrl');
    const supportContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const support = await supportContext.newPage();
    support.setDefaultTimeout(60_000);
    await signInThroughProvider(support, base, 'support@paybench.test', demoPassword(inject('serverEnv')));
    await support.getByRole('link', { name: 'Internal' }).click();
    await support.getByLabel('Search by name or key').fill(companyName);
    await support.getByRole('button', { name: new RegExp(companyName) }).click();
    await support.getByLabel('Error screen title').fill('We are fixing an outage');
    await support.getByLabel('Error screen description').fill('Pay figures are back within the hour. Nothing you saved is lost.');
    await support.getByRole('button', { name: 'Set error screen text' }).click();
    await support.getByText('error screen now says “We are fixing an outage”').first().waitFor();
    expect(await seriousViolations(support)).toEqual([]);

    const { context, page } = await signedIn(browser, admin, admin.password);
    // A broken answer: the compensation types screen cannot render it.
    await page.route('**/api/company/comp-types', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"data":{}}' }));
    await page.goto(`${base}/settings/comp-types`);
    await page.getByRole('heading', { name: 'We are fixing an outage' }).waitFor();
    expect(await page.getByText('Pay figures are back within the hour. Nothing you saved is lost.').count()).toBe(1);

    await support.getByRole('button', { name: 'Clear error screen text' }).click();
    await support.getByText('shows each error').first().waitFor();
    // A new visit reads the company again: the error's own words.
    const fresh = await context.newPage();
    await fresh.route('**/api/company/comp-types', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"data":{}}' }));
    await fresh.goto(`${base}/settings/comp-types`);
    await fresh.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await fresh.getByText('We are fixing an outage').count()).toBe(0);
    await context.close();
    await supportContext.close();
  }, 240_000);
});
