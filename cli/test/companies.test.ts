import { beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { baseUrl, request } from '../../api/test/http.js';
import type { components } from '../../api/src/contract-types.js';
import { freshConfigHome, paybench } from './support.js';

type Outbox = components['schemas']['OutboxEmail'][];

describe('paybench companies create', () => {
  let support: TestUser;
  let admin: TestUser;
  const unique = (): string => Math.random().toString(36).slice(2, 10);
  const as = (user: TestUser) => ({ PAYBENCH_URL: baseUrl(), PAYBENCH_TOKEN: user.token, XDG_CONFIG_HOME: freshConfigHome() });

  beforeAll(async () => {
    const db = await testDb();
    support = await createTestUser(db, { companyId: null, internalAdmin: true });
    admin = (await createTestCompany(db)).users.admin as TestUser;
  });

  it('creates a company with its first admin, prints its id and invites the admin', async () => {
    const email = `first-admin-${unique()}@participant.test`;
    const name = `CLI Participant ${unique()}`;
    const run = paybench(['companies', 'create', '--name', name, '--domain', 'participant.test', '--currency', 'gbp', '--admin-email', email, '--admin-first-name', 'Fay', '--admin-last-name', 'First'], as(support));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const id = run.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await request<{ data: components['schemas']['AccountSummary'][] }>(`/api/internal/companies?search=${encodeURIComponent(name)}`, { headers: bearer(support) });
    expect(listed.body.data.map((company) => [company.companyId, company.companyName])).toEqual([[id, name]]);
    const outbox = await request<{ data: Outbox }>(`/api/internal/outbox?to=${encodeURIComponent(email)}`, { headers: bearer(support) });
    expect(outbox.body.data.map((mail) => mail.subject)).toEqual([`You're invited to ${name} on Paybench`]);
  });

  it('says why with exit 2 for bad input, and refuses anyone but internal admins', () => {
    const args = ['companies', 'create', '--name', `Nope ${unique()}`, '--admin-email', `x-${unique()}@participant.test`, '--admin-first-name', 'A', '--admin-last-name', 'B'];
    const currency = paybench([...args, '--currency', 'euro'], as(support));
    expect(currency.code).toBe(2);
    expect(currency.stderr).toContain('--currency: "euro" is not a three-letter ISO 4217 code.');
    const missing = paybench(['companies', 'create', '--name', 'No admin'], as(support));
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("required option '--admin-email <email>' not specified");
    const taken = paybench([...args.slice(0, 4), '--admin-email', admin.email, ...args.slice(6)], as(support));
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('409');
    const outsider = paybench(args, as(admin));
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toContain('403');
  });

  it('adds a person with roles to a customer’s company, prints their id and invites them', async () => {
    const db = await testDb();
    const customer = await createTestCompany(db, `CLI Customer ${unique()}`);
    const email = `new-planner-${unique()}@customer.test`;
    const run = paybench(['companies', 'add-person', customer.id, '--email', email, '--first-name', 'Pia', '--last-name', 'Planner', '--role', 'compensation_planner,employee'], as(support));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const id = run.stdout.trim();
    const person = await db('users').where({ id }).first<{ email: string; company_id: string } | undefined>();
    expect(person).toMatchObject({ email, company_id: customer.id });
    const held = await db('user_roles').join('roles', 'roles.id', 'user_roles.role_id').where('user_roles.user_id', id).pluck<string[]>('roles.key');
    expect(held.sort()).toEqual(['compensation_planner', 'employee']);
    const outbox = await request<{ data: Outbox }>(`/api/internal/outbox?to=${encodeURIComponent(email)}`, { headers: bearer(support) });
    expect(outbox.body.data).toHaveLength(1);
    // A candidate holds no roles; a company admin is not support staff.
    const both = paybench(['companies', 'add-person', customer.id, '--email', `c-${unique()}@customer.test`, '--first-name', 'C', '--last-name', 'D', '--candidate', '--role', 'employee'], as(support));
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('A candidate holds no roles');
    const outsider = paybench(['companies', 'add-person', customer.id, '--email', `o-${unique()}@customer.test`, '--first-name', 'O', '--last-name', 'P'], as(admin));
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toContain('403');
  });
});
