import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';

type Settings = components['schemas']['CompanySettings'];

describe('company settings', () => {
  let company: TestCompany;
  beforeAll(async () => {
    company = await createTestCompany(await testDb());
  });

  it('start at the spec’s defaults and carry a version as ETag', async () => {
    const reply = await request<{ data: Settings }>('/api/company/settings', { headers: bearer(company.users.employee!) });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ currency: 'USD', sharePrice: 0, valuation: null, exercisePrice: null, version: 1 });
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
    expect(first.body.data).toEqual({ currency: 'USD', sharePrice: 12.345678, valuation: 250000000.5, exercisePrice: 0.0523, version: 2 });

    const stale = await request<ErrorBody>('/api/company/settings', { method: 'PATCH', headers: { ...admin, 'If-Match': '"1"' }, json: { sharePrice: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'version_conflict', title: 'Something went wrong' });
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

  it('are readable by every member but changed only with companySettings edit', async () => {
    const reply = await request<ErrorBody>('/api/company/settings', { method: 'PATCH', headers: { ...bearer(company.users.compensation_planner!), 'If-Match': '"1"' }, json: { sharePrice: 1 } });
    expect(reply.status).toBe(403);
  });
});

describe('the company', () => {
  it('is its members’ own, with tags and onboarding', async () => {
    const company = await createTestCompany(await testDb(), 'Initech');
    const reply = await request<{ data: { id: string; name: string; isDemo: boolean } }>('/api/company', { headers: bearer(company.users.analyst!) });
    expect(reply.body.data).toMatchObject({ id: company.id, name: 'Initech', isDemo: false });
    const tags = await request<{ data: string[] }>('/api/company/enterprise-tags', { headers: bearer(company.users.analyst!) });
    expect(tags.body.data).toEqual([]);
    const step = await request<{ data: { completedSteps: string[] } }>('/api/company/onboarding', {
      method: 'POST',
      headers: bearer(company.users.admin!),
      json: { step: 'currency' },
    });
    expect(step.body.data.completedSteps).toEqual(['currency']);
  });
});
