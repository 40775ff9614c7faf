import { decodeJwt } from 'jose';
import type { Context } from 'koa';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/server.js';
import { createIdentityProvider } from './index.js';
import { Browser, CLI_CLIENT, createPerson, discover, hiddenValue, SCOPE, signInWithCode, type TestPerson, WEB_CLIENT } from './testSupport.js';
import { TokenRefused } from '../../access/identityProvider.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

let server: Server;
let cli: oidc.Configuration;
let person: TestPerson;

beforeAll(async () => {
  server = await startTestServer();
  cli = await discover(server.url, CLI_CLIENT);
  person = await createPerson(server.deps.db);
});
afterAll(() => server?.stop());

/** A browser that is already signed in to Paybench, as a person at their desk would be. */
async function signedInBrowser(): Promise<Browser> {
  const browser = new Browser(server.url);
  await signInWithCode(browser, await discover(server.url, WEB_CLIENT), server.url, person);
  return browser;
}

/** Enters the code at /oauth/device and confirms it; returns the page that follows (consent, or an error). */
async function enterCode(browser: Browser, userCode: string): Promise<Awaited<ReturnType<Browser['visit']>>> {
  const entry = await browser.visit('/oauth/device');
  expect(entry.response.status).toBe(200);
  expect(entry.html).toContain('<label for="field-user_code">Code</label>');
  const confirm = await browser.visit('/oauth/device', { form: { xsrf: hiddenValue(entry.html, 'xsrf'), user_code: userCode } });
  expect(confirm.response.status).toBe(200);
  expect(confirm.html).toContain(userCode);
  return browser.visit('/oauth/device', {
    form: { xsrf: hiddenValue(confirm.html, 'xsrf'), user_code: hiddenValue(confirm.html, 'user_code'), confirm: hiddenValue(confirm.html, 'confirm') },
  });
}

describe('device authorization grant for the CLI', () => {
  it('signs the CLI in after the person approves it explicitly in a signed-in browser', async () => {
    const started = await oidc.initiateDeviceAuthorization(cli, { scope: SCOPE });
    expect(started.verification_uri).toBe(`${server.url}/oauth/device`);
    expect(started.user_code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);

    const browser = await signedInBrowser();
    const consent = await enterCode(browser, started.user_code);
    expect(consent.url.pathname).toMatch(/^\/interaction\/[^/]+$/);
    expect(consent.html).toContain('Allow Paybench CLI?');
    expect(consent.html).toContain(`Signed in as ${person.email}`);

    const done = await browser.visit(`${consent.url.pathname}/consent`, { form: { decision: 'allow' } });
    expect(done.response.status).toBe(200);
    expect(done.url.pathname).toMatch(/^\/oauth\/device\//);
    expect(done.html).toContain('Paybench CLI is now signed in');

    const tokens = await oidc.pollDeviceAuthorizationGrant(cli, started);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.claims()?.sub).toBe(person.id);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: `${server.url}/api`, sub: person.id, client_id: CLI_CLIENT });

    const refreshed = await oidc.refreshTokenGrant(cli, tokens.refresh_token ?? '');
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  });

  it('reports a denial to the CLI', async () => {
    const started = await oidc.initiateDeviceAuthorization(cli, { scope: SCOPE });
    const browser = await signedInBrowser();
    const consent = await enterCode(browser, started.user_code);
    const denied = await browser.visit(`${consent.url.pathname}/consent`, { form: { decision: 'deny' } });
    expect(denied.html).toContain('Sign-in was cancelled');
    await expect(oidc.pollDeviceAuthorizationGrant(cli, started)).rejects.toMatchObject({ error: 'access_denied' });
  });

  it('asks a signed-out person to sign in before approving', async () => {
    const started = await oidc.initiateDeviceAuthorization(cli, { scope: SCOPE });
    const browser = new Browser(server.url);
    const signIn = await enterCode(browser, started.user_code);
    expect(signIn.html).toContain('field-password');
    const consent = await browser.visit(`${signIn.url.pathname}/login`, { form: { email: person.email, password: person.password } });
    expect(consent.html).toContain('Allow Paybench CLI?');
  });

  it('says so when the code is wrong', async () => {
    const browser = new Browser(server.url);
    const entry = await browser.visit('/oauth/device');
    const wrong = await browser.visit('/oauth/device', { form: { xsrf: hiddenValue(entry.html, 'xsrf'), user_code: 'BCDF-GHJK' } });
    expect(wrong.html).toContain('role="alert"');
    expect(wrong.html).toContain('That code is not right');
  });
});

describe('an external issuer', () => {
  // This server stands in for a hosted provider: its discovery document and JWKS are real.
  const externalEnv = (): NodeJS.ProcessEnv => ({ OIDC_ISSUER_URL: server.url, OIDC_AUDIENCE: `${server.url}/api` });

  it('verifies access tokens by the issuer JWKS and mounts nothing', async () => {
    const external = await createIdentityProvider(server.deps, externalEnv());
    expect(external.kind).toBe('external');
    expect(external.issuer).toBe(server.url);

    let passedOn = false;
    await external.middleware({ path: '/authorize' } as Context, async () => {
      passedOn = true;
    });
    expect(passedOn).toBe(true);

    const tokens = await signInWithCode(new Browser(server.url), await discover(server.url, WEB_CLIENT), server.url, person);
    const verified = await external.verifyAccessToken(tokens.access_token);
    expect(verified.subject).toBe(person.id);
  });

  it('refuses tokens meant for another audience', async () => {
    const elsewhere = await createIdentityProvider(server.deps, { OIDC_ISSUER_URL: server.url, OIDC_AUDIENCE: 'https://other.example/api' });
    const tokens = await signInWithCode(new Browser(server.url), await discover(server.url, WEB_CLIENT), server.url, person);
    await expect(elsewhere.verifyAccessToken(tokens.access_token)).rejects.toEqual(new TokenRefused('invalid'));
  });

  it('needs both settings', async () => {
    await expect(createIdentityProvider(server.deps, { OIDC_ISSUER_URL: server.url })).rejects.toThrow(/OIDC_AUDIENCE/);
  });
});
