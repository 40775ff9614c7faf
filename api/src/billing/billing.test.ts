import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Schemas = components['schemas'];

describe('buying premium benchmarking', () => {
  let company: TestCompany;
  let other: TestCompany;
  let admin: TestUser;
  let support: TestUser;

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'Premium Buyer Co');
    other = await createTestCompany(db, 'Other Buyer Co');
    admin = company.users.admin as TestUser;
    support = await createTestUser(db, { companyId: null, internalAdmin: true });
  });

  const premium = (user: TestUser) => request<{ data: Schemas['PremiumBenchmarking'] }>('/api/benchmarking/premium', { headers: bearer(user) });
  const checkout = (user: TestUser, json: unknown) => request<{ data: Schemas['CheckoutSession'] }>('/api/benchmarking/checkout-session', { method: 'POST', headers: bearer(user), json });
  const requests = (query = '') => request<{ data: Schemas['CheckoutRequest'][] }>(`/api/internal/checkout-requests${query}`, { headers: bearer(support) });

  it('records an invoice request for Paybench staff, once, and an internal admin fulfilling it switches premium on', async () => {
    expect((await premium(admin)).body.data).toEqual({ premium: false, since: null, openRequest: null });

    const session = await checkout(admin, { plan: 'premium_annual' });
    expect(session.status, JSON.stringify(session.body)).toBe(201);
    expect(session.body.data).toMatchObject({ kind: 'invoiceRequested', invoiceTo: admin.email, plan: 'premium_annual' });
    const reference = session.body.data.kind === 'invoiceRequested' ? session.body.data.reference : '';
    expect(reference).toMatch(/^PB-[0-9A-F]{8}$/);

    // The company sees its request waiting; an analyst (benchmarking view) sees it too.
    const waiting = await premium(company.users.analyst as TestUser);
    expect(waiting.body.data).toMatchObject({ premium: false, openRequest: { reference, plan: 'premium_annual', invoiceTo: admin.email } });

    const again = await checkout(admin, { plan: 'premium_monthly' });
    expect(again.status).toBe(409);
    expect((again.body as unknown as ErrorBody)).toMatchObject({ code: 'request_open', message: 'Your company has already asked for premium benchmarking; Paybench will send the invoice.' });

    const listed = await requests('?status=requested');
    const row = listed.body.data.find((r) => r.reference === reference);
    expect(row).toMatchObject({ company: { id: company.id, name: 'Premium Buyer Co' }, plan: 'premium_annual', requestedBy: { id: admin.id, email: admin.email }, status: 'requested', fulfilledAt: null, fulfilledBy: null });
    if (!row) throw new Error('the request is not listed');

    const fulfilled = await request<{ data: Schemas['CheckoutRequest'] }>(`/api/internal/checkout-requests/${row.id}/fulfil`, { method: 'POST', headers: bearer(support) });
    expect(fulfilled.status).toBe(200);
    expect(fulfilled.body.data.status).toBe('fulfilled');
    expect(fulfilled.body.data.fulfilledAt).not.toBeNull();

    const now = (await premium(admin)).body.data;
    expect(now.premium).toBe(true);
    expect(now.since).toBe(fulfilled.body.data.fulfilledAt);
    expect(now.openRequest).toBeNull();
    // The other company still has none.
    expect((await premium(other.users.admin as TestUser)).body.data.premium).toBe(false);

    const twice = await request<ErrorBody>(`/api/internal/checkout-requests/${row.id}/fulfil`, { method: 'POST', headers: bearer(support) });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('already_fulfilled');
    const bought = await checkout(admin, { plan: 'premium_annual' });
    expect(bought.status).toBe(409);
    expect((bought.body as unknown as ErrorBody).message).toBe('Your company already has premium benchmarking.');
    expect((await requests('?status=requested')).body.data.some((r) => r.reference === reference)).toBe(false);
    expect((await requests('?status=fulfilled')).body.data.some((r) => r.reference === reference)).toBe(true);
  });

  it('refuses an unknown plan, people without benchmarking edit, and the internal list to customers', async () => {
    const unknown = await checkout(other.users.admin as TestUser, { plan: 'lifetime' });
    expect(unknown.status).toBe(400);
    expect((await checkout(other.users.analyst as TestUser, { plan: 'premium_annual' })).status).toBe(403);
    expect((await request('/api/internal/checkout-requests', { headers: bearer(other.users.admin as TestUser) })).status).toBe(403);
    expect((await request('/api/internal/checkout-requests/0190a0a0-0000-7000-8000-000000000000/fulfil', { method: 'POST', headers: bearer(support) })).status).toBe(404);
  });
});
