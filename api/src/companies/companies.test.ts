import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Settings = components['schemas']['CompanySettings'];

describe('company settings', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(await testDb());
  });

  it('start at the spec’s defaults and carry a version as ETag', async () => {
    const reply = await request<{ data: Settings }>('/api/company/settings', { headers: bearer(company.users.compensation_planner!) });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ currency: 'USD', sharePrice: 0, valuation: null, exercisePrice: null, stockExchange: null, version: 1 });
    expect(reply.headers.get('etag')).toBe('"1"');
  });

  it('change with If-Match; a stale version is refused with 409 and nothing is overwritten', async () => {
    const admin = bearer(company.users.admin!);
    const first = await request<{ data: Settings }>('/api/company/settings', {
      method: 'PATCH',
      headers: { ...admin, 'If-Match': '"1"' },
      json: { sharePrice: 12.345678, valuation: 250000000.5, exercisePrice: 0.0523 },
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ currency: 'USD', sharePrice: 12.345678, valuation: 250000000.5, exercisePrice: 0.0523, stockExchange: null, version: 2 });
    expect(first.headers.get('etag')).toBe('"2"');

    const stale = await request<ErrorBody>('/api/company/settings', { method: 'PATCH', headers: { ...admin, 'If-Match': '"1"' }, json: { sharePrice: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_conflict', title: 'Something went wrong', message: 'Someone else changed these settings first. Reload and try again.' });
    expect(stale.headers.get('etag')).toBe('"2"');
    const after = await request<{ data: Settings }>('/api/company/settings', { headers: admin });
    expect(after.body.data.sharePrice).toBe(12.345678);
  });

  it('need If-Match at all: 428 without it', async () => {
    const reply = await request<ErrorBody>('/api/company/settings', { method: 'PATCH', headers: bearer(company.users.admin!), json: { sharePrice: 3 } });
    expect(reply.status).toBe(428);
    expect(reply.body).toMatchObject({ code: 'precondition_required', title: 'Something went wrong' });
  });

  it('keep the valuation when the currency changes minor units', async () => {
    const admin = bearer(company.users.admin!);
    const current = await request<{ data: Settings }>('/api/company/settings', { headers: admin });
    const yen = await request<{ data: Settings }>('/api/company/settings', {
      method: 'PATCH',
      headers: { ...admin, 'If-Match': `"${current.body.data.version}"` },
      json: { currency: 'JPY', valuation: 9000000000 },
    });
    expect(yen.body.data).toMatchObject({ currency: 'JPY', valuation: 9000000000 });
    const unknown = await request<ErrorBody>('/api/company/settings', {
      method: 'PATCH',
      headers: { ...admin, 'If-Match': `"${yen.body.data.version}"` },
      json: { currency: 'XYZ' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Unknown currency code XYZ');
  });

  it('are changed only with companySettings edit', async () => {
    const reply = await request<ErrorBody>('/api/company/settings', { method: 'PATCH', headers: { ...bearer(company.users.compensation_planner!), 'If-Match': '"1"' }, json: { sharePrice: 1 } });
    expect(reply.status).toBe(403);
  });
});

describe('the company', () => {
  it('is its members’ own, with tags and onboarding', async () => {
    const company = await createTestCompany(await testDb(), 'Initech');
    const reply = await request<{ data: { id: string; name: string; isDemo: boolean } }>('/api/company', { headers: bearer(company.users.compensation_planner!) });
    expect(reply.body.data).toMatchObject({ id: company.id, name: 'Initech', isDemo: false });
    const tags = await request<{ data: string[] }>('/api/company/enterprise-tags', { headers: bearer(company.users.compensation_planner!) });
    expect(tags.body.data).toEqual([]);
    const step = await request<{ data: { completedSteps: string[] } }>('/api/company/onboarding', {
      method: 'POST',
      headers: bearer(company.users.admin!),
      json: { step: 'currency' },
    });
    expect(step.body.data.completedSteps).toEqual(['currency']);
  });
});

describe('creating a company', () => {
  it('makes its creator the admin and brings along the API tokens they made before', async () => {
    const founder = await createTestUser(await testDb(), { companyId: null });
    const made = await request<{ data: { id: string } }>('/api/me/api-tokens', { method: 'POST', headers: bearer(founder), json: { name: 'before the company' } });
    expect(made.status).toBe(201);
    const created = await request<{ data: { id: string; name: string } }>('/api/companies', { method: 'POST', headers: bearer(founder), json: { name: 'Founded Co' } });
    expect(created.status).toBe(201);
    const me = await request<{ data: { companyId: string; companyRolesV2: { key: string }[] } }>('/api/me', { headers: bearer(founder) });
    expect(me.body.data.companyId).toBe(created.body.data.id);
    expect(me.body.data.companyRolesV2.map((role) => role.key)).toEqual(['admin']);
    // Both the factory's token and the one made before: still listed, and still revocable, inside the company.
    const tokens = await request<{ data: { id: string; name: string }[] }>('/api/me/api-tokens', { headers: bearer(founder) });
    expect(tokens.body.data.map((token) => token.name).sort()).toEqual(['before the company', 'test']);
    const revoked = await request(`/api/me/api-tokens/${made.body.data.id}`, { method: 'DELETE', headers: bearer(founder) });
    expect(revoked.status).toBe(200);
    const again = await request<ErrorBody>('/api/companies', { method: 'POST', headers: bearer(founder), json: { name: 'Second Co' } });
    expect(again.status).toBe(409);
  });
});
