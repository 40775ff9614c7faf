import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import { startTestServer } from '../../../test/server.js';
import type { components } from '../../contract-types.js';
import { ENGINEERS_US, EVERYWHERE_US, jobEnded } from '../test/requests.js';

type Schemas = components['schemas'];
type Slice = Schemas['SharedSlice'];

let company: TestCompany;
let admin: TestUser;
let analyst: TestUser;

beforeAll(async () => {
  company = await createTestCompany(await testDb(), 'Sharing Co');
  admin = company.users.admin as TestUser;
  analyst = company.users.analyst as TestUser;
});

const share = (json: unknown, user: TestUser = admin) => request<{ data: Slice }>('/api/benchmarking/shares', { method: 'POST', headers: bearer(user), json });
const THIN = { companyStages: ['seed'], companyOwnershipGroups: ['venture_backed'], locations: ['us_pittsburgh'], industries: ['ind_tech_cybersecurity'] };
const EXECUTIVE = { founderTypes: ['non_founder'], jobTitles: ['cto'], marketFilters: [{ industries: ['ind_all'] }], compensationTypes: ['base'] };

describe('shared slices', () => {
  it('freeze what a request answers now; people of the company with benchmarking view read it at its page', async () => {
    const created = await share({ title: 'Engineers for the board', request: { ...ENGINEERS_US, marketFilters: [EVERYWHERE_US, THIN] } });
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    const slice = created.body.data;
    expect(slice).toMatchObject({ kind: 'employee', title: 'Engineers for the board', status: 'active', path: `/shares/${slice.id}`, savedQueryId: null, expiresAt: null, revokedAt: null, createdBy: { id: admin.id } });
    const now = await request<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', { method: 'POST', headers: bearer(analyst), json: { ...ENGINEERS_US, marketFilters: [EVERYWHERE_US, THIN] } });
    expect(slice.releaseId).toBe(now.body.data.releaseId);
    const read = await request<{ data: Schemas['SharedSliceView'] }>(`/api/shares/${slice.id}`, { headers: bearer(analyst) });
    expect(read.status).toBe(200);
    expect(read.body.data.slice).toEqual(slice);
    expect(read.body.data.result).toEqual(now.body.data);
    // The privacy rule holds in a slice as in the explorer: the thin market's cells are withheld.
    const thin = read.body.data.result.cells.filter((c) => c.marketFilterIndex === 1);
    expect(thin.length).toBeGreaterThan(0);
    expect(thin.every((c) => c.status === 'insufficient_data' && c.percentiles === null && c.sample.employees === null)).toBe(true);
    const listed = await request<{ data: Slice[] }>('/api/benchmarking/shares', { headers: bearer(analyst) });
    expect(listed.body.data.map((s) => s.id)).toContain(slice.id);
  });

  it('share a saved report query by its id', async () => {
    const saved = await request<{ data: Schemas['SavedReportQuery'] }>('/api/benchmarking/saved-queries', { method: 'POST', headers: bearer(admin), json: { name: 'To share', request: ENGINEERS_US } });
    const created = await share({ title: 'From a saved query', savedQueryId: saved.body.data.id });
    expect(created.status).toBe(201);
    expect(created.body.data.savedQueryId).toBe(saved.body.data.id);
    expect(created.body.data.request).toEqual(ENGINEERS_US);
  });

  it('are refused with every reason: no title, neither or both sources, an invalid request, an expiry in the past or too far', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const neither = await share({ title: '  ', expiresAt: past });
    expect((neither.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.title', message: 'Please enter a title for the shared slice' },
      { field: 'body.expiresAt', message: 'The expiry must be in the future' },
      { field: 'body', message: 'Choose a saved report query or give a request, not both' },
    ]);
    const far = await share({ title: 'Forever', request: { ...ENGINEERS_US, jobFamilies: [] }, expiresAt: new Date(Date.now() + 400 * 24 * 3600 * 1000).toISOString() });
    expect((far.body as unknown as ErrorBody).errors).toEqual([
      { field: 'body.expiresAt', message: 'A shared slice can stay open for at most a year' },
      { field: 'body.request.jobFamilies', message: 'Please select at least one job family' },
    ]);
    const missingTitle = await share({ request: ENGINEERS_US });
    expect((missingTitle.body as unknown as ErrorBody).errors).toEqual([{ field: 'body.title', message: 'is required' }]);
  });

  it('need benchmarking edit to share or revoke and view to read', async () => {
    const slice = (await share({ title: 'Permissions', request: ENGINEERS_US })).body.data;
    expect((await share({ title: 'Analyst share', request: ENGINEERS_US }, analyst)).status).toBe(403);
    expect((await request(`/api/benchmarking/shares/${slice.id}/revoke`, { method: 'POST', headers: bearer(analyst) })).status).toBe(403);
    const employee = company.users.employee as TestUser;
    expect((await request(`/api/shares/${slice.id}`, { headers: bearer(employee) })).status).toBe(403);
    expect((await request(`/api/shares/${slice.id}`)).status).toBe(401);
  });

  it('stop opening once revoked, and say so', async () => {
    const slice = (await share({ title: 'Revoke me', request: ENGINEERS_US })).body.data;
    const revoked = await request<{ data: Slice }>(`/api/benchmarking/shares/${slice.id}/revoke`, { method: 'POST', headers: bearer(admin) });
    expect(revoked.body.data).toMatchObject({ status: 'revoked' });
    expect(revoked.body.data.revokedAt).not.toBeNull();
    const read = await request<ErrorBody>(`/api/shares/${slice.id}`, { headers: bearer(analyst) });
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ code: 'slice_revoked', message: 'This shared slice was revoked.', title: 'Not found' });
    const again = await request<{ data: Slice }>(`/api/benchmarking/shares/${slice.id}/revoke`, { method: 'POST', headers: bearer(admin) });
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
  });

  it('close at their expiry', async () => {
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const slice = (await share({ title: 'Expiring', request: ENGINEERS_US, expiresAt: soon })).body.data;
    expect(slice.expiresAt).toBe(soon);
    expect((await request(`/api/shares/${slice.id}`, { headers: bearer(analyst) })).status).toBe(200);
    // An hour later, as the database sees it.
    await (await testDb())('market_shared_slices').where({ id: slice.id }).update({ expires_at: new Date(Date.now() - 1000).toISOString() });
    const read = await request<ErrorBody>(`/api/shares/${slice.id}`, { headers: bearer(analyst) });
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('slice_expired');
    const listed = await request<{ data: Slice[] }>('/api/benchmarking/shares', { headers: bearer(analyst) });
    expect(listed.body.data.find((s) => s.id === slice.id)?.status).toBe('expired');
  });

  it('have an executive variant, each kind only at its own page', async () => {
    const created = await request<{ data: Slice }>('/api/benchmarking/shares/executive', { method: 'POST', headers: bearer(admin), json: { title: 'CTO pay', request: EXECUTIVE } });
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    const slice = created.body.data;
    expect(slice).toMatchObject({ kind: 'executive', path: `/shares/executive/${slice.id}` });
    const read = await request<{ data: Schemas['ExecutiveSharedSliceView'] }>(`/api/shares/executive/${slice.id}`, { headers: bearer(analyst) });
    expect(read.status).toBe(200);
    const now = await request<{ data: Schemas['ExecutiveCompResult'] }>('/api/benchmarking/executive-comp/market-data', { method: 'POST', headers: bearer(analyst), json: EXECUTIVE });
    expect(read.body.data.result).toEqual(now.body.data);
    expect((await request(`/api/shares/${slice.id}`, { headers: bearer(analyst) })).status).toBe(404);
    const employeeSlice = (await share({ title: 'Employee kind', request: ENGINEERS_US })).body.data;
    expect((await request(`/api/shares/executive/${employeeSlice.id}`, { headers: bearer(analyst) })).status).toBe(404);
    const invalid = await request<ErrorBody>('/api/benchmarking/shares/executive', { method: 'POST', headers: bearer(admin), json: { title: 'Bad', request: { ...EXECUTIVE, jobTitles: [] } } });
    expect(invalid.body.errors).toEqual([{ field: 'body.request.jobTitles', message: 'Please select at least one job title' }]);
  });

  it("are invisible to another company: 404 for reading, revoking and sharing its saved queries", async () => {
    const slice = (await share({ title: 'Ours', request: ENGINEERS_US })).body.data;
    const other = await createTestCompany(await testDb(), 'Slice Neighbour');
    const theirs = bearer(other.users.admin as TestUser);
    const read = await request<ErrorBody>(`/api/shares/${slice.id}`, { headers: theirs });
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('not_found');
    expect((await request(`/api/shares/executive/${slice.id}`, { headers: theirs })).status).toBe(404);
    expect((await request(`/api/benchmarking/shares/${slice.id}/revoke`, { method: 'POST', headers: theirs })).status).toBe(404);
    const list = await request<{ data: Slice[] }>('/api/benchmarking/shares', { headers: theirs });
    expect(list.body.data.map((s) => s.id)).not.toContain(slice.id);
    const saved = await request<{ data: Schemas['SavedReportQuery'] }>('/api/benchmarking/saved-queries', { method: 'POST', headers: bearer(admin), json: { name: 'Ours too', request: ENGINEERS_US } });
    expect((await request('/api/benchmarking/shares', { method: 'POST', headers: theirs, json: { title: 'Stolen', savedQueryId: saved.body.data.id } })).status).toBe(404);
  });
});

/** Its own server: publishing a release changes what every query of that server answers from. */
describe('a shared slice after a new release is published', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let staff: TestUser;
  let editor: TestUser;
  const call = <T>(path: string, user: TestUser, init: Parameters<typeof request>[1] = {}) => request<T>(path, { ...init, base: server.url, headers: bearer(user) });

  beforeAll(async () => {
    server = await startTestServer({}, { demoMarketRecords: 20_000 });
    const db = await testDb(server.env);
    const own = await createTestCompany(db, 'Slice Release Co');
    editor = own.users.admin as TestUser;
    staff = await createTestUser(db, { companyId: own.id, internalAdmin: true });
  });
  afterAll(() => server.stop());

  it('still answers from the release it ran on, exactly as before', async () => {
    const json = { ...ENGINEERS_US, jobFamilies: ['bg_engineering'] };
    const slice = (await call<{ data: Slice }>('/api/benchmarking/shares', editor, { method: 'POST', json: { title: 'Before the release', request: json } })).body.data;
    const before = (await call<{ data: Schemas['SharedSliceView'] }>(`/api/shares/${slice.id}`, editor)).body.data;
    const started = await call<{ data: Schemas['BackgroundJob'] }>('/api/internal/market/releases', staff, { method: 'POST', json: { seed: 99, records: 20000 } });
    const job = await jobEnded(async () => (await call<{ data: Schemas['BackgroundJob'] }>(`/api/background-jobs/${started.body.data.id}`, staff)).body.data);
    expect(job.status).toBe('succeeded');
    const releases = (await call<{ data: Schemas['MarketRelease'][] }>('/api/internal/market/releases', staff)).body.data;
    const draft = releases.find((r) => r.status === 'draft');
    expect((await call(`/api/internal/market/releases/${draft?.id}/publish`, staff, { method: 'POST' })).status).toBe(200);
    const now = (await call<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', editor, { method: 'POST', json })).body.data;
    expect(now.releaseId).toBe(draft?.id);
    expect(now.cells).not.toEqual(before.result.cells);
    const after = (await call<{ data: Schemas['SharedSliceView'] }>(`/api/shares/${slice.id}`, editor)).body.data;
    expect(after).toEqual(before);
    expect(after.slice.releaseId).not.toBe(draft?.id);
  });
});
