import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type User = components['schemas']['User'];
type AccountSummary = components['schemas']['AccountSummary'];

/* The company's guests (candidates who sign in to read their offers) and a person's own company accounts. */
describe('guests and accounts', () => {
  let company: TestCompany;
  let other: TestCompany;
  let guest: TestUser;
  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db);
    other = await createTestCompany(db);
    guest = await createTestUser(db, { companyId: company.id, candidate: true, email: `guest-${company.id.slice(-6)}@candidates.test` });
    await createTestUser(db, { companyId: other.id, candidate: true });
  });

  it('lists the company’s guests only, not its users nor another company’s guests', async () => {
    const reply = await request<{ data: User[] }>('/api/users/guests', { headers: bearer(company.users.admin!) });
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((user) => user.email)).toEqual([guest.email]);
    expect(reply.body.data[0]).toMatchObject({ id: guest.id, isCandidate: true, status: 'active' });
    // Guests are not on the users list.
    const users = await request<{ data: User[] }>('/api/users', { headers: bearer(company.users.admin!) });
    expect(users.body.data.some((user) => user.id === guest.id)).toBe(false);
  });

  it('needs the users permission to list guests', async () => {
    const refused = await request<ErrorBody>('/api/users/guests', { headers: bearer(company.users.employee!) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
  });

  it('answers each person with the company account they are in', async () => {
    const mine = await request<{ data: AccountSummary[] }>('/api/me/accounts', { headers: bearer(company.users.employee!) });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual([expect.objectContaining({ companyId: company.id, isDemo: false })]);
    const theirs = await request<{ data: AccountSummary[] }>('/api/me/accounts', { headers: bearer(other.users.admin!) });
    expect(theirs.body.data.map((account) => account.companyId)).toEqual([other.id]);
    const anonymous = await request<ErrorBody>('/api/me/accounts');
    expect(anonymous.status).toBe(401);
  });
});
