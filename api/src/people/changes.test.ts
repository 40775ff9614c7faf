import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../test/factories.js';
import { type ErrorBody, request } from '../../test/http.js';
import type { components } from '../contract-types.js';
import { appEditsSince, editedInAppSince } from './changes.js';

type Employee = components['schemas']['Employee'];
type CompensationRecord = components['schemas']['CompensationRecord'];
type EquityGrant = components['schemas']['EquityGrant'];
type PeopleChange = components['schemas']['PeopleChange'];

/**
 * Correcting people records in the app, each change under If-Match and written to the change log:
 * who changed what, when, from what. Values in the expectations are the ones sent, by hand.
 */
describe('correcting people records, with their history', () => {
  let company: TestCompany;
  let other: TestCompany;
  let admin: Record<string, string>;
  const ids = { Ada: '', Ben: '', Cai: '' };

  const as = (user: TestUser | undefined) => bearer(user as TestUser);
  const get = <T>(url: string, user: TestUser | undefined) => request<{ data: T } & ErrorBody>(url, { headers: as(user) });
  const send = <T>(method: string, url: string, json: unknown, headers: Record<string, string> = admin) => request<{ data: T } & ErrorBody>(url, { method, headers, json });
  const at = (version: number, user: TestUser | undefined = company.users.admin) => ({ ...as(user), 'If-Match': `"${version}"` });
  const changesOf = async (employeeId: string, user: TestUser | undefined = company.users.admin, query = '') => {
    const reply = await get<PeopleChange[]>(`/api/employees/${employeeId}/changes${query}`, user);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data;
  };
  /** field → [old, new] of the changes of one record, for comparing by hand. */
  const byField = (changes: PeopleChange[], entityId: string) => Object.fromEntries(changes.filter((change) => change.entityId === entityId).map((change) => [change.field, [change.oldValue, change.newValue]]));

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'Records Co');
    other = await createTestCompany(db, 'Elsewhere Co');
    admin = as(company.users.admin);
    const hire = async (key: keyof typeof ids, body: Record<string, unknown>) => {
      const reply = await send<Employee>('POST', '/api/employees', { employeeNumber: `RC-${key}`, firstName: key, lastName: 'Record', ...body });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      ids[key] = reply.body.data.id;
    };
    await hire('Ada', { title: 'CTO', levelId: 'm5', jobFamilyId: 'software_engineering', locationId: 'us_sf_bay_area' });
    await hire('Ben', { title: 'Engineer', managerId: ids.Ada, levelId: 'p2', jobFamilyId: 'software_engineering', department: 'Platform', locationId: 'us_sf_bay_area', startDate: '2023-03-01', demographics: { gender: 'man' } });
    await hire('Cai', { title: 'Engineer', managerId: ids.Ada, levelId: 'p3', jobFamilyId: 'software_engineering' });
  });

  it('changes the job, manager, department, leave and employment type under If-Match, and logs each field from what to what', async () => {
    const before = (await get<Employee>(`/api/employees/${ids.Ben}`, company.users.admin)).body.data;
    const change = {
      title: 'Senior Engineer',
      levelId: 'p3',
      managerId: ids.Cai,
      department: 'Infrastructure',
      employmentType: 'part_time',
      leave: { startDate: '2026-01-05', endDate: '2026-03-31' },
    };
    const reply = await send<Employee>('PATCH', `/api/employees/${ids.Ben}`, change, at(before.version));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data).toMatchObject({ title: 'Senior Engineer', levelId: 'p3', managerId: ids.Cai, department: 'Infrastructure', version: before.version + 1 });

    const log = byField(await changesOf(ids.Ben, company.users.admin, '?entity=employee'), ids.Ben);
    expect(log).toEqual({
      title: ['Engineer', 'Senior Engineer'],
      levelId: ['p2', 'p3'],
      // p2 and p3 are both on the professional track: the track did not change, so it is not logged.
      managerId: [ids.Ada, ids.Cai],
      department: ['Platform', 'Infrastructure'],
      employmentType: ['full_time', 'part_time'],
      'leave.startDate': [null, '2026-01-05'],
      'leave.endDate': [null, '2026-03-31'],
    });
    const changes = await changesOf(ids.Ben);
    const manager = changes.find((entry) => entry.field === 'managerId');
    expect(manager).toMatchObject({ oldLabel: 'Ada Record', newLabel: 'Cai Record', source: 'app', entity: 'employee', changedBy: { userId: company.users.admin?.id } });
    expect(Date.now() - Date.parse(manager?.changedAt ?? '')).toBeLessThan(10 * 60_000);
  });

  it('corrects the legal entity, FTE and contracted hours, logs them, and refuses an FTE above 1', async () => {
    const before = (await get<Employee>(`/api/employees/${ids.Cai}`, company.users.admin)).body.data;
    expect(before).toMatchObject({ legalEntity: null, fte: 1, weeklyHours: null });
    const refused = await send<Employee>('PATCH', `/api/employees/${ids.Cai}`, { fte: 1.5 }, at(before.version));
    expect(refused.status).toBe(400);
    const reply = await send<Employee>('PATCH', `/api/employees/${ids.Cai}`, { legalEntity: 'Records Co GmbH', fte: 0.8, weeklyHours: 32 }, at(before.version));
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    // Four days of a 40-hour week: 0.8 FTE and 32 hours.
    expect(reply.body.data).toMatchObject({ legalEntity: 'Records Co GmbH', fte: 0.8, weeklyHours: 32, version: before.version + 1 });
    expect(byField(await changesOf(ids.Cai, company.users.admin, '?entity=employee'), ids.Cai)).toMatchObject({
      legalEntity: [null, 'Records Co GmbH'],
      fte: [1, 0.8],
      weeklyHours: [null, 32],
    });
  });

  it("places someone in a company job: its family, level and track become theirs, logged field by field; another company's job is refused", async () => {
    const db = await testDb();
    const now = new Date().toISOString();
    const job = { id: `job-${Date.now().toString(36)}`, job_family_id: 'infrastructure_engineering', level_id: 'm3', track: 'tr_m', title: 'Infrastructure Manager', job_code: null, grade_id: null, version: 1, updated_by: null, created_at: now, updated_at: now };
    await db('band_company_jobs').insert([{ ...job, company_id: company.id }, { ...job, id: `${job.id}-other`, company_id: other.id }]);
    const before = (await get<Employee>(`/api/employees/${ids.Ada}`, company.users.admin)).body.data;
    const refused = await send('PATCH', `/api/employees/${ids.Ada}`, { companyJobId: `${job.id}-other` }, at(before.version));
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.field).toBe('body.companyJobId');
    const placed = await send<Employee>('PATCH', `/api/employees/${ids.Ada}`, { companyJobId: job.id }, at(before.version));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.data).toMatchObject({ companyJobId: job.id, jobFamilyId: 'infrastructure_engineering', levelId: 'm3', track: 'tr_m' });
    const log = await changesOf(ids.Ada);
    // Ada was hired as software_engineering m5: the family changes, the level m5 → m3, the track stays the manager track.
    expect(byField(log, ids.Ada)).toEqual({ companyJobId: [null, job.id], jobFamilyId: ['software_engineering', 'infrastructure_engineering'], levelId: ['m5', 'm3'] });
    expect(log.find((entry) => entry.field === 'companyJobId')?.newLabel).toBe('Infrastructure Manager');
  });

  it('refuses a stale edit (409) and keeps the stored record; a missing If-Match is 428', async () => {
    const current = (await get<Employee>(`/api/employees/${ids.Cai}`, company.users.admin)).body.data;
    expect((await send('PATCH', `/api/employees/${ids.Cai}`, { title: 'Staff Engineer' }, at(current.version))).status).toBe(200);
    // A second tab still holds the version read before that save.
    const stale = await send('PATCH', `/api/employees/${ids.Cai}`, { title: 'Principal Engineer' }, at(current.version));
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('version_conflict');
    expect(stale.headers.get('etag')).toBe(`"${current.version + 1}"`);
    expect((await get<Employee>(`/api/employees/${ids.Cai}`, company.users.admin)).body.data.title).toBe('Staff Engineer');
    expect((await send('PATCH', `/api/employees/${ids.Cai}`, { title: 'Principal Engineer' })).status).toBe(428);
    const titles = (await changesOf(ids.Cai)).filter((entry) => entry.field === 'title').map((entry) => [entry.oldValue, entry.newValue]);
    expect(titles).toEqual([['Engineer', 'Staff Engineer']]);
  });

  it('validates by the contract: an unknown field or a bad date is 400, nothing logged', async () => {
    const current = (await get<Employee>(`/api/employees/${ids.Cai}`, company.users.admin)).body.data;
    const count = (await changesOf(ids.Cai)).length;
    expect((await send('PATCH', `/api/employees/${ids.Cai}`, { salary: 5 }, at(current.version))).status).toBe(400);
    expect((await send('PATCH', `/api/employees/${ids.Cai}`, { startDate: '2026-13-01' }, at(current.version))).status).toBe(400);
    expect((await send('PATCH', `/api/employees/${ids.Cai}`, { leave: { startDate: '2026-02-01', endDate: '2026-01-01' } }, at(current.version))).status).toBe(400);
    // The end date of an active employment is the terminate operation's.
    const early = await send('PATCH', `/api/employees/${ids.Cai}`, { terminationDate: '2026-06-30' }, at(current.version));
    expect(early.status).toBe(400);
    expect(early.body.errors?.[0]?.field).toBe('body.terminationDate');
    expect((await changesOf(ids.Cai)).length).toBe(count);
  });

  it('ends an employment and corrects its last day later, both in the history', async () => {
    const hired = await send<Employee>('POST', '/api/employees', { employeeNumber: 'RC-Dee', firstName: 'Dee', lastName: 'Record', managerId: ids.Ada, startDate: '2024-01-15' });
    const dee = hired.body.data;
    const ended = await send<Employee>('POST', `/api/employees/${dee.id}/terminate`, { terminationDate: '2026-05-31' }, at(dee.version));
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    const corrected = await send<Employee>('PATCH', `/api/employees/${dee.id}`, { terminationDate: '2026-06-15' }, at(ended.body.data.version));
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect(corrected.body.data.terminationDate).toBe('2026-06-15');
    // Newest first: the correction, then the termination's two fields.
    const log = (await changesOf(dee.id)).map((entry) => [entry.field, entry.oldValue, entry.newValue]);
    expect(log).toEqual(
      expect.arrayContaining([
        ['terminationDate', '2026-05-31', '2026-06-15'],
        ['terminationDate', null, '2026-05-31'],
        ['status', 'active', 'terminated'],
      ]),
    );
    expect(log[0]).toEqual(['terminationDate', '2026-05-31', '2026-06-15']);
    expect(log).toHaveLength(3);
  });

  it('adds, corrects and deletes a pay record, each field in the history; a stale correction is refused', async () => {
    const added = await send<CompensationRecord>('POST', `/api/employees/${ids.Ben}/compensation`, {
      type: 'base_salary',
      amount: { amount: 120_000_00, currency: 'USD' },
      effectiveDate: '2025-01-01',
      reason: 'hire',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const record = added.body.data;
    // The salary was entered as 120,000.00 but is 125,500.00: 12,550,000 cents.
    const fixed = await send<CompensationRecord>('PATCH', `/api/employees/${ids.Ben}/compensation/${record.id}`, { amount: { amount: 125_500_00, currency: 'USD' }, reason: 'adjustment' }, at(record.version));
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.data.amount).toEqual({ amount: 12_550_000, currency: 'USD' });
    const stale = await send('PATCH', `/api/employees/${ids.Ben}/compensation/${record.id}`, { amount: { amount: 1_00, currency: 'USD' } }, at(record.version));
    expect(stale.status).toBe(409);
    expect((await get<CompensationRecord[]>(`/api/employees/${ids.Ben}/compensation`, company.users.admin)).body.data[0]?.amount.amount).toBe(12_550_000);

    const changes = await changesOf(ids.Ben, company.users.admin, '?entity=payRecord');
    const corrections = changes.filter((entry) => entry.entityId === record.id && entry.oldValue !== null);
    expect(Object.fromEntries(corrections.map((entry) => [entry.field, [entry.oldValue, entry.newValue]]))).toEqual({
      amount: [
        { amount: 12_000_000, currency: 'USD' },
        { amount: 12_550_000, currency: 'USD' },
      ],
      reason: ['hire', 'adjustment'],
    });
    const creation = changes.filter((entry) => entry.entityId === record.id && entry.oldValue === null);
    expect(Object.fromEntries(creation.map((entry) => [entry.field, entry.newValue]))).toEqual({
      type: 'base_salary',
      amount: { amount: 12_000_000, currency: 'USD' },
      effectiveDate: '2025-01-01',
      reason: 'hire',
    });

    expect((await send('DELETE', `/api/employees/${ids.Ben}/compensation/${record.id}`, undefined)).status).toBe(200);
    const deletion = (await changesOf(ids.Ben, company.users.admin, '?entity=payRecord')).filter((entry) => entry.entityId === record.id && entry.newValue === null);
    expect(Object.fromEntries(deletion.map((entry) => [entry.field, entry.oldValue]))).toEqual({
      type: 'base_salary',
      amount: { amount: 12_550_000, currency: 'USD' },
      effectiveDate: '2025-01-01',
      reason: 'adjustment',
    });
  });

  it('adds, corrects and deletes an equity grant with its vesting terms; a stale correction is refused', async () => {
    const created = await send<EquityGrant>('POST', `/api/employees/${ids.Ben}/equity-grants`, {
      grantNumber: 'RC-G1',
      grantType: 'rsu',
      shares: 4_000,
      grantDate: '2025-02-01',
      vestingMonths: 48,
      cliffMonths: 12,
      vestingFrequency: 'monthly',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const grant = created.body.data;
    const fixed = await send<EquityGrant>('PATCH', `/api/employees/${ids.Ben}/equity-grants/${grant.id}`, { shares: 4_800, cliffMonths: 6 }, at(grant.version));
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect((await send('PATCH', `/api/employees/${ids.Ben}/equity-grants/${grant.id}`, { shares: 1 }, at(grant.version))).status).toBe(409);
    const changes = (await changesOf(ids.Ben, company.users.admin, '?entity=grant')).filter((entry) => entry.entityId === grant.id && entry.oldValue !== null);
    expect(Object.fromEntries(changes.map((entry) => [entry.field, [entry.oldValue, entry.newValue]]))).toEqual({ shares: [4_000, 4_800], cliffMonths: [12, 6] });
    expect((await send('DELETE', `/api/employees/${ids.Ben}/equity-grants/${grant.id}`, undefined)).status).toBe(200);
    const deleted = (await changesOf(ids.Ben, company.users.admin, '?entity=grant')).filter((entry) => entry.entityId === grant.id && entry.newValue === null);
    expect(Object.fromEntries(deleted.map((entry) => [entry.field, entry.oldValue]))).toMatchObject({ grantNumber: 'RC-G1', grantType: 'rsu', shares: 4_800, cliffMonths: 6, vestingMonths: 48 });
  });

  it("answers 404 for another company's employee, record or grant, and logs nothing there", async () => {
    const stranger = other.users.admin;
    const record = (await get<CompensationRecord[]>(`/api/employees/${ids.Ben}/compensation`, company.users.admin)).body.data;
    expect((await get(`/api/employees/${ids.Ben}/changes`, stranger)).status).toBe(404);
    expect((await send('PATCH', `/api/employees/${ids.Ben}`, { title: 'Taken over' }, at(1, stranger))).status).toBe(404);
    const added = await send<CompensationRecord>('POST', `/api/employees/${ids.Ben}/compensation`, { type: 'bonus_target', amount: { amount: 10_000_00, currency: 'USD' }, effectiveDate: '2025-06-01' });
    expect((await send('PATCH', `/api/employees/${ids.Ben}/compensation/${added.body.data.id}`, { reason: 'promotion' }, at(1, stranger))).status).toBe(404);
    expect((await send('DELETE', `/api/employees/${ids.Ben}/compensation/${added.body.data.id}`, undefined, as(stranger))).status).toBe(404);
    expect((await send('POST', `/api/employees/${ids.Ben}/equity-grants`, { grantType: 'rsu', shares: 1, grantDate: '2025-01-01' }, as(stranger))).status).toBe(404);
    expect(record.length).toBeGreaterThanOrEqual(0);
    expect(await appEditsSince({ db: await testDb(), companyId: other.id, since: '2000-01-01' })).toEqual([]);
  });

  it('refuses edits without the edit permissions (403) and hides pay and demographics in the history without the read permissions', async () => {
    const analyst = company.users.analyst;
    const current = (await get<Employee>(`/api/employees/${ids.Ben}`, company.users.admin)).body.data;
    expect((await send('PATCH', `/api/employees/${ids.Ben}`, { title: 'Self-promoted' }, at(current.version, analyst))).status).toBe(403);
    expect((await send('POST', `/api/employees/${ids.Ben}/compensation`, { type: 'base_salary', amount: { amount: 1_00, currency: 'USD' }, effectiveDate: '2025-07-01' }, as(analyst))).status).toBe(403);
    expect((await get(`/api/employees/${ids.Ben}/changes`, company.users.employee)).status).toBe(403);

    // A demographics change, logged for those who may read demographics only.
    const demo = await send<Employee>('PATCH', `/api/employees/${ids.Ben}`, { demographics: { gender: 'non_binary' } }, at(current.version));
    expect(demo.status, JSON.stringify(demo.body)).toBe(200);
    const full = await changesOf(ids.Ben);
    expect(full.find((entry) => entry.field === 'demographics.gender')).toMatchObject({ oldValue: 'man', newValue: 'non_binary' });

    const db = await testDb();
    const role = await send<{ id: string }>('POST', '/api/roles', { name: 'Org chart reader', permissions: { team: [{ authority: 'view', scope: 'all' }] } });
    const reader = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });
    const seen = await changesOf(ids.Ben, reader);
    expect(seen.some((entry) => entry.field === 'title')).toBe(true);
    expect(seen.filter((entry) => entry.entity !== 'employee' || entry.field === 'performanceRating' || entry.field.startsWith('demographics.'))).toEqual([]);
    // The analyst reads pay but not demographics.
    const analystSees = await changesOf(ids.Ben, analyst);
    expect(analystSees.some((entry) => entry.entity === 'payRecord')).toBe(true);
    expect(analystSees.some((entry) => entry.field.startsWith('demographics.'))).toBe(false);
  });

  it('tells a sync which fields were edited in the app since a date', async () => {
    const db = await testDb();
    const since = new Date(Date.now() - 60 * 60_000).toISOString();
    const edits = await appEditsSince({ db, companyId: company.id, since, employeeId: ids.Ben, entity: 'employee' });
    expect(edits.map((edit) => edit.field)).toEqual(expect.arrayContaining(['title', 'levelId', 'managerId', 'department']));
    expect(edits.find((edit) => edit.field === 'title')).toMatchObject({ value: 'Senior Engineer', changedBy: company.users.admin?.id });
    expect(await editedInAppSince({ db, companyId: company.id, employeeId: ids.Ben, field: 'department', since })).toBe(true);
    expect(await editedInAppSince({ db, companyId: company.id, employeeId: ids.Ben, field: 'startDate', since })).toBe(false);
    expect(await appEditsSince({ db, companyId: company.id, since: new Date(Date.now() + 60_000) })).toEqual([]);
  });
});
