import path from 'node:path';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillPath, sampleBody } from '../../test/contractSamples.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { loadContract } from '../http/contract.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';
import { insertEmployee, insertPay } from '../team/test/fixtures.js';

type Schemas = components['schemas'];
type Data<T> = { data: T };
type Band = Schemas['Band'];
type BandSetDetail = Schemas['BandSetDetail'];

const contract = loadContract(path.resolve(import.meta.dirname, '..', '..', '..', 'openapi.yaml'));
const bandsOperations = contract.operations.filter((op) => op.path.startsWith('/api/bands/'));

async function switchOnBands(db: Knex, companyId: string): Promise<void> {
  const support = await createTestUser(db, { companyId, internalAdmin: true });
  const reply = await request(`/api/internal/companies/${companyId}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } });
  expect(reply.status).toBe(200);
}

/** The market API's p-th percentile of base for one cell, in USD (what a build must start from). */
async function marketCell(user: TestUser, jobFamilyId: string, levelId: string, locationId: string, percentile: number) {
  const reply = await request<Data<Schemas['BenchmarkResult']>>('/api/benchmarking/market-data', {
    method: 'POST',
    headers: bearer(user),
    json: {
      compensationTypes: ['base'],
      marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'], locations: [locationId] }],
      jobFamilies: [jobFamilyId],
      levels: [{ type: 'level', id: levelId }],
      percentiles: [percentile],
      currency: 'USD',
    },
  });
  expect(reply.status).toBe(200);
  const cell = reply.body.data.cells[0];
  if (!cell) throw new Error('the market answered no cell');
  return { status: cell.status, value: cell.percentiles?.[0]?.value ?? null, releaseVersion: reply.body.data.releaseVersion };
}

/** Whole dollars → cents, for amounts the tests state in dollars. */
const usd = (dollars: number) => ({ amount: Math.round(dollars * 100), currency: 'USD' });

describe('salary bands', () => {
  let db: Knex;
  let company: TestCompany;
  let admin: TestUser;
  let analyst: TestUser;
  let teamOnly: TestUser;
  const zones = { anchor: '', austin: '', uk: '' };
  const employees: Record<string, string> = {};

  const call = <T>(user: TestUser, url: string, init: { method?: string; json?: unknown; ifMatch?: string | number } = {}) =>
    request<T & ErrorBody>(url, {
      method: init.method ?? 'GET',
      headers: { ...bearer(user), ...(init.ifMatch !== undefined ? { 'If-Match': `"${init.ifMatch}"` } : {}) },
      json: init.json,
    });

  beforeAll(async () => {
    db = await testDb();
    company = await createTestCompany(db, 'Bands Co');
    admin = company.users.admin as TestUser;
    analyst = company.users.analyst as TestUser;
    await switchOnBands(db, company.id);
    const role = await request<Data<Schemas['Role']>>('/api/roles', {
      method: 'POST',
      headers: bearer(admin),
      json: { name: 'Bands without pay', permissions: { bands: [{ authority: 'view', scope: 'all' }], team: [{ authority: 'view', scope: 'all' }] } },
    });
    expect(role.status).toBe(200);
    teamOnly = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });

    const id = company.id;
    // Software engineers P2–P5 in the US (SF is in no zone's rules → the catch-all anchor; Austin has its own zone), one in London.
    employees.ada = await insertEmployee(db, id, { firstName: 'Ada', lastName: 'Anchor', levelId: 'p3', locationId: 'us_sf_bay_area' });
    await insertPay(db, id, employees.ada, [{ type: 'base_salary', amount: 9_000_000, effectiveDate: '2024-01-01' }]);
    employees.ben = await insertEmployee(db, id, { firstName: 'Ben', lastName: 'Above', levelId: 'p3', locationId: 'us_new_york' });
    await insertPay(db, id, employees.ben, [{ type: 'base_salary', amount: 13_000_000, effectiveDate: '2024-01-01' }]);
    employees.eve = await insertEmployee(db, id, { firstName: 'Eve', lastName: 'Euro', levelId: 'p3', locationId: 'us_seattle', currency: 'EUR' });
    await insertPay(db, id, employees.eve, [{ type: 'base_salary', amount: 7_000_000, currency: 'EUR', effectiveDate: '2024-01-01' }]);
    employees.nob = await insertEmployee(db, id, { firstName: 'Nob', lastName: 'Nobase', levelId: 'p3', locationId: 'us_sf_bay_area' });
    employees.ali = await insertEmployee(db, id, { firstName: 'Ali', lastName: 'Austin', levelId: 'p3', locationId: 'us_austin' });
    await insertPay(db, id, employees.ali, [{ type: 'base_salary', amount: 8_000_000, effectiveDate: '2024-01-01' }]);
    employees.lou = await insertEmployee(db, id, { firstName: 'Lou', lastName: 'London', levelId: 'p3', locationId: 'gb_london', countryCode: 'GB', currency: 'GBP' });
    await insertPay(db, id, employees.lou, [{ type: 'base_salary', amount: 7_000_000, currency: 'GBP', effectiveDate: '2024-01-01' }]);
    employees.pat = await insertEmployee(db, id, { firstName: 'Pat', lastName: 'Two', levelId: 'p2' });
    employees.fay = await insertEmployee(db, id, { firstName: 'Fay', lastName: 'Four', levelId: 'p4' });
    employees.fio = await insertEmployee(db, id, { firstName: 'Fio', lastName: 'Five', levelId: 'p5' });
    employees.gone = await insertEmployee(db, id, { firstName: 'Gil', lastName: 'Gone', levelId: 'm6', status: 'terminated' });
    employees.nol = await insertEmployee(db, id, { firstName: 'Nia', lastName: 'Nolevel', levelId: null });
  });

  it('answers 404 from every bands operation while the company does not have the bands flag', async () => {
    const dark = await createTestCompany(db, 'No Bands Co');
    expect(bandsOperations.length).toBe(57);
    for (const op of bandsOperations) {
      const reply = await request<ErrorBody>(fillPath(op, {}), {
        method: op.method.toUpperCase(),
        headers: { ...bearer(dark.users.admin as TestUser), 'If-Match': '"1"' },
        json: sampleBody(contract, op),
      });
      expect(reply.status, op.operationId).toBe(404);
      expect(reply.body.message).toBe('Salary bands is not switched on for your company.');
    }
  });

  it('refuses a role without the bands permission (403), and writes to a role that only views', async () => {
    const manager = company.users.people_manager as TestUser;
    expect((await call(manager, '/api/bands/pay-zones')).status).toBe(403);
    expect((await call(manager, '/api/bands/band-sets')).status).toBe(403);
    expect((await call(analyst, '/api/bands/band-sets')).status).toBe(200);
    expect((await call(analyst, '/api/bands/band-sets', { method: 'POST', json: { name: 'Nope' } })).status).toBe(403);
    expect((await call(company.users.employee as TestUser, '/api/bands/jobs')).status).toBe(403);
  });

  it('starts a company with one catch-all anchor zone, and keeps exactly one of each', async () => {
    const first = await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones');
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual([expect.objectContaining({ name: 'Everywhere', anchor: true, catchAll: true, differentialBp: 0, rules: [] })]);
    const anchor = first.body.data[0] as Schemas['PayZone'];
    zones.anchor = anchor.id;

    const austin = await call<Data<Schemas['PayZone']>>(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'US tier 2', differentialBp: -1000, rules: [{ country: 'US', metros: ['Austin', ' austin '] }] } });
    expect(austin.status).toBe(201);
    expect(austin.headers.get('etag')).toBe('"1"');
    expect(austin.body.data.rules).toEqual([{ country: 'US', metros: ['Austin'] }]);
    zones.austin = austin.body.data.id;
    const uk = await call<Data<Schemas['PayZone']>>(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'United Kingdom', differentialBp: -2500, rules: [{ country: 'GB' }] } });
    expect(uk.status).toBe(201);
    zones.uk = uk.body.data.id;

    // A country or metro belongs to one zone; the anchor's differential is 0; a zone needs a rule; the catch-all has none.
    const twice = await call(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'Britain again', rules: [{ country: 'GB' }] } });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('GB is already matched by the zone “United Kingdom”.');
    expect((await call(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'Austin again', rules: [{ country: 'US', metros: ['AUSTIN'] }] } })).status).toBe(400);
    const anchored = await call(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'Odd anchor', anchor: true, differentialBp: 500, rules: [{ country: 'FR' }] } });
    expect(anchored.status).toBe(400);
    expect(anchored.body.errors).toEqual([{ field: 'body.differentialBp', message: 'must be 0 for the anchor zone' }]);
    expect((await call(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'Empty' } })).body.errors?.[0]?.field).toBe('body.rules');
    expect((await call(admin, `/api/bands/pay-zones/${zones.anchor}`, { method: 'PATCH', ifMatch: 1, json: { rules: [{ country: 'US' }] } })).status).toBe(400);
    expect((await call(admin, `/api/bands/pay-zones/${zones.anchor}`, { method: 'PATCH', ifMatch: 1, json: { anchor: false } })).status).toBe(400);

    // Moving the anchor: the old anchor gives it up (and its version moves on); then it comes back.
    const france = await call<Data<Schemas['PayZone']>>(admin, '/api/bands/pay-zones', { method: 'POST', json: { name: 'France', rules: [{ country: 'FR' }] } });
    const moved = await call<Data<Schemas['PayZone']>>(admin, `/api/bands/pay-zones/${france.body.data.id}`, { method: 'PATCH', ifMatch: 1, json: { anchor: true } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ anchor: true, version: 2 });
    const after = (await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones')).body.data;
    expect(after.filter((zone) => zone.anchor).map((zone) => zone.id)).toEqual([france.body.data.id]);
    expect(after.filter((zone) => zone.catchAll).map((zone) => zone.id)).toEqual([zones.anchor]);
    expect((await call(admin, `/api/bands/pay-zones/${zones.anchor}`, { method: 'PATCH', ifMatch: 1, json: { anchor: true } })).status).toBe(409);
    expect((await call(admin, `/api/bands/pay-zones/${zones.anchor}`, { method: 'PATCH', ifMatch: 2, json: { anchor: true } })).status).toBe(200);
    expect((await call(admin, `/api/bands/pay-zones/${zones.anchor}`, { method: 'DELETE' })).status).toBe(409);
    const gone = await call(admin, `/api/bands/pay-zones/${france.body.data.id}`, { method: 'DELETE' });
    expect(gone.status).toBe(200);
  });

  it('makes company jobs from the employees, counts who maps to each, and lists the unmapped', async () => {
    const made = await call<Data<Schemas['CreatedCompanyJobs']>>(admin, '/api/bands/jobs/from-employees', { method: 'POST' });
    expect(made.status).toBe(200);
    // Active employees' family × level pairs: software engineering P2, P3, P4, P5 (the terminated M6 and the level-less one make none).
    expect(made.body.data.created.map((job) => job.levelId).sort()).toEqual(['p2', 'p3', 'p4', 'p5']);
    expect(made.body.data.existing).toBe(0);
    expect((await call<Data<Schemas['CreatedCompanyJobs']>>(admin, '/api/bands/jobs/from-employees', { method: 'POST' })).body.data).toEqual({ created: [], existing: 4 });

    const jobs = (await call<Data<Schemas['CompanyJob'][]>>(admin, '/api/bands/jobs')).body.data;
    const p3 = jobs.find((job) => job.levelId === 'p3');
    expect(p3).toMatchObject({ jobFamilyId: 'software_engineering', trackId: 'tr_p', title: 'Software Engineering P3', employeeCount: 6, jobCode: null });

    const coded = await call<Data<Schemas['CompanyJob']>>(admin, `/api/bands/jobs/${p3?.id}`, { method: 'PATCH', ifMatch: 1, json: { title: 'Software Engineer II', jobCode: 'ENG-3' } });
    expect(coded.status).toBe(200);
    expect(coded.body.data).toMatchObject({ title: 'Software Engineer II', jobCode: 'ENG-3', version: 2 });
    expect((await call(admin, `/api/bands/jobs/${p3?.id}`, { method: 'PATCH', ifMatch: 1, json: { title: 'Stale' } })).status).toBe(409);

    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p3' } })).status).toBe(409);
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'p6', trackId: 'tr_m' } })).body.errors?.[0]?.field).toBe('body.trackId');
    expect((await call(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'astrology', levelId: 'p3' } })).status).toBe(400);
    const m5 = await call<Data<Schemas['CompanyJob']>>(admin, '/api/bands/jobs', { method: 'POST', json: { jobFamilyId: 'software_engineering', levelId: 'm5', jobCode: 'ENG-M5' } });
    expect(m5.status).toBe(201);
    expect(m5.body.data).toMatchObject({ trackId: 'tr_m', title: 'Software Engineering M5', employeeCount: 0 });

    const unmapped = await call<Data<Schemas['UnmappedEmployee'][]>>(admin, '/api/bands/jobs/unmapped-employees');
    expect(unmapped.body.data).toEqual([expect.objectContaining({ employeeId: employees.nol, reason: 'no_family_or_level', levelId: null })]);
  });

  let built: BandSetDetail;
  let marketP50: number;

  it('builds bands from the market: the percentile, the zone differentials, the width and the rounding, with their source', async () => {
    const draft = await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: '2027 bands', effectiveDate: '2027-01-01' } });
    expect(draft.status).toBe(201);
    expect(draft.body.data).toMatchObject({ status: 'draft', currency: 'USD', effectiveDate: '2027-01-01', bands: [], philosophy: null });
    const market = await marketCell(admin, 'software_engineering', 'p3', '840', 50);
    expect(market.status).toBe('published');
    marketP50 = market.value ?? 0;

    const reply = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${draft.body.data.id}/build`, {
      method: 'POST',
      json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 }, rounding: 1000 },
    });
    expect(reply.status).toBe(200);
    built = reply.body.data.bandSet;
    expect(built.philosophy).toEqual({ targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 }, rounding: 1000, marketLocationId: '840' });
    expect(reply.headers.get('etag')).toBe('"2"');
    const p3 = (zone: string) => built.bands.find((band) => band.levelId === 'p3' && band.payZoneId === zone) as Band;
    // Whatever the market's median V is (say 141,176.3): the anchor is V ±20% rounded to the nearest 1,000
    // (113,000 / 141,000 / 169,000); Austin, −10%, is 0.9 V ±20% (101,600 / 127,059 / 152,471 → 102,000 / 127,000 / 152,000);
    // the UK, −25%, 0.75 V ±20%.
    const nearest1000 = (dollars: number) => usd(Math.round(dollars / 1000) * 1000);
    const V = marketP50;
    expect(p3(zones.anchor)).toMatchObject({ min: nearest1000(V * 0.8), mid: nearest1000(V), max: nearest1000(V * 1.2) });
    expect(p3(zones.austin)).toMatchObject({ min: nearest1000(V * 0.9 * 0.8), mid: nearest1000(V * 0.9), max: nearest1000(V * 0.9 * 1.2) });
    expect(p3(zones.uk)).toMatchObject({ min: nearest1000(V * 0.75 * 0.8), mid: nearest1000(V * 0.75), max: nearest1000(V * 0.75 * 1.2) });
    expect(p3(zones.anchor).source).toEqual({
      kind: 'market',
      releaseId: expect.any(String),
      releaseVersion: market.releaseVersion,
      jobFamilyId: 'software_engineering',
      levelId: 'p3',
      locationId: '840',
      percentile: 50,
      marketValue: V,
      marketCurrency: 'USD',
      differentialBp: 0,
    });
    expect(p3(zones.uk).source?.differentialBp).toBe(-2500);
    expect(reply.body.data.fromComposites).toBe(0);
    // Every job the market prices has a band in each of the three zones.
    expect(reply.body.data.built).toBe(built.bands.length);
    expect(built.bands.length % 3).toBe(0);
  });

  it('builds with a spread and another rounding, and reports withheld market cells instead of inventing a band', async () => {
    const draft = (await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Spread' } })).body.data;
    const spread = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${draft.id}/build`, {
      method: 'POST',
      json: { targetPercentile: 50, width: { kind: 'spread', percent: 25 }, rounding: 500 },
    });
    expect(spread.status).toBe(200);
    const anchor = spread.body.data.bandSet.bands.find((band) => band.levelId === 'p3' && band.payZoneId === zones.anchor) as Band;
    // Spread 25%: min = 2V ÷ 2.25, max = min × 1.25 (for V = 90,000: 80,000 and 100,000), each to the nearest 500.
    const nearest500 = (dollars: number) => usd(Math.round(dollars / 500) * 500);
    expect(anchor.min).toEqual(nearest500((2 * marketP50) / 2.25));
    expect(anchor.mid).toEqual(nearest500(marketP50));
    expect(anchor.max).toEqual(nearest500(((2 * marketP50) / 2.25) * 1.25));

    // A thin metro: the build there withholds what the market withholds, and says which.
    const thin = [
      ['software_engineering', 'm5', 'us_kansas_city'],
      ['software_engineering', 'm5', 'us_columbus'],
      ['software_engineering', 'm5', 'ca_calgary'],
      ['software_engineering', 'p5', 'us_kansas_city'],
    ];
    let withheldCell: string[] | undefined;
    for (const cell of thin) {
      if ((await marketCell(admin, cell[0] ?? '', cell[1] ?? '', cell[2] ?? '', 50)).status === 'insufficient_data') {
        withheldCell = cell;
        break;
      }
    }
    if (!withheldCell) throw new Error('no withheld cell among the candidates');
    const [family, level, location] = withheldCell;
    const thinSet = (await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Thin' } })).body.data;
    const thinBuild = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${thinSet.id}/build`, {
      method: 'POST',
      json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 10 }, marketLocationId: location },
    });
    expect(thinBuild.status).toBe(200);
    expect(thinBuild.body.data.withheld).toContainEqual(expect.objectContaining({ jobFamilyId: family, levelId: level, locationId: location, reason: 'Insufficient data' }));
    expect(thinBuild.body.data.bandSet.bands.some((band) => band.jobFamilyId === family && band.levelId === level)).toBe(false);
    expect((await call(admin, `/api/bands/band-sets/${thinSet.id}/build`, { method: 'POST', json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 10 }, marketLocationId: 'atlantis' } })).status).toBe(400);
    expect((await call(admin, `/api/bands/band-sets/${thinSet.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(admin, `/api/bands/band-sets/${thinSet.id}`)).status).toBe(404);
  });

  it('refuses a stale band edit with 409 and changes nothing; checks min ≤ mid ≤ max and the currency', async () => {
    const band = built.bands.find((b) => b.levelId === 'p3' && b.payZoneId === zones.anchor) as Band;
    const url = `/api/bands/band-sets/${built.id}/bands/${band.id}`;
    const edited = await call<Data<Band>>(admin, url, { method: 'PATCH', ifMatch: 1, json: { min: usd(80_000), mid: usd(100_000), max: usd(120_000) } });
    expect(edited.status).toBe(200);
    expect(edited.headers.get('etag')).toBe('"2"');
    expect(edited.body.data).toMatchObject({ min: usd(80_000), mid: usd(100_000), max: usd(120_000), source: null, version: 2 });

    const stale = await call(admin, url, { method: 'PATCH', ifMatch: 1, json: { min: usd(1), mid: usd(2), max: usd(3) } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect(stale.headers.get('etag')).toBe('"2"');
    const reread = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${built.id}`)).body.data.bands.find((b) => b.id === band.id);
    expect(reread).toMatchObject({ min: usd(80_000), mid: usd(100_000), max: usd(120_000), version: 2 });

    const inverted = await call(admin, url, { method: 'PATCH', ifMatch: 2, json: { min: usd(110_000), mid: usd(100_000), max: usd(90_000) } });
    expect(inverted.status).toBe(400);
    expect(inverted.body.message).toBe('A band runs from its minimum through its midpoint to its maximum: min ≤ mid ≤ max.');
    expect(inverted.body.errors).toEqual([
      { field: 'body.min.amount', message: 'must not exceed the midpoint' },
      { field: 'body.max.amount', message: 'must not be below the midpoint' },
    ]);
    const euros = await call(admin, url, { method: 'PATCH', ifMatch: 2, json: { min: { amount: 1, currency: 'EUR' }, mid: usd(2), max: usd(3) } });
    expect(euros.body.errors).toEqual([{ field: 'body.min.currency', message: 'must be USD' }]);
    expect((await call(admin, url, { method: 'PATCH', json: { min: usd(1), mid: usd(2), max: usd(3) } })).status).toBe(428);
  });

  it('evaluates: employees per band, width, progression, and each employee’s compa-ratio and penetration', async () => {
    // P4's anchor mid to 112,000: P3 → P4 progression is 112,000 ÷ 100,000 − 1 = 0.12.
    const p4 = built.bands.find((b) => b.levelId === 'p4' && b.payZoneId === zones.anchor) as Band;
    expect((await call(admin, `/api/bands/band-sets/${built.id}/bands/${p4.id}`, { method: 'PATCH', ifMatch: 1, json: { min: usd(100_000), mid: usd(112_000), max: usd(130_000) } })).status).toBe(200);
    const reply = await call<Data<Schemas['BandEvaluation']>>(analyst, `/api/bands/band-sets/${built.id}/evaluation`);
    expect(reply.status).toBe(200);
    const evaluation = reply.body.data;
    const p3 = built.bands.find((b) => b.levelId === 'p3' && b.payZoneId === zones.anchor) as Band;
    const p3Row = evaluation.bands.find((b) => b.bandId === p3.id);
    // SF, New York, Seattle and the base-less one are in the catch-all anchor zone: 4 people; Austin and London have their own.
    // The hand edit kept the benchmark the build recorded (the market's median V, one source): delta = 100,000 ÷ V − 1.
    const benchmark = Math.round(marketP50 * 100);
    expect(p3Row).toEqual({
      bandId: p3.id,
      companyJobId: p3.companyJobId,
      payZoneId: zones.anchor,
      levelId: 'p3',
      employeeCount: 4,
      spread: 0.5,
      nextLevelId: 'p4',
      midpointProgression: 0.12,
      benchmark: { amount: benchmark, currency: 'USD' },
      benchmarkCount: 1,
      deltaFromBenchmark: Math.round((10_000_000 / benchmark - 1) * 10_000) / 10_000,
    });
    // The UK zone's benchmark is V × 0.75.
    expect(evaluation.bands.find((b) => b.levelId === 'p3' && b.payZoneId === zones.uk)?.benchmark).toEqual({ amount: Math.round(marketP50 * 0.75 * 100), currency: 'USD' });
    expect(evaluation.bands.find((b) => b.levelId === 'p3' && b.payZoneId === zones.austin)?.employeeCount).toBe(1);
    expect(evaluation.bands.find((b) => b.levelId === 'p3' && b.payZoneId === zones.uk)?.employeeCount).toBe(1);

    const of = (id: string | undefined) => evaluation.employees.find((e) => e.employeeId === id);
    // Ada: 90,000 in 80,000 / 100,000 / 120,000 → compa 0.9, penetration 10,000 ÷ 40,000 = 0.25, inside.
    expect(of(employees.ada)).toEqual({ employeeId: employees.ada, name: 'Ada Anchor', bandId: p3.id, payZoneId: zones.anchor, source: 'job', base: usd(90_000), compaRatio: 0.9, rangePenetration: 0.25, position: 'inside' });
    // Ben: 130,000 → compa 1.3, penetration 50,000 ÷ 40,000 = 1.25, above.
    expect(of(employees.ben)).toMatchObject({ compaRatio: 1.3, rangePenetration: 1.25, position: 'above' });
    expect(of(employees.nob)).toMatchObject({ unpricedReason: 'No base salary' });
    expect(of(employees.nob)?.compaRatio).toBeUndefined();
    // Eve's 70,000 EUR at the reference rate, as the forex service converts it.
    const converted = await request<Data<{ to: { amount: number } }>>('/api/forex/convert', { method: 'POST', json: { amount: { amount: 7_000_000, currency: 'EUR' }, to: 'USD' } });
    const eveUsd = converted.body.data.to.amount;
    expect(of(employees.eve)?.base).toEqual({ amount: eveUsd, currency: 'USD' });
    expect(of(employees.eve)?.compaRatio).toBe(Math.round((eveUsd / 10_000_000) * 10_000) / 10_000);
    expect(of(employees.eve)?.rangePenetration).toBe(Math.round(((eveUsd - 8_000_000) / 4_000_000) * 10_000) / 10_000);
    expect(evaluation.exchangeRates.length).toBeGreaterThan(0);
    expect(evaluation.unplaced).toEqual({ noFamilyOrLevel: 1, noJobKey: 0, noCompanyJob: 0, noBand: 0 });
    expect(of(employees.ali)?.payZoneId).toBe(zones.austin);
    expect(of(employees.lou)?.payZoneId).toBe(zones.uk);

    // Without the pay permission: the same people and bands, no pay.
    const noPay = (await call<Data<Schemas['BandEvaluation']>>(teamOnly, `/api/bands/band-sets/${built.id}/evaluation`)).body.data;
    expect(noPay.employees.map((e) => e.employeeId).sort()).toEqual(evaluation.employees.map((e) => e.employeeId).sort());
    expect(noPay.employees.every((e) => e.base === undefined && e.compaRatio === undefined && e.position === undefined)).toBe(true);
  });

  it('smooths midpoints to the progression: a preview changes nothing, applying leaves no inversion', async () => {
    // Invert P4 under P3 (P3 mid 100,000; P4 mid 95,000) in the anchor zone.
    const current = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${built.id}`)).body.data;
    const p4 = current.bands.find((b) => b.levelId === 'p4' && b.payZoneId === zones.anchor) as Band;
    expect((await call(admin, `/api/bands/band-sets/${built.id}/bands/${p4.id}`, { method: 'PATCH', ifMatch: p4.version, json: { min: usd(80_000), mid: usd(95_000), max: usd(110_000) } })).status).toBe(200);

    const preview = await call<Data<Schemas['BandSmoothResult']>>(admin, `/api/bands/band-sets/${built.id}/smooth`, { method: 'POST', json: {} });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ applied: false, curve: 'progression', progressionPercent: 10 });
    expect(preview.body.data.ladders.every((ladder) => ladder.progressionPercent === 10)).toBe(true);
    expect(preview.body.data.changes.some((change) => change.bandId === p4.id && change.from.mid.amount === 9_500_000)).toBe(true);
    const unchanged = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${built.id}`)).body.data;
    expect(unchanged.bands).toEqual(current.bands.map((band) => (band.id === p4.id ? { ...band, min: usd(80_000), mid: usd(95_000), max: usd(110_000), source: null, version: band.version + 1 } : band)));

    const applied = await call<Data<Schemas['BandSmoothResult']>>(admin, `/api/bands/band-sets/${built.id}/smooth`, { method: 'POST', json: { progressionPercent: 8, apply: true } });
    expect(applied.status).toBe(200);
    expect(applied.body.data.applied).toBe(true);
    const bands = applied.body.data.bandSet.bands;
    const rank: Record<string, number> = { p2: 2, p3: 3, p4: 4, p5: 5, m5: 5 };
    for (const zone of Object.values(zones)) {
      for (const track of ['tr_p', 'tr_m']) {
        const ladder = bands.filter((b) => b.payZoneId === zone && b.trackId === track).sort((a, b) => (rank[a.levelId] ?? 0) - (rank[b.levelId] ?? 0));
        for (let i = 1; i < ladder.length; i += 1) {
          expect(ladder[i]?.mid.amount ?? 0).toBeGreaterThan(ladder[i - 1]?.mid.amount ?? Infinity);
          // 8% a level, give or take the rounding to 1,000.
          const step = (ladder[i]?.mid.amount ?? 0) / (ladder[i - 1]?.mid.amount ?? 1);
          expect(Math.abs(step - 1.08)).toBeLessThan(0.02);
        }
      }
    }
    for (const band of bands) {
      expect(band.min.amount).toBeLessThanOrEqual(band.mid.amount);
      expect(band.mid.amount).toBeLessThanOrEqual(band.max.amount);
    }
    // Smoothing again at the same progression has nothing left to change.
    expect((await call<Data<Schemas['BandSmoothResult']>>(admin, `/api/bands/band-sets/${built.id}/smooth`, { method: 'POST', json: { progressionPercent: 8 } })).body.data.changes).toEqual([]);
  });

  it('smooths each ladder to the progression its own midpoints fit, when asked for the fitted curve', async () => {
    // The anchor zone's P ladder set by hand to 100,000 / 120,000 / 130,000 / 150,000 (ranks 2–5).
    const current = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${built.id}`)).body.data;
    const mids: Record<string, number> = { p2: 100_000, p3: 120_000, p4: 130_000, p5: 150_000 };
    for (const [levelId, mid] of Object.entries(mids)) {
      const band = current.bands.find((b) => b.levelId === levelId && b.trackId === 'tr_p' && b.payZoneId === zones.anchor) as Band;
      expect((await call(admin, `/api/bands/band-sets/${built.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: usd(mid * 0.8), mid: usd(mid), max: usd(mid * 1.2) } })).status).toBe(200);
    }
    const refused = await call(admin, `/api/bands/band-sets/${built.id}/smooth`, { method: 'POST', json: { curve: 'fitted', progressionPercent: 10 } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('The fitted curve finds each ladder’s own progression; leave out progressionPercent.');
    expect(refused.body.errors).toEqual([{ field: 'body.progressionPercent', message: 'is not accepted with the fitted curve' }]);

    const fitted = await call<Data<Schemas['BandSmoothResult']>>(admin, `/api/bands/band-sets/${built.id}/smooth`, { method: 'POST', json: { curve: 'fitted', apply: true } });
    expect(fitted.status).toBe(200);
    expect(fitted.body.data).toMatchObject({ applied: true, curve: 'fitted', progressionPercent: null });
    // ln(mid) on rank by least squares: slope 0.12965, e^0.12965 − 1 = 13.8% a level. Around the geometric mean
    // 123,693 at rank 3.5: 101,880 / 115,940 / 131,940 / 150,147 → 102,000 / 116,000 / 132,000 / 150,000 (to the 1,000).
    const ladder = fitted.body.data.ladders.find((entry) => entry.trackId === 'tr_p' && entry.payZoneId === zones.anchor);
    expect(ladder).toMatchObject({ levels: 4, fittedPercent: 13.8, progressionPercent: 13.8 });
    const after = fitted.body.data.bandSet.bands.filter((b) => b.trackId === 'tr_p' && b.payZoneId === zones.anchor);
    expect(Object.fromEntries(after.map((b) => [b.levelId, b.mid.amount / 100]))).toEqual({ p2: 102_000, p3: 116_000, p4: 132_000, p5: 150_000 });
    // Min and max keep their ratio to the mid: 0.8 × 102,000 = 81,600 → 82,000; 1.2 × 102,000 = 122,400 → 122,000.
    expect(after.find((b) => b.levelId === 'p2')).toMatchObject({ min: usd(82_000), max: usd(122_000) });
    // Every other ladder followed its own fit, and none is left inverted or flat.
    for (const entry of fitted.body.data.ladders) {
      if (entry.fittedPercent === null) expect(entry.progressionPercent).toBeNull();
      else expect(entry.progressionPercent).toBe(Math.min(50, Math.max(1, entry.fittedPercent)));
    }
    // Fitted again, the ladder's rounded mids fit 13.7%, which leaves every one of them where it is.
    const again = (await call<Data<Schemas['BandSmoothResult']>>(admin, `/api/bands/band-sets/${built.id}/smooth`, { method: 'POST', json: { curve: 'fitted' } })).body.data;
    expect(again.ladders.find((entry) => entry.trackId === 'tr_p' && entry.payZoneId === zones.anchor)?.fittedPercent).toBe(13.7);
    expect(again.changes.filter((change) => change.trackId === 'tr_p' && change.payZoneId === zones.anchor)).toEqual([]);
  });

  it('publishes a draft to live, archives the live set in the same change, and writes the history', async () => {
    const set = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${built.id}`)).body;
    expect((await call(admin, `/api/bands/band-sets/${built.id}/publish`, { method: 'POST', ifMatch: set.data.version - 1, json: {} })).status).toBe(409);
    const first = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${built.id}/publish`, { method: 'POST', ifMatch: set.data.version, json: { comment: 'First bands' } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'live', version: set.data.version + 1 });
    expect(first.body.data.publishedAt).not.toBeNull();
    // A live set does not change: no band edit, no build, no delete, no second publish.
    const anyBand = first.body.data.bands[0] as Band;
    expect((await call(admin, `/api/bands/band-sets/${built.id}/bands/${anyBand.id}`, { method: 'PATCH', ifMatch: anyBand.version, json: { min: usd(1), mid: usd(2), max: usd(3) } })).body.code).toBe('band_set_not_draft');
    expect((await call(admin, `/api/bands/band-sets/${built.id}`, { method: 'DELETE' })).status).toBe(409);
    const again = await call(admin, `/api/bands/band-sets/${built.id}/publish`, { method: 'POST', ifMatch: first.body.data.version, json: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'invalid_transition', message: 'A live band set cannot be published.' });

    const copy = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${built.id}/duplicate`, { method: 'POST', json: { name: '2027 bands, revised' } });
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({ status: 'draft', name: '2027 bands, revised', version: 1, bandCount: first.body.data.bands.length });
    expect(copy.body.data.bands.map((b) => [b.companyJobId, b.payZoneId, b.mid])).toEqual(first.body.data.bands.map((b) => [b.companyJobId, b.payZoneId, b.mid]));
    const second = await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${copy.body.data.id}/publish`, { method: 'POST', ifMatch: 1 });
    expect(second.status).toBe(200);

    const sets = (await call<Data<Schemas['BandSet'][]>>(admin, '/api/bands/band-sets')).body.data;
    expect(sets.filter((s) => s.status === 'live').map((s) => s.id)).toEqual([copy.body.data.id]);
    expect(sets.find((s) => s.id === built.id)?.status).toBe('archived');

    const history = (await call<Data<Schemas['BandSetHistoryEntry'][]>>(analyst, `/api/bands/band-sets/${built.id}/history`)).body.data;
    expect(history.map((entry) => [entry.action, entry.from, entry.to])).toEqual([
      ['publish', 'draft', 'live'],
      ['archive', 'live', 'archived'],
    ]);
    expect(history[0]).toMatchObject({ comment: 'First bands', subjectVersion: set.data.version, actor: { userId: admin.id } });
    expect(history[1]?.comment).toBe('Replaced by “2027 bands, revised”.');
    const events = (await db('domain_events').where({ company_id: company.id, name: 'bandSet.published' }).orderBy('created_at').select('subject_id', 'payload')) as { subject_id: string; payload: string }[];
    expect(events.map((event) => event.subject_id)).toEqual([built.id, copy.body.data.id]);
    expect(JSON.parse(events[1]?.payload ?? '{}')).toMatchObject({ archivedBandSetId: built.id });

    // Zones and jobs that bands use are not deleted from under them.
    expect((await call(admin, `/api/bands/pay-zones/${zones.uk}`, { method: 'DELETE' })).body.code).toBe('zone_in_use');
    expect((await call(admin, `/api/bands/jobs/${anyBand.companyJobId}`, { method: 'DELETE' })).body.code).toBe('company_job_in_use');
  });

  it('says what changed between two band sets: bands moved, with the midpoint change, the others only counted', async () => {
    const live = (await call<Data<Schemas['BandSet'][]>>(admin, '/api/bands/band-sets')).body.data.find((s) => s.status === 'live') as Schemas['BandSet'];
    const before = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${live.id}/duplicate`, { method: 'POST', json: { name: 'Before' } })).body.data;
    const band = before.bands[0] as Band;
    expect((await call(admin, `/api/bands/band-sets/${before.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: usd(90_000), mid: usd(100_000), max: usd(110_000) } })).status).toBe(200);
    const after = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${before.id}/duplicate`, { method: 'POST', json: { name: 'After' } })).body.data;
    const moved = after.bands.find((b) => b.companyJobId === band.companyJobId && b.payZoneId === band.payZoneId) as Band;
    expect((await call(admin, `/api/bands/band-sets/${after.id}/bands/${moved.id}`, { method: 'PATCH', ifMatch: moved.version, json: { min: usd(93_600), mid: usd(104_000), max: usd(114_400) } })).status).toBe(200);

    const changes = await call<Data<Schemas['BandSetChanges']>>(analyst, `/api/bands/band-sets/${after.id}/changes?since=${before.id}`);
    expect(changes.status).toBe(200);
    expect(changes.body.data.counts).toEqual({ added: 0, removed: 0, changed: 1, unchanged: before.bands.length - 1 });
    // 100,000 → 104,000 is +4.00% of the earlier midpoint: 400 basis points.
    expect(changes.body.data.bands).toEqual([
      {
        companyJobId: band.companyJobId,
        payZoneId: band.payZoneId,
        jobFamilyId: band.jobFamilyId,
        levelId: band.levelId,
        trackId: band.trackId,
        change: 'changed',
        before: { min: usd(90_000), mid: usd(100_000), max: usd(110_000) },
        after: { min: usd(93_600), mid: usd(104_000), max: usd(114_400) },
        midChangeBp: 400,
      },
    ]);
    // The other way round: −4,000 of 104,000 is −3.846%, rounded to −385 basis points.
    const back = await call<Data<Schemas['BandSetChanges']>>(analyst, `/api/bands/band-sets/${before.id}/changes?since=${after.id}`);
    expect(back.body.data.bands.map((b) => b.midChangeBp)).toEqual([-385]);

    const itself = await call<ErrorBody>(admin, `/api/bands/band-sets/${after.id}/changes?since=${after.id}`);
    expect(itself.status).toBe(400);
    expect(itself.body.message).toBe('Compare a band set with another set, not with itself.');
    const other = await createTestCompany(db, 'Other Changes Co');
    await switchOnBands(db, other.id);
    const theirs = await call<Data<BandSetDetail>>(other.users.admin as TestUser, '/api/bands/band-sets', { method: 'POST', json: { name: 'Theirs', currency: 'USD', effectiveDate: '2027-01-01' } });
    expect(theirs.status).toBe(201);
    expect((await call(admin, `/api/bands/band-sets/${after.id}/changes?since=${theirs.body.data.id}`)).status).toBe(404);
    expect((await call(other.users.admin as TestUser, `/api/bands/band-sets/${theirs.body.data.id}/changes?since=${after.id}`)).status).toBe(404);
  });

  it('shows a manager only the people in their reach, with the pay their reach covers', async () => {
    const role = await request<Data<Schemas['Role']>>('/api/roles', {
      method: 'POST',
      headers: bearer(admin),
      json: { name: 'Manager with bands', permissions: { bands: [{ authority: 'view', scope: 'all' }], team: [{ authority: 'view', scope: 'reports' }], employeeCompensation: [{ authority: 'view', scope: 'reports' }] } },
    });
    const managerUser = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });
    const mia = await insertEmployee(db, company.id, { firstName: 'Mia', lastName: 'Manager', levelId: 'p3', userId: managerUser.id });
    await insertPay(db, company.id, mia, [{ type: 'base_salary', amount: 10_000_000, effectiveDate: '2024-01-01' }]);
    await db('employees').where({ id: employees.ben }).update({ manager_id: mia });
    const reply = await call<Data<Schemas['BandEvaluation']>>(managerUser, `/api/bands/band-sets/${built.id}/evaluation`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.employees.map((e) => e.employeeId).sort()).toEqual([mia, employees.ben].sort());
    expect(reply.body.data.employees.every((e) => e.compaRatio !== undefined)).toBe(true);
    // Counts stay the company's: Mia joins the P3 anchor band of five.
    const p3 = built.bands.find((b) => b.levelId === 'p3' && b.payZoneId === zones.anchor) as Band;
    expect(reply.body.data.bands.find((b) => b.bandId === p3.id)?.employeeCount).toBe(5);
    const unmapped = await call<Data<Schemas['UnmappedEmployee'][]>>(managerUser, '/api/bands/jobs/unmapped-employees');
    expect(unmapped.body.data).toEqual([]);
  });

  it('prices a zone paid in its own currency in that currency: built at the reference rate, edited and evaluated in it', async () => {
    const ukZone = (await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones')).body.data.find((zone) => zone.id === zones.uk) as Schemas['PayZone'];
    expect(ukZone.currency).toBeNull();
    const noRate = await call(admin, `/api/bands/pay-zones/${zones.uk}`, { method: 'PATCH', ifMatch: ukZone.version, json: { currency: 'ARS' } });
    expect(noRate.status).toBe(400);
    expect(noRate.body.message).toBe('There is no reference exchange rate for ARS, so bands cannot be converted into it.');
    const paidInPounds = await call<Data<Schemas['PayZone']>>(admin, `/api/bands/pay-zones/${zones.uk}`, { method: 'PATCH', ifMatch: ukZone.version, json: { currency: 'GBP' } });
    expect(paidInPounds.status).toBe(200);
    expect(paidInPounds.body.data.currency).toBe('GBP');

    const draft = await call<Data<BandSetDetail>>(admin, '/api/bands/band-sets', { method: 'POST', json: { name: 'Local bands', effectiveDate: '2027-01-01' } });
    const reply = await call<Data<Schemas['BandBuildResult']>>(admin, `/api/bands/band-sets/${draft.body.data.id}/build`, {
      method: 'POST',
      json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 }, rounding: 1000 },
    });
    expect(reply.status).toBe(200);
    const local = reply.body.data.bandSet;
    // The reference rate of the effective date: what $10,000,000.00 is in pounds, per dollar.
    const pounds = await request<Data<{ to: { amount: number } }>>('/api/forex/convert', { method: 'POST', json: { amount: { amount: 1_000_000_000, currency: 'USD' }, to: 'GBP', date: '2027-01-01' } });
    const rate = pounds.body.data.to.amount / 1_000_000_000;
    expect(rate).toBeGreaterThan(0.5);
    expect(rate).toBeLessThan(1);
    // The UK's P3: the market's median V in dollars × the rate × 0.75, ±20%, each to the nearest £1,000; the anchor stays in dollars.
    const V = marketP50;
    const gbp1000 = (value: number) => ({ amount: Math.round(value / 1000) * 100_000, currency: 'GBP' });
    const ukP3 = local.bands.find((band) => band.levelId === 'p3' && band.payZoneId === zones.uk) as Band;
    expect(ukP3).toMatchObject({ min: gbp1000(V * rate * 0.75 * 0.8), mid: gbp1000(V * rate * 0.75), max: gbp1000(V * rate * 0.75 * 1.2) });
    expect(ukP3.source).toMatchObject({ marketValue: V, marketCurrency: 'USD', differentialBp: -2500, conversion: { currency: 'GBP', date: expect.any(String) } });
    expect(ukP3.source?.kind === 'market' && ukP3.source.conversion?.rate).toBeCloseTo(rate, 5);
    const anchorP3 = local.bands.find((band) => band.levelId === 'p3' && band.payZoneId === zones.anchor) as Band;
    expect(anchorP3.mid).toEqual(usd(Math.round(V / 1000) * 1000));
    expect(anchorP3.source).not.toHaveProperty('conversion');

    // A band is edited in its own currency.
    const url = `/api/bands/band-sets/${local.id}/bands/${ukP3.id}`;
    const dollars = await call(admin, url, { method: 'PATCH', ifMatch: ukP3.version, json: { min: usd(60_000), mid: usd(75_000), max: usd(90_000) } });
    expect(dollars.status).toBe(400);
    expect(dollars.body.message).toBe('This band is in GBP.');
    expect(dollars.body.errors).toEqual([{ field: 'body.min.currency', message: 'must be GBP' }]);
    const gbp = (value: number) => ({ amount: value * 100, currency: 'GBP' });
    const edited = await call<Data<Band>>(admin, url, { method: 'PATCH', ifMatch: ukP3.version, json: { min: gbp(56_000), mid: gbp(70_000), max: gbp(84_000) } });
    expect(edited.status).toBe(200);
    expect(edited.body.data.mid).toEqual(gbp(70_000));

    // Lou's £70,000 sits at the midpoint of the UK band, unconverted: compa-ratio 1, penetration 14,000 ÷ 28,000 = 0.5.
    const evaluation = (await call<Data<Schemas['BandEvaluation']>>(analyst, `/api/bands/band-sets/${local.id}/evaluation`)).body.data;
    expect(evaluation.employees.find((entry) => entry.employeeId === employees.lou)).toMatchObject({ bandId: ukP3.id, base: gbp(70_000), compaRatio: 1, rangePenetration: 0.5, position: 'inside' });
    // Ada (paid in dollars, in the anchor zone) is still measured in dollars.
    expect(evaluation.employees.find((entry) => entry.employeeId === employees.ada)?.base).toEqual(usd(90_000));
    // Its benchmark: V × the rate × 0.75 in pence (the test's rate is read to 1e-9, so within a penny).
    const benchmark = evaluation.bands.find((band) => band.bandId === ukP3.id)?.benchmark;
    expect(benchmark?.currency).toBe('GBP');
    expect(Math.abs((benchmark?.amount ?? 0) - V * rate * 0.75 * 100)).toBeLessThanOrEqual(1);

    // A zone's currency changed afterwards leaves the bands already made in theirs.
    const zoneNow = (await call<Data<Schemas['PayZone'][]>>(admin, '/api/bands/pay-zones')).body.data.find((zone) => zone.id === zones.uk) as Schemas['PayZone'];
    expect((await call(admin, `/api/bands/pay-zones/${zones.uk}`, { method: 'PATCH', ifMatch: zoneNow.version, json: { currency: null } })).status).toBe(200);
    const reread = (await call<Data<BandSetDetail>>(admin, `/api/bands/band-sets/${local.id}`)).body.data.bands.find((band) => band.id === ukP3.id);
    expect(reread?.mid).toEqual(gbp(70_000));
  });

  it("answers 404 for another company's band set, band, zone and job", async () => {
    const other = await createTestCompany(db, 'Other Bands Co');
    await switchOnBands(db, other.id);
    const outsider = other.users.admin as TestUser;
    const band = built.bands[0] as Band;
    expect((await call(outsider, `/api/bands/band-sets/${built.id}`)).status).toBe(404);
    expect((await call(outsider, `/api/bands/band-sets/${built.id}/evaluation`)).status).toBe(404);
    expect((await call(outsider, `/api/bands/band-sets/${built.id}/duplicate`, { method: 'POST', json: {} })).status).toBe(404);
    expect((await call(outsider, `/api/bands/band-sets/${built.id}/bands/${band.id}`, { method: 'PATCH', ifMatch: band.version, json: { min: usd(1), mid: usd(2), max: usd(3) } })).status).toBe(404);
    expect((await call(outsider, `/api/bands/pay-zones/${zones.uk}`, { method: 'PATCH', ifMatch: 1, json: { name: 'Mine' } })).status).toBe(404);
    expect((await call(outsider, `/api/bands/jobs/${band.companyJobId}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call<Data<Schemas['BandSet'][]>>(outsider, '/api/bands/band-sets')).body.data).toEqual([]);
  });
});
