import { createHash } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, importJWK, type JWK, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/server.js';
import { secretsKey } from '../../kernel/secrets.js';
import { createIdentityProvider } from './index.js';
import { loadSigningKeys } from './keys.js';
import {
  Browser,
  callbackUrl,
  createPerson,
  discover,
  hiddenValue,
  signInWithCode,
  type TestPerson,
  WEB_CLIENT,
} from './testSupport.js';
import { type IdentityProvider, TokenRefused } from '../../access/identityProvider.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

let server: Server;
let web: oidc.Configuration;
let person: TestPerson;

beforeAll(async () => {
  server = await startTestServer();
  web = await discover(server.url, WEB_CLIENT);
  person = await createPerson(server.deps.db);
});
afterAll(() => server?.stop());

async function refused(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return error instanceof oidc.ResponseBodyError ? error.error : String(error);
  }
  throw new Error('expected the token endpoint to refuse');
}

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TokenRefused) return error.reason;
    throw error;
  }
  throw new Error('expected the token to be refused');
}

describe('sign-in with authorization code and PKCE', () => {
  it('signs in through the sign-in form and issues a JWT access token for the API', async () => {
    const browser = new Browser(server.url);
    const tokens = await signInWithCode(browser, web, server.url, person);

    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toBeTruthy();
    const claims = tokens.claims();
    expect(claims).toMatchObject({ sub: person.id, email: person.email, email_verified: true, given_name: person.firstName, family_name: person.lastName });

    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ typ: 'at+jwt', alg: 'RS256' });
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      iss: server.url,
      aud: `${server.url}/api`,
      sub: person.id,
      client_id: WEB_CLIENT,
      email: person.email,
    });
  });

  it('renders an accessible sign-in page', async () => {
    const browser = new Browser(server.url);
    const url = oidc.buildAuthorizationUrl(web, {
      redirect_uri: callbackUrl(server.url),
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const page = await browser.visit(url);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain('<label for="field-email">Email</label>');
    expect(page.html).toContain('<label for="field-password">Password</label>');
    expect(page.html).not.toContain('<script');
    expect(page.response.headers.get('content-security-policy')).toContain("form-action 'self'");
  });

  it('refuses an authorization request without PKCE', async () => {
    const browser = new Browser(server.url);
    const url = oidc.buildAuthorizationUrl(web, { redirect_uri: callbackUrl(server.url), scope: 'openid', state: 'no-pkce' });
    const visit = await browser.visit(url, {}, (next) => next.href.startsWith(callbackUrl(server.url)));
    expect(visit.url.href.startsWith(callbackUrl(server.url))).toBe(true);
    expect(visit.url.searchParams.get('error')).toBe('invalid_request');
    expect(visit.url.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(visit.url.searchParams.get('code')).toBeNull();
  });

  it('refuses a redirect URI that is not registered', async () => {
    const browser = new Browser(server.url);
    const url = oidc.buildAuthorizationUrl(web, {
      redirect_uri: 'https://attacker.example/callback',
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const visit = await browser.visit(url);
    expect(visit.response.status).toBe(400);
    expect(visit.html).toContain('redirect_uri');
  });
});

describe('refresh tokens', () => {
  it('rotates on every use; reusing an old one fails and revokes the whole grant', async () => {
    const tokens = await signInWithCode(new Browser(server.url), web, server.url, person);
    const first = tokens.refresh_token ?? '';

    const second = await oidc.refreshTokenGrant(web, first);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first);
    expect(decodeJwt(second.access_token).sub).toBe(person.id);

    expect(await refused(oidc.refreshTokenGrant(web, first))).toBe('invalid_grant');
    // The reuse looked like theft, so the newest token went with the grant.
    expect(await refused(oidc.refreshTokenGrant(web, second.refresh_token ?? ''))).toBe('invalid_grant');
  });

  it('can be revoked at the revocation endpoint', async () => {
    const tokens = await signInWithCode(new Browser(server.url), web, server.url, person);
    await oidc.tokenRevocation(web, tokens.refresh_token ?? '');
    expect(await refused(oidc.refreshTokenGrant(web, tokens.refresh_token ?? ''))).toBe('invalid_grant');
  });
});

describe('logout', () => {
  it('ends the session at /v2/logout, returns to the app and ends the web refresh token', async () => {
    const browser = new Browser(server.url);
    const tokens = await signInWithCode(browser, web, server.url, person);
    const logoutUrl = oidc.buildEndSessionUrl(web, {
      id_token_hint: tokens.id_token ?? '',
      post_logout_redirect_uri: `${server.url}/logout`,
      state: 'bye',
    });
    expect(logoutUrl.pathname).toBe('/v2/logout');

    // The app's own sign-out (its ID token names the person signed in here): no question, the form goes by itself.
    const confirm = await browser.visit(logoutUrl);
    expect(confirm.response.status).toBe(200);
    expect(confirm.html).not.toContain('Sign out of Paybench?');
    expect(confirm.html).toContain('<h1>Signing you out…</h1>');
    expect(confirm.html).toContain('<input type="hidden" name="logout" value="yes">');
    const script = /<script>([^<]*)<\/script>/.exec(confirm.html)?.[1] ?? '';
    expect(script).toBe('document.forms[0].submit();');
    // The policy lets exactly that script run: its SHA-256, computed here independently.
    const digest = createHash('sha256').update(script).digest('base64');
    expect(confirm.response.headers.get('content-security-policy')).toContain(`'sha256-${digest}'`);
    const done = await browser.visit('/v2/logout/confirm', { form: { xsrf: hiddenValue(confirm.html, 'xsrf'), logout: 'yes' } }, (next) =>
      next.pathname === '/logout',
    );
    expect(done.url.href).toBe(`${server.url}/logout?state=bye`);

    expect(await refused(oidc.refreshTokenGrant(web, tokens.refresh_token ?? ''))).toBe('invalid_grant');
    // The browser is signed out: a new authorization request asks for a password again.
    const again = await browser.visit(
      oidc.buildAuthorizationUrl(web, {
        redirect_uri: callbackUrl(server.url),
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      }),
    );
    expect(again.url.pathname).toMatch(/^\/interaction\//);
    expect(again.html).toContain('field-password');
  });
});

describe('the provider’s sign-out and pages', () => {
  it('asks before signing out when the request does not come from the app with this person’s ID token', async () => {
    const browser = new Browser(server.url);
    await signInWithCode(browser, web, server.url, person);
    const asked = await browser.visit('/v2/logout');
    expect(asked.response.status).toBe(200);
    expect(asked.html).toContain('Sign out of Paybench?');
    expect(asked.response.headers.get('content-security-policy')).not.toContain('sha256-');
  });

  it('takes the sign-out by form post too, and sends a reopened confirmation to the app’s sign-out', async () => {
    const browser = new Browser(server.url);
    const tokens = await signInWithCode(browser, web, server.url, person);
    const posted = await browser.visit('/v2/logout', { form: { id_token_hint: tokens.id_token ?? '', post_logout_redirect_uri: `${server.url}/logout` } });
    expect(posted.url.pathname).toBe('/v2/logout');
    expect(posted.response.status).toBe(200);
    expect(posted.html).toContain('<h1>Signing you out…</h1>');
    const reopened = await fetch(`${server.url}/v2/logout/confirm`, { redirect: 'manual' });
    expect(reopened.status).toBe(302);
    expect(reopened.headers.get('location')).toBe('/logout');
  });

  it('wears the app’s mark, font and colours, and /favicon.ico answers the app’s icon', async () => {
    const page = await new Browser(server.url).visit('/v2/logout/success');
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    // The mark of web/public/favicon.svg: the accent tile and its three bars.
    for (const part of ['<rect width="64" height="64" rx="14" fill="#3b5bdb"/>', '<rect x="42" y="14" width="8" height="36" rx="2" fill="#ffffff"/>']) expect(page.html).toContain(part);
    expect(page.html).toContain('color:#1f2a44;background:#f4f6fa');
    const font = /src:url\((\/assets\/inter-latin-400-normal-[^)]+\.woff2)\)/.exec(page.html)?.[1];
    expect(font).toBeDefined();
    const fontFile = await fetch(`${server.url}${font}`);
    expect(fontFile.status).toBe(200);
    expect(new Uint8Array(await fontFile.arrayBuffer()).slice(0, 4)).toEqual(new Uint8Array([0x77, 0x4f, 0x46, 0x32])); // "wOF2"

    const icon = await fetch(`${server.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    const bytes = new Uint8Array(await icon.arrayBuffer());
    // An ICO header (reserved 0, type 1, one image) whose image is the app's 192 px PNG icon.
    expect([...bytes.slice(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    const png = await (await fetch(`${server.url}/icons/icon-192.png`)).arrayBuffer();
    expect(Buffer.from(bytes.slice(22)).equals(Buffer.from(png))).toBe(true);
  });
});

describe('verifyAccessToken', () => {
  let identity: IdentityProvider;
  let privateKey: JWK;

  beforeAll(async () => {
    identity = await createIdentityProvider(server.deps);
    const stored = await loadSigningKeys(server.deps.db, secretsKey(server.deps.config.dataDir));
    const rsa = stored.keys.find((key) => key.alg === 'RS256');
    if (!rsa) throw new Error('no RS256 key stored');
    privateKey = rsa;
  });

  async function signed(claims: Record<string, unknown>, expiresIn: string | number = '5m'): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: privateKey.kid })
      .setIssuer(server.url)
      .setSubject(person.id)
      .setIssuedAt()
      .setExpirationTime(expiresIn)
      .sign(await importJWK(privateKey, 'RS256'));
  }

  it('accepts a fresh access token', async () => {
    expect(identity.kind).toBe('builtin');
    expect(identity.issuer).toBe(server.url);
    const tokens = await signInWithCode(new Browser(server.url), web, server.url, person);
    const verified = await identity.verifyAccessToken(tokens.access_token);
    expect(verified.subject).toBe(person.id);
    expect(verified.email).toBe(person.email);
    expect(verified.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(verified.issuedAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it('refuses a tampered token, an ID token, another audience, an expired token and garbage', async () => {
    const tokens = await signInWithCode(new Browser(server.url), web, server.url, person);
    const [header, payload, signature] = tokens.access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    expect(await reasonOf(identity.verifyAccessToken(`${header}.${forged}.${signature}`))).toBe('invalid');

    expect(await reasonOf(identity.verifyAccessToken(tokens.id_token ?? ''))).toBe('invalid');
    expect(await reasonOf(identity.verifyAccessToken(await signed({ aud: 'https://elsewhere.example/api' })))).toBe('invalid');
    expect(await reasonOf(identity.verifyAccessToken(await signed({ aud: `${server.url}/api` }, Math.floor(Date.now() / 1000) - 120)))).toBe('expired');
    // Within the 60-second leeway the token still counts.
    const justExpired = await signed({ aud: `${server.url}/api` }, Math.floor(Date.now() / 1000) - 10);
    expect((await identity.verifyAccessToken(justExpired)).subject).toBe(person.id);
    expect(await reasonOf(identity.verifyAccessToken('not.a.token'))).toBe('invalid');
    expect(await reasonOf(identity.verifyAccessToken(''))).toBe('missing_token');
  });
});

describe('routing', () => {
  it('serves discovery and keys at the hosted-provider paths and leaves other paths to the app', async () => {
    const discovery = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      end_session_endpoint: `${server.url}/v2/logout`,
      device_authorization_endpoint: `${server.url}/oauth/device/code`,
      jwks_uri: `${server.url}/.well-known/jwks.json`,
      userinfo_endpoint: `${server.url}/userinfo`,
      revocation_endpoint: `${server.url}/oauth/revoke`,
    });
    const jwks = (await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
    expect(jwks.keys.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(jwks.keys.some((key) => 'd' in key)).toBe(false);

    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    const unknown = await fetch(`${server.url}/oauth/nothing-here`, { headers: { accept: 'application/json' } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('json');
  });

  it('keeps the same signing keys across restarts of the provider', async () => {
    const again = await createIdentityProvider(server.deps);
    const tokens = await signInWithCode(new Browser(server.url), web, server.url, person);
    expect((await again.verifyAccessToken(tokens.access_token)).subject).toBe(person.id);
  });
});
