import type { components } from '../contract-types.js';
import { findJobFamily, findLevel, findLocation } from '../reference/catalog/index.js';
import type { TeamColumn } from './columns.js';
import type { CompensationRow, EmployeeRow, GrantRow } from './peopleReads.js';

type Schemas = components['schemas'];
export type TeamRef = Schemas['TeamRef'];
export type TeamEmployeeRow = Schemas['TeamEmployeeRow'];

export const fullName = (first: string | null, last: string | null): string => [first, last].filter(Boolean).join(' ').trim();

export function jobFamilyRef(id: string | null): TeamRef | null {
  if (!id) return null;
  return { id, name: findJobFamily(id)?.name ?? id };
}

export function levelRef(id: string | null): TeamRef | null {
  if (!id) return null;
  const level = findLevel(id);
  return { id, name: level ? level.extendedDisplayString : id.toUpperCase() };
}

export function locationRef(id: string | null): TeamRef | null {
  if (!id) return null;
  return { id, name: findLocation(id)?.paybenchLocationName ?? id };
}

export function managerRef(row: EmployeeRow): TeamRef | null {
  if (!row.manager_id) return null;
  return { id: row.manager_id, name: fullName(row.manager_first_name, row.manager_last_name) || 'Unknown' };
}

const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contractor', 'intern'] as const;
const employmentType = (value: string): TeamEmployeeRow['employmentType'] =>
  (EMPLOYMENT_TYPES as readonly string[]).includes(value) ? (value as TeamEmployeeRow['employmentType']) : 'full_time';

/** The non-pay columns of a row, field by field (the rating is read with pay, in the service). */
export function presentRecordColumn(row: EmployeeRow, column: TeamColumn): Partial<TeamEmployeeRow> {
  switch (column) {
    case 'name':
      return { name: fullName(row.first_name, row.last_name) };
    case 'employeeNumber':
      return { employeeNumber: row.employee_number };
    case 'email':
      return { email: row.email };
    case 'title':
      return { title: row.title };
    case 'department':
      return { department: row.department };
    case 'jobFamily':
      return { jobFamily: jobFamilyRef(row.job_family_id) };
    case 'level':
      return { level: levelRef(row.level_id) };
    case 'track':
      return { track: row.track };
    case 'location':
      return { location: locationRef(row.location_id) };
    case 'country':
      return { country: row.country_code };
    case 'manager':
      return { manager: managerRef(row) };
    case 'startDate':
      return { startDate: row.start_date ? row.start_date.slice(0, 10) : null };
    case 'employmentType':
      return { employmentType: employmentType(row.employment_type) };
    case 'status':
      return { status: row.status === 'terminated' ? 'terminated' : row.status === 'starting' ? 'starting' : 'active' };
    default:
      return {};
  }
}

const percentOf = (bp: number | null): number | null => (bp === null ? null : bp / 100);

export function presentTimelineEntry(row: CompensationRow, previous: CompensationRow | undefined): Schemas['TeamCompTimelineEntry'] {
  const comparable = previous && previous.currency === row.currency && previous.amount > 0;
  return {
    id: row.id,
    date: row.effective_date.slice(0, 10),
    kind: 'compensation',
    type: row.type,
    amount: { amount: row.amount, currency: row.currency },
    shares: null,
    percentOfBase: percentOf(row.percent_of_base_bp),
    previousAmount: previous ? { amount: previous.amount, currency: previous.currency } : null,
    changePercent: comparable ? Math.round(((row.amount - previous.amount) / previous.amount) * 10000) / 100 : null,
    reason: row.reason,
    source: row.source,
  };
}

export function presentGrantEntry(row: GrantRow): Schemas['TeamCompTimelineEntry'] {
  return {
    id: row.id,
    date: row.grant_date.slice(0, 10),
    kind: 'equity_grant',
    type: row.grant_type,
    amount: null,
    shares: row.shares,
    percentOfBase: null,
    previousAmount: null,
    changePercent: null,
    reason: row.reason,
    source: row.source,
  };
}
