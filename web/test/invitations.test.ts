import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type TestUser, bearer, createTestCompany, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { startTestServer } from '../../api/test/server.js';
import { createPerson } from '../../api/src/identity/provider/testSupport.js';
import { type TestSmtp, startTestSmtp } from '../../api/src/identity/testMail.js';
import { launchChromium, screenshot, seriousViolations, signInThroughProvider } from './browser.js';

// Its own server, sending e-mail over SMTP to a server the test reads.
describe('getting in by invitation and by resetting a forgotten password', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let smtp: TestSmtp;
  let browser: Browser;
  let admin: TestUser;
  const unique = Math.random().toString(36).slice(2, 8);

  beforeAll(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url });
    const company = await createTestCompany(await testDb(server.env), 'Invited Co');
    admin = company.users.admin as TestUser;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
  });

  async function linkTo(email: string, path: '/invitation/' | '/password-reset/'): Promise<string> {
    await expect.poll(() => smtp.links(email, path).length, { timeout: 20_000 }).toBeGreaterThan(0);
    const link = smtp.links(email, path).at(-1) as string;
    return `${server.url}${new URL(link).pathname}`;
  }

  async function expectHome(page: Page, firstName: string): Promise<void> {
    await expect.poll(() => page.getByRole('heading', { name: `Welcome, ${firstName}` }).isVisible(), { timeout: 30_000 }).toBe(true);
  }

  it('an invited person opens the e-mailed link, chooses a password and signs in', async () => {
    const email = `ines-${unique}@invited.test`;
    const created = await request('/api/users', { base: server.url, method: 'POST', headers: bearer(admin), json: { email, firstName: 'Ines', lastName: 'Invited', invite: true } });
    expect(created.status).toBe(201);

    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(await linkTo(email, '/invitation/'));
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome, Ines' }).isVisible()).toBe(true);
    expect(await page.getByText(`Your sign-in email is ${email}`).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.getByText('Use at least 12 characters.').isVisible()).toBe(true);
    await page.getByLabel('Password').fill('my invited passphrase');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.getByRole('heading', { name: "You're all set" }).isVisible()).toBe(true);
    await screenshot(page, `invitation-accepted-${inject('engine')}-375`);

    await signInThroughProvider(page, server.url, email, 'my invited passphrase');
    await expectHome(page, 'Ines');
    await context.close();
  });

  it('a person who forgot their password asks for a link on the sign-in page, sets a new one and signs in with it', async () => {
    const person = await createPerson(await testDb(server.env));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.waitForURL('**/interaction/**');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Forgot your password?' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('button', { name: 'Send link' }).click();
    await expect.poll(() => page.getByText('If an account exists for that e-mail, we sent a link.').isVisible()).toBe(true);
    await screenshot(page, `password-reset-requested-${inject('engine')}-1280`);

    await page.goto(await linkTo(person.email, '/password-reset/'));
    await expect.poll(() => page.getByRole('heading', { name: 'Choose a new password' }).isVisible()).toBe(true);
    await page.getByLabel('New password').fill('a freshly chosen passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Your password is changed' }).isVisible()).toBe(true);

    // The old password no longer signs in; the new one does.
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.waitForURL('**/interaction/**');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('Incorrect email or password.').isVisible()).toBe(true);

    await signInThroughProvider(page, server.url, person.email, 'a freshly chosen passphrase');
    await expectHome(page, person.firstName);
    await context.close();
  });
});
