import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../api/test/server.js';
import { createAdmin, type TestPerson } from '../../api/src/identity/provider/testSupport.js';
import { CLIENT_ID, CLIENT_SECRET, type CompanyProvider, startCompanyProvider } from '../../api/src/identity/sso/test/provider.js';
import { TestTxtResolver } from '../../api/src/identity/domains/test/resolver.js';
import { type TestSmtp, startTestSmtp } from '../../api/src/identity/testMail.js';
import { expectNoSidewaysScroll, launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

// Its own server, and a second OpenID provider standing for BigCo's own.
describe('enterprise sign-in', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let company: CompanyProvider;
  let browser: Browser;
  let admin: TestPerson;
  let smtp: TestSmtp;
  const dns = new TestTxtResolver();

  beforeAll(async () => {
    process.env.PAYBENCH_SSO_ALLOW_PRIVATE_NETWORKS = 'true';
    smtp = await startTestSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url });
    server.deps.txtResolver = dns;
    company = await startCompanyProvider(`${server.url}/auth/sso/callback`);
    admin = await createAdmin(server.deps.db);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await company?.close();
    await server?.stop();
    await smtp?.stop();
    delete process.env.PAYBENCH_SSO_ALLOW_PRIVATE_NETWORKS;
  });

  it('an admin registers the company provider for bigco.test in settings', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, server.url, admin.email, admin.password);
    await page.goto(`${server.url}/settings`);
    await page.getByRole('link', { name: /Enterprise sign-in \(SSO\)/ }).click();
    await expect.poll(() => page.getByText('No provider yet').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.getByText(`${server.url}/auth/sso/callback`).first().isVisible()).toBe(true);

    const form = page.getByRole('form', { name: 'Add a sign-in provider' });
    await form.getByLabel('Issuer URL').fill(company.issuer);
    await form.getByLabel('Client ID').fill(CLIENT_ID);
    await form.getByLabel('Client secret').fill(CLIENT_SECRET);
    await form.getByLabel('E-mail domains').fill('gmail.com');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await expect
      .poll(() => page.getByText("gmail.com is a public e-mail service: anyone can have an address there, so it cannot be routed to your company's sign-in.").first().isVisible(), { timeout: 30_000 })
      .toBe(true);

    await form.getByLabel('E-mail domains').fill('BigCo.test');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const card = page.getByRole('article', { name: company.issuer });
    await expect.poll(() => card.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await card.getByText('bigco.test', { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText('On', { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText('Stored (never shown)').isVisible()).toBe(true);
    // The domain routes nobody until proven: publish the TXT record the screen shows, then Check now.
    const domain = page.locator('li[aria-label="bigco.test"]');
    await expect.poll(() => domain.getByTestId('domain-status').textContent(), { timeout: 30_000 }).toBe('Pending proof');
    const record = (await domain.locator('.sso-record').textContent()) ?? '';
    expect(record).toMatch(/^paybench-verification=/);
    dns.publish('bigco.test', record);
    await domain.getByRole('button', { name: 'Check now' }).click();
    await expect.poll(() => domain.getByTestId('domain-status').textContent(), { timeout: 30_000 }).toBe('Proven');
    expect(await domain.getByText('Proven by its DNS TXT record.', { exact: false }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'settings-sso-1280');
    await context.close();
  });

  it('an admin proves another domain on a phone by a link sent to an address there, which its reader confirms', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await signInThroughProvider(page, server.url, admin.email, admin.password);
    await page.goto(`${server.url}/settings`);
    await page.getByRole('link', { name: /Enterprise sign-in \(SSO\)/ }).click();
    const claimForm = page.getByRole('form', { name: 'Claim a domain' });
    await claimForm.getByLabel('Domain').fill('linkco.test');
    await claimForm.getByRole('button', { name: 'Claim domain' }).click();
    const domain = page.locator('li[aria-label="linkco.test"]');
    await expect.poll(() => domain.getByTestId('domain-status').textContent(), { timeout: 30_000 }).toBe('Pending proof');
    const sendForm = domain.getByRole('form', { name: 'Prove linkco.test by a link' });
    await sendForm.getByLabel('Or send a link to an address at linkco.test').fill('it');
    await expectNoSidewaysScroll(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'settings-domain-link-375');
    await sendForm.getByRole('button', { name: 'Send link' }).click();
    await page.getByText('We sent a link to it@linkco.test.', { exact: false }).waitFor();

    // The reader of it@linkco.test opens the link (no Paybench account needed) and confirms.
    await expect.poll(() => smtp.links('it@linkco.test', '/domain-proof/').length, { timeout: 30_000 }).toBe(1);
    const reader = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const mailbox = await reader.newPage();
    await mailbox.goto(smtp.links('it@linkco.test', '/domain-proof/')[0]!);
    await mailbox.getByRole('heading', { name: /controls linkco\.test/ }).waitFor();
    expect(await seriousViolations(mailbox)).toEqual([]);
    await mailbox.getByRole('button', { name: 'Confirm linkco.test' }).click();
    await mailbox.getByRole('heading', { name: 'linkco.test is proven' }).waitFor();
    await reader.close();

    await page.reload();
    await expect.poll(() => page.locator('li[aria-label="linkco.test"]').getByTestId('domain-status').textContent(), { timeout: 30_000 }).toBe('Proven');
    expect(await page.locator('li[aria-label="linkco.test"]').getByText('Proven by a link sent to an address at it.', { exact: false }).isVisible()).toBe(true);
    await context.close();
  });

  it('a bigco.test e-mail typed on the sign-in page goes to the company provider and ends on Home', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.waitForURL('**/interaction/**');
    await page.getByLabel('Email').fill('ana.lima@bigco.test');
    await page.getByRole('button', { name: 'Sign in' }).click();

    // BigCo's provider: its own login form, then its consent.
    await page.waitForURL(`${company.issuer}/**`);
    await page.locator('input[name="login"]').fill('ana');
    await page.locator('input[name="password"]').fill('her bigco password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    const consent = page.getByRole('button', { name: 'Continue' });
    const accept = page.getByRole('button', { name: 'I accept the terms of use' });
    await consent.or(accept).first().waitFor({ timeout: 30_000 });
    if (page.url().startsWith(company.issuer)) await consent.click();

    // Back in Paybench as a new employee of BigCo: the terms first, then Home.
    await accept.waitFor({ timeout: 30_000 });
    await accept.click();
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome, Ana' }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/home');
    await screenshot(page, 'sso-signed-in-home-375');
    await context.close();
  });

  it('an admin removes the provider through the alert dialog, keeping it first', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInThroughProvider(page, server.url, admin.email, admin.password);
    await page.goto(`${server.url}/settings/sso`);
    const card = page.getByRole('article', { name: company.issuer });
    await card.getByRole('button', { name: 'Remove', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Remove the sign-in provider ${company.issuer}?` });
    expect(await dialog.getByText('bigco.test will sign in with a password again.').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await card.isVisible()).toBe(true);

    await card.getByRole('button', { name: 'Remove', exact: true }).click();
    await dialog.getByRole('button', { name: 'Remove provider' }).click();
    await expect.poll(() => page.getByText('bigco.test sign in with a password again.').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => card.count()).toBe(0);
    await context.close();
  });
});
