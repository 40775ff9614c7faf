import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';
import type { components } from '../contract-types.js';
import { buildInProcess } from './build.js';
import { queryRelease } from './engine/index.js';
import { NO_CONTRIBUTION } from './participation/contribution.js';
import { DEMO_SEED, demoRecords } from './releases.js';
import { ENGINEERS_US, EVERYWHERE_US, jobEnded } from './test/requests.js';

type Schemas = components['schemas'];
type Result = Schemas['BenchmarkResult'];

const ALLOWED = [10, 25, 40, 50, 60, 75, 90];
const ALLOWED_MESSAGE = 'must be one of: 10, 25, 40, 50, 60, 75, 90';
/** The one statement every withheld answer carries, whichever part of the rule failed. */
const STATEMENT = 'Fewer than 5 companies or 10 employees, or one company above 25%';
const BELOW = { id: 'below_threshold', label: 'Below the threshold', min: 0, max: null };
const WITHHELD_SAMPLE = { companies: null, employees: null, companyBucket: BELOW, employeeBucket: BELOW };

const level = (id: string) => ({ type: 'level', id });
const EXECUTIVE = { founderTypes: ['non_founder'], jobTitles: ['cto'], marketFilters: [{ industries: ['ind_all'] }], compensationTypes: ['base'] };

/**
 * A demo cell the privacy rule publishes with few records (machine-learning engineers at P1 in
 * Austin: 12 records from 8 companies in the demo release), the kind a percentile sweep rebuilds.
 */
const SMALL_CELL = {
  compensationTypes: ['base'],
  marketFilters: [{ ...EVERYWHERE_US, locations: ['us_austin'] }],
  jobFamilies: ['machine_learning_engineering'],
  levels: [level('p1')],
};

/** PERCENTILE.INC as weights on the sorted values x0 … x(n−1): the published value is Σ wᵢ·xᵢ. */
function weights(n: number, percent: number): number[] {
  const scaled = (n - 1) * percent;
  const lower = Math.floor(scaled / 100);
  const fraction = (scaled - lower * 100) / 100;
  const row = new Array<number>(n).fill(0);
  row[lower] = 1 - fraction;
  if (fraction > 0) row[lower + 1] = fraction;
  return row;
}

/** How many of the equations are independent (Gaussian elimination with partial pivoting). */
function rankOf(rows: number[][]): number {
  const m = rows.map((row) => [...row]);
  const columns = m[0]?.length ?? 0;
  let rank = 0;
  for (let column = 0; column < columns && rank < m.length; column++) {
    let pivot = rank;
    for (let r = rank + 1; r < m.length; r++) if (Math.abs(m[r]![column]!) > Math.abs(m[pivot]![column]!)) pivot = r;
    if (Math.abs(m[pivot]![column]!) < 1e-9) continue;
    [m[rank], m[pivot]] = [m[pivot]!, m[rank]!];
    for (let r = 0; r < m.length; r++) {
      if (r === rank) continue;
      const factor = m[r]![column]! / m[rank]![column]!;
      for (let c = column; c < columns; c++) m[r]![c]! -= factor * m[rank]![c]!;
    }
    rank++;
  }
  return rank;
}

let company: TestCompany;
let analyst: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Privacy Co');
  analyst = company.users.analyst as TestUser;
});

const post = <T>(path: string, json: unknown, user: TestUser = analyst) => request<T>(path, { method: 'POST', headers: bearer(user), json });
const errorsOf = (reply: { body: unknown }) => (reply.body as ErrorBody).errors;

describe('only the product’s percentiles', () => {
  it('are accepted wherever percentiles are asked for; any other is 400 naming the allowed ones', async () => {
    const admin = company.users.admin as TestUser;
    const refused: [string, unknown, string, TestUser?][] = [
      ['/api/benchmarking/market-data', { ...ENGINEERS_US, percentiles: [50, 33] }, 'body.percentiles.1'],
      ['/api/benchmarking/market-data/exports', { request: { ...ENGINEERS_US, percentiles: [1] } }, 'body.request.percentiles.0'],
      ['/api/benchmarking/saved-queries', { name: 'Sweep', request: { ...ENGINEERS_US, percentiles: [99] } }, 'body.request.percentiles.0', admin],
      ['/api/benchmarking/compare', { queries: [{ request: ENGINEERS_US }, { request: ENGINEERS_US }], percentiles: [5] }, 'body.percentiles.0'],
      ['/api/benchmarking/compare', { queries: [{ request: { ...ENGINEERS_US, percentiles: [95] } }, { request: ENGINEERS_US }] }, 'body.queries.0.request.percentiles.0'],
      ['/api/benchmarking/shares', { title: 'Sweep', request: { ...ENGINEERS_US, percentiles: [45] } }, 'body.request.percentiles.0', admin],
      ['/api/benchmarking/shares/executive', { title: 'Sweep', request: { ...EXECUTIVE, percentiles: [12] } }, 'body.request.percentiles.0', admin],
      ['/api/benchmarking/executive-comp/market-data', { ...EXECUTIVE, percentiles: [1] }, 'body.percentiles.0'],
      ['/api/benchmarking/offer-insights', { jobFamilyId: 'software_engineering', level: level('p3'), locationId: '840', percentiles: [33] }, 'body.percentiles.0'],
    ];
    for (const [path, json, field, user] of refused) {
      const reply = await post(path, json, user);
      expect(reply.status, `${path} ${JSON.stringify(json)}`).toBe(400);
      expect(errorsOf(reply), path).toContainEqual({ field, message: ALLOWED_MESSAGE });
    }
    const filters = await request<{ data: Schemas['BenchmarkingFilters'] }>('/api/benchmarking/filters', { headers: bearer(analyst) });
    expect(filters.body.data.percentiles).toEqual(ALLOWED);
    const all = await post<{ data: Result }>('/api/benchmarking/market-data', { ...ENGINEERS_US, percentiles: ALLOWED });
    expect(all.status).toBe(200);
    expect(all.body.data.percentiles).toEqual(ALLOWED);
  });

  it('defeat a percentile sweep: of p1–p99 only the seven are answered, and seven values cannot pin a published cell’s records', async () => {
    const answered: number[] = [];
    let cell: Schemas['BenchmarkCell'] | undefined;
    for (let percent = 1; percent <= 99; percent++) {
      const reply = await post<{ data: Result }>('/api/benchmarking/market-data', { ...SMALL_CELL, percentiles: [percent] });
      if (reply.status === 200) {
        answered.push(percent);
        cell = reply.body.data.cells[0];
        continue;
      }
      expect(reply.status, `p${percent}`).toBe(400);
      expect(errorsOf(reply)).toEqual([{ field: 'body.percentiles.0', message: ALLOWED_MESSAGE }]);
    }
    expect(answered).toEqual(ALLOWED);
    // The cell is published, so it holds at least 10 records: n unknown salaries.
    expect(cell?.status).toBe('published');
    // It holds 12 records (the differencing test below rebuilds it); the published count is a multiple
    // of five, never below the rule's 10, moved off 12 by at most the records' count weights (3 each)
    // and the rounding (docs/market-privacy.md).
    const n = 12;
    expect(cell?.sample.employees).toBeGreaterThanOrEqual(10);
    expect(cell?.sample.employees).toBeLessThan(n + 3 * n + 5);
    expect((cell?.sample.employees ?? 0) % 5).toBe(0);
    // Every answer is one linear equation in the sorted salaries. The seven allowed ones are at
    // most 7 independent equations in 12 unknowns: at least 5 directions stay free, so endless
    // different payrolls publish the same seven numbers.
    const seven = ALLOWED.map((p) => weights(n, p));
    expect(rankOf(seven)).toBe(7);
    expect(n - rankOf(seven)).toBe(5);
    // The lowest and the highest salary are in no equation at all (p10 reads ranks 1–2, p90 ranks 9–10).
    expect(seven.every((row) => row[0] === 0 && row[n - 1] === 0)).toBe(true);
    // The refused sweep would have been n independent equations: every salary, solved exactly.
    const sweep = Array.from({ length: 99 }, (_, i) => weights(n, i + 1));
    expect(rankOf(sweep)).toBe(n);
  });

  it('a saved query stored with other percentiles reads and runs with the allowed ones only', async () => {
    const db = await testDb();
    const created = await post<{ data: Schemas['SavedReportQuery'] }>('/api/benchmarking/saved-queries', { name: 'Stored before', request: ENGINEERS_US }, company.users.admin as TestUser);
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    await db('market_saved_queries').where({ id }).update({ request: JSON.stringify({ ...ENGINEERS_US, percentiles: [1, 50, 99] }) });
    const read = await request<{ data: Schemas['SavedReportQuery'] }>(`/api/benchmarking/saved-queries/${id}`, { headers: bearer(analyst) });
    expect(read.body.data.request.percentiles).toEqual([50]);
    const run = await request<{ data: Result }>(`/api/benchmarking/saved-queries/${id}/results`, { headers: bearer(analyst) });
    expect(run.status).toBe(200);
    expect(run.body.data.percentiles).toEqual([50]);
    expect(new Set(run.body.data.cells.flatMap((c) => (c.percentiles ?? []).map((p) => p.percentile)))).toEqual(new Set([50]));
    // Nothing allowed left: the query answers the product's seven, as one naming none would.
    await db('market_saved_queries').where({ id }).update({ request: JSON.stringify({ ...ENGINEERS_US, percentiles: [33] }) });
    const compared = await post<{ data: Schemas['CompareResult'] }>('/api/benchmarking/compare', { queries: [{ savedQueryId: id }, { request: { ...ENGINEERS_US, percentiles: [50] } }] });
    expect(compared.status).toBe(200);
    expect(compared.body.data.percentiles).toEqual(ALLOWED);
  });

  it('a slice shared before reads with the allowed percentiles only, and its withheld cells coarse', async () => {
    const db = await testDb();
    const thin = { ...EVERYWHERE_US, locations: ['us_pittsburgh'] };
    const created = await post<{ data: Schemas['SharedSlice'] }>('/api/benchmarking/shares', { title: 'Shared before', request: { ...ENGINEERS_US, marketFilters: [EVERYWHERE_US, thin], levels: [level('p3'), level('s1')] } }, company.users.admin as TestUser);
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    // What an older version stored: an off-list percentile, and a withheld cell narrowed by its reason and buckets.
    const row = await db('market_shared_slices').where({ id }).first<{ request: string; result: string }>();
    // Typed as stored, not as the contract allows today.
    const stored = JSON.parse(row.result) as { percentiles: number[]; cells: (Omit<Schemas['BenchmarkCell'], 'percentiles'> & { percentiles: { percentile: number; value: number }[] | null })[] };
    const older = {
      ...stored,
      percentiles: [25, 33, 50, 75],
      cells: stored.cells.map((cell) =>
        cell.status === 'published'
          ? { ...cell, percentiles: [...(cell.percentiles ?? []), { percentile: 33, value: 1 }] }
          : { ...cell, insufficientReason: 'companies', sample: { ...cell.sample, companyBucket: { id: 'companies_0_4', label: '0–4', min: 0, max: 4 }, employeeBucket: { id: 'employees_10_49', label: '10–49', min: 10, max: 49 } } },
      ),
    };
    await db('market_shared_slices').where({ id }).update({ result: JSON.stringify(older), request: JSON.stringify({ ...JSON.parse(row.request), percentiles: [25, 33, 50, 75] }) });
    const read = await request<{ data: Schemas['SharedSliceView'] }>(`/api/shares/${id}`, { headers: bearer(analyst) });
    expect(read.status, JSON.stringify(read.body).slice(0, 300)).toBe(200);
    const { slice, result } = read.body.data;
    expect((slice.request as Schemas['BenchmarkRequest']).percentiles).toEqual([25, 50, 75]);
    expect(result.percentiles).toEqual([25, 50, 75]);
    expect(new Set(result.cells.flatMap((c) => (c.percentiles ?? []).map((p) => p.percentile)))).toEqual(new Set([25, 50, 75]));
    const withheld = result.cells.filter((c) => c.status === 'insufficient_data');
    expect(withheld.length).toBeGreaterThan(0);
    for (const cell of withheld) expect(cell).toMatchObject({ label: 'Insufficient data', insufficientReason: STATEMENT, percentiles: null, sample: WITHHELD_SAMPLE });
  });
});

describe('withheld cells', () => {
  it('say "Insufficient data" and one fixed statement, with nothing that tells which condition failed', async () => {
    // Software engineers in Pittsburgh: S1 has under 5 companies, M5 under 10 employees, and at P1
    // one company holds over a quarter of the records.
    const reply = await post<{ data: Result }>('/api/benchmarking/market-data', {
      compensationTypes: ['base'],
      marketFilters: [{ ...EVERYWHERE_US, locations: ['us_pittsburgh'] }],
      jobFamilies: ['software_engineering'],
      levels: [level('s1'), level('m5'), level('p1')],
    });
    expect(reply.status).toBe(200);
    const cells = reply.body.data.cells;
    expect(cells).toHaveLength(3);
    for (const cell of cells) {
      expect(cell).toMatchObject({ status: 'insufficient_data', label: 'Insufficient data', insufficientReason: STATEMENT, percentiles: null, consistency: null, sample: WITHHELD_SAMPLE });
    }
    const { levelId: _s1, ...first } = cells[0]!;
    for (const { levelId: _level, ...other } of cells) expect(other).toEqual(first);
  });

  it('read the same in location insights and equity practices', async () => {
    const insights = await post<{ data: Schemas['LocationInsights'] }>('/api/benchmarking/location-insights', { jobFamilies: ['software_engineering'], levels: [level('s1')], locations: ['us_pittsburgh'] });
    expect(insights.status).toBe(200);
    expect(insights.body.data.rows[0]?.locations[0]).toMatchObject({ status: 'insufficient_data', label: 'Insufficient data', insufficientReason: STATEMENT, p50: null, sample: WITHHELD_SAMPLE });
    const practices = await post<{ data: Schemas['EquityPractices'] }>('/api/benchmarking/equity-practices', { companyStages: ['public'], companyOwnershipGroups: ['venture_backed'] });
    expect(practices.body.data).toMatchObject({ status: 'insufficient_data', label: 'Insufficient data', insufficientReason: STATEMENT, sample: WITHHELD_SAMPLE });
  });
});

describe('the currency of an answer', () => {
  it('is local, or any currency the reference rates hold; another code is 400', async () => {
    const ukOnly = { compensationTypes: ['base'], marketFilters: [{ ...EVERYWHERE_US, locations: ['826'] }], jobFamilies: ['software_engineering'], levels: [level('p3')], percentiles: [50] };
    const filters = (await request<{ data: Schemas['BenchmarkingFilters'] }>('/api/benchmarking/filters', { headers: bearer(analyst) })).body.data;
    const gbp = filters.currencyForexMapping.GBP ?? NaN;
    const eur = filters.currencyForexMapping.EUR ?? NaN;
    const local = await post<{ data: Result }>('/api/benchmarking/market-data', ukOnly);
    const euros = await post<{ data: Result }>('/api/benchmarking/market-data', { ...ukOnly, currency: 'EUR' });
    expect(euros.status, JSON.stringify(euros.body).slice(0, 300)).toBe(200);
    expect(euros.body.data.currencyMode).toBe('EUR');
    expect(euros.body.data.cells[0]?.currency).toBe('EUR');
    const median = (result: Result) => result.cells[0]?.percentiles?.[0]?.value ?? NaN;
    // The same move converted, each answer at three significant figures.
    expect(Math.abs(median(euros.body.data) - (median(local.body.data) / gbp) * eur) / median(euros.body.data)).toBeLessThan(0.011);
    const unknown = await post('/api/benchmarking/market-data', { ...ukOnly, currency: 'XYZ' });
    expect(unknown.status).toBe(400);
    expect(errorsOf(unknown)?.[0]?.field).toBe('body.currency');
    expect(errorsOf(unknown)?.[0]?.message).toMatch(/^must be local or a currency with an exchange rate: .*\bEUR\b/);
  });
});

/**
 * Its own server with a small demo market (25 companies), where whole industries, stages and metros
 * hold fewer companies or employees than the rule needs.
 */
describe('data composition of a thin market', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let reader: TestUser;
  const get = <T>(path: string) => request<T>(path, { base: server.url, headers: bearer(reader) });

  beforeAll(async () => {
    server = await startTestServer({}, { demoMarketRecords: 5_000 });
    reader = (await createTestCompany(await testDb(server.env), 'Thin Market Co')).users.analyst as TestUser;
  });
  afterAll(() => server.stop());

  // Rounded down: to a multiple of five under 100, to two significant figures from 100.
  const twoFigures = (n: number) => (n < 100 ? 5 * Math.floor(n / 5) : Math.floor(n / 10 ** (Math.floor(Math.log10(n)) - 1)) * 10 ** (Math.floor(Math.log10(n)) - 1));

  it('prints groups below the threshold without numbers, and the others rounded down (fives under 100, two figures above)', async () => {
    const companies = (await get<{ data: Schemas['CompanyComposition'] }>('/api/benchmarking/data-composition/companies')).body.data;
    // One insurer with 425 employees: a count would name the company's headcount.
    expect(companies.industries.find((e) => e.id === 'ind_fin_insurance')).toEqual({ id: 'ind_fin_insurance', name: 'Insurance', belowThreshold: true, ...WITHHELD_SAMPLE });
    // Four cybersecurity companies: one short of the rule.
    expect(companies.industries.find((e) => e.id === 'ind_tech_cybersecurity')?.belowThreshold).toBe(true);
    // The whole market: 25 companies, 5,000 employees.
    expect([companies.companies, companies.employees]).toEqual([25, 5000]);
    const locations = (await get<{ data: Schemas['LocationComposition'] }>('/api/benchmarking/data-composition/locations')).body.data.locations;
    const families = (await get<{ data: Schemas['JobFamilyComposition'] }>('/api/benchmarking/data-composition/jobfamilies')).body.data;
    // Published groups, rounded down: software engineering holds 1,055 records of 25 companies, the US 3,762 of 23 (published as 20).
    expect(families.jobFamilies.find((e) => e.id === 'software_engineering')).toMatchObject({ belowThreshold: false, companies: 25, employees: 1000 });
    expect(locations.find((e) => e.id === '840')).toMatchObject({ belowThreshold: false, companies: 20, employees: 3700 });
    const entries = [...companies.industries, ...companies.companyStages, ...companies.ownershipGroups, ...families.jobFamilies, ...families.levels, ...locations];
    expect(entries.some((e) => e.belowThreshold)).toBe(true);
    for (const entry of entries) {
      if (entry.belowThreshold) {
        expect(entry, entry.id).toMatchObject(WITHHELD_SAMPLE);
        continue;
      }
      expect(entry.companies, entry.id).toBeGreaterThanOrEqual(5);
      expect(entry.employees, entry.id).toBeGreaterThanOrEqual(10);
      expect(entry.companies).toBe(twoFigures(entry.companies ?? NaN));
      expect(entry.employees).toBe(twoFigures(entry.employees ?? NaN));
    }
    // Edinburgh: 3 companies behind 799 employees.
    expect(locations.find((e) => e.id === 'gb_edinburgh')).toMatchObject({ belowThreshold: true, companies: null, employees: null });
  });

  it('the same in the report, the marketing page and the filters’ industry coverage', async () => {
    const releaseId = (await get<{ data: Schemas['MarketDataReports'] }>('/api/benchmarking/market-data-reports')).body.data.releases.find((r) => r.serving)?.releaseId;
    const started = await request<{ data: Schemas['BackgroundJob'] }>('/api/benchmarking/market-data-reports', { base: server.url, method: 'POST', headers: bearer(reader), json: { releaseId, report: 'data_composition' } });
    expect(started.status).toBe(202);
    const job = await jobEnded(async () => (await get<{ data: Schemas['BackgroundJob'] }>(`/api/background-jobs/${started.body.data.id}`)).body.data);
    expect(job.status).toBe('succeeded');
    const file = await (await fetch(`${server.url}/api/downloads/${job.downloadId}`, { headers: bearer(reader) })).text();
    const lines = file.trim().split(/\r?\n/);
    expect(lines[0]).toBe('Release,Dimension,Id,Companies,Employees');
    expect(lines.find((line) => line.includes(',ind_fin_insurance,'))).toMatch(/,Industry,ind_fin_insurance,Below the threshold,Below the threshold$/);
    const marketing = (await request<{ data: Schemas['MarketingComposition'] }>('/api/benchmarking/data-composition/marketing', { base: server.url })).body.data;
    expect(marketing.industries.find((e) => e.id === 'ind_fin_insurance')).toMatchObject({ companyBucket: BELOW, employeeBucket: BELOW });
    const filters = (await get<{ data: Schemas['BenchmarkingFilters'] }>('/api/benchmarking/filters')).body.data;
    const insurance = filters.industriesAndSubIndustriesWithIds.flatMap((g) => g.subIndustries).find((s) => s.upstreamId === 'ind_fin_insurance');
    expect(insurance?.coverageMetadata).toMatchObject({ companyCountBucket: 'Below the threshold', employeeCountBucket: 'Below the threshold' });
  });
});

describe('differencing', () => {
  it('is answered with figures moved off the records: a small published cell’s percentiles are not its exact statistics, the same on every repeat and in order', async () => {
    // The demo release the server published, built again here: the same generator, seed and size.
    const demo = buildInProcess({ id: 'demo-again', builtAt: new Date().toISOString(), seed: DEMO_SEED, records: demoRecords(), contribution: NO_CONTRIBUTION });
    const all = { ...SMALL_CELL, percentiles: ALLOWED };
    const exact = queryRelease(demo, all as Parameters<typeof queryRelease>[1], { disclosure: false }).cells[0];
    const served = await post<{ data: Result }>('/api/benchmarking/market-data', all);
    expect(served.status).toBe(200);
    const cell = served.body.data.cells[0];
    // The same 12 records, their counts rounded to a multiple of five by a keyed draw (5 or 10 for 5 to
    // 9 companies), the head count after adding the records' count weights (at most 3 each), never below 10…
    expect(cell?.sample.employees).toBeGreaterThanOrEqual(10);
    expect(cell?.sample.employees).toBeLessThan((exact?.sample.employees ?? 0) * 4 + 5);
    expect(Math.abs((cell?.sample.companies ?? 0) - (exact?.sample.companies ?? 0))).toBeLessThanOrEqual(4);
    expect([(cell?.sample.employees ?? 0) % 5, (cell?.sample.companies ?? 0) % 5]).toEqual([0, 0]);
    expect(exact?.sample.employees).toBe(12);
    // …answered with figures that none of the exact statistics equals, each within the cell’s range.
    const moved = cell?.percentiles?.map((p) => p.value) ?? [];
    const exactValues = exact?.percentiles?.map((p) => p.value) ?? [];
    expect(moved).toHaveLength(7);
    moved.forEach((value, i) => expect(value, `p${ALLOWED[i]}`).not.toBe(exactValues[i]));
    expect(moved).toEqual([...moved].sort((a, b) => a - b));
    // Published at three significant figures.
    moved.forEach((value) => expect(Number(value.toPrecision(3))).toBe(value));
    const spread = exactValues[6]! - exactValues[0]!;
    moved.forEach((value, i) => expect(Math.abs(value - exactValues[i]!)).toBeLessThan(spread));
    const again = await post<{ data: Result }>('/api/benchmarking/market-data', all);
    expect(again.body.data.cells[0]).toEqual(cell);
    // Asking for one percentile gives the same figure as asking for all seven.
    const alone = await post<{ data: Result }>('/api/benchmarking/market-data', { ...SMALL_CELL, percentiles: [50] });
    expect(alone.body.data.cells[0]?.percentiles).toEqual([{ percentile: 50, value: moved[3] }]);
  });
});
