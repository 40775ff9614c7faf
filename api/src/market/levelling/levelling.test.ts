import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../../test/factories.js';
import { type ErrorBody, request } from '../../../test/http.js';
import type { components } from '../../contract-types.js';
import { newId } from '../../db/ids.js';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../../reference/catalog/index.js';

type Schemas = components['schemas'];
type Page = { data: Schemas['LevelYourEmployees']; page: Schemas['Page'] };

interface EmployeeSpec {
  title: string;
  family?: string;
  level?: string;
  location?: string;
  country?: string;
  currency?: string;
  /** Annual base in whole units; none when omitted. */
  base?: number;
  manager?: string;
  userId?: string;
}

/** Employees and their base salary straight into the people tables, as an HR import would leave them. */
async function hire(db: Knex, companyId: string, spec: EmployeeSpec): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  await db('employees').insert({
    id,
    company_id: companyId,
    employee_number: `E-${id.slice(-8)}`,
    user_id: spec.userId ?? null,
    first_name: 'Fixture',
    last_name: spec.title,
    title: spec.title,
    job_family_id: spec.family ?? null,
    level_id: spec.level ?? null,
    manager_id: spec.manager ?? null,
    country_code: spec.country ?? 'US',
    location_id: spec.location ?? null,
    currency: spec.currency ?? 'USD',
    status: 'active',
    created_at: now,
    updated_at: now,
  });
  if (spec.base !== undefined) {
    await db('compensation_records').insert([
      // An older salary and a future one: only the one in force today counts.
      { id: newId(), company_id: companyId, employee_id: id, type: 'base_salary', amount: Math.round(spec.base * 0.5) * 100, currency: spec.currency ?? 'USD', effective_date: '2020-01-01', reason: 'hire', source: 'manual', created_at: now },
      { id: newId(), company_id: companyId, employee_id: id, type: 'base_salary', amount: Math.round(spec.base) * 100, currency: spec.currency ?? 'USD', effective_date: '2023-01-01', reason: 'merit', source: 'manual', created_at: now },
      { id: newId(), company_id: companyId, employee_id: id, type: 'base_salary', amount: Math.round(spec.base * 3) * 100, currency: spec.currency ?? 'USD', effective_date: '2999-01-01', reason: 'merit', source: 'manual', created_at: now },
    ]);
  }
  return id;
}

let company: TestCompany;
let admin: TestUser;
let medians: Map<string, number>;
const ids: Record<string, string> = {};

/** Market medians of software engineers' base pay in the Bay Area, by level, as the explorer shows them. */
async function bayAreaMedians(user: TestUser): Promise<Map<string, number>> {
  const reply = await request<{ data: Schemas['BenchmarkResult'] }>('/api/benchmarking/market-data', {
    method: 'POST',
    headers: bearer(user),
    json: {
      compensationTypes: ['base'],
      marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), locations: ['us_sf_bay_area'], industries: ['ind_all'] }],
      jobFamilies: ['software_engineering'],
      levels: ['p2', 'p3', 'p4', 'p5', 'p6'].map((id) => ({ type: 'level', id })),
      percentiles: [50],
    },
  });
  return new Map(reply.body.data.cells.map((c) => [c.levelId, c.percentiles?.[0]?.value ?? NaN]));
}

beforeAll(async () => {
  const db = await testDb();
  company = await createTestCompany(db, 'Levelling Co');
  admin = company.users.admin as TestUser;
  medians = await bayAreaMedians(admin);
  const bay = { location: 'us_sf_bay_area' };
  ids.manager = await hire(db, company.id, { title: 'Engineering Manager', ...bay, base: 250_000, userId: company.users.people_manager?.id });
  ids.senior = await hire(db, company.id, { title: 'Sr. Backend Engineer', ...bay, base: medians.get('p4')!, manager: ids.manager });
  ids.plain = await hire(db, company.id, { title: 'Software Engineer', family: 'software_engineering', level: 'p3', ...bay, base: medians.get('p5')! * 1.01, manager: ids.manager });
  ids.staff = await hire(db, company.id, { title: 'Staff Engineer', ...bay, base: medians.get('p2')!, manager: ids.manager });
  ids.unknown = await hire(db, company.id, { title: 'Zzyzx Qwop', ...bay, base: 100_000 });
  ids.unpaid = await hire(db, company.id, { title: 'Senior Product Designer', ...bay });
  ids.london = await hire(db, company.id, { title: 'Data Scientist', location: 'gb_london', country: 'GB', currency: 'GBP', base: 70_000 });
});

const level = (user: TestUser, query = '') => request<Page>(`/api/benchmarking/level-your-employees${query}`, { headers: bearer(user) });
const byId = (page: Page) => new Map(page.data.employees.map((e) => [e.employeeId, e]));

describe('level your employees', () => {
  it('suggests a level from the title and where the base salary sits among the market’s levels', async () => {
    const reply = await level(admin);
    expect(reply.status, JSON.stringify(reply.body).slice(0, 400)).toBe(200);
    const employees = byId(reply.body);
    expect(employees.size).toBe(7);
    const senior = employees.get(ids.senior!)!;
    expect(senior.suggestion).toMatchObject({ jobFamilyId: 'software_engineering', levelId: 'p4', confidenceLabel: 'high', matchesCurrent: false });
    expect(senior.signals).toEqual({ familyFrom: 'title', titleLevelId: 'p4', payLevelId: 'p4', payConsidered: true });
    expect(senior.reasons).toContain('Title and pay agree');
    expect(senior.reasons.some((r) => r.startsWith('Base salary of ') && r.includes('San Francisco Bay Area'))).toBe(true);
    // No level words: pay decides.
    const plain = employees.get(ids.plain!)!;
    expect(plain.suggestion).toMatchObject({ levelId: 'p5', confidenceLabel: 'medium' });
    expect(plain.signals).toMatchObject({ familyFrom: 'record', titleLevelId: 'p3', payLevelId: 'p5' });
    expect(plain.current).toEqual({ jobFamilyId: 'software_engineering', levelId: 'p3', locationId: 'us_sf_bay_area' });
    // The record's version, the If-Match with which a suggestion is taken into the record.
    const stored = (await (await testDb())('employees').where({ id: ids.plain }).first('version')) as { version: number };
    expect(plain.version).toBe(Number(stored.version));
    // Title and pay far apart: the title decides, with low confidence.
    const staff = employees.get(ids.staff!)!;
    expect(staff.suggestion).toMatchObject({ levelId: 'p5', confidenceLabel: 'low' });
    expect(staff.signals.payLevelId).toBe('p2');
    expect(employees.get(ids.manager!)?.suggestion).toMatchObject({ levelId: 'm3' });
    expect(employees.get(ids.unknown!)).toMatchObject({ suggestion: null, reasons: ['No job family in the catalog matches the title “Zzyzx Qwop”'] });
    const unpaid = employees.get(ids.unpaid!)!;
    expect(unpaid.suggestion).toMatchObject({ jobFamilyId: 'design', levelId: 'p4', confidenceLabel: 'medium' });
    expect(unpaid.reasons).toContain('Pay not considered: no base salary on record');
    const london = employees.get(ids.london!)!;
    expect(london.suggestion).toMatchObject({ jobFamilyId: 'data_science' });
    expect(london.signals.payConsidered).toBe(true);
    expect(london.reasons.some((r) => r.includes('70,000 GBP') && r.includes('London'))).toBe(true);
  });

  it('shows a people manager only their reports, and reads no pay for someone who may not see it', async () => {
    const manager = await level(company.users.people_manager as TestUser);
    expect([...byId(manager.body).keys()].sort()).toEqual([ids.manager, ids.senior, ids.plain, ids.staff].sort());
    const db = await testDb();
    const role = await request<{ data: { id: string } }>('/api/roles', {
      method: 'POST',
      headers: bearer(admin),
      json: { name: 'Levelling without pay', permissions: { benchmarking: [{ authority: 'view', scope: 'all' }], team: [{ authority: 'view', scope: 'all' }] } },
    });
    const viewer = await createTestUser(db, { companyId: company.id, roleIds: [role.body.data.id] });
    const blind = byId((await level(viewer)).body);
    expect(blind.size).toBe(7);
    for (const employee of blind.values()) {
      expect(employee.signals.payConsidered).toBe(false);
      expect(employee.signals.payLevelId).toBeNull();
      expect(employee.reasons.join(' ')).not.toMatch(/Base salary|\d{2},\d{3}/);
    }
    expect(blind.get(ids.senior!)?.reasons).toContain('Pay not considered: you may not see this employee’s pay');
    // Benchmarking without the team view: nobody.
    const benchOnly = await request<{ data: { id: string } }>('/api/roles', { method: 'POST', headers: bearer(admin), json: { name: 'Benchmarking only', permissions: { benchmarking: [{ authority: 'view', scope: 'all' }] } } });
    const outsider = await createTestUser(db, { companyId: company.id, roleIds: [benchOnly.body.data.id] });
    expect((await level(outsider)).body.data.employees).toEqual([]);
    expect((await level(company.users.employee as TestUser)).status).toBe(403);
  });

  it('pages by employee id and keeps to the company', async () => {
    const first = await level(admin, '?limit=3');
    expect(first.body.data.employees).toHaveLength(3);
    expect(first.body.page).toMatchObject({ limit: 3 });
    const second = await level(admin, `?limit=3&cursor=${first.body.page.nextCursor}`);
    const third = await level(admin, `?limit=3&cursor=${second.body.page.nextCursor}`);
    expect(third.body.page.nextCursor).toBeNull();
    const all = [...first.body.data.employees, ...second.body.data.employees, ...third.body.data.employees].map((e) => e.employeeId);
    expect(new Set(all).size).toBe(7);
    const other = await createTestCompany(await testDb(), 'Levelling Neighbour');
    expect((await level(other.users.admin as TestUser)).body.data.employees).toEqual([]);
    const wrong = await request<ErrorBody>('/api/benchmarking/level-your-employees?limit=0', { headers: bearer(admin) });
    expect(wrong.status).toBe(400);
  });
});

describe('levelling titles through the title index', () => {
  it('reads developers and SREs into their families, and a nurse as outside the catalog', async () => {
    const db = await testDb();
    const titled = await createTestCompany(db, 'Levelling Titles Co');
    const bay = { location: 'us_sf_bay_area' };
    const developer = await hire(db, titled.id, { title: 'Backend Developer', ...bay });
    const sre = await hire(db, titled.id, { title: 'Senior SRE', ...bay });
    const nurse = await hire(db, titled.id, { title: 'Registered Nurse', ...bay });
    const reply = await level(titled.users.admin as TestUser);
    expect(reply.status).toBe(200);
    const employees = byId(reply.body);
    expect(employees.get(developer)?.suggestion).toMatchObject({ jobFamilyId: 'software_engineering' });
    expect(employees.get(developer)?.reasons).toContain('Title “Backend Developer” matches Software Engineering (like “Backend Developer”)');
    expect(employees.get(sre)?.suggestion).toMatchObject({ jobFamilyId: 'infrastructure_engineering', levelId: 'p4' });
    expect(employees.get(nurse)).toMatchObject({
      suggestion: null,
      reasons: ['No job family in the catalog matches the title “Registered Nurse”: it names an occupation the catalog does not cover (“Registered Nurses”)'],
    });
  });
});

describe('levelling people in any country', () => {
  it('reads a Spanish employee’s pay against the market of Spain, else of Europe, and no code outside ISO 3166-1', async () => {
    const db = await testDb();
    const abroad = await createTestCompany(db, 'Levelling Abroad Co');
    // No catalog location, only a country code: before every country was a location, only US, CA, GB and DE were read.
    const madrid = await hire(db, abroad.id, { title: 'Senior Data Scientist', country: 'ES', currency: 'EUR', base: 60_000 });
    const kosovo = await hire(db, abroad.id, { title: 'Senior Data Scientist', country: 'XK', currency: 'EUR', base: 40_000 });
    const reply = await level(abroad.users.admin as TestUser);
    expect(reply.status).toBe(200);
    const employees = byId(reply.body);
    const spain = employees.get(madrid)!;
    expect(spain.signals.payConsidered).toBe(true);
    // The demo market has nobody in Spain, so the ladder is read in Europe (the UK and Germany),
    // whose answers are in US dollars: 60,000 EUR at 0.888731 EUR per USD (ECB, 9 May 2025) is 67,512 USD.
    expect(spain.reasons.some((r) => r.startsWith('Base salary of 67,512 USD sits ') && r.endsWith(' in Europe')), spain.reasons.join(' | ')).toBe(true);
    expect(employees.get(kosovo)?.signals.payConsidered).toBe(false);
    expect(employees.get(kosovo)?.reasons).toContain('Pay not considered: the employee’s location is not in the market');
  });
});
