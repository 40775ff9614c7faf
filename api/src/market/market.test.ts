import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';
import { BENCHMARK_REQUEST_MESSAGES } from './engine/index.js';

type Schemas = components['schemas'];
type Filters = Schemas['BenchmarkingFilters'];
type Result = Schemas['BenchmarkResult'];

const EVERYWHERE = {
  companyStages: COMPANY_STAGES.map((s) => s.id),
  companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id),
  locations: ['840', '124', '150'],
  industries: ['ind_all'],
};

const TYPICAL = {
  compensationTypes: ['base', 'total_cash'],
  marketFilters: [EVERYWHERE, { ...EVERYWHERE, locations: ['826'] }],
  jobFamilies: ['software_engineering', 'bg_engineering'],
  levels: [
    { type: 'level', id: 'p3' },
    { type: 'levelBlend', id: 'lb_p4_m4' },
    { type: 'level', id: 'e9' },
  ],
};

let company: TestCompany;
let admin: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Benchmarking Co');
  admin = company.users.admin as TestUser;
});

describe('benchmarking filters', () => {
  it('lists every section of the spec, none empty, with USD-based forex from the reference rates', async () => {
    const reply = await request<{ data: Filters }>('/api/benchmarking/filters', { headers: bearer(admin) });
    expect(reply.status).toBe(200);
    const filters = reply.body.data;
    for (const [section, value] of Object.entries(filters)) {
      expect(Array.isArray(value) ? value.length : Object.keys(value).length, section).toBeGreaterThan(0);
    }
    expect(filters.percentiles).toEqual([10, 25, 40, 50, 60, 75, 90]);
    expect(filters.compTypes.cash.map((t) => t.id)).toContain('base');
    expect(filters.compTypes.equity.map((t) => t.id)).toContain('total_equity');
    expect(filters.currencyForexMapping.USD).toBe(1);
    expect(filters.currencyForexMapping.GBP).toBeGreaterThan(0.5);
    expect(filters.currencyForexMapping.GBP).toBeLessThan(1);
    expect(filters.levelsWithIds.levelTracks.map((t) => t.id)).toEqual(expect.arrayContaining(['tr_s', 'tr_p', 'tr_m', 'tr_vp', 'tr_c']));
    expect(filters.levelsWithIds.levelBlends.find((b) => b.id === 'lb_p4_m4')?.groupedLevels).toEqual(['p4', 'm4']);
    expect(filters.industriesAndSubIndustriesWithIds[0]?.subIndustries.length).toBeGreaterThan(0);
    // Founder types are named here, so a saved market that asks for them reads "Founder", not "founder".
    expect(filters.founderTypesWithIds.map((t) => [t.id, t.displayString])).toEqual([['founder', 'Founder'], ['non_founder', 'Non-founder']]);
  });

  it('offers the marketing variant without sign-in and without premium equity views', async () => {
    const reply = await request<{ data: Filters }>('/api/benchmarking/filters/marketing');
    expect(reply.status).toBe(200);
    expect(reply.body.data.equityViewOptions.every((v) => !v.isPremium)).toBe(true);
    expect(reply.body.data.equityViewOptions.length).toBeGreaterThan(0);
  });

  it('is refused to people without the benchmarking permission', async () => {
    const reply = await request<ErrorBody>('/api/benchmarking/filters', { headers: bearer(company.users.employee as TestUser) });
    expect(reply.status).toBe(403);
  });
});

describe('executive-comp metadata', () => {
  it('lists titles by section with their fuzzy matches and defaults, no section empty', async () => {
    const reply = await request<{ data: Schemas['ExecutiveCompMetadata'] }>('/api/benchmarking/executive-comp/metadata', { headers: bearer(admin) });
    expect(reply.status).toBe(200);
    const metadata = reply.body.data;
    for (const [section, value] of Object.entries(metadata)) {
      expect(Array.isArray(value) ? value.length : Object.keys(value).length, section).toBeGreaterThan(0);
    }
    expect(metadata.titles.map((t) => t.section)).toEqual(['C-suite', 'Vice presidents']);
    expect(metadata.defaultTitle).toMatchObject({ id: 'ceo', levelId: 'e9' });
    expect(metadata.filterDefaults.jobTitleId).toBe('ceo');
    expect(metadata.titlesFuzzyMatches).toContainEqual({ match: 'Head of Engineering', titleId: 'vp_engineering' });
    expect(metadata.founderStatusesWithIds.map((f) => f.id)).toEqual(['founder', 'non_founder']);
  });

  it('has a marketing variant without sign-in and without premium views', async () => {
    const reply = await request<{ data: Schemas['ExecutiveCompMetadata'] }>('/api/benchmarking/executive-comp/metadata/marketing');
    expect(reply.status).toBe(200);
    expect(reply.body.data.equityViewOptions.every((v) => !v.isPremium)).toBe(true);
  });
});

describe('company benchmarking settings', () => {
  it('start from the defaults, are saved per company, and are never loaded by candidates', async () => {
    const defaults = await request<{ data: Schemas['CompanyBenchmarkingSettings'] }>('/api/benchmarking/settings', { headers: bearer(admin) });
    expect(defaults.body.data).toEqual({ overrideBaseCompensationRequirement: false, overrideEquityRequirement: false, useSyntheticLocationInsightsData: false, location: null });
    const wanted = { overrideBaseCompensationRequirement: true, overrideEquityRequirement: false, useSyntheticLocationInsightsData: true, location: 'Canada' };
    const saved = await request('/api/benchmarking/settings', { method: 'PUT', headers: bearer(admin), json: wanted });
    expect(saved).toMatchObject({ status: 200, body: { data: wanted } });
    const analyst = await request('/api/benchmarking/settings', { headers: bearer(company.users.analyst as TestUser) });
    expect(analyst.body).toEqual({ data: wanted });
    const other = await createTestCompany(await testDb(), 'Settings Neighbour');
    const theirs = await request<{ data: Schemas['CompanyBenchmarkingSettings'] }>('/api/benchmarking/settings', { headers: bearer(other.users.admin as TestUser) });
    expect(theirs.body.data.location).toBeNull();
    const wrong = await request<ErrorBody>('/api/benchmarking/settings', { method: 'PUT', headers: bearer(admin), json: { ...wanted, location: 'Mars' } });
    expect(wrong.status).toBe(400);
    const analystWrite = await request<ErrorBody>('/api/benchmarking/settings', { method: 'PUT', headers: bearer(company.users.analyst as TestUser), json: wanted });
    expect(analystWrite.status).toBe(403);
  });

  it('are refused to a candidate even with an admin role', async () => {
    const db = await testDb();
    const candidate = await createTestUser(db, { companyId: company.id, roleIds: [company.roleIds.get('admin') ?? ''], candidate: true });
    const reply = await request<ErrorBody>('/api/benchmarking/settings', { headers: bearer(candidate) });
    expect(reply.status).toBe(403);
  });
});

describe('the data explorer', () => {
  it('answers an empty request with every message of the spec', async () => {
    const reply = await request<ErrorBody>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(admin), json: {} });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(BENCHMARK_REQUEST_MESSAGES.compensationTypes);
    expect(reply.body.errors).toEqual([
      { field: 'body.compensationTypes', message: 'Please select at least one compensation type' },
      { field: 'body.marketFilters', message: 'Please select at least one market filter' },
      { field: 'body.jobFamilies', message: 'Please select at least one job family' },
      { field: 'body.levels', message: 'Please select at least one level option' },
    ]);
  });

  it('names each market filter field and the founder rule for E9', async () => {
    const reply = await request<ErrorBody>('/api/benchmarking/market-data', {
      method: 'POST',
      headers: bearer(admin),
      json: { ...TYPICAL, marketFilters: [{}], compensationTypes: ['new_hire_equity'] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([
      { field: 'body.marketFilters[0].companyStages', message: 'Please select at least one company stage' },
      { field: 'body.marketFilters[0].companyOwnershipGroups', message: 'Please select at least one company ownership group' },
      { field: 'body.marketFilters[0].locations', message: 'Please select at least one location' },
      { field: 'body.marketFilters[0].industries', message: 'Please select at least one industry' },
      { field: 'body.marketFilters[0].founderTypes', message: "Founder type is required when level 'E9' is selected" },
      { field: 'body.equity.intendedVsActual', message: 'Please select at least one option' },
      { field: 'body.equity.views', message: 'Please select at least one equity view' },
      { field: 'body.equity.timeframes', message: 'Please select at least one timeframe' },
    ]);
  });

  it('answers one cell per market filter × family × level × comp type, with ordered percentiles or "Insufficient data"', async () => {
    const json = { ...TYPICAL, marketFilters: TYPICAL.marketFilters.map((f) => ({ ...f, founderTypes: ['founder', 'non_founder'] })) };
    const reply = await request<{ data: Result }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(admin), json });
    expect(reply.status, JSON.stringify(reply.body).slice(0, 600)).toBe(200);
    const { cells, percentiles, currencyMode } = reply.body.data;
    expect(currencyMode).toBe('local');
    expect(percentiles).toEqual([10, 25, 40, 50, 60, 75, 90]);
    expect(cells).toHaveLength(2 * 2 * 3 * 2);
    const published = cells.filter((c) => c.status === 'published');
    expect(published.length).toBeGreaterThan(0);
    for (const cell of published) {
      const values = (cell.percentiles ?? []).map((p) => p.value);
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(cell.sample.companies).toBeGreaterThanOrEqual(5);
      expect(cell.sample.employees).toBeGreaterThanOrEqual(10);
      expect(cell.consistency).not.toBeNull();
    }
    for (const cell of cells.filter((c) => c.status === 'insufficient_data')) {
      expect(cell).toMatchObject({ label: 'Insufficient data', percentiles: null, sample: { companies: null, employees: null } });
    }
    const uk = published.find((c) => c.marketFilterIndex === 1);
    expect(uk?.currency).toBe('GBP');
  });

  it('converts to USD with the reference rates the filters publish', async () => {
    const ukOnly = { compensationTypes: ['base'], marketFilters: [{ ...EVERYWHERE, locations: ['826'] }], jobFamilies: ['bg_engineering'], levels: [{ type: 'level', id: 'p3' }] };
    const local = await request<{ data: Result }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(admin), json: ukOnly });
    const usd = await request<{ data: Result }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(admin), json: { ...ukOnly, currency: 'USD' } });
    const filters = await request<{ data: Filters }>('/api/benchmarking/filters', { headers: bearer(admin) });
    const gbpPerUsd = filters.body.data.currencyForexMapping.GBP ?? NaN;
    const localMedian = local.body.data.cells[0]?.percentiles?.find((p) => p.percentile === 50)?.value ?? NaN;
    const usdCell = usd.body.data.cells[0];
    expect(usdCell?.currency).toBe('USD');
    // The same move converted; each answer at three significant figures.
    const usdMedian = usdCell?.percentiles?.find((p) => p.percentile === 50)?.value ?? NaN;
    expect(Math.abs(usdMedian - localMedian / gbpPerUsd) / usdMedian).toBeLessThan(0.011);
  });

  it('names the rates a converted answer used and their date, and says when they are old', async () => {
    const ukOnly = { compensationTypes: ['base'], marketFilters: [{ ...EVERYWHERE, locations: ['826'] }], jobFamilies: ['bg_engineering'], levels: [{ type: 'level', id: 'p3' }] };
    const usd = await request<{ data: Result }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(admin), json: { ...ukOnly, currency: 'USD' } });
    // The bundled ECB file ends on 9 May 2025: 1 EUR = 1.1252 USD = 0.8477 GBP, so 1 USD = 0.8477 / 1.1252 GBP.
    expect(usd.body.data.exchangeRates).toEqual([
      { currency: 'GBP', perUsd: expect.closeTo(0.753377, 6) as number, date: '2025-05-09', source: 'ECB euro reference rates' },
      { currency: 'USD', perUsd: 1, date: '2025-05-09', source: 'ECB euro reference rates' },
    ]);
    expect(usd.body.data.exchangeRatesStale).toBe(true);
    // Into euros: pounds go through the dollar (1 USD = 1 / 1.1252 EUR).
    const eur = await request<{ data: Result }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(admin), json: { ...ukOnly, currency: 'EUR' } });
    expect(eur.body.data.exchangeRates.map((rate) => [rate.currency, Number(rate.perUsd.toFixed(6))])).toEqual([
      ['EUR', 0.888731],
      ['GBP', 0.753377],
    ]);
    // Nothing converted, nothing named.
    const local = await request<{ data: Result }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(admin), json: ukOnly });
    expect(local.body.data.exchangeRates).toEqual([]);
    expect(local.body.data.exchangeRatesStale).toBe(false);
  });
});

describe('data composition and the job catalog', () => {
  it('describes the served release by companies, job families and locations, counts rounded down to two figures', async () => {
    const companies = await request<{ data: Schemas['CompanyComposition'] }>('/api/benchmarking/data-composition/companies', { headers: bearer(admin) });
    expect(companies.status).toBe(200);
    const { industries, companies: total, employees } = companies.body.data;
    // The demo market: 750 companies and 150,000 employees, two figures already.
    expect([total, employees]).toEqual([750, 150_000]);
    expect(industries.every((e) => !e.belowThreshold)).toBe(true);
    // Rounded down, the industries add up to at most the whole.
    expect(industries.reduce((n, e) => n + (e.companies ?? 0), 0)).toBeLessThanOrEqual(750);
    const families = await request<{ data: Schemas['JobFamilyComposition'] }>('/api/benchmarking/data-composition/jobfamilies', { headers: bearer(admin) });
    expect(families.body.data.jobFamilies.reduce((n, e) => n + (e.employees ?? 0), 0)).toBeLessThanOrEqual(150_000);
    // Software engineering: 32,393 records of 720 companies.
    expect(families.body.data.jobFamilies.find((f) => f.id === 'software_engineering')).toMatchObject({ name: 'Software Engineering', companies: 720, employees: 32_000 });
    const locations = await request<{ data: Schemas['LocationComposition'] }>('/api/benchmarking/data-composition/locations', { headers: bearer(admin) });
    // The United States: 128,532 records of 723 companies.
    expect(locations.body.data.locations.find((l) => l.id === '840')).toMatchObject({ belowThreshold: false, companies: 720, employees: 120_000 });
  });

  it('counts one population in every figure of an answer: employees, unless contractors are asked for', async () => {
    const get = async <T,>(path: string) => request<{ data: T }>(`/api/benchmarking/data-composition/${path}`, { headers: bearer(admin) });
    // Employees named or not: the same answer as above.
    expect((await get<Schemas['CompanyComposition']>('companies?employmentTypes=employee')).body.data).toMatchObject({ companies: 750, employees: 150_000 });
    const both = await get<Schemas['LocationComposition']>('locations?employmentTypes=employee&employmentTypes=contractor');
    expect(both.status).toBe(200);
    expect(both.body.data.locations.find((l) => l.id === '840')).toMatchObject({ companies: 720, employees: 120_000 });
    // The demo market has no contractors: asked for them alone, every count of every answer is empty.
    const companies = await get<Schemas['CompanyComposition']>('companies?employmentTypes=contractor');
    expect(companies.body.data).toMatchObject({ companies: null, employees: null, industries: [], companyStages: [], ownershipGroups: [] });
    expect((await get<Schemas['JobFamilyComposition']>('jobfamilies?employmentTypes=contractor')).body.data).toMatchObject({ jobFamilies: [], levels: [] });
    expect((await get<Schemas['LocationComposition']>('locations?employmentTypes=contractor')).body.data.locations).toEqual([]);
    // Interns are never in the market.
    expect((await get<Schemas['LocationComposition']>('locations?employmentTypes=intern')).status).toBe(400);
  });

  it('offers the pickers only the places the served release has records in, and the regions holding them', async () => {
    // The explorer's, location insights' and the other market screens' location pickers list these.
    const reply = await request<{ data: Schemas['LocationComposition'] }>('/api/benchmarking/data-composition/locations', { headers: bearer(admin) });
    const offered = new Set(reply.body.data.locations.map((location) => location.id));
    // The demo market is generated in the catalog's metros of four countries: they, their tiers and their regions are offered …
    for (const id of ['us_boston', 'de_berlin', '840_1', '840', '124', '826', '276', '019', '150']) expect(offered, id).toContain(id);
    // … and no place without a record: Mongolia and Spain (countries of the catalog, nobody there), Africa, Asia and Oceania.
    for (const id of ['496', '724', '002', '142', '009']) expect(offered, id).not.toContain(id);
    // Exactly the locations with records: 39 metros (26 US, 5 Canadian, 4 British, 4 German), 3 US tiers, 4 countries, 2 regions.
    expect(offered.size).toBe(48);
  });

  it('finds families by the titles people hire for, fuzzily', async () => {
    const all = await request<{ data: Schemas['JobCatalogEntry'][] }>('/api/benchmarking/job-catalog', { headers: bearer(admin) });
    expect(all.body.data.some((e) => e.entityType === 'family_blend_group')).toBe(true);
    const typo = await request<{ data: Schemas['JobCatalogEntry'][] }>('/api/benchmarking/job-catalog?search=Backend%20Enginer', { headers: bearer(admin) });
    expect(typo.body.data[0]?.upstreamId).toBe('software_engineering');
    expect(typo.body.data[0]?.coverage.broadCompensationTypes).toContain('cash');
    expect(typo.body.data.length).toBeLessThan(all.body.data.length);
  });
});
