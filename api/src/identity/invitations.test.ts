import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { type TestCompany, type TestUser, bearer, createTestCompany } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { ownServer } from '../../test/ownServer.js';
import { Browser, WEB_CLIENT, createPerson, discover, signInWithCode, startSignIn } from './provider/testSupport.js';

type User = components['schemas']['User'];
type UserInvitation = components['schemas']['UserInvitation'];
type ImportPlan = components['schemas']['ImportPlan'];
type Provisioned = components['schemas']['ProvisionedAccount'];
type Person = components['schemas']['Person'];

// Its own server with a real SMTP server: every e-mail here travels over SMTP.
const server = ownServer('Invitations Co');
let other: TestCompany;
let web: oidc.Configuration;

const unique = (): string => Math.random().toString(36).slice(2, 10);
const newEmail = (tag: string): string => `${tag}-${unique()}@invited.test`;
const PASSWORD = 'a brand new passphrase';
const SAME_ANSWER = 'If an account exists for that e-mail, we sent a link.';

beforeAll(async () => {
  other = await createTestCompany(server.db, 'Elsewhere Co');
  web = await discover(server.url, WEB_CLIENT);
});

const api = <T>(path: string, init: Parameters<typeof request>[1] = {}) => request<T>(path, { ...init, base: server.url });
const as = (caller: TestUser) => bearer(caller);

/** The newest link of a kind e-mailed to an address, once it has arrived. */
async function mailedLink(email: string, path: '/invitation/' | '/password-reset/', count = 1): Promise<URL> {
  await expect.poll(() => server.smtp.links(email, path).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  const links = server.smtp.links(email, path);
  return new URL(links[links.length - 1] as string);
}

/** Opens an invitation link and chooses a password on its page, as a person would. */
async function acceptInvitation(link: URL, password = PASSWORD): Promise<{ status: number; html: string }> {
  const browser = new Browser(server.url);
  const page = await browser.visit(link.pathname);
  expect(page.response.status).toBe(200);
  expect(page.html).toContain('Choose a password to finish setting up your Paybench account.');
  const done = await browser.visit(link.pathname, { form: { password } });
  return { status: done.response.status, html: done.html };
}

async function signsIn(email: string, password = PASSWORD): Promise<Person> {
  const tokens = await signInWithCode(new Browser(server.url), web, server.url, { email, password });
  const me = await api<{ data: Person }>('/api/me', { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  expect(me.status).toBe(200);
  return me.body.data;
}

const invitationOf = (userId: string, caller = server.admin) => api<{ data: UserInvitation }>(`/api/users/${userId}/invitation`, { headers: as(caller) });

describe('inviting people as they are added', () => {
  it('creates a user with an invitation: the e-mailed link sets their password and they sign in', async () => {
    const email = newEmail('created');
    const created = await api<{ data: User }>('/api/users', { method: 'POST', headers: as(server.admin), json: { email, firstName: 'Cleo', lastName: 'Created', invite: true } });
    expect(created.status).toBe(201);
    const link = await mailedLink(email, '/invitation/');
    const mail = server.smtp.to(email)[0]?.text ?? '';
    expect(mail).toContain('Subject: You\'re invited to Invitations Co on Paybench');
    expect(mail).toContain('Hello Cleo,');
    expect((await invitationOf(created.body.data.id)).body.data).toMatchObject({ status: 'pending', email });

    const done = await acceptInvitation(link);
    expect(done.status).toBe(200);
    expect(done.html).toContain('Your password is set.');
    expect((await signsIn(email)).email).toBe(email);
    expect((await invitationOf(created.body.data.id)).body.data.status).toBe('accepted');
  });

  it('creates a user without an invitation unless asked, and then nothing is sent', async () => {
    const email = newEmail('quiet');
    const created = await api<{ data: User }>('/api/users', { method: 'POST', headers: as(server.admin), json: { email, firstName: 'Quin', lastName: 'Quiet' } });
    expect(created.status).toBe(201);
    expect(await server.db('outbox_emails').where({ to_address: email })).toEqual([]);
    expect(server.smtp.to(email)).toEqual([]);
    expect((await invitationOf(created.body.data.id)).body.data).toEqual({ userId: created.body.data.id, email, status: 'none', sentAt: null, expiresAt: null });
  });

  it('imports users with invitations: new people and people still waiting get one, a dry run sends none', async () => {
    const [ana, bo, cy] = [newEmail('ana'), newEmail('bo'), newEmail('cy')];
    const row = (line: number, email: string) => ({ line, email, firstName: email.split('-')[0] ?? 'X', lastName: 'Imported', roles: [] });
    const importUsers = (rows: ReturnType<typeof row>[], extra: Record<string, unknown>) =>
      api<{ data: ImportPlan }>('/api/users/imports', { method: 'POST', headers: as(server.admin), json: { rows, ...extra } });

    // Without --invite (as the issue found it): created, nothing sent.
    const quiet = await importUsers([row(2, cy)], {});
    expect(quiet.status).toBe(200);
    expect(quiet.body.data.create).toBe(1);
    expect(quiet.body.data.invited).toBeUndefined();

    const dry = await importUsers([row(2, ana), row(3, bo), row(4, cy)], { invite: true, dryRun: true });
    expect(dry.body.data).toMatchObject({ dryRun: true, create: 2, invited: 3 });
    expect(await server.db('outbox_emails').whereIn('to_address', [ana, bo, cy])).toEqual([]);

    const real = await importUsers([row(2, ana), row(3, bo), row(4, cy)], { invite: true });
    expect(real.body.data).toMatchObject({ dryRun: false, create: 2, unchanged: 1, invited: 3 });
    for (const email of [ana, bo, cy]) await mailedLink(email, '/invitation/');

    const done = await acceptInvitation(await mailedLink(bo, '/invitation/'));
    expect(done.status).toBe(200);
    expect((await signsIn(bo)).email).toBe(bo);

    // Again: everyone has a password or a link that works, so nobody is invited twice.
    const again = await importUsers([row(2, ana), row(3, bo), row(4, cy)], { invite: true });
    expect(again.body.data).toMatchObject({ create: 0, update: 0, unchanged: 3, invited: 0 });
    expect(server.smtp.to(ana)).toHaveLength(1);
  });

  it('provisions with or without an invitation as `invite` says', async () => {
    const silent = newEmail('silent');
    const none = await api<{ data: Provisioned }>('/api/accounts/provision', { method: 'POST', headers: as(server.admin), json: { email: silent, firstName: 'Sil', lastName: 'Ent', invite: false } });
    expect(none.status).toBe(201);
    expect(none.body.data.invitation).toBeNull();

    const invited = newEmail('provisioned');
    const reply = await api<{ data: Provisioned }>('/api/accounts/provision', { method: 'POST', headers: as(server.admin), json: { email: invited, firstName: 'Pro', lastName: 'Vision', invite: true } });
    expect(reply.status).toBe(201);
    expect(reply.body.data.invitation?.sentTo).toBe(invited);
    const done = await acceptInvitation(await mailedLink(invited, '/invitation/'));
    expect(done.status).toBe(200);
    expect((await signsIn(invited)).email).toBe(invited);
    expect(server.smtp.to(silent)).toEqual([]);
  });
});

describe('resending and revoking an invitation', () => {
  async function invitedUser(tag: string): Promise<User> {
    const email = newEmail(tag);
    const created = await api<{ data: User }>('/api/users', { method: 'POST', headers: as(server.admin), json: { email, firstName: 'Rae', lastName: 'Sent', invite: true } });
    expect(created.status).toBe(201);
    await mailedLink(email, '/invitation/');
    return created.body.data;
  }

  it('resends a new link; the earlier one stops working', async () => {
    const user = await invitedUser('resent');
    const first = await mailedLink(user.email, '/invitation/');
    const resent = await api<{ data: UserInvitation }>(`/api/users/${user.id}/invitation`, { method: 'POST', headers: as(server.admin) });
    expect(resent.status).toBe(200);
    expect(resent.body.data).toMatchObject({ userId: user.id, email: user.email, status: 'pending' });
    const second = await mailedLink(user.email, '/invitation/', 2);
    expect(second.pathname).not.toBe(first.pathname);

    const old = await new Browser(server.url).visit(first.pathname);
    expect(old.response.status).toBe(410);
    expect(old.html).toContain('This invitation is no longer valid');
    expect((await acceptInvitation(second)).status).toBe(200);

    const already = await api<ErrorBody>(`/api/users/${user.id}/invitation`, { method: 'POST', headers: as(server.admin) });
    expect(already.status).toBe(409);
    expect(already.body.code).toBe('already_active');
  });

  it('revokes the open link: opening it is refused, revoking again is 409', async () => {
    const user = await invitedUser('revoked');
    const link = await mailedLink(user.email, '/invitation/');
    const revoked = await api<{ data: UserInvitation }>(`/api/users/${user.id}/invitation`, { method: 'DELETE', headers: as(server.admin) });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.status).toBe('revoked');

    const browser = new Browser(server.url);
    const opened = await browser.visit(link.pathname);
    expect(opened.response.status).toBe(410);
    const posted = await browser.visit(link.pathname, { form: { password: PASSWORD } });
    expect(posted.response.status).toBe(410);
    expect((await server.db('users').where({ id: user.id }).first<{ password_hash: string | null }>('password_hash'))?.password_hash).toBeNull();

    const again = await api<ErrorBody>(`/api/users/${user.id}/invitation`, { method: 'DELETE', headers: as(server.admin) });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('no_open_invitation');
    expect((await invitationOf(user.id)).body.data.status).toBe('revoked');
  });

  it('refuses an expired link and says so in the state', async () => {
    const user = await invitedUser('expired');
    const link = await mailedLink(user.email, '/invitation/');
    await server.db('account_invitations').where({ user_id: user.id }).update({ expires_at: new Date(Date.now() - 60_000).toISOString() });
    const opened = await new Browser(server.url).visit(link.pathname);
    expect(opened.response.status).toBe(410);
    expect((await invitationOf(user.id)).body.data.status).toBe('expired');
    const revoke = await api<ErrorBody>(`/api/users/${user.id}/invitation`, { method: 'DELETE', headers: as(server.admin) });
    expect(revoke.status).toBe(409);
  });

  it('needs users edit, and another company’s user is 404', async () => {
    const user = await invitedUser('guarded');
    const employee = server.company.users.employee as TestUser;
    expect((await api(`/api/users/${user.id}/invitation`, { method: 'POST', headers: as(employee) })).status).toBe(403);
    expect((await api(`/api/users/${user.id}/invitation`, { method: 'DELETE', headers: as(employee) })).status).toBe(403);
    expect((await api(`/api/users/${user.id}/invitation`, { method: 'POST', headers: as(other.users.admin as TestUser) })).status).toBe(404);
    expect((await invitationOf(user.id, other.users.admin as TestUser)).status).toBe(404);
    expect(server.smtp.to(user.email)).toHaveLength(1);
  });
});

describe('forgot password', () => {
  /** A browser on the "Forgot password?" page of a fresh sign-in. */
  async function onForgotPage(): Promise<{ browser: Browser; path: string }> {
    const browser = new Browser(server.url);
    const { page } = await startSignIn(browser, web, server.url);
    expect(page.html).toContain('>Forgot password?</a>');
    const path = `${page.url.pathname}/forgot`;
    const form = await browser.visit(path);
    expect(form.response.status).toBe(200);
    expect(form.html).toContain('Forgot your password?');
    return { browser, path };
  }

  const ask = (browser: Browser, path: string, email: string) => browser.visit(path, { form: { email } });

  it('answers the same for a known and an unknown e-mail, and mails only the known one', async () => {
    await server.db('sign_in_throttle').where('key', 'like', 'reset-%').delete();
    const person = await createPerson(server.db);
    const unknown = newEmail('nobody');
    const { browser, path } = await onForgotPage();
    const forUnknown = await ask(browser, path, unknown);
    const forKnown = await ask(browser, path, person.email.toUpperCase());
    expect(forUnknown.response.status).toBe(200);
    expect(forKnown.response.status).toBe(forUnknown.response.status);
    expect(forKnown.html).toBe(forUnknown.html);
    expect(forKnown.html).toContain(SAME_ANSWER);

    await mailedLink(person.email, '/password-reset/');
    expect(server.smtp.to(person.email)[0]?.text).toContain('Subject: Reset your Paybench password');
    expect(await server.db('outbox_emails').where({ to_address: unknown })).toEqual([]);
    expect(server.smtp.to(unknown)).toEqual([]);
  });

  it('resets once: the new password signs in, the old one and every earlier sign-in stop working', async () => {
    await server.db('sign_in_throttle').where('key', 'like', 'reset-%').delete();
    const person = await createPerson(server.db);
    const before = await signInWithCode(new Browser(server.url), web, server.url, person);
    const oldToken = { Authorization: `Bearer ${before.access_token}` };
    expect((await api('/api/me', { headers: oldToken })).status).toBe(200);

    const { browser, path } = await onForgotPage();
    await ask(browser, path, person.email);
    const link = await mailedLink(person.email, '/password-reset/');
    const reset = new Browser(server.url);
    const form = await reset.visit(link.pathname);
    expect(form.response.status).toBe(200);
    expect(form.html).toContain('Choose a new password');
    const short = await reset.visit(link.pathname, { form: { password: 'too short' } });
    expect(short.response.status).toBe(400);
    expect(short.html).toContain('Use at least 12 characters.');
    const done = await reset.visit(link.pathname, { form: { password: PASSWORD } });
    expect(done.response.status).toBe(200);
    expect(done.html).toContain('Your password is changed');

    // One use only.
    expect((await reset.visit(link.pathname, { form: { password: 'yet another passphrase' } })).response.status).toBe(410);
    expect((await new Browser(server.url).visit(link.pathname)).response.status).toBe(410);

    // Signed out everywhere: the old access token and refresh token are refused.
    const refused = await api<ErrorBody>('/api/me', { headers: oldToken });
    expect(refused.status).toBe(401);
    await expect(oidc.refreshTokenGrant(web, before.refresh_token ?? '')).rejects.toThrow();

    await expect(signInWithCode(new Browser(server.url), web, server.url, person)).rejects.toThrow();
    expect((await signsIn(person.email)).email).toBe(person.email);
  });

  it('gets a person created without a password in', async () => {
    await server.db('sign_in_throttle').where('key', 'like', 'reset-%').delete();
    const email = newEmail('nopassword');
    expect((await api('/api/users', { method: 'POST', headers: as(server.admin), json: { email, firstName: 'Noa', lastName: 'Pass' } })).status).toBe(201);
    const { browser, path } = await onForgotPage();
    await ask(browser, path, email);
    const link = await mailedLink(email, '/password-reset/');
    expect((await new Browser(server.url).visit(link.pathname, { form: { password: PASSWORD } })).response.status).toBe(200);
    expect((await signsIn(email)).email).toBe(email);
  });

  it('refuses an expired reset link', async () => {
    await server.db('sign_in_throttle').where('key', 'like', 'reset-%').delete();
    const person = await createPerson(server.db);
    const { browser, path } = await onForgotPage();
    await ask(browser, path, person.email);
    const link = await mailedLink(person.email, '/password-reset/');
    await server.db('password_resets').where({ user_id: person.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const opened = await new Browser(server.url).visit(link.pathname, { form: { password: PASSWORD } });
    expect(opened.response.status).toBe(410);
    expect(opened.html).toContain('This link has expired');
  });

  it('limits requests per e-mail, known or not, with the same answer', async () => {
    await server.db('sign_in_throttle').where('key', 'like', 'reset-%').delete();
    const person = await createPerson(server.db);
    const unknown = newEmail('ghost');
    const { browser, path } = await onForgotPage();
    for (const email of [person.email, unknown]) {
      for (let i = 0; i < 5; i++) expect((await ask(browser, path, email)).response.status).toBe(200);
    }
    const known = await ask(browser, path, person.email);
    const ghost = await ask(browser, path, unknown);
    expect(known.response.status).toBe(429);
    expect(ghost.response.status).toBe(429);
    expect(known.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(known.html).toContain('Too many requests for a link. Try again in 15 minutes.');
    expect(ghost.html.replace(unknown, person.email)).toBe(known.html);
    await expect.poll(() => server.smtp.to(person.email).length, { timeout: 15_000 }).toBe(5);
    expect(server.smtp.to(unknown)).toEqual([]);
  });
});
