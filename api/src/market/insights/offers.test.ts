import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import type { components } from '../../contract-types.js';
import { COMPANY_STAGES, FOUNDER_TYPES, OWNERSHIP_GROUPS } from '../../reference/catalog/index.js';

type Schemas = components['schemas'];

let company: TestCompany;
let analyst: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Offer Insights Co');
  analyst = company.users.analyst as TestUser;
});

const offer = (json: unknown, user: TestUser = analyst) => request<{ data: Schemas['OfferInsights'] }>('/api/benchmarking/offer-insights', { method: 'POST', headers: bearer(user), json });
const ROLE = { jobFamilyId: 'software_engineering', level: { type: 'level', id: 'p3' }, locationId: 'us_sf_bay_area' };

describe('offer insights', () => {
  it('give base, total cash and new-hire equity for a role and place, as the explorer does, with the spread', async () => {
    const reply = await offer({ ...ROLE, percentiles: [10, 90] });
    expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200);
    const insight = reply.body.data;
    expect(insight.percentiles).toEqual([10, 25, 50, 75, 90]);
    expect(insight.base).toMatchObject({ compensationTypeId: 'base', status: 'published', currency: 'USD' });
    expect(insight.newHireEquity).toMatchObject({ compensationTypeId: 'new_hire_equity', equityOption: { intendedVsActual: 'intended', view: 'value', timeframe: 'total_grant' } });
    const explorer = await request<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', {
      method: 'POST',
      headers: bearer(analyst),
      json: {
        compensationTypes: ['base', 'total_cash', 'new_hire_equity'],
        marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'], locations: ['us_sf_bay_area'], founderTypes: FOUNDER_TYPES.map((f) => f.id) }],
        jobFamilies: ['software_engineering'],
        levels: [{ type: 'level', id: 'p3' }],
        equity: { intendedVsActual: ['intended'], views: ['value'], timeframes: ['total_grant'] },
        percentiles: [10, 25, 50, 75, 90],
      },
    });
    expect([insight.base, insight.totalCash, insight.newHireEquity]).toEqual(explorer.body.data.cells);
    // The demo market is generated, and each part says how much of it is (the panel shows "Demo data").
    expect([insight.base.syntheticShare, insight.totalCash.syntheticShare, insight.newHireEquity.syntheticShare]).toEqual([1, 1, 1]);
    const value = (p: number) => insight.base.percentiles?.find((v) => v.percentile === p)?.value ?? NaN;
    const spread = insight.spread.base;
    expect(spread).toEqual({
      p25: value(25),
      p50: value(50),
      p75: value(75),
      interquartileRange: value(75) - value(25),
      interquartilePercentOfMedian: Math.round(((value(75) - value(25)) / value(50)) * 1000) / 10,
      competitiveRange: { low: value(50), high: value(75) },
      likelyDeclinedBelow: value(25),
    });
    // Equity spreads far wider than cash.
    expect(insight.spread.newHireEquity?.interquartilePercentOfMedian).toBeGreaterThan(spread?.interquartilePercentOfMedian ?? Infinity);
  });

  it('withhold a thin market and give no spread for it', async () => {
    const reply = await offer({ ...ROLE, locationId: 'us_kansas_city', marketFilter: { companyStages: ['seed'], industries: ['ind_tech_cybersecurity'] } });
    expect(reply.status).toBe(200);
    for (const cell of [reply.body.data.base, reply.body.data.totalCash, reply.body.data.newHireEquity]) {
      expect(cell).toMatchObject({ status: 'insufficient_data', label: 'Insufficient data', percentiles: null });
    }
    expect(reply.body.data.spread).toEqual({ base: null, totalCash: null, newHireEquity: null });
  });

  it('check the role with the explorer’s messages, named after its own fields', async () => {
    const wrong = await offer({ jobFamilyId: 'alchemy', level: { type: 'rank', id: 'p3' }, locationId: 'atlantis', marketFilter: { companyOwnershipGroups: [] } });
    expect((wrong.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.jobFamilyId', message: "Unknown job family 'alchemy'" },
      { field: 'body.level', message: 'Level type must be level or levelBlend' },
      { field: 'body.marketFilter.companyOwnershipGroups', message: 'Please select at least one company ownership group' },
      { field: 'body.locationId', message: "Unknown location 'atlantis'" },
    ]);
    const missing = await offer({ jobFamilyId: 'software_engineering' });
    expect((missing.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.level', message: 'is required' },
      { field: 'body.locationId', message: 'is required' },
    ]);
    expect((await offer(ROLE, company.users.employee as TestUser)).status).toBe(403);
  });
});
