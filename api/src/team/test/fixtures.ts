// Test support: employees, pay and grants written straight into the people tables, the way an
// HRIS import would leave them, for tests that then read them through the team view over HTTP.
import type { Knex } from 'knex';
import { newId } from '../../db/ids.js';

export interface EmployeeFixture {
  jobCode?: string | null;
  firstName: string;
  lastName: string;
  managerId?: string | null;
  userId?: string | null;
  email?: string | null;
  title?: string;
  department?: string | null;
  jobFamilyId?: string | null;
  levelId?: string | null;
  locationId?: string | null;
  countryCode?: string | null;
  currency?: string;
  startDate?: string | null;
  status?: 'active' | 'terminated';
  performanceRating?: string | null;
  demographics?: Record<string, unknown>;
}

let sequence = 0;

export async function insertEmployee(db: Knex, companyId: string, fixture: EmployeeFixture): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  sequence += 1;
  await db('employees').insert({
    id,
    company_id: companyId,
    employee_number: `T-${Date.now().toString(36)}-${sequence}`,
    user_id: fixture.userId ?? null,
    email: fixture.email ?? `${fixture.firstName}.${fixture.lastName}.${sequence}@team.test`.toLowerCase(),
    first_name: fixture.firstName,
    last_name: fixture.lastName,
    title: fixture.title ?? 'Engineer',
    job_code: fixture.jobCode ?? null,
    job_family_id: fixture.jobFamilyId === undefined ? 'software_engineering' : fixture.jobFamilyId,
    level_id: fixture.levelId === undefined ? 'p3' : fixture.levelId,
    track: fixture.levelId?.startsWith('m') ? 'tr_m' : 'tr_p',
    manager_id: fixture.managerId ?? null,
    department: fixture.department === undefined ? 'Engineering' : fixture.department,
    country_code: fixture.countryCode === undefined ? 'US' : fixture.countryCode,
    location_id: fixture.locationId === undefined ? 'us_sf_bay_area' : fixture.locationId,
    currency: fixture.currency ?? 'USD',
    start_date: fixture.startDate === undefined ? '2021-03-01' : fixture.startDate,
    employment_type: 'full_time',
    status: fixture.status ?? 'active',
    termination_date: fixture.status === 'terminated' ? '2024-01-31' : null,
    performance_rating: fixture.performanceRating ?? null,
    demographics: JSON.stringify(fixture.demographics ?? {}),
    version: 1,
    created_at: now,
    updated_at: now,
  });
  return id;
}

export async function insertPay(
  db: Knex,
  companyId: string,
  employeeId: string,
  records: { type: string; amount: number; currency?: string; effectiveDate: string; reason?: string; percentOfBaseBp?: number }[],
): Promise<void> {
  const now = new Date().toISOString();
  for (const record of records) {
    await db('compensation_records').insert({
      id: newId(),
      company_id: companyId,
      employee_id: employeeId,
      type: record.type,
      amount: record.amount,
      currency: record.currency ?? 'USD',
      percent_of_base_bp: record.percentOfBaseBp ?? null,
      effective_date: record.effectiveDate,
      reason: record.reason ?? 'hire',
      source: 'manual',
      created_at: now,
    });
  }
}

export async function insertGrant(
  db: Knex,
  companyId: string,
  employeeId: string,
  grant: { type: 'option' | 'rsu' | 'rsa' | 'common_stock'; shares: number; exercisePrice?: number | null; vestingStartDate: string; currency?: string; cliffMonths?: number; vestingMonths?: number; frequency?: string },
): Promise<string> {
  const id = newId();
  const now = new Date().toISOString();
  sequence += 1;
  await db('equity_grants').insert({
    id,
    company_id: companyId,
    employee_id: employeeId,
    grant_number: `G-${Date.now().toString(36)}-${sequence}`,
    grant_type: grant.type,
    reason: 'new_hire',
    shares: grant.shares,
    exercise_price: grant.exercisePrice ?? null,
    currency: grant.currency ?? 'USD',
    grant_date: grant.vestingStartDate,
    vesting_start_date: grant.vestingStartDate,
    vesting_months: grant.vestingMonths ?? 48,
    cliff_months: grant.cliffMonths ?? 12,
    vesting_frequency: grant.frequency ?? 'monthly',
    source: 'manual',
    created_at: now,
    updated_at: now,
  });
  return id;
}

/** The first day of the month `months` before this one, 'YYYY-MM-DD'. */
export function monthsAgo(months: number): string {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
  return date.toISOString().slice(0, 10);
}

export interface SmallTeam {
  managerEmployeeId: string;
  /** Everyone in the manager's subtree (the manager included), active or not. */
  subtree: string[];
  /** Employees outside the subtree. */
  outside: string[];
}

/**
 * A small org for a company whose people are not there yet: a head of engineering, a manager (the
 * given sign-in) with three reports and one report's report, and a peer of the manager with two
 * reports of their own.
 */
export async function insertSmallTeam(db: Knex, companyId: string, managerUserId: string): Promise<SmallTeam> {
  const head = await insertEmployee(db, companyId, { firstName: 'Hana', lastName: 'Head', levelId: 'm6', title: 'VP Engineering' });
  const manager = await insertEmployee(db, companyId, { firstName: 'Marco', lastName: 'Manager', levelId: 'm4', managerId: head, userId: managerUserId, title: 'Engineering manager' });
  const subtree = [manager];
  const names = [
    ['Ines', 'Iverson', 'p3'],
    ['Jon', 'Jansen', 'p4'],
    ['Kai', 'Kowalski', 'm3'],
  ] as const;
  for (const [first, last, level] of names) {
    const id = await insertEmployee(db, companyId, { firstName: first, lastName: last, levelId: level, managerId: manager });
    await insertPay(db, companyId, id, [{ type: 'base_salary', amount: 14_000_000 + subtree.length * 500_000, effectiveDate: '2023-01-01' }]);
    subtree.push(id);
  }
  // The first report has a raise and two grants, so the drawer's timeline and chart have something to show.
  const first = subtree[1] ?? manager;
  await insertPay(db, companyId, first, [
    { type: 'base_salary', amount: 15_500_000, effectiveDate: monthsAgo(3), reason: 'merit' },
    { type: 'bonus_target', amount: 1_550_000, effectiveDate: monthsAgo(3), percentOfBaseBp: 1000 },
  ]);
  await insertGrant(db, companyId, first, { type: 'option', shares: 4800, exercisePrice: 625, vestingStartDate: monthsAgo(20) });
  await insertGrant(db, companyId, first, { type: 'rsu', shares: 1200, vestingStartDate: monthsAgo(2) });
  const deep = await insertEmployee(db, companyId, { firstName: 'Lea', lastName: 'Lindqvist', levelId: 'p2', managerId: subtree[3] ?? manager });
  subtree.push(deep);
  const peer = await insertEmployee(db, companyId, { firstName: 'Pia', lastName: 'Peer', levelId: 'm4', managerId: head, title: 'Product manager', department: 'Product', jobFamilyId: 'product_management' });
  const outside = [head, peer];
  for (const [first, last] of [
    ['Quinn', 'Quist'],
    ['Rosa', 'Romero'],
  ] as const) {
    outside.push(await insertEmployee(db, companyId, { firstName: first, lastName: last, managerId: peer, department: 'Product', jobFamilyId: 'product_management' }));
  }
  return { managerEmployeeId: manager, subtree, outside };
}
