import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ErrorBody, request } from '../../../test/http.js';
import { startTestServer } from '../../../test/server.js';
import { type TestSmtp, startTestSmtp } from '../testMail.js';
import { Browser, callbackUrl, discover, SCOPE, WEB_CLIENT } from './testSupport.js';

// Its own server with a real SMTP server: the verification e-mail travels over SMTP.
let server: Awaited<ReturnType<typeof startTestServer>>;
let smtp: TestSmtp;
let web: oidc.Configuration;

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startTestServer({ SMTP_URL: smtp.url });
  web = await discover(server.url, WEB_CLIENT);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

type Me = { data: { email: string; firstName: string; companyId: string | null; emailVerified: boolean } };
const me = (token: string) => request<Me>('/api/me', { base: server.url, headers: { Authorization: `Bearer ${token}` } });
const isCallback = (url: URL): boolean => url.href.startsWith(callbackUrl(server.url));

/** The app's /signup button: an authorization request with `screen_hint=signup` and the e-mail as a hint. */
async function openSignUp(browser: Browser, email: string) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(web, {
    redirect_uri: callbackUrl(server.url),
    scope: SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    login_hint: email,
    screen_hint: 'signup',
  });
  return { page: await browser.visit(url), verifier, state };
}

describe('signing up and proving the e-mail address', () => {
  const email = `newcomer-${Math.random().toString(36).slice(2, 8)}@startup.test`;
  let token = '';

  it('opens the sign-up page straight away, with the e-mail filled in', async () => {
    const { page } = await openSignUp(new Browser(server.url), email);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<h1>Create your account</h1>');
    expect(page.html).toContain(`value="${email}"`);
  });

  it('creates the account unverified and e-mails a link that verifies it and leads on to /create-account', async () => {
    const browser = new Browser(server.url);
    const { page, verifier, state } = await openSignUp(browser, email);
    const sent = await browser.visit(`${page.url.pathname}/signup`, { form: { email, firstName: 'Nia', lastName: 'Okafor', password: 'a long enough passphrase' } }, isCallback);
    expect(sent.response.status).toBe(200);
    expect(sent.html).toContain('<h1>Check your email</h1>');
    // Signing up does not sign in (a taken address gets this same page): the person signs in with the password they chose.
    const done = await browser.visit(`${page.url.pathname}/login`, { form: { email, password: 'a long enough passphrase' } }, isCallback);
    expect(isCallback(done.url)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(web, done.url, { pkceCodeVerifier: verifier, expectedState: state });
    token = tokens.access_token;
    expect((await me(token)).body.data).toMatchObject({ email, firstName: 'Nia', companyId: null, emailVerified: false });

    await expect.poll(() => smtp.links(email, '/verify-email/').length, { timeout: 15_000 }).toBe(1);
    const mail = smtp.to(email)[0]?.text ?? '';
    expect(mail).toContain('Subject: Confirm your e-mail address for Paybench');

    // Lost it? The /unverified screen asks for another.
    const again = await request<{ data: { sentTo: string; expiresAt: string } }>('/api/me/email-verification', { base: server.url, method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    expect(again.status).toBe(202);
    expect(again.body.data.sentTo).toBe(email);
    await expect.poll(() => smtp.links(email, '/verify-email/').length, { timeout: 15_000 }).toBe(2);
    const link = smtp.links(email, '/verify-email/')[1] ?? '';
    expect(link.startsWith(`${server.url}/verify-email/`)).toBe(true);

    const opened = await new Browser(server.url).request(link);
    expect(opened.response.status).toBe(200);
    expect(opened.html).toContain('<h1>Your e-mail is verified</h1>');
    expect(opened.html).toContain(`href="${server.url}/create-account"`);
    expect((await me(token)).body.data.emailVerified).toBe(true);
  });

  it('refuses a link whose secret was changed', async () => {
    const link = smtp.links(email, '/verify-email/')[0] ?? '';
    const tampered = `${link.slice(0, -6)}${link.slice(-6).split('').reverse().join('')}`;
    const opened = await new Browser(server.url).request(tampered);
    expect(opened.response.status).toBe(410);
    expect(opened.html).toContain('This link has expired');
  });

  it('sends another link only while the address is unverified', async () => {
    const again = await request<ErrorBody>('/api/me/email-verification', { base: server.url, method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_verified', message: `${email} is already verified.` });
  });
});
