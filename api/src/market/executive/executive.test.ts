import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import type { components } from '../../contract-types.js';
import { EVERYWHERE_US } from '../test/requests.js';

type Schemas = components['schemas'];
type Result = Schemas['ExecutiveCompResult'];

let company: TestCompany;
let analyst: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Executive Comp Co');
  analyst = company.users.analyst as TestUser;
});

const query = (json: unknown, user: TestUser = analyst) => request<{ data: Result }>('/api/benchmarking/executive-comp/market-data', { method: 'POST', headers: bearer(user), json });

describe('executive compensation queries', () => {
  it('answer every rule of the spec with its message', async () => {
    const empty = await query({});
    expect(empty.status).toBe(400);
    expect((empty.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.founderTypes', message: 'Please select at least one founder type' },
      { field: 'body.jobTitles', message: 'Please select at least one job title' },
      { field: 'body.marketFilters', message: 'Please select at least one market filter' },
    ]);
    const noIndustry = await query({ founderTypes: ['founder'], jobTitles: ['ceo', 'chief_vibes'], marketFilters: [{ locations: ['840'] }], compensationTypes: ['new_hire_equity'] });
    expect((noIndustry.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.jobTitles', message: "Unknown job title 'chief_vibes'" },
      { field: 'body.marketFilters[0].industries', message: 'Please select at least one industry' },
      { field: 'body.equity.intendedVsActual', message: 'Please select at least one option' },
      { field: 'body.equity.views', message: 'Please select at least one equity view' },
      { field: 'body.equity.timeframes', message: 'Please select at least one timeframe' },
    ]);
    const unknownFounder = await query({ founderTypes: ['cofounder'], jobTitles: ['ceo'], marketFilters: [{ industries: ['ind_all'] }] });
    expect((unknownFounder.body as unknown as ErrorBody).errors).toEqual([{ field: 'body.founderTypes', message: "Unknown founder type 'cofounder'" }]);
  });

  it('prices each title at its family and level, founders apart from hired executives', async () => {
    const filters = [{ industries: ['ind_all'] }];
    const founders = await query({ founderTypes: ['founder'], jobTitles: ['cto', 'vp_engineering'], marketFilters: filters, compensationTypes: ['base', 'total_cash'], percentiles: [50] });
    const hired = await query({ founderTypes: ['non_founder'], jobTitles: ['cto'], marketFilters: filters, compensationTypes: ['base'], percentiles: [50] });
    expect(founders.status, JSON.stringify(founders.body).slice(0, 300)).toBe(200);
    expect(founders.body.data.rows.map((r) => [r.titleId, r.jobFamilyId, r.levelId, r.cells.length])).toEqual([
      ['cto', 'software_engineering', 'e9', 2],
      ['vp_engineering', 'software_engineering', 'e7', 2],
    ]);
    const median = (cell: Schemas['BenchmarkCell'] | undefined) => cell?.percentiles?.find((p) => p.percentile === 50)?.value ?? NaN;
    const founderCto = founders.body.data.rows[0]?.cells.find((c) => c.compensationTypeId === 'base');
    const hiredCto = hired.body.data.rows[0]?.cells[0];
    expect(founderCto?.status).toBe('published');
    expect(hiredCto?.status).toBe('published');
    // Founders take less cash than the executives companies hire.
    expect(median(founderCto)).toBeLessThan(median(hiredCto));
    // The same cell the data explorer answers for that family, level and founder type.
    const explorer = await request<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', {
      method: 'POST',
      headers: bearer(analyst),
      json: { compensationTypes: ['base'], marketFilters: [{ ...EVERYWHERE_US, founderTypes: ['non_founder'] }], jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'e9' }], percentiles: [50] },
    });
    expect(hiredCto).toEqual(explorer.body.data.cells[0]);
  });

  it('withholds thin cells as "Insufficient data"', async () => {
    const thin = await query({ founderTypes: ['non_founder'], jobTitles: ['ciso'], marketFilters: [{ industries: ['ind_services_education'], companyStages: ['seed'], locations: ['826'] }] });
    expect(thin.status).toBe(200);
    for (const cell of thin.body.data.rows[0]?.cells ?? []) {
      expect(cell).toMatchObject({ status: 'insufficient_data', label: 'Insufficient data', percentiles: null, sample: { companies: null, employees: null } });
    }
  });

  it('finds catalog titles from what people type, fuzzily', async () => {
    const search = (text: string) => request<{ data: Schemas['ExecutiveTitleMatch'][] }>(`/api/benchmarking/executive-comp/titles?search=${encodeURIComponent(text)}`, { headers: bearer(analyst) });
    const typo = await search('Chief Tehcnology Oficer');
    expect(typo.body.data[0]).toMatchObject({ titleId: 'cto', levelId: 'e9', matchedText: 'Chief Technology Officer' });
    const alias = await search('Head of Eng');
    expect(alias.body.data[0]?.titleId).toBe('vp_engineering');
    expect(new Set(alias.body.data.map((m) => m.titleId)).size).toBe(alias.body.data.length);
    const missing = await request<ErrorBody>('/api/benchmarking/executive-comp/titles', { headers: bearer(analyst) });
    expect(missing.status).toBe(400);
    const employee = await request<ErrorBody>('/api/benchmarking/executive-comp/titles?search=CEO', { headers: bearer(company.users.employee as TestUser) });
    expect(employee.status).toBe(403);
  });
});
