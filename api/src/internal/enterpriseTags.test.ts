import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Tags = components['schemas']['CompanyEnterpriseTags'];
type Flag = components['schemas']['ReleaseFlag'];

const enabled = (flags: Flag[]): string[] => flags.filter((f) => f.enabled).map((f) => f.flag).sort();

describe('enterprise tags (customer segments)', () => {
  let customer: TestCompany;
  let other: TestCompany;
  let support: TestUser;
  beforeAll(async () => {
    const db = await testDb();
    customer = await createTestCompany(db, 'Segment Co');
    other = await createTestCompany(db, 'Segment Neighbour');
    const home = await createTestCompany(db, 'Segment Support Home');
    support = await createTestUser(db, { companyId: home.id, internalAdmin: true });
  });

  it('an internal admin sets a company tag; its segment flags follow, the company reads its tags, no one else may set them', async () => {
    const url = `/api/internal/companies/${customer.id}/enterprise-tags`;
    const before = await request<{ data: Tags }>(url, { headers: bearer(support) });
    expect(before.body.data.tags).toEqual([]);
    // Defaults: benchmarking and release_job_manager_page on, nothing else.
    expect(enabled(before.body.data.flags)).toEqual(['benchmarking', 'release_job_manager_page']);
    expect(before.body.data.segmentFlags.find((s) => s.tag === 'pricing_packaging_customer')?.flags).toEqual(['bands', 'market_pricing']);

    const set = await request<{ data: Tags }>(url, { method: 'PUT', headers: bearer(support), json: { tags: ['pricing_packaging_customer'] } });
    expect(set.status).toBe(200);
    expect(set.body.data.tags).toEqual(['pricing_packaging_customer']);
    expect(enabled(set.body.data.flags)).toEqual(['bands', 'benchmarking', 'market_pricing', 'release_job_manager_page']);

    // The company's own admin reads the tags, and its people now have the bands module.
    const own = await request<{ data: string[] }>('/api/company/enterprise-tags', { headers: bearer(customer.users.admin!) });
    expect(own.body.data).toEqual(['pricing_packaging_customer']);
    const modules = await request<{ data: { module: string; available: boolean }[] }>('/api/me/modules', { headers: bearer(customer.users.admin!) });
    expect(modules.body.data.find((m) => m.module === 'bands')?.available).toBe(true);
    // The neighbour is untouched.
    const neighbour = await request<{ data: string[] }>('/api/company/enterprise-tags', { headers: bearer(other.users.admin!) });
    expect(neighbour.body.data).toEqual([]);

    const refused = await request<ErrorBody>(url, { method: 'PUT', headers: bearer(customer.users.admin!), json: { tags: ['admin_saas_customers'] } });
    expect(refused.status).toBe(403);
    const unknown = await request<ErrorBody>(url, { method: 'PUT', headers: bearer(support), json: { tags: ['gold'] } });
    expect(unknown.status).toBe(400);
    const missing = await request<ErrorBody>('/api/internal/companies/0190a000-0000-7000-8000-000000000000/enterprise-tags', { method: 'PUT', headers: bearer(support), json: { tags: [] } });
    expect(missing.status).toBe(404);
  });

  it('a tag removed switches its flags off unless a remaining tag ties them; a flag set by hand stays until the tags change', async () => {
    const url = `/api/internal/companies/${other.id}/enterprise-tags`;
    const both = await request<{ data: Tags }>(url, { method: 'PUT', headers: bearer(support), json: { tags: ['admin_saas_customers', 'pricing_packaging_customer'] } });
    expect(enabled(both.body.data.flags)).toEqual(['bands', 'benchmarking', 'budgets', 'compensation_planning', 'market_pricing', 'offer_letters', 'release_job_manager_page', 'team_view', 'total_rewards']);
    // By hand: total rewards off for this company.
    await request(`/api/internal/companies/${other.id}/release-flags/total_rewards`, { method: 'PUT', headers: bearer(support), json: { enabled: false } });
    const kept = await request<{ data: Tags }>(url, { headers: bearer(support) });
    expect(kept.body.data.flags.find((f) => f.flag === 'total_rewards')?.enabled).toBe(false);

    const saasOnly = await request<{ data: Tags }>(url, { method: 'PUT', headers: bearer(support), json: { tags: ['admin_saas_customers'] } });
    // pricing's bands and market pricing go off; the SaaS flags stay (total rewards as set by hand, since its tag stayed).
    expect(enabled(saasOnly.body.data.flags)).toEqual(['benchmarking', 'budgets', 'compensation_planning', 'offer_letters', 'release_job_manager_page', 'team_view']);
    const none = await request<{ data: Tags }>(url, { method: 'PUT', headers: bearer(support), json: { tags: [] } });
    expect(enabled(none.body.data.flags)).toEqual(['benchmarking', 'release_job_manager_page']);
  });
});
