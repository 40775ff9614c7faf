import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import type { components } from '../../contract-types.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../../reference/catalog/index.js';

type Schemas = components['schemas'];
type Insights = Schemas['LocationInsights'];

let company: TestCompany;
let analyst: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Location Insights Co');
  analyst = company.users.analyst as TestUser;
});

const insights = (json: unknown, user: TestUser = analyst) => request<{ data: Insights }>('/api/benchmarking/location-insights', { method: 'POST', headers: bearer(user), json });
const ENGINEERS = { jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }, { type: 'level', id: 'p4' }] };
// Seed-stage cybersecurity companies: too few for most places to publish.
const THIN_MARKET = { companyStages: ['seed', 'series_a'], industries: ['ind_tech_cybersecurity'] };

describe('location insights', () => {
  it('give each location’s median against the reference for the same roles, in USD, with samples', async () => {
    const reply = await insights({ ...ENGINEERS, locations: ['840_1', '826', 'us_pittsburgh'] });
    expect(reply.status, JSON.stringify(reply.body).slice(0, 400)).toBe(200);
    const { rows, referenceLocation, currency, synthetic } = reply.body.data;
    expect(referenceLocation).toEqual({ id: '840', name: 'United States' });
    expect(currency).toBe('USD');
    expect(synthetic).toMatchObject({ enabled: false, used: false });
    expect(rows.map((r) => r.levelId)).toEqual(['p3', 'p4']);
    const explorer = await request<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', {
      method: 'POST',
      headers: bearer(analyst),
      json: {
        compensationTypes: ['base'],
        marketFilters: ['840', '840_1', '826'].map((location) => ({ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'], locations: [location] })),
        jobFamilies: ['software_engineering'],
        levels: [{ type: 'level', id: 'p3' }],
        percentiles: [50],
        currency: 'USD',
      },
    });
    const median = (index: number) => explorer.body.data.cells[index]?.percentiles?.[0]?.value ?? NaN;
    const p3 = rows[0]!;
    expect(p3.reference).toMatchObject({ locationId: '840', status: 'published', source: 'market', differential: 1, differentialPercent: 0 });
    expect(p3.reference.p50).toBe(median(0));
    const tierOne = p3.locations[0]!;
    expect(tierOne.p50).toBe(median(1));
    expect(tierOne.differential).toBeCloseTo(median(1) / median(0), 4);
    expect(tierOne.differential).toBeGreaterThan(1.05);
    const uk = p3.locations[1]!;
    expect(uk).toMatchObject({ locationId: '826', locationName: 'United Kingdom', status: 'published' });
    expect(uk.differential).toBeLessThan(0.9);
    expect(uk.differentialPercent).toBeCloseTo(((uk.differential ?? 0) - 1) * 100, 0);
    expect(tierOne.sample.employees).toBeGreaterThanOrEqual(10);
  });

  it('withhold thin places as "Insufficient data" without the synthetic option', async () => {
    const reply = await insights({ ...ENGINEERS, locations: ['us_kansas_city', 'de_hamburg'], marketFilter: THIN_MARKET });
    expect(reply.status).toBe(200);
    const withheld = reply.body.data.rows.flatMap((r) => r.locations).filter((c) => c.status !== 'published');
    expect(withheld.length).toBeGreaterThan(0);
    for (const cell of withheld) {
      expect(cell).toMatchObject({ status: 'insufficient_data', source: null, label: 'Insufficient data', p50: null, differential: null, differentialPercent: null, sample: { companies: null, employees: null } });
    }
  });

  it('fill withheld places from the location’s pay index when the company chose synthetic data, and say so', async () => {
    const other = await createTestCompany(await testDb(), 'Synthetic Location Co');
    const admin = other.users.admin as TestUser;
    const settings = { overrideBaseCompensationRequirement: false, overrideEquityRequirement: false, useSyntheticLocationInsightsData: true, location: null };
    expect((await request('/api/benchmarking/settings', { method: 'PUT', headers: bearer(admin), json: settings })).status).toBe(200);
    const json = { ...ENGINEERS, locations: ['us_kansas_city', 'de_hamburg'], marketFilter: THIN_MARKET };
    const plain = (await insights(json)).body.data;
    const filled = (await insights(json, other.users.analyst as TestUser)).body.data;
    expect(filled.synthetic).toMatchObject({ enabled: true, used: true });
    filled.rows.forEach((row, r) => {
      row.locations.forEach((cell, l) => {
        const before = plain.rows[r]!.locations[l]!;
        if (before.status === 'published') {
          expect(cell).toEqual(before);
        } else {
          expect(cell).toMatchObject({ status: 'synthetic', source: 'synthetic', sample: before.sample });
          expect(cell.label).toMatch(/^Synthetic estimate: .+’s pay index across all roles, applied to this role$/);
          expect(cell.differential).toBeGreaterThan(0.3);
          expect(cell.differential).toBeLessThan(1.5);
        }
      });
    });
    // Hamburg pays less than the US average whatever the role: its index says so.
    const hamburg = filled.rows[0]!.locations[1]!;
    expect(hamburg.differential).toBeLessThan(1);
    // A candidate never loads the company's benchmarking settings, so sees no synthetic data.
    const candidate = await createTestUser(await testDb(), { companyId: other.id, roleIds: [other.roleIds.get('admin') ?? ''], candidate: true });
    const asCandidate = (await insights(json, candidate)).body.data;
    expect(asCandidate.synthetic.enabled).toBe(false);
    expect(asCandidate.rows).toEqual(plain.rows);
  });

  it('check the request with the explorer’s messages, named after its own fields', async () => {
    const empty = await insights({ jobFamilies: [], levels: [], locations: [] });
    expect(empty.status).toBe(400);
    expect((empty.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.locations', message: 'Please select at least one location' },
      { field: 'body.jobFamilies', message: 'Please select at least one job family' },
      { field: 'body.levels', message: 'Please select at least one level option' },
    ]);
    const wrong = await insights({ ...ENGINEERS, locations: ['atlantis'], referenceLocationId: 'mars', compensationType: 'new_hire_equity', marketFilter: { industries: [] } });
    expect((wrong.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.compensationType', message: 'Location insights compare a cash comp type or total equity' },
      { field: 'body.referenceLocationId', message: "Unknown location 'mars'" },
      { field: 'body.marketFilter.industries', message: 'Please select at least one industry' },
      { field: 'body.locations', message: "Unknown location 'atlantis'" },
      { field: 'body.equity.intendedVsActual', message: 'Please select at least one option' },
      { field: 'body.equity.views', message: 'Please select at least one equity view' },
      { field: 'body.equity.timeframes', message: 'Please select at least one timeframe' },
    ]);
    expect((await insights({ ...ENGINEERS, locations: ['840_1'] }, company.users.employee as TestUser)).status).toBe(403);
  });
});

describe('equity practices', () => {
  type Practices = Schemas['EquityPractices'];
  const practices = (json: unknown, user: TestUser = analyst) => request<{ data: Practices }>('/api/benchmarking/equity-practices', { method: 'POST', headers: bearer(user), json });

  it('describe how participants grant equity, narrowed by stage, ownership and industry', async () => {
    const all = await practices({});
    expect(all.status, JSON.stringify(all.body).slice(0, 300)).toBe(200);
    expect(all.body.data.status).toBe('published');
    const sum = (list: Practices['cliffs']) => (list ?? []).reduce((n, s) => n + s.companies, 0);
    const companies = all.body.data.sample.companies ?? 0;
    expect(companies).toBeGreaterThan(100);
    for (const section of [all.body.data.vestingSchedules, all.body.data.cliffs, all.body.data.grantTypes, all.body.data.vestingFrequencies]) expect(sum(section)).toBe(companies);
    expect(all.body.data.grantTiming?.find((t) => t.id === 'at_hire')?.share).toBe(1);
    const rsu = (p: Practices) => p.grantTypes?.find((t) => t.id === 'rsu')?.share ?? NaN;
    const listed = await practices({ companyStages: ['public'], companyOwnershipGroups: ['public'] });
    const early = await practices({ companyStages: ['seed', 'series_a'], industries: ['ind_technology'] });
    expect(rsu(listed.body.data)).toBeGreaterThan(rsu(early.body.data) + 0.5);
  });

  it('withhold a filter matching too few companies', async () => {
    const none = await practices({ companyStages: ['public'], companyOwnershipGroups: ['venture_backed'] });
    expect(none.body.data).toMatchObject({ status: 'insufficient_data', label: 'Insufficient data', insufficientReason: 'Fewer than 5 companies or 10 employees, or one company above 25%', grantTypes: null, sample: { companies: null } });
  });

  it('check filters with the explorer’s messages and need benchmarking view', async () => {
    const wrong = await practices({ companyStages: [], industries: ['ind_moon_mining'] });
    expect((wrong.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.companyStages', message: 'Please select at least one company stage' },
      { field: 'body.industries', message: "Unknown industry 'ind_moon_mining'" },
    ]);
    expect((await practices({}, company.users.employee as TestUser)).status).toBe(403);
  });
});
