import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Profile = components['schemas']['CompanyProfile'];
type Text = components['schemas']['ErrorScreenText'];

/* The spec's remote override of the error screen's title and description, set by an internal admin per company. */
describe('a company’s error-screen text', () => {
  let customer: TestCompany;
  let other: TestCompany;
  let support: TestUser;
  beforeAll(async () => {
    const db = await testDb();
    customer = await createTestCompany(db, 'Incident Co');
    other = await createTestCompany(db, 'Incident Neighbour');
    support = await createTestUser(db, { companyId: (await createTestCompany(db, 'Incident Support Home')).id, internalAdmin: true });
  });

  const url = (companyId: string) => `/api/internal/companies/${companyId}/error-screen`;
  const profileOf = async (company: TestCompany) => (await request<{ data: Profile }>('/api/company/profile', { headers: bearer(company.users.employee!) })).body.data;

  it('is set by an internal admin, read by every member in the company profile, and cleared again', async () => {
    expect((await request<{ data: Text | null }>(url(customer.id), { headers: bearer(support) })).body.data).toBeNull();
    expect((await profileOf(customer)).errorScreen).toBeUndefined();

    const text = { title: '  We are fixing an outage ', description: 'Pay figures are back within the hour. Nothing you saved is lost.' };
    const set = await request<{ data: Text }>(url(customer.id), { method: 'PUT', headers: bearer(support), json: { text } });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ title: 'We are fixing an outage', description: text.description });
    expect((await request<{ data: Text | null }>(url(customer.id), { headers: bearer(support) })).body.data).toEqual(set.body.data);
    expect((await profileOf(customer)).errorScreen).toEqual(set.body.data);
    // Another company's members see nothing of it.
    expect((await profileOf(other)).errorScreen).toBeUndefined();

    const cleared = await request<{ data: null }>(url(customer.id), { method: 'PUT', headers: bearer(support), json: { text: null } });
    expect(cleared.body.data).toBeNull();
    expect((await profileOf(customer)).errorScreen).toBeUndefined();
  });

  it('refuses a blank title, an over-long one, a company admin and an unknown company', async () => {
    const blank = await request<ErrorBody>(url(customer.id), { method: 'PUT', headers: bearer(support), json: { text: { title: '   ', description: 'Back soon.' } } });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual([{ field: 'body.text.title', message: 'must not be blank' }]);
    const long = await request<ErrorBody>(url(customer.id), { method: 'PUT', headers: bearer(support), json: { text: { title: 'x'.repeat(121), description: 'Back soon.' } } });
    expect(long.status).toBe(400);
    const admin = await request<ErrorBody>(url(customer.id), { method: 'PUT', headers: bearer(customer.users.admin!), json: { text: null } });
    expect(admin.status).toBe(403);
    const unknown = await request<ErrorBody>(url('00000000000000000000000000'), { method: 'PUT', headers: bearer(support), json: { text: null } });
    expect(unknown.status).toBe(404);
  });
});
