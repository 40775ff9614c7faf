import type { Knex } from 'knex';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import { startTestServer } from '../../../test/server.js';
import { Browser, callbackUrl, discover, startSignIn, type Visit, WEB_CLIENT } from '../provider/testSupport.js';
import { TestTxtResolver } from '../domains/test/resolver.js';
import { CLIENT_ID, CLIENT_SECRET, type CompanyProvider, startCompanyProvider } from './test/provider.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;
type Domain = { id: string; domain: string; status: string; proof: string | null; txtRecord: { host: string; value: string } | null; lastCheck: { result: string } | null; ssoConnectionId: string | null };
type Connection = { id: string; issuerUrl: string; clientId: string; clientSecretSet: boolean; domains: string[]; enabled: boolean; callbackUrl: string; version: number };

/** Follows redirects across both providers until a page renders or `stop` says the destination is reached. */
async function follow(browser: Browser, from: Visit, stop: (url: URL) => boolean = () => false): Promise<Visit> {
  let visit = from;
  for (let hops = 0; hops < 20; hops++) {
    const location = visit.response.headers.get('location');
    if (visit.response.status < 300 || visit.response.status >= 400 || !location) return visit;
    const next = new URL(location, visit.url);
    if (stop(next)) return { ...visit, url: next };
    visit = await browser.request(next);
  }
  throw new Error('too many redirects');
}

/**
 * Where the page after a sent form moves on to by itself (a refresh, since the form policy keeps
 * redirects on Paybench), checked to be the same as its Continue link.
 */
function onwardTo(page: Visit): string {
  expect(page.response.status).toBe(200);
  expect(page.html).toContain("<h1>Continuing to your company's sign-in</h1>");
  const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(page.html)?.[1];
  const link = /<a class="button primary" href="([^"]+)">Continue<\/a>/.exec(page.html)?.[1];
  expect(refresh).toBeDefined();
  expect(link).toBe(refresh);
  return (refresh ?? '').replace(/&amp;/g, '&');
}

/** Submits the page's form with its hidden fields plus `fields`, and follows where it leads. */
async function submit(browser: Browser, page: Visit, fields: Record<string, string>, stop?: (url: URL) => boolean): Promise<Visit> {
  const action = /<form[^>]*action="([^"]+)"/.exec(page.html)?.[1];
  if (!action) throw new Error(`no form on ${page.url.href}:\n${page.html.slice(0, 1500)}`);
  const hidden: Record<string, string> = {};
  for (const input of page.html.match(/<input[^>]*type="hidden"[^>]*>/g) ?? []) {
    const name = /name="([^"]+)"/.exec(input)?.[1];
    if (name) hidden[name] = /value="([^"]*)"/.exec(input)?.[1] ?? '';
  }
  const target = new URL(action.replace(/&amp;/g, '&'), page.url);
  return follow(browser, await browser.request(target, { form: { ...hidden, ...fields } }), stop);
}

/** How many rows a query matches (Postgres counts as text, SQLite as a number). */
async function countOf(query: Knex.QueryBuilder): Promise<number> {
  const [row] = (await query.count({ n: '*' })) as { n: number | string }[];
  return Number(row?.n ?? 0);
}

let server: Server;
let company: CompanyProvider;
let db: Knex;
let bigco: TestCompany;
let other: TestCompany;
let web: oidc.Configuration;
let connection: Connection;
const dns = new TestTxtResolver();

beforeAll(async () => {
  process.env.PAYBENCH_SSO_ALLOW_PRIVATE_NETWORKS = 'true';
  server = await startTestServer();
  db = server.deps.db;
  // The server's DNS for domain proofs: an in-process zone this file publishes records in.
  server.deps.txtResolver = dns;
  company = await startCompanyProvider(`${server.url}/auth/sso/callback`);
  web = await discover(server.url, WEB_CLIENT);
  bigco = await createTestCompany(db, 'BigCo');
  other = await createTestCompany(db, 'Other Co');
});

afterAll(async () => {
  await company?.close();
  await server?.stop();
  delete process.env.PAYBENCH_SSO_ALLOW_PRIVATE_NETWORKS;
});

const admin = (of: TestCompany) => bearer(of.users.admin ?? { token: '' });
type MigrationCheck = { data: { provider: string; action: string; issuer: string } };
const migrationCheck = (email: string) => request<MigrationCheck>('/api/auth/authn-migration-check', { method: 'POST', json: { email }, base: server.url });
const domainsOf = async (of: TestCompany) => (await request<{ data: Domain[] }>('/api/company/domains', { base: server.url, headers: admin(of) })).body.data;
const checkNow = (of: TestCompany, id: string) => request<{ data: Domain }>(`/api/company/domains/${id}/check`, { base: server.url, method: 'POST', headers: admin(of) });

describe('registering a company provider', () => {
  it('reads the discovery document, keeps the secret sealed and answers with the redirect URI to register', async () => {
    const reply = await request<{ data: Connection }>('/api/company/sso-connections', {
      base: server.url,
      method: 'POST',
      headers: admin(bigco),
      json: { issuerUrl: company.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, domains: ['@BigCo.test'] },
    });
    expect(reply.status).toBe(201);
    connection = reply.body.data;
    expect(connection).toMatchObject({
      issuerUrl: company.issuer,
      clientId: CLIENT_ID,
      clientSecretSet: true,
      domains: ['bigco.test'],
      enabled: true,
      callbackUrl: `${server.url}/auth/sso/callback`,
      version: 1,
    });
    expect(JSON.stringify(reply.body)).not.toContain(CLIENT_SECRET);
    const stored = await db('sso_connections').where({ id: connection.id }).first<{ client_secret_sealed: string }>();
    expect(stored.client_secret_sealed.startsWith('v1:')).toBe(true);
    expect(stored.client_secret_sealed).not.toContain(CLIENT_SECRET);

    const list = await request<{ data: Connection[] }>('/api/company/sso-connections', { base: server.url, headers: admin(bigco) });
    expect(list.body.data.map((entry) => entry.id)).toEqual([connection.id]);
  });

  it('routes nobody until the company proves the domain with its TXT record ("Check now")', async () => {
    const [claim] = await domainsOf(bigco);
    expect(claim).toMatchObject({ domain: 'bigco.test', status: 'pending', proof: null, ssoConnectionId: connection.id, lastCheck: null });
    expect(claim?.txtRecord?.host).toBe('bigco.test');
    // paybench-verification= and 24 random bytes in base64url (32 characters).
    expect(claim?.txtRecord?.value).toMatch(/^paybench-verification=[A-Za-z0-9_-]{32}$/);
    expect((await migrationCheck('before.proof@bigco.test')).body.data).toMatchObject({ provider: 'builtin', action: 'sign_up' });

    // Another company's record, or none, proves nothing.
    dns.publish('bigco.test', 'paybench-verification=someone-elses-token');
    const early = await checkNow(bigco, claim?.id ?? '');
    expect(early.body.data).toMatchObject({ status: 'pending', lastCheck: { result: `No TXT record "${claim?.txtRecord?.value}" was found at bigco.test yet. DNS changes can take up to an hour to appear.` } });

    dns.publish('bigco.test', claim?.txtRecord?.value ?? '');
    const proven = await checkNow(bigco, claim?.id ?? '');
    expect(proven.status).toBe(200);
    expect(proven.body.data, JSON.stringify(proven.body.data.lastCheck)).toMatchObject({ status: 'proven', proof: 'dns', txtRecord: null });
    expect((await migrationCheck('after.proof@bigco.test')).body.data).toMatchObject({ provider: 'enterprise', action: 'sign_in' });
  });

  it('refuses a domain another company registered, naming it', async () => {
    const reply = await request<ErrorBody>('/api/company/sso-connections', {
      base: server.url,
      method: 'POST',
      headers: admin(other),
      json: { issuerUrl: company.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, domains: ['other.test', 'bigco.test'] },
    });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ code: 'domain_taken', title: 'Something went wrong', message: "bigco.test is already proven by another company. If it is your company's domain, contact Paybench support to settle it." });
    expect(await countOf(db('sso_connections').where({ company_id: other.id }))).toBe(0);
  });

  it('refuses a provider that does not answer, in words', async () => {
    const reply = await request<ErrorBody>('/api/company/sso-connections', {
      base: server.url,
      method: 'POST',
      headers: admin(other),
      json: { issuerUrl: 'http://127.0.0.1:9', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, domains: ['other.test'] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('provider_unreachable');
    expect(reply.body.message).toBe('We could not reach your sign-in provider: 127.0.0.1:9 could not be reached. Check the issuer URL and that the provider is online, then try again.');
  });

  it('refuses a public e-mail service as a domain', async () => {
    const reply = await request<ErrorBody>('/api/company/sso-connections', {
      base: server.url,
      method: 'POST',
      headers: admin(other),
      json: { issuerUrl: company.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, domains: ['gmail.com'] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("gmail.com is a public e-mail service: anyone can have an address there, so it cannot be routed to your company's sign-in.");
  });

  it("answers 404 for another company's connection id, and changes nothing", async () => {
    const path = `/api/company/sso-connections/${connection.id}`;
    expect((await request<ErrorBody>(path, { base: server.url, headers: admin(other) })).status).toBe(404);
    const patch = await request<ErrorBody>(path, { base: server.url, method: 'PATCH', headers: { ...admin(other), 'If-Match': '"1"' }, json: { enabled: false } });
    expect(patch.status).toBe(404);
    expect((await request<ErrorBody>(path, { base: server.url, method: 'DELETE', headers: admin(other) })).status).toBe(404);
    const mine = await request<{ data: Connection }>(path, { base: server.url, headers: admin(bigco) });
    expect(mine.body.data).toMatchObject({ enabled: true, version: 1, domains: ['bigco.test'] });
  });

  it('needs companySettings edit to register one', async () => {
    const reply = await request<ErrorBody>('/api/company/sso-connections', {
      base: server.url,
      method: 'POST',
      headers: bearer(bigco.users.employee ?? { token: '' }),
      json: { issuerUrl: company.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, domains: ['bigco2.test'] },
    });
    expect(reply.status).toBe(403);
  });
});

const atWebCallback = (url: URL): boolean => url.href.startsWith(callbackUrl(server.url));

/** From the app's sign-in to the company provider's login form, typing only the work e-mail. */
async function toCompanyLogin(browser: Browser, email: string): Promise<{ page: Visit; verifier: string; state: string }> {
  const { page, verifier, state } = await startSignIn(browser, web, server.url);
  expect(page.url.pathname).toMatch(/^\/interaction\//);
  const routed = await browser.request(`${page.url.pathname}/login`, { form: { email, password: '' } });
  const target = onwardTo(routed);
  expect(target.startsWith(`${company.issuer}/auth?`)).toBe(true);
  return { page: await follow(browser, await browser.request(target)), verifier, state };
}

/** Through the company provider's login (and consent) to wherever it sends the browser back. */
async function signInAtCompany(browser: Browser, login: string, email: string): Promise<{ done: Visit; verifier: string; state: string }> {
  const { page, verifier, state } = await toCompanyLogin(browser, email);
  expect(page.url.origin).toBe(company.issuer);
  expect(page.html).toContain('name="login"');
  let done = await submit(browser, page, { prompt: 'login', login, password: 'any' }, atWebCallback);
  // The company provider asks once whether Paybench may have the e-mail and profile.
  if (done.url.origin === company.issuer && done.html.includes('name="prompt" value="consent"')) {
    done = await submit(browser, done, { prompt: 'consent' }, atWebCallback);
  }
  return { done, verifier, state };
}

describe('signing in through the company provider', () => {
  it('routes a bigco.test e-mail there and ends signed in as a new employee of BigCo', async () => {
    const browser = new Browser(server.url);
    const { done, verifier, state } = await signInAtCompany(browser, 'ana', 'Ana.Lima@bigco.test');
    expect(atWebCallback(done.url)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(web, done.url, { pkceCodeVerifier: verifier, expectedState: state });

    const me = await request<{ data: { email: string; firstName: string; lastName: string; companyId: string; emailVerified: boolean; companyRolesV2: { key: string }[] } }>('/api/me', {
      base: server.url,
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: 'ana.lima@bigco.test', firstName: 'Ana', lastName: 'Lima', companyId: bigco.id, emailVerified: true });
    expect(me.body.data.companyRolesV2.map((role) => role.key)).toEqual(['employee']);

    const rows = await db('users').where({ email: 'ana.lima@bigco.test' }).select<{ company_id: string; password_hash: string | null }[]>('company_id', 'password_hash');
    expect(rows).toEqual([{ company_id: bigco.id, password_hash: null }]);
  });

  it('signs the same person in again without making another account', async () => {
    const browser = new Browser(server.url);
    const { done, verifier, state } = await signInAtCompany(browser, 'ana', 'ana.lima@bigco.test');
    const tokens = await oidc.authorizationCodeGrant(web, done.url, { pkceCodeVerifier: verifier, expectedState: state });
    const me = await request<{ data: { email: string; companyId: string } }>('/api/me', { base: server.url, headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(me.body.data).toMatchObject({ email: 'ana.lima@bigco.test', companyId: bigco.id });
    expect(await countOf(db('users').where({ email: 'ana.lima@bigco.test' }))).toBe(1);
    expect(await countOf(db('sso_identities').where({ connection_id: connection.id }))).toBe(1);
  });

  it('refuses an e-mail the provider has not verified', async () => {
    const { done } = await signInAtCompany(new Browser(server.url), 'unverified', 'bruno@bigco.test');
    expect(done.response.status).toBe(403);
    expect(done.html).toContain('has not verified bruno@bigco.test, so Paybench cannot sign you in with it.');
    expect(await countOf(db('users').where({ email: 'bruno@bigco.test' }))).toBe(0);
  });

  it('refuses an address outside the registered domains, and makes no account in any company', async () => {
    const { done } = await signInAtCompany(new Browser(server.url), 'outsider', 'carla@bigco.test');
    expect(done.response.status).toBe(403);
    expect(done.html).toContain('carla@elsewhere.test is not an address at bigco.test, the domains your company signs in with here');
    expect(await countOf(db('users').whereIn('email', ['carla@elsewhere.test', 'carla@bigco.test']))).toBe(0);
  });

  it('refuses a return whose state is not the one this browser started (state mismatch)', async () => {
    const browser = new Browser(server.url);
    await toCompanyLogin(browser, 'ana.lima@bigco.test');
    const forged = await browser.request(`/auth/sso/callback?code=stolen&state=${oidc.randomState()}`);
    expect(forged.response.status).toBe(400);
    expect(forged.html).toContain('does not belong to the sign-in started in this browser (state mismatch)');
  });

  it('keeps password sign-in for an address whose account is in another company', async () => {
    const existing = other.users.analyst;
    if (!existing) throw new Error('no analyst');
    await db('users').where({ id: existing.id }).update({ email: 'dan@bigco.test' });
    const browser = new Browser(server.url);
    const { page } = await startSignIn(browser, web, server.url);
    const answer = await browser.request(`${page.url.pathname}/login`, { form: { email: 'dan@bigco.test', password: 'not his password at all' } });
    expect(answer.response.status).toBe(401);
    expect(answer.html).toContain('Incorrect email or password.');
  });

  it('answers the authn migration check with enterprise sign-in for a registered domain only', async () => {
    type Check = { data: { provider: string; action: string; issuer: string } };
    const check = (email: string) => request<Check>('/api/auth/authn-migration-check', { method: 'POST', json: { email }, base: server.url });
    const issuer = server.url.replace(/\/+$/, '');
    expect((await check('newcomer@BigCo.test')).body.data).toEqual({ provider: 'enterprise', action: 'sign_in', issuer });
    // Positive controls: another domain signs up with a password; dan keeps his other company's password.
    expect((await check('newcomer@elsewhere.test')).body.data).toEqual({ provider: 'builtin', action: 'sign_up', issuer });
    expect((await check('dan@bigco.test')).body.data.provider).toBe('builtin');
  });

  it('sends a bigco.test e-mail typed on the sign-up page to the company provider instead', async () => {
    const browser = new Browser(server.url);
    const { page } = await startSignIn(browser, web, server.url);
    const routed = await browser.request(`${page.url.pathname}/signup`, { form: { email: 'new.person@bigco.test', firstName: '', lastName: '', password: '' } });
    expect(onwardTo(routed).startsWith(`${company.issuer}/auth?`)).toBe(true);
    expect(await countOf(db('users').where({ email: 'new.person@bigco.test' }))).toBe(0);
  });

  it('goes straight to the company provider when the app passes the e-mail as a login hint (/auth/sso)', async () => {
    const browser = new Browser(server.url);
    const url = oidc.buildAuthorizationUrl(web, {
      redirect_uri: callbackUrl(server.url),
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      login_hint: 'ana.lima@bigco.test',
    });
    const page = await browser.visit(url, {}, (next) => next.origin === company.issuer);
    expect(page.url.origin).toBe(company.issuer);
    expect(page.url.searchParams.get('login_hint')).toBe('ana.lima@bigco.test');
  });

  it('says so on the sign-in page when the company provider is unreachable', async () => {
    const key = bigco.users.admin;
    if (!key) throw new Error('no admin');
    await db('sso_connections').where({ id: connection.id }).update({ issuer_url: 'http://127.0.0.1:9' });
    try {
      const browser = new Browser(server.url);
      const { page } = await startSignIn(browser, web, server.url);
      const answer = await browser.request(`${page.url.pathname}/login`, { form: { email: 'ana.lima@bigco.test', password: '' } });
      expect(answer.response.status).toBe(502);
      expect(answer.html).toContain('We could not reach your company\u2019s sign-in provider (127.0.0.1:9 could not be reached).');
    } finally {
      await db('sso_connections').where({ id: connection.id }).update({ issuer_url: company.issuer });
    }
  });
});

describe('changing and removing a provider', () => {
  it('switches it off under If-Match, refuses a stale version, and deletes it', async () => {
    const path = `/api/company/sso-connections/${connection.id}`;
    const off = await request<{ data: Connection }>(path, { base: server.url, method: 'PATCH', headers: { ...admin(bigco), 'If-Match': '"1"' }, json: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ enabled: false, version: 2 });
    const stale = await request<ErrorBody>(path, { base: server.url, method: 'PATCH', headers: { ...admin(bigco), 'If-Match': '"1"' }, json: { enabled: true } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');

    // Switched off: a bigco.test e-mail signs in with a password again (and has none).
    const browser = new Browser(server.url);
    const { page } = await startSignIn(browser, web, server.url);
    const answer = await browser.request(`${page.url.pathname}/login`, { form: { email: 'ana.lima@bigco.test', password: 'a guess of twelve' } });
    expect(answer.response.status).toBe(401);

    const removed = await request<{ data: Connection }>(path, { base: server.url, method: 'DELETE', headers: admin(bigco) });
    expect(removed.status).toBe(200);
    expect((await request<ErrorBody>(path, { base: server.url, headers: admin(bigco) })).status).toBe(404);
    // The domain stays the company's, proven, routed to no provider.
    expect(await db('company_domains').where({ domain: 'bigco.test' }).select('company_id', 'status', 'sso_connection_id')).toEqual([{ company_id: bigco.id, status: 'proven', sso_connection_id: null }]);
  });
});

describe("another company's domain (the review's squatting attack)", () => {
  let acme: TestCompany;
  let squatter: TestCompany;
  let staff: TestUser;
  const register = (of: TestCompany, domains: string[]) =>
    request<{ data: Connection } & ErrorBody>('/api/company/sso-connections', {
      base: server.url,
      method: 'POST',
      headers: admin(of),
      json: { issuerUrl: company.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, domains },
    });

  beforeAll(async () => {
    acme = await createTestCompany(db, 'Acme Co');
    squatter = await createTestCompany(db, 'Squatter');
    staff = await createTestUser(db, { companyId: null, internalAdmin: true });
    // Acme's people sign in with acmeco.test addresses.
    await db('users').where({ id: acme.users.employee?.id }).update({ email: 'emil@acmeco.test' });
  });

  it('refuses a domain on which another company has people, and stores nothing', async () => {
    const reply = await register(squatter, ['acmeco.test']);
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      code: 'domain_taken',
      message: "Another company already has people with acmeco.test addresses in Paybench, so acmeco.test cannot be claimed for yours. If it is your company's domain, contact Paybench support to settle it.",
    });
    const claimed = await request<ErrorBody>('/api/company/domains', { base: server.url, method: 'POST', headers: admin(squatter), json: { domain: 'ACMECO.test' } });
    expect(claimed.status).toBe(409);
    expect(await countOf(db('sso_connections').where({ company_id: squatter.id }))).toBe(0);
    expect(await countOf(db('company_domains').where({ company_id: squatter.id }))).toBe(0);
    expect((await migrationCheck('new.hire@acmeco.test')).body.data.provider).toBe('builtin');
    // So is the demo company's own domain, which its seed proved.
    expect((await register(squatter, ['acme.test'])).body.code).toBe('domain_taken');
  });

  it('routes nobody to an unproven domain; the same claim made proven through the store would route (positive control)', async () => {
    const reply = await register(squatter, ['squatter.test']);
    expect(reply.status).toBe(201);
    const [claim] = await domainsOf(squatter);
    expect(claim).toMatchObject({ domain: 'squatter.test', status: 'pending', ssoConnectionId: reply.body.data.id });
    expect((await migrationCheck('someone@squatter.test')).body.data).toMatchObject({ provider: 'builtin', action: 'sign_up' });
    // Positive control: the proof written straight into the store (no TXT record, no admin there), the route opens.
    await db('company_domains').where({ id: claim?.id }).update({ status: 'proven', proof: 'dns' });
    try {
      expect((await migrationCheck('someone.else@squatter.test')).body.data).toMatchObject({ provider: 'enterprise', action: 'sign_in' });
    } finally {
      await db('company_domains').where({ id: claim?.id }).update({ status: 'pending', proof: null });
    }
    // So too for the review's exact attack: had the refusal let the squatter's acmeco.test claim in and proved it, Acme's newcomers would go to the squatter.
    await db('company_domains').insert({ id: crypto.randomUUID(), company_id: squatter.id, domain: 'acmeco.test', status: 'proven', token: 'x', proof: 'dns', sso_connection_id: reply.body.data.id, created_at: new Date().toISOString(), updated_at: new Date().toISOString() });
    try {
      expect((await migrationCheck('second.hire@acmeco.test')).body.data).toMatchObject({ provider: 'enterprise', action: 'sign_in' });
    } finally {
      await db('company_domains').where({ company_id: squatter.id, domain: 'acmeco.test' }).delete();
    }
    expect((await migrationCheck('third.hire@acmeco.test')).body.data.provider).toBe('builtin');
  });

  it('proves a domain at once for a verified admin at it, refuses free mail, and keeps one proven holder per domain', async () => {
    await db('users').where({ id: acme.users.admin?.id }).update({ email: 'ada@acmeco.test', email_verified: true });
    const mine = await request<{ data: Domain }>('/api/company/domains', { base: server.url, method: 'POST', headers: admin(acme), json: { domain: 'acmeco.test' } });
    expect(mine.status).toBe(201);
    expect(mine.body.data).toMatchObject({ domain: 'acmeco.test', status: 'proven', proof: 'admin_email', txtRecord: null });
    const free = await request<ErrorBody>('/api/company/domains', { base: server.url, method: 'POST', headers: admin(acme), json: { domain: 'gmail.com' } });
    expect(free.status).toBe(400);
    expect(free.body.message).toBe('gmail.com is a public e-mail service: anyone can have an address there, so no company can claim it.');
    // A TXT lookup that fails says so and proves nothing.
    dns.fail('squatter.test');
    const [claim] = await domainsOf(squatter);
    const failed = await checkNow(squatter, claim?.id ?? '');
    expect(failed.body.data).toMatchObject({ status: 'pending', lastCheck: { result: 'The DNS lookup of squatter.test failed (ESERVFAIL). Try again in a few minutes.' } });
    // Another company's claim id answers 404.
    expect((await checkNow(acme, claim?.id ?? '')).status).toBe(404);
    expect((await request(`/api/company/domains/${claim?.id}`, { base: server.url, method: 'DELETE', headers: admin(acme) })).status).toBe(404);
  });

  it('lets two companies race to prove one domain and keeps exactly one proven', async () => {
    const claims = await Promise.all([acme, squatter].map(async (of) => (await request<{ data: Domain }>('/api/company/domains', { base: server.url, method: 'POST', headers: admin(of), json: { domain: 'contested.test' } })).body.data));
    for (const claim of claims) dns.publish('contested.test', claim.txtRecord?.value ?? '');
    const answers = await Promise.all([acme, squatter].map((of, i) => checkNow(of, claims[i]?.id ?? '')));
    const proven = answers.filter((answer) => answer.status === 200 && answer.body.data.status === 'proven');
    expect(proven).toHaveLength(1);
    expect(await countOf(db('company_domains').where({ domain: 'contested.test', status: 'proven' }))).toBe(1);
    // The other claim stands, disputed, for Paybench support to settle.
    const loser = [acme, squatter].find((_, i) => answers[i] !== proven[0]) as TestCompany;
    expect((await domainsOf(loser)).find((entry) => entry.domain === 'contested.test')?.status).toBe('disputed');
  });

  it('shows disputed domains to internal admins, who settle them on the record', async () => {
    type Group = { domain: string; disputed: boolean; claims: { id: string; companyId: string; status: string }[]; people: { companyId: string; people: number }[] };
    expect((await request('/api/internal/domains', { base: server.url, headers: admin(acme) })).status).toBe(403);
    const groups = (await request<{ data: Group[] }>('/api/internal/domains', { base: server.url, headers: bearer(staff) })).body.data;
    const contested = groups.find((group) => group.domain === 'contested.test');
    expect(contested?.disputed).toBe(true);
    expect(contested?.claims.map((c) => c.companyId).sort()).toEqual([acme.id, squatter.id].sort());
    expect(groups.find((group) => group.domain === 'acmeco.test')).toMatchObject({ disputed: false, people: [{ companyId: acme.id, people: 2 }] });
    // Disputed come first.
    expect(groups.findIndex((group) => !group.disputed)).toBeGreaterThan(groups.findIndex((group) => group.disputed));

    const squatterClaim = contested?.claims.find((c) => c.companyId === squatter.id);
    const settled = await request<{ data: Group }>(`/api/internal/domains/${squatterClaim?.id}/resolve`, {
      base: server.url,
      method: 'POST',
      headers: bearer(staff),
      json: { action: 'assign', note: 'Squatter showed the registrar invoice.' },
    });
    expect(settled.status).toBe(200);
    expect(settled.body.data).toMatchObject({ domain: 'contested.test', disputed: false, claims: [{ companyId: squatter.id, status: 'proven' }] });
    expect(await db('company_domains').where({ domain: 'contested.test' }).orderBy('status').select('company_id', 'status', 'proof')).toEqual([
      { company_id: squatter.id, status: 'proven', proof: 'internal' },
      { company_id: acme.id, status: 'revoked', proof: null },
    ]);
    const recorded = await db('audit_events').where({ action: 'company_domain.resolved', subject_id: 'contested.test' }).select('company_id', 'actor_user_id', 'details');
    expect(recorded.map((row: { company_id: string; actor_user_id: string; details: string }) => [row.company_id, row.actor_user_id, JSON.parse(row.details)]).sort()).toEqual(
      [
        [acme.id, staff.id, { domain: 'contested.test', action: 'revoked', note: 'Squatter showed the registrar invoice.' }],
        [squatter.id, staff.id, { domain: 'contested.test', action: 'assigned', note: 'Squatter showed the registrar invoice.' }],
      ].sort(),
    );
    const revoke = await request<Group>(`/api/internal/domains/${squatterClaim?.id}/resolve`, { base: server.url, method: 'POST', headers: bearer(staff), json: { action: 'revoke' } });
    expect(revoke.status).toBe(200);
    expect(await countOf(db('company_domains').where({ domain: 'contested.test', status: 'proven' }))).toBe(0);
  });
});
