import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import type { components } from '../../contract-types.js';
import { ENGINEERS_US, EVERYWHERE_US, TIER_ONE_TECH } from '../test/requests.js';

type Schemas = components['schemas'];
type Saved = Schemas['SavedReportQuery'];

let company: TestCompany;
let admin: TestUser;
let analyst: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Saved Queries Co');
  admin = company.users.admin as TestUser;
  analyst = company.users.analyst as TestUser;
});

const save = (user: TestUser, json: unknown) => request<{ data: Saved }>('/api/benchmarking/saved-queries', { method: 'POST', headers: bearer(user), json });

describe('saved report queries', () => {
  it('are saved by people who may edit benchmarking, listed and read by people who may view it', async () => {
    const created = await save(admin, { name: '  Engineers, US  ', description: 'Quarterly check', request: ENGINEERS_US });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.body.data).toMatchObject({ name: 'Engineers, US', description: 'Quarterly check', version: 1, request: ENGINEERS_US, createdBy: { id: admin.id } });
    const listed = await request<{ data: Saved[] }>('/api/benchmarking/saved-queries', { headers: bearer(analyst) });
    expect(listed.body.data.map((q) => q.id)).toContain(created.body.data.id);
    const read = await request<{ data: Saved }>(`/api/benchmarking/saved-queries/${created.body.data.id}`, { headers: bearer(analyst) });
    expect(read.body.data).toEqual(created.body.data);
    const refused = await save(analyst, { name: 'Mine', request: ENGINEERS_US });
    expect(refused.status).toBe(403);
    const employee = await request<ErrorBody>('/api/benchmarking/saved-queries', { headers: bearer(company.users.employee as TestUser) });
    expect(employee.status).toBe(403);
  });

  it('runs a saved query against the served release exactly like the explorer', async () => {
    const created = await save(admin, { name: 'Run me', request: ENGINEERS_US });
    const run = await request<{ data: Schemas['BenchmarkResult'] }>(`/api/benchmarking/saved-queries/${created.body.data.id}/results`, { headers: bearer(analyst) });
    const direct = await request<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(analyst), json: ENGINEERS_US });
    expect(run.status).toBe(200);
    expect(run.body.data).toEqual(direct.body.data);
    expect(run.body.data.cells).toHaveLength(4);
  });

  it('refuses a nameless query and an invalid request with every message, saving nothing', async () => {
    const before = (await request<{ data: Saved[] }>('/api/benchmarking/saved-queries', { headers: bearer(admin) })).body.data.length;
    const reply = await save(admin, { name: '   ', request: { ...ENGINEERS_US, jobFamilies: [], marketFilters: [{ ...EVERYWHERE_US, industries: [] }] } });
    expect(reply.status).toBe(400);
    expect((reply.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.name', message: 'Please enter a name for the report query' },
      { field: 'body.request.jobFamilies', message: 'Please select at least one job family' },
      { field: 'body.request.marketFilters[0].industries', message: 'Please select at least one industry' },
    ]);
    const missing = await save(admin, { request: ENGINEERS_US });
    expect((missing.body as unknown as ErrorBody).errors).toEqual([{ field: 'body.name', message: 'is required' }]);
    const after = (await request<{ data: Saved[] }>('/api/benchmarking/saved-queries', { headers: bearer(admin) })).body.data.length;
    expect(after).toBe(before);
  });

  it('updates only at the version last read: a stale version is 409, a missing one 428', async () => {
    const created = (await save(admin, { name: 'Versioned', request: ENGINEERS_US })).body.data;
    const url = `/api/benchmarking/saved-queries/${created.id}`;
    const changed = { name: 'Versioned, tier 1', request: { ...ENGINEERS_US, marketFilters: [TIER_ONE_TECH] } };
    const first = await request<{ data: Saved }>(url, { method: 'PUT', headers: { ...bearer(admin), 'If-Match': '"1"' }, json: changed });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"2"');
    expect(first.body.data).toMatchObject({ name: 'Versioned, tier 1', version: 2, updatedBy: { id: admin.id } });
    const stale = await request<ErrorBody>(url, { method: 'PUT', headers: { ...bearer(admin), 'If-Match': '"1"' }, json: { ...changed, name: 'Lost update' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    const missing = await request<ErrorBody>(url, { method: 'PUT', headers: bearer(admin), json: changed });
    expect(missing.status).toBe(428);
    const invalid = await request<ErrorBody>(url, { method: 'PUT', headers: { ...bearer(admin), 'If-Match': '"2"' }, json: { ...changed, request: { ...changed.request, compensationTypes: [] } } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([{ field: 'body.request.compensationTypes', message: 'Please select at least one compensation type' }]);
    const read = await request<{ data: Saved }>(url, { headers: bearer(analyst) });
    expect(read.body.data).toMatchObject({ name: 'Versioned, tier 1', version: 2 });
    const analystEdit = await request<ErrorBody>(url, { method: 'PUT', headers: { ...bearer(analyst), 'If-Match': '"2"' }, json: changed });
    expect(analystEdit.status).toBe(403);
  });

  it('are deleted by editors only, after which they are gone', async () => {
    const created = (await save(admin, { name: 'Short-lived', request: ENGINEERS_US })).body.data;
    const url = `/api/benchmarking/saved-queries/${created.id}`;
    expect((await request(url, { method: 'DELETE', headers: bearer(analyst) })).status).toBe(403);
    const deleted = await request<{ data: Saved }>(url, { method: 'DELETE', headers: bearer(admin) });
    expect(deleted.body.data.id).toBe(created.id);
    expect((await request(url, { headers: bearer(admin) })).status).toBe(404);
    expect((await request(url, { method: 'DELETE', headers: bearer(admin) })).status).toBe(404);
  });

  it("are another company's business: its ids answer 404 everywhere", async () => {
    const created = (await save(admin, { name: 'Private', request: ENGINEERS_US })).body.data;
    const other = await createTestCompany(await testDb(), 'Nosy Neighbour');
    const theirs = bearer(other.users.admin as TestUser);
    const url = `/api/benchmarking/saved-queries/${created.id}`;
    expect((await request(url, { headers: theirs })).status).toBe(404);
    expect((await request(`${url}/results`, { headers: theirs })).status).toBe(404);
    expect((await request(url, { method: 'PUT', headers: { ...theirs, 'If-Match': '"1"' }, json: { name: 'x', request: ENGINEERS_US } })).status).toBe(404);
    expect((await request(url, { method: 'DELETE', headers: theirs })).status).toBe(404);
    const compared = await request<ErrorBody>('/api/benchmarking/compare', { method: 'POST', headers: theirs, json: { queries: [{ savedQueryId: created.id }, { request: ENGINEERS_US }] } });
    expect(compared.status).toBe(404);
    const list = await request<{ data: Saved[] }>('/api/benchmarking/saved-queries', { headers: theirs });
    expect(list.body.data.map((q) => q.id)).not.toContain(created.id);
  });
});

describe('compare', () => {
  it('puts two to four queries side by side, one column per query and market filter, the same cells in one row', async () => {
    const saved = (await save(admin, { name: 'Tier 1 tech', request: { ...ENGINEERS_US, marketFilters: [TIER_ONE_TECH], compensationTypes: ['base'] } })).body.data;
    const adHoc = { ...ENGINEERS_US, levels: [{ type: 'level', id: 'p4' }, { type: 'level', id: 'p5' }], percentiles: [50, 90] };
    const reply = await request<{ data: Schemas['CompareResult'] }>('/api/benchmarking/compare', {
      method: 'POST',
      headers: bearer(analyst),
      json: { queries: [{ savedQueryId: saved.id }, { label: 'Senior and staff, US', request: adHoc }] },
    });
    expect(reply.status, JSON.stringify(reply.body).slice(0, 300)).toBe(200);
    const { columns, rows, percentiles } = reply.body.data;
    expect(percentiles).toEqual([25, 50, 75, 90]);
    expect(columns.map((c) => [c.label, c.savedQueryId, c.marketFilterIndex])).toEqual([
      ['Tier 1 tech', saved.id, 0],
      ['Senior and staff, US', null, 0],
    ]);
    const key = (r: Schemas['CompareRow']) => `${r.levelId}:${r.compensationTypeId}`;
    expect(rows.map(key)).toEqual(['p3:base', 'p4:base', 'p4:total_cash', 'p5:base', 'p5:total_cash']);
    const p4 = rows.find((r) => key(r) === 'p4:base');
    expect(p4?.cells.every((c) => c?.levelId === 'p4' && c.compensationTypeId === 'base')).toBe(true);
    expect(rows.find((r) => key(r) === 'p3:base')?.cells[1]).toBeNull();
    expect(rows.find((r) => key(r) === 'p5:total_cash')?.cells[0]).toBeNull();
    // Each column answers exactly what its query alone answers, with the shared percentiles.
    const alone = await request<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(analyst), json: { ...adHoc, percentiles } });
    expect(p4?.cells[1]).toEqual(alone.body.data.cells.find((c) => c.levelId === 'p4' && c.compensationTypeId === 'base'));
    for (const cell of rows.flatMap((r) => r.cells)) {
      if (cell?.status === 'insufficient_data') expect(cell.percentiles).toBeNull();
    }
  });

  it('aligns the market filters of one query as columns and withholds thin cells', async () => {
    const thin = { companyStages: ['seed'], companyOwnershipGroups: ['venture_backed'], locations: ['us_pittsburgh'], industries: ['ind_tech_cybersecurity'] };
    const reply = await request<{ data: Schemas['CompareResult'] }>('/api/benchmarking/compare', {
      method: 'POST',
      headers: bearer(analyst),
      json: {
        queries: [
          { request: { ...ENGINEERS_US, marketFilters: [EVERYWHERE_US, thin] } },
          { request: { ...ENGINEERS_US, marketFilters: [TIER_ONE_TECH] } },
        ],
        currency: 'USD',
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.columns.map((c) => [c.queryIndex, c.marketFilterIndex, c.currencyMode])).toEqual([[0, 0, 'USD'], [0, 1, 'USD'], [1, 0, 'USD']]);
    const thinCells = reply.body.data.rows.map((r) => r.cells[1]);
    expect(thinCells.every((c) => c?.status === 'insufficient_data' && c.label === 'Insufficient data' && c.percentiles === null && c.sample.employees === null)).toBe(true);
    expect(reply.body.data.rows.every((r) => r.cells[0]?.status === 'published')).toBe(true);
  });

  it('needs two to four queries, each either saved or given, each valid', async () => {
    const compare = (json: unknown) => request<ErrorBody>('/api/benchmarking/compare', { method: 'POST', headers: bearer(analyst), json });
    const one = await compare({ queries: [{ request: ENGINEERS_US }] });
    expect(one.status).toBe(400);
    expect(one.body.errors).toEqual([{ field: 'body.queries', message: 'must NOT have fewer than 2 items' }]);
    const five = await compare({ queries: Array.from({ length: 5 }, () => ({ request: ENGINEERS_US })) });
    expect(five.body.errors).toEqual([{ field: 'body.queries', message: 'must NOT have more than 4 items' }]);
    const neither = await compare({ queries: [{ label: 'nothing' }, { request: ENGINEERS_US }] });
    expect(neither.body.errors).toEqual([{ field: 'body.queries[0]', message: 'Choose a saved report query or give a request, not both' }]);
    const invalid = await compare({ queries: [{ request: ENGINEERS_US }, { request: { ...ENGINEERS_US, levels: [] } }] });
    expect(invalid.body.errors).toEqual([{ field: 'body.queries[1].request.levels', message: 'Please select at least one level option' }]);
    const unknown = await compare({ queries: [{ savedQueryId: '0190c0de-0000-7000-8000-000000000000' }, { request: ENGINEERS_US }] });
    expect(unknown.status).toBe(404);
  });
});
