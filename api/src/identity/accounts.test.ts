import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../contract-types.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, baseUrl, request } from '../../test/http.js';
import { Browser, WEB_CLIENT, discover, signInWithCode } from './provider/testSupport.js';

type Provisioned = components['schemas']['ProvisionedAccount'];
type Outbox = components['schemas']['OutboxEmail'][];
type Person = components['schemas']['Person'];

const unique = (): string => Math.random().toString(36).slice(2, 10);
const newEmail = (tag = 'new'): string => `${tag}-${unique()}@provisioned.test`;

let db: Knex;
let company: TestCompany;
let other: TestCompany;
let support: TestUser;

beforeAll(async () => {
  db = await testDb();
  company = await createTestCompany(db, 'Provisioning Co');
  other = await createTestCompany(db, 'Other Co');
  support = await createTestUser(db, { companyId: null, internalAdmin: true });
});

const provision = (caller: TestUser, json: Record<string, unknown>) =>
  request<{ data: Provisioned }>('/api/accounts/provision', { method: 'POST', headers: bearer(caller), json });

async function outboxFor(email: string): Promise<Outbox> {
  const reply = await request<{ data: Outbox }>(`/api/internal/outbox?to=${encodeURIComponent(email)}`, { headers: bearer(support) });
  expect(reply.status).toBe(200);
  return reply.body.data;
}

const linkIn = (text: string): URL => {
  const match = /(http\S+\/invitation\/\S+)/.exec(text);
  if (!match?.[1]) throw new Error(`no invitation link in:\n${text}`);
  return new URL(match[1]);
};

describe('provisioning an account', () => {
  it('creates the person with the employee role, e-mails a one-time link, and the link sets their password', async () => {
    const admin = company.users.admin as TestUser;
    const email = newEmail();
    const reply = await provision(admin, { email: email.toUpperCase(), firstName: 'Nia', lastName: 'New' });
    expect(reply.status).toBe(201);
    const { user, invitation } = reply.body.data;
    expect(user).toMatchObject({ email, firstName: 'Nia', lastName: 'New', status: 'active', isCandidate: false, emailVerified: false });
    expect(user.roles.map((role) => role.key)).toEqual(['employee']);
    expect(invitation?.sentTo).toBe(email);
    const days = (new Date(invitation?.expiresAt ?? 0).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    // The company sees them at once.
    const listed = await request<{ data: { email: string }[] }>(`/api/users?search=${encodeURIComponent(email)}`, { headers: bearer(admin) });
    expect(listed.body.data.map((row) => row.email)).toEqual([email]);

    const [mail, ...more] = await outboxFor(email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe("You're invited to Provisioning Co on Paybench");
    expect(mail?.text).toContain('added you to Provisioning Co on Paybench');
    const link = linkIn(mail?.text ?? '');
    expect(link.origin).toBe(baseUrl());

    const browser = new Browser(baseUrl());
    const page = await browser.visit(link.pathname);
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.html).toContain('Choose a password');
    expect(page.html).toContain(email);

    const tooShort = await browser.visit(link.pathname, { form: { password: 'short' } });
    expect(tooShort.response.status).toBe(400);
    expect(tooShort.html).toContain('Use at least 12 characters.');

    const password = `a fine passphrase ${unique()}`;
    const done = await browser.visit(link.pathname, { form: { password } });
    expect(done.response.status).toBe(200);
    expect(done.html).toContain('Your password is set');

    // Once only.
    const again = await browser.visit(link.pathname, { form: { password: `${password} again` } });
    expect(again.response.status).toBe(410);
    expect((await browser.visit(link.pathname)).response.status).toBe(410);

    // They sign in with it, their e-mail now verified.
    const config = await discover(baseUrl(), WEB_CLIENT);
    const tokens = await signInWithCode(new Browser(baseUrl()), config, baseUrl(), { email, password });
    const me = await request<{ data: Person }>('/api/me', { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email, emailVerified: true, companyId: company.id, isCandidate: false });
  });

  it('refuses an address that has an account in another company, or in none, and sends nothing', async () => {
    const admin = company.users.admin as TestUser;
    const loner = await createTestUser(db, { companyId: null });
    for (const email of [(other.users.employee as TestUser).email, loner.email]) {
      const reply = await request<ErrorBody>('/api/accounts/provision', { method: 'POST', headers: bearer(admin), json: { email, firstName: 'Taken', lastName: 'Already' } });
      expect(reply.status).toBe(409);
      expect(reply.body).toMatchObject({ code: 'email_taken', message: `${email} already has an account.` });
      expect(await outboxFor(email)).toEqual([]);
    }
    const anyone = await db('users').whereIn('email', [(other.users.employee as TestUser).email, loner.email]).select('company_id');
    expect(anyone.map((row: { company_id: string | null }) => row.company_id).sort()).toEqual([other.id, null].sort());
  });

  it('gives one of two simultaneous requests for one address the account, and the other a 409', async () => {
    const admin = company.users.admin as TestUser;
    const email = newEmail('twice');
    const replies = await Promise.all([0, 1].map(() => provision(admin, { email, firstName: 'Twin', lastName: 'Request' })));
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it('assigns the named roles, refuses unknown ones, and needs the roles permission to name any', async () => {
    const admin = company.users.admin as TestUser;
    const email = newEmail('planner');
    const reply = await provision(admin, { email, firstName: 'Pat', lastName: 'Planner', roleKeys: ['compensation_planner', 'analyst'] });
    expect(reply.status).toBe(201);
    expect(reply.body.data.user.roles.map((role) => role.key).sort()).toEqual(['analyst', 'compensation_planner']);

    const unknown = await request<ErrorBody>('/api/accounts/provision', { method: 'POST', headers: bearer(admin), json: { email: newEmail(), firstName: 'A', lastName: 'B', roleKeys: ['wizard'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'body.roleKeys', message: 'wizard is not a role of this company' }]);

    // A role that may add people but not hand out access.
    const roleId = `role-${unique()}`;
    const now = new Date().toISOString();
    await db('roles').insert({ id: roleId, company_id: company.id, key: `recruiter_${unique()}`, name: 'Recruiter', description: '', is_builtin: false, permissions: JSON.stringify({ users: [{ authority: 'edit', scope: 'all' }] }), version: 1, created_at: now, updated_at: now });
    const recruiter = await createTestUser(db, { companyId: company.id, roleIds: [roleId] });
    const naming = await request<ErrorBody>('/api/accounts/provision', { method: 'POST', headers: bearer(recruiter), json: { email: newEmail(), firstName: 'A', lastName: 'B', roleKeys: ['admin'] } });
    expect(naming.status).toBe(403);
    expect(naming.body.message).toBe('Naming roles needs the roles permission (edit).');
    const plain = await provision(recruiter, { email: newEmail(), firstName: 'Ed', lastName: 'Employee' });
    expect(plain.status).toBe(201);
    expect(plain.body.data.user.roles.map((role) => role.key)).toEqual(['employee']);
  });

  it('makes candidates without roles, and refuses roles for them', async () => {
    const admin = company.users.admin as TestUser;
    const candidate = await provision(admin, { email: newEmail('candidate'), firstName: 'Cam', lastName: 'Candidate', isCandidate: true });
    expect(candidate.status).toBe(201);
    expect(candidate.body.data.user).toMatchObject({ isCandidate: true, roles: [] });
    const [mail] = await outboxFor(candidate.body.data.user.email);
    expect(mail?.text).toContain('Provisioning Co invited you to Paybench to share an offer with you.');

    const withRoles = await request<ErrorBody>('/api/accounts/provision', { method: 'POST', headers: bearer(admin), json: { email: newEmail(), firstName: 'A', lastName: 'B', isCandidate: true, roleKeys: ['employee'] } });
    expect(withRoles.status).toBe(400);
    expect(withRoles.body.errors).toEqual([{ field: 'body.roleKeys', message: 'must be empty for a candidate' }]);
  });

  it('sends nothing when asked not to', async () => {
    const email = newEmail('quiet');
    const reply = await provision(company.users.admin as TestUser, { email, firstName: 'Q', lastName: 'Uiet', sendInvitation: false });
    expect(reply.status).toBe(201);
    expect(reply.body.data.invitation).toBeNull();
    expect(await outboxFor(email)).toEqual([]);
  });

  it('is for users editors only', async () => {
    const reply = await request<ErrorBody>('/api/accounts/provision', { method: 'POST', headers: bearer(company.users.compensation_planner as TestUser), json: { email: newEmail(), firstName: 'A', lastName: 'B' } });
    expect(reply.status).toBe(403);
  });
});

describe('provisioning by internal admins', () => {
  it('creates a person in any company, signed by support', async () => {
    const email = newEmail('support-made');
    const reply = await request<{ data: Provisioned }>(`/api/internal/companies/${other.id}/accounts`, {
      method: 'POST',
      headers: bearer(support),
      json: { email, firstName: 'Sam', lastName: 'Support', roleKeys: ['admin'] },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.data.user.roles.map((role) => role.key)).toEqual(['admin']);
    const seen = await request<{ data: { email: string }[] }>(`/api/users?search=${encodeURIComponent(email)}`, { headers: bearer(other.users.admin as TestUser) });
    expect(seen.body.data.map((row) => row.email)).toEqual([email]);
    const [mail] = await outboxFor(email);
    expect(mail?.text).toContain('Paybench support added you to Other Co on Paybench.');
    const audit = await db('audit_events').where({ action: 'account.provisioned', subject_id: reply.body.data.user.id }).first<{ company_id: string; actor_user_id: string }>();
    expect(audit).toMatchObject({ company_id: other.id, actor_user_id: support.id });
  });

  it('answers 404 for a company that does not exist and 403 to everyone else', async () => {
    const missing = await request<ErrorBody>('/api/internal/companies/no-such-company/accounts', { method: 'POST', headers: bearer(support), json: { email: newEmail(), firstName: 'A', lastName: 'B' } });
    expect(missing.status).toBe(404);
    const outsider = await request<ErrorBody>(`/api/internal/companies/${other.id}/accounts`, { method: 'POST', headers: bearer(company.users.admin as TestUser), json: { email: newEmail(), firstName: 'A', lastName: 'B' } });
    expect(outsider.status).toBe(403);
  });
});

describe('creating a company with its first admin (internal admins)', () => {
  type Created = components['schemas']['CompanyWithAdmin'];
  const create = (caller: TestUser, json: Record<string, unknown>) =>
    request<{ data: Created } & ErrorBody>('/api/internal/companies', { method: 'POST', headers: bearer(caller), json });

  it('creates the company and an admin who is invited, sets a password and signs in as its admin', async () => {
    const email = newEmail('participant-admin');
    const name = `Participant ${unique()}`;
    const reply = await create(support, { company: { name, domains: ['participant.test'], currency: 'EUR' }, admin: { email, firstName: 'Pat', lastName: 'Participant' } });
    expect(reply.status).toBe(201);
    const { company: made, admin } = reply.body.data;
    expect(made).toMatchObject({ name, domains: ['participant.test'], settings: { currency: 'EUR' } });
    expect(admin.user).toMatchObject({ email, firstName: 'Pat', lastName: 'Participant' });
    expect(admin.user.roles.map((role) => role.key)).toEqual(['admin']);
    expect(admin.invitation?.sentTo).toBe(email);

    const [mail] = await outboxFor(email);
    expect(mail?.subject).toBe(`You're invited to ${name} on Paybench`);
    expect(mail?.text).toContain(`Paybench support added you to ${name} on Paybench.`);
    const link = linkIn(mail?.text ?? '');
    const password = `a participant passphrase ${unique()}`;
    expect((await new Browser(baseUrl()).visit(link.pathname, { form: { password } })).response.status).toBe(200);
    const config = await discover(baseUrl(), WEB_CLIENT);
    const tokens = await signInWithCode(new Browser(baseUrl()), config, baseUrl(), { email, password });
    const me = await request<{ data: Person }>('/api/me', { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(me.body.data).toMatchObject({ email, companyId: made.id });
    // As the company's admin they may manage its users.
    const users = await request<{ data: { email: string }[] }>('/api/users', { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    expect(users.status).toBe(200);
    expect(users.body.data.map((row) => row.email)).toEqual([email]);
  });

  it('creates nothing when the admin address is taken, and is for internal admins only', async () => {
    const name = `Taken ${unique()}`;
    const taken = await create(support, { company: { name }, admin: { email: (company.users.admin as TestUser).email, firstName: 'A', lastName: 'B' } });
    expect(taken.status).toBe(409);
    // Positive control below: the same name goes through with a free address, so it was the address.
    expect(Number((await db('companies').where({ name }).count<{ n: number | string }[]>({ n: '*' }).first())?.n)).toBe(0);
    expect((await create(support, { company: { name }, admin: { email: newEmail(), firstName: 'A', lastName: 'B' } })).status).toBe(201);

    const refused = await create(company.users.admin as TestUser, { company: { name: `Nope ${unique()}` }, admin: { email: newEmail(), firstName: 'A', lastName: 'B' } });
    expect(refused.status).toBe(403);
    const badCurrency = await create(support, { company: { name: `Bad ${unique()}`, currency: 'XYZ' }, admin: { email: newEmail(), firstName: 'A', lastName: 'B' } });
    expect(badCurrency.status).toBe(400);
  });
});
