import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { type RouterApp, startRouterApp } from '../../test/routerApp.js';
import { AUTHN_CHECKS_PER_EMAIL_PER_HOUR, AUTHN_CHECKS_PER_MINUTE } from './accounts.js';
import pino from 'pino';
import { externalIdentityProvider } from './provider/external.js';
import { Browser, createPerson } from './provider/testSupport.js';

type Check = components['schemas']['AuthnMigrationCheck'];
type Provisioned = components['schemas']['ProvisionedAccount'];
type Outbox = components['schemas']['OutboxEmail'][];

const unique = (): string => Math.random().toString(36).slice(2, 10);

let db: Knex;
let company: TestCompany;
let support: TestUser;

beforeAll(async () => {
  db = await testDb();
  company = await createTestCompany(db, 'Check Co');
  support = await createTestUser(db, { companyId: null, internalAdmin: true });
});

const check = (email: string, base?: string) =>
  request<{ data: Check }>('/api/auth/authn-migration-check', { method: 'POST', json: { email }, ...(base ? { base } : {}) });

describe('the authn migration check, with the built-in provider', () => {
  it('tells apart signing in, activating a provisioned account, and signing up, in one shape', async () => {
    const person = await createPerson(db);
    const issuer = baseUrl();
    const known = await check(person.email.toUpperCase());
    expect(known.status).toBe(200);
    expect(known.body.data).toEqual({ provider: 'builtin', action: 'sign_in', issuer });

    const unknown = await check(`nobody-${unique()}@example.test`);
    expect(unknown.body.data).toEqual({ provider: 'builtin', action: 'sign_up', issuer });

    const email = `invited-${unique()}@example.test`;
    const provisioned = await request<{ data: Provisioned }>('/api/accounts/provision', { method: 'POST', headers: bearer(company.users.admin as TestUser), json: { email, firstName: 'In', lastName: 'Vited' } });
    expect(provisioned.status).toBe(201);
    expect((await check(email)).body.data).toEqual({ provider: 'builtin', action: 'activate', issuer });

    // Once the invitation is used, the person signs in like anyone else.
    const outbox = await request<{ data: Outbox }>(`/api/internal/outbox?to=${encodeURIComponent(email)}`, { headers: bearer(support) });
    const link = /\/invitation\/\S+/.exec(outbox.body.data[0]?.text ?? '')?.[0] ?? '';
    expect((await new Browser(baseUrl()).visit(link, { form: { password: `chosen passphrase ${unique()}` } })).response.status).toBe(200);
    expect((await check(email)).body.data.action).toBe('sign_in');

    for (const reply of [known, unknown]) expect(Object.keys(reply.body.data).sort()).toEqual(['action', 'issuer', 'provider']);
  });

  it('says nothing of a removed account that another account would not say', async () => {
    const removed = await createPerson(db);
    await db('users').where({ id: removed.id }).update({ status: 'removed' });
    const removedInvitee = await createTestUser(db, { companyId: company.id });
    await db('users').where({ id: removedInvitee.id }).update({ status: 'removed' });
    expect((await check(removed.email)).body.data.action).toBe('sign_in');
    expect((await check(removedInvitee.email)).body.data.action).toBe('sign_in');
  });

  it('needs an e-mail address, and no sign-in', async () => {
    const reply = await request<ErrorBody>('/api/auth/authn-migration-check', { method: 'POST', json: { email: 'not an address' } });
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.[0]?.field).toBe('body.email');
  });
});

describe('the authn migration check, rate-limited', () => {
  let app: RouterApp;
  beforeAll(async () => {
    app = await startRouterApp(db);
  });
  afterAll(() => app?.close());

  it(`answers ${AUTHN_CHECKS_PER_MINUTE} checks a minute from one address, then 429 with Retry-After`, async () => {
    for (let n = 0; n < AUTHN_CHECKS_PER_MINUTE; n++) expect((await check(`n${n}-${unique()}@example.test`, app.url)).status).toBe(200);
    const refused = await request<ErrorBody>('/api/auth/authn-migration-check', { base: app.url, method: 'POST', json: { email: `late-${unique()}@example.test` } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', title: 'Rate limit exceeded' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it(`answers ${AUTHN_CHECKS_PER_EMAIL_PER_HOUR} checks of one e-mail an hour, then 429 for that e-mail only`, async () => {
    const fresh = await startRouterApp(db);
    try {
      const person = await createPerson(db);
      // Written differently each time: the limit counts the address as sign-in reads it.
      for (let n = 0; n < AUTHN_CHECKS_PER_EMAIL_PER_HOUR; n++) expect((await check(n % 2 ? person.email.toUpperCase() : person.email, fresh.url)).status).toBe(200);
      const refused = await request<ErrorBody>('/api/auth/authn-migration-check', { base: fresh.url, method: 'POST', json: { email: person.email } });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'rate_limited', message: 'Too many requests have been made. Please wait 60 minutes and try again.' });
      // About an hour: more than the per-address minute, at most the e-mail's hour.
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
      // The same client address, well under its own limit, still checks another e-mail.
      expect((await check(`other-${unique()}@example.test`, fresh.url)).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

describe('with an external issuer', () => {
  let app: RouterApp;
  const issuer = (): string => baseUrl();
  beforeAll(async () => {
    // This test server stands in for the organisation's issuer.
    const external = externalIdentityProvider({ issuerUrl: issuer(), audience: 'https://paybench.example/api' }, pino({ level: 'silent' }));
    app = await startRouterApp(db, { identity: external });
  });
  afterAll(() => app?.close());

  it('sends everyone to the issuer, whatever their e-mail', async () => {
    const person = await createPerson(db);
    const invitee = await createTestUser(db, { companyId: company.id });
    for (const email of [person.email, invitee.email, `nobody-${unique()}@example.test`]) {
      expect((await check(email, app.url)).body.data).toEqual({ provider: 'external', action: 'sign_in', issuer: issuer() });
    }
  });

  it('invites provisioned people to sign in there, with no password to choose', async () => {
    const email = `sso-${unique()}@example.test`;
    const reply = await request<{ data: Provisioned }>('/api/accounts/provision', { base: app.url, method: 'POST', headers: bearer(company.users.admin as TestUser), json: { email, firstName: 'Sso', lastName: 'User' } });
    expect(reply.status).toBe(201);
    expect(reply.body.data.invitation).toEqual({ sentTo: email, expiresAt: null });
    expect(await db('account_invitations').where({ user_id: reply.body.data.user.id })).toEqual([]);
    const outbox = await request<{ data: Outbox }>(`/api/internal/outbox?to=${encodeURIComponent(email)}`, { headers: bearer(support) });
    expect(outbox.body.data[0]?.text).toContain("Sign in with your organisation's account at:");
    expect(outbox.body.data[0]?.text).not.toContain('/invitation/');
  });
});
