import { newId } from '../db/ids.js';
import { JOB_FAMILIES, LEVELS, LOCATIONS, countryLocation, findLevel } from '../reference/catalog/index.js';
import type { MinorUnits } from '../money/minorUnits.js';
import type { FieldName } from './fields.js';
import type { MappedRow, PeopleImportPlan } from './rows.js';
import { Pacer } from '../kernel/pace.js';
import { inForce } from '../kernel/history.js';
import { planOf } from './rows.js';
import type { CompensationHistoryRow, CompensationRow, EmployeeRow } from '../people/importRows.js';
import { EMAIL, parseChoice, parseCountry, parseDate, parsePercent, parseWholeNumber } from '../kernel/files/cells.js';
import { parseAmount } from '../money/parse.js';

/** What the company holds before the file is applied, read once. */
export interface EmployeeContext {
  companyId: string;
  companyCurrency: string;
  currencies: MinorUnits;
  existing: EmployeeRow[];
  history: CompensationHistoryRow[];
  userIdsByEmail: Map<string, string>;
  today: string;
  now: string;
  source: 'hris_import' | 'integration';
}

export interface EmployeeWrites {
  employees: EmployeeRow[];
  compensation: CompensationRow[];
}

/** What a file plans: its summary, what it writes, and every row's employee as it will be (changed or not). */
export interface EmployeePlan {
  plan: PeopleImportPlan;
  writes: EmployeeWrites;
  inFile: EmployeeRow[];
}

const EMPLOYMENT_TYPES: Record<string, string> = {
  fulltime: 'full_time', full: 'full_time', ft: 'full_time', permanent: 'full_time', regular: 'full_time', salaried: 'full_time',
  parttime: 'part_time', part: 'part_time', pt: 'part_time',
  contractor: 'contractor', contract: 'contractor', contingent: 'contractor', consultant: 'contractor', freelance: 'contractor',
  intern: 'intern', internship: 'intern', trainee: 'intern', apprentice: 'intern',
};
const STATUSES: Record<string, string> = {
  active: 'active', employed: 'active', current: 'active', onleave: 'active', leave: 'active',
  terminated: 'terminated', inactive: 'terminated', former: 'terminated', leaver: 'terminated', left: 'terminated', separated: 'terminated',
};

const lower = (text: string): string => text.trim().toLowerCase();
const familyByName = new Map(JOB_FAMILIES.flatMap((family) => [[lower(family.id), family.id], [lower(family.name), family.id]]));
const levelByName = new Map(LEVELS.flatMap((level) => [[lower(level.id), level.id], [lower(level.displayString), level.id], [lower(level.extendedTitle), level.id]]));
// Metros first, so "Seattle" is the metro, not an area that happens to share the word.
const locationByName = new Map<string, string>();
for (const location of [...LOCATIONS].sort((a, b) => Number(b.kind === 'metro') - Number(a.kind === 'metro'))) {
  for (const name of [location.paybenchLocationId, location.paybenchLocationName, ...location.locationAliases]) {
    if (!locationByName.has(lower(name))) locationByName.set(lower(name), location.paybenchLocationId);
  }
}

const PAY_TYPES = [
  ['baseSalary', 'base_salary'],
  ['bonusTarget', 'bonus_target'],
  ['variablePay', 'variable_pay'],
  ['commission', 'commission'],
] as const satisfies readonly (readonly [FieldName, string])[];

/** Record types a mapping writes; the bonus percentage is part of the bonus target. */
export function compensationTypesOf(mapped: (field: FieldName) => boolean): string[] {
  return PAY_TYPES.filter(([field]) => mapped(field) || (field === 'bonusTarget' && mapped('bonusTargetPercent'))).map(([, type]) => type);
}

interface Pay {
  type: CompensationRow['type'];
  amount: number | undefined;
  percentBp: number | null;
}

/** One employee row, checked cell by cell. Fields with no column are undefined (kept as stored). */
interface Draft {
  row: MappedRow;
  number: string;
  email: string | null | undefined;
  firstName: string;
  lastName: string;
  title: string | null | undefined;
  department: string | null | undefined;
  manager: string | null | undefined;
  country: string | null | undefined;
  location: string | null | undefined;
  currency: string | null | undefined;
  startDate: string | null | undefined;
  employmentType: string | null | undefined;
  status: string | null | undefined;
  terminationDate: string | null | undefined;
  family: string | null | undefined;
  level: string | null | undefined;
  jobCode: string | null | undefined;
  rating: string | null | undefined;
  leaveStart: string | null | undefined;
  leaveEnd: string | null | undefined;
  legalEntity: string | null | undefined;
  fte: number | null | undefined;
  weeklyHours: number | null | undefined;
  demographics: Record<string, string | number | null>;
  pay: { base: string | null | undefined; bonus: string | null | undefined; bonusPercent: number | null | undefined; variable: string | null | undefined; commission: string | null | undefined };
  effectiveDate: string | null | undefined;
}

function lookup(row: MappedRow, field: FieldName, names: Map<string, string>, describe: string): string | null | undefined {
  const text = row.cell(field);
  if (text === undefined) return undefined;
  if (text === '') return null;
  const id = names.get(lower(text));
  if (!id) row.problem(field, `"${text}" is not ${describe}`);
  return id ?? null;
}

/**
 * A place of work: a catalog metro, country or area by id, name or alias; else, when the row names
 * its country, that country's place (a city such as Madrid outside the catalog's metros is placed
 * in Spain, as the market places it). Only a place with no country to fall back on is a problem.
 */
function placeOf(row: MappedRow, country: string | null | undefined): string | null | undefined {
  const text = row.cell('location');
  if (text === undefined || text === '') return text === undefined ? undefined : null;
  const known = locationByName.get(lower(text));
  if (known) return known;
  const place = country ? countryLocation(country) : undefined;
  if (place) return place.paybenchLocationId;
  row.problem('location', `"${text}" is not a location of the market catalog (add the employee's country to place them in it)`);
  return null;
}

/** A full-time equivalent: "0.8", "80" or "80%" → 0.8; more than 0, at most 1 (100 %). */
export function parseFte(text: string): { value: number } | { error: string } {
  const match = /^(\d+(?:[.,]\d+)?)\s*(%?)$/.exec(text.trim());
  if (!match) return { error: `"${text}" is not a full-time equivalent (write 0.8 or 80%)` };
  const number = Number(match[1]!.replace(',', '.'));
  const value = match[2] === '%' || number > 1 ? number / 100 : number;
  if (!(value > 0 && value <= 1)) return { error: `"${text}" is not a full-time equivalent: it is more than 0 and at most 1 (100%)` };
  return { value: Math.round(value * 10_000) / 10_000 };
}

/** Contractual hours a week: "37.5" or "37,5"; more than 0, at most 168. */
export function parseWeeklyHours(text: string): { value: number } | { error: string } {
  const match = /^(\d+(?:[.,]\d+)?)$/.exec(text.trim());
  const value = match ? Number(match[1]!.replace(',', '.')) : NaN;
  if (!(value > 0 && value <= 168)) return { error: `"${text}" is not a number of hours a week (more than 0, at most 168)` };
  return { value: Math.round(value * 100) / 100 };
}

/** A stored decimal (text from Postgres) as a number; null stays null. */
const decimal = (value: number | string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

function draftOf(row: MappedRow, ctx: EmployeeContext): Draft {
  const number = row.cell('employeeId') ?? '';
  if (!number) row.problem('employeeId', 'is required');
  else if (number.length > 128) row.problem('employeeId', 'is longer than 128 characters');
  const firstName = row.text('firstName') ?? '';
  if (!firstName && row.cell('firstName') === '') row.problem('firstName', 'is required');
  const lastName = row.text('lastName') ?? '';
  if (!lastName && row.cell('lastName') === '') row.problem('lastName', 'is required');
  const email = row.parse('email', (text) => (EMAIL.test(text) && text.length <= 320 ? { value: text.toLowerCase() } : { error: `"${text}" is not an e-mail address` }));
  const currency = row.parse('currency', (text) => (ctx.currencies.has(text.toUpperCase()) ? { value: text.toUpperCase() } : { error: `"${text}" is not an ISO 4217 currency code` }));
  const demographics: Record<string, string | number | null> = {};
  for (const key of ['gender', 'ethnicity'] as const) {
    const value = row.text(key, 64);
    if (value !== undefined) demographics[key] = value;
  }
  const birthYear = row.parse('birthYear', (text) => parseWholeNumber(text, 1900, Number(ctx.today.slice(0, 4))));
  if (birthYear !== undefined) demographics.birthYear = birthYear;
  const country = row.parse('country', parseCountry);
  const manager = row.text('managerEmployeeId', 128);
  if (manager && manager === number) row.problem('managerEmployeeId', 'an employee cannot be their own manager');
  return {
    row,
    number,
    email,
    firstName,
    lastName,
    title: row.text('title'),
    department: row.text('department'),
    manager,
    country,
    location: placeOf(row, country),
    currency,
    startDate: row.parse('startDate', parseDate),
    employmentType: row.parse('employmentType', (text) => parseChoice(text, EMPLOYMENT_TYPES, 'an employment type (full_time, part_time, contractor, intern)')),
    status: row.parse('status', (text) => parseChoice(text, STATUSES, 'a status (active, terminated)')),
    terminationDate: row.parse('terminationDate', parseDate),
    family: lookup(row, 'jobFamily', familyByName, 'a job family of the market catalog'),
    level: lookup(row, 'level', levelByName, 'a level of the market catalog (S1–S3, P1–P6, M3–M6, E7–E9)'),
    // Codes are compared as keys: spaces around one are not part of it.
    jobCode: row.text('jobCode', 64, { trim: true }),
    rating: row.text('performanceRating', 64),
    leaveStart: row.parse('leaveStartDate', parseDate),
    leaveEnd: row.parse('leaveEndDate', parseDate),
    legalEntity: row.text('legalEntity', 200, { trim: true }),
    fte: row.parse('fte', parseFte),
    weeklyHours: row.parse('weeklyHours', parseWeeklyHours),
    demographics,
    pay: {
      base: row.text('baseSalary', 64),
      bonus: row.text('bonusTarget', 64),
      bonusPercent: row.parse('bonusTargetPercent', parsePercent),
      variable: row.text('variablePay', 64),
      commission: row.text('commission', 64),
    },
    effectiveDate: row.parse('effectiveDate', parseDate),
  };
}

/** Walks every manager chain once; a chain that comes back to itself is a cycle, reported on each of its rows in the file. */
async function managementCycles(managerOf: Map<string, string>, inFile: Map<string, Draft>, pacer: Pacer): Promise<Map<string, string[]>> {
  const state = new Map<string, 'walking' | 'done'>();
  const cycles = new Map<string, string[]>();
  for (const start of inFile.keys()) {
    if (pacer.due) await pacer.pause();
    if (state.has(start)) continue;
    const path: string[] = [];
    let current: string | undefined = start;
    while (current !== undefined && !state.has(current)) {
      state.set(current, 'walking');
      path.push(current);
      current = managerOf.get(current);
    }
    if (current !== undefined && state.get(current) === 'walking') {
      const loop = path.slice(path.indexOf(current));
      for (const member of loop) cycles.set(member, [...loop.slice(loop.indexOf(member)), ...loop.slice(0, loop.indexOf(member)), member]);
    }
    for (const node of path) state.set(node, 'done');
  }
  return cycles;
}

const samePay = (record: CompensationHistoryRow, amount: number, currency: string, percentBp: number | null): boolean =>
  Number(record.amount) === amount && record.currency === currency && (record.percent_of_base_bp ?? null) === percentBp;

/** The record in force on `date`: the latest one dated on or before it (none before: none). */
const recordInForce = (records: CompensationHistoryRow[] | undefined, date: string): CompensationHistoryRow | undefined =>
  inForce(records ?? [], (record) => record.effective_date, date, { orUpcoming: false });

const DEMOGRAPHIC_KEYS = ['gender', 'ethnicity', 'birthYear'];

function mergedDemographics(stored: string | undefined, changes: Record<string, string | number | null>): string {
  // Without demographic columns the stored text is kept exactly as it is.
  if (!Object.keys(changes).length) return stored ?? '{}';
  const current = stored ? (JSON.parse(stored) as Record<string, unknown>) : {};
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  // Stable key order, so an unchanged record compares equal.
  return JSON.stringify(Object.fromEntries(Object.keys(next).sort((a, b) => DEMOGRAPHIC_KEYS.indexOf(a) - DEMOGRAPHIC_KEYS.indexOf(b) || a.localeCompare(b)).map((key) => [key, next[key]])));
}

const COMPARED: (keyof EmployeeRow)[] = [
  'email', 'first_name', 'last_name', 'title', 'department', 'manager_id', 'country_code', 'location_id', 'currency', 'start_date',
  'employment_type', 'status', 'termination_date', 'job_family_id', 'job_code', 'level_id', 'track', 'performance_rating', 'demographics', 'user_id',
  'leave_start_date', 'leave_end_date',
];

/**
 * Checks every row of an HRIS file against the company's records and works out what changes:
 * employees by employee id, and dated compensation records. Nothing is written here; the event loop
 * runs whenever `pacer` says its slice is used up.
 */
export async function planEmployees(rows: MappedRow[], ctx: EmployeeContext, dryRun: boolean, pacer = new Pacer()): Promise<EmployeePlan> {
  const drafts: Draft[] = [];
  for (const row of rows) {
    drafts.push(draftOf(row, ctx));
    if (pacer.due) await pacer.pause();
  }
  // What the company holds, by employee id and by record id; the loops hand the event loop back as they go.
  const existing = new Map<string, EmployeeRow>();
  const numberOfId = new Map<string, string>();
  const idOf = new Map<string, string>();
  const linked = new Set<string>();
  for (const employee of ctx.existing) {
    existing.set(employee.employee_number, employee);
    numberOfId.set(employee.id, employee.employee_number);
    idOf.set(employee.employee_number, employee.id);
    if (employee.user_id) linked.add(employee.user_id);
    if (pacer.due) await pacer.pause();
  }

  // An employee's rows: one, or their pay history (see payHistoryOf); the row in force is the employee's.
  const rowsOf = new Map<string, Draft[]>();
  for (const draft of drafts) {
    if (pacer.due) await pacer.pause();
    if (!draft.number) continue;
    const group = rowsOf.get(draft.number);
    if (group) group.push(draft);
    else rowsOf.set(draft.number, [draft]);
  }
  const inFile = new Map<string, Draft>();
  const payRows = new Map<string, Draft[]>();
  for (const [number, group] of rowsOf) {
    if (pacer.due) await pacer.pause();
    const accepted = group.length === 1 ? group : payHistoryOf(group);
    inFile.set(number, rowInForce(accepted, ctx.today));
    if (accepted.length > 1) payRows.set(number, accepted);
  }

  // Managers after the file is applied: the file's where it names one, else what is stored.
  const managerOf = new Map<string, string>();
  for (const employee of ctx.existing) {
    const manager = employee.manager_id ? numberOfId.get(employee.manager_id) : undefined;
    if (manager) managerOf.set(employee.employee_number, manager);
    if (pacer.due) await pacer.pause();
  }
  for (const draft of inFile.values()) {
    if (pacer.due) await pacer.pause();
    if (draft.manager === undefined) continue;
    if (draft.manager) managerOf.set(draft.number, draft.manager);
    else managerOf.delete(draft.number);
  }
  for (const draft of inFile.values()) {
    if (pacer.due) await pacer.pause();
    if (draft.manager && draft.manager !== draft.number && !inFile.has(draft.manager) && !existing.has(draft.manager)) {
      draft.row.problem('managerEmployeeId', `${draft.manager} is neither in the file nor an employee of this company`);
    }
  }
  const cycles = await managementCycles(managerOf, inFile, pacer);
  for (const [number, chain] of cycles) {
    const draft = inFile.get(number);
    if (draft && chain.length > 2) draft.row.problem('managerEmployeeId', `would make a management cycle: ${chain.join(' → ')}`);
  }

  // New employees get their ids first, so managers created by this file can be pointed at.
  for (const number of inFile.keys()) {
    if (!idOf.has(number)) idOf.set(number, newId());
    if (pacer.due) await pacer.pause();
  }

  const history = new Map<string, CompensationHistoryRow[]>();
  for (const record of ctx.history) {
    const key = `${record.employee_id}|${record.type}`;
    const list = history.get(key);
    if (list) list.push(record);
    else history.set(key, [record]);
    if (pacer.due) await pacer.pause();
  }
  // Oldest first per employee and type, whatever order the records were read in.
  for (const list of history.values()) {
    if (list.length > 1) list.sort((a, b) => (a.effective_date < b.effective_date ? -1 : a.effective_date > b.effective_date ? 1 : 0));
    if (pacer.due) await pacer.pause();
  }

  const changes: PeopleImportPlan['changes'] = [];
  const writes: EmployeeWrites = { employees: [], compensation: [] };
  const planned: EmployeeRow[] = [];
  const records = { add: 0, update: 0 };
  for (const draft of drafts) {
    if (pacer.due) await pacer.pause();
    if (!draft.number || inFile.get(draft.number) !== draft) continue;
    const stored = existing.get(draft.number);
    const id = idOf.get(draft.number) ?? newId();
    const keep = <T>(value: T | undefined, current: T): T => (value === undefined ? current : value);
    const currency = draft.currency ?? stored?.currency ?? ctx.companyCurrency;
    const level = keep(draft.level, stored?.level_id ?? null);
    const email = keep(draft.email, stored?.email ?? null);
    let userId = stored?.user_id ?? null;
    if (!userId && email) {
      const candidate = ctx.userIdsByEmail.get(email);
      if (candidate && !linked.has(candidate)) {
        userId = candidate;
        linked.add(candidate);
      }
    }
    const target: EmployeeRow = {
      id,
      company_id: ctx.companyId,
      employee_number: draft.number,
      user_id: userId,
      email,
      first_name: draft.firstName || stored?.first_name || '',
      last_name: draft.lastName || stored?.last_name || '',
      title: keep(draft.title, stored?.title ?? null) ?? '',
      company_job_id: stored?.company_job_id ?? null,
      job_code: keep(draft.jobCode, stored?.job_code ?? null),
      job_family_id: keep(draft.family, stored?.job_family_id ?? null),
      level_id: level,
      track: level ? (findLevel(level)?.track ?? null) : null,
      manager_id: draft.manager === undefined ? (stored?.manager_id ?? null) : draft.manager ? (idOf.get(draft.manager) ?? null) : null,
      department: keep(draft.department, stored?.department ?? null),
      country_code: keep(draft.country, stored?.country_code ?? null),
      location_id: keep(draft.location, stored?.location_id ?? null),
      currency,
      start_date: keep(draft.startDate, stored?.start_date ?? null),
      employment_type: draft.employmentType ?? stored?.employment_type ?? 'full_time',
      status: draft.status ?? stored?.status ?? 'active',
      termination_date: keep(draft.terminationDate, stored?.termination_date ?? null),
      performance_rating: keep(draft.rating, stored?.performance_rating ?? null),
      leave_start_date: keep(draft.leaveStart, stored?.leave_start_date ?? null),
      leave_end_date: keep(draft.leaveEnd, stored?.leave_end_date ?? null),
      legal_entity: keep(draft.legalEntity, stored?.legal_entity ?? null),
      // An empty FTE cell is a full-time contract.
      fte: draft.fte === undefined ? (decimal(stored?.fte) ?? 1) : (draft.fte ?? 1),
      weekly_hours: keep(draft.weeklyHours, decimal(stored?.weekly_hours)),
      demographics: mergedDemographics(stored?.demographics, draft.demographics),
      version: stored ? stored.version + 1 : 1,
      created_at: stored?.created_at ?? ctx.now,
      updated_at: ctx.now,
    };
    // A leave ends on or after its first day, in the employee API's words (the stored day where the file leaves one out).
    if (target.leave_start_date && target.leave_end_date && target.leave_end_date < target.leave_start_date) {
      if (draft.leaveEnd !== undefined) draft.row.problem('leaveEndDate', 'must not be before startDate');
      else draft.row.problem('leaveStartDate', 'must not be after endDate');
    }
    planned.push(target);
    const changed =
      !stored ||
      COMPARED.some((column) => (stored[column] ?? null) !== (target[column] ?? null)) ||
      (stored.legal_entity ?? null) !== (target.legal_entity ?? null) ||
      (decimal(stored.fte) ?? 1) !== target.fte ||
      decimal(stored.weekly_hours) !== (target.weekly_hours ?? null);
    if (changed) {
      changes.push({ line: draft.row.line, key: draft.number, action: stored ? 'update' : 'create' });
      writes.employees.push(target);
    }
    // Oldest first, so each dated record is compared with the one before it, planned ones included.
    const isNew = stored === undefined;
    for (const [index, payRow] of (payRows.get(draft.number) ?? [draft]).entries()) {
      planPay({ draft: payRow, employee: target, isNew, hire: isNew && index === 0 }, history, ctx, writes, records);
    }
  }
  // The rows of a pay history are one employee: unchanged counts employees, as create and update do.
  let historyRows = 0;
  for (const group of payRows.values()) historyRows += group.length - 1;
  return { plan: planOf(dryRun, rows.length, changes, records, rows.length - historyRows), writes, inFile: planned };
}

/**
 * Several rows of one employee are their pay history (an HR system's compensation table, a payroll
 * export): every row dated by its pay's effective date, no date twice, at most one row undated (the
 * pay of the day). Anything else is a repeated employee id, named on the later line. Oldest first.
 */
function payHistoryOf(group: Draft[]): Draft[] {
  const accepted: Draft[] = [];
  const dated = new Map<string, Draft>();
  let undated: Draft | undefined;
  for (const draft of group) {
    const date = draft.effectiveDate;
    const earlier = date ? dated.get(date) : undated;
    if (earlier) {
      draft.row.problem('employeeId', date ? `employee id ${draft.number} has pay effective ${date} already on line ${earlier.row.line}` : `employee id ${draft.number} is already on line ${earlier.row.line}`);
      continue;
    }
    if (date) dated.set(date, draft);
    else undated = draft;
    accepted.push(draft);
  }
  // A history needs its dates: rows of one employee without a date column are a repeated id.
  if (!dated.size) return [group[0] as Draft];
  return accepted.sort((a, b) => (a.effectiveDate ?? '9999-12-31').localeCompare(b.effectiveDate ?? '9999-12-31'));
}

/** The row whose fields are the employee's: the undated one, else the one in force today (kernel/history.ts). */
function rowInForce(rows: Draft[], today: string): Draft {
  return rows.find((draft) => !draft.effectiveDate) ?? (inForce(rows, (draft) => draft.effectiveDate ?? '', today) as Draft);
}

/** One row's pay for an employee: `hire` for the first pay of someone new. */
interface PayOfRow {
  draft: Draft;
  employee: EmployeeRow;
  isNew: boolean;
  hire: boolean;
}

/** The dated compensation records a row adds or corrects; the same pay as the one in force adds nothing. */
function planPay({ draft, employee, isNew, hire }: PayOfRow, history: Map<string, CompensationHistoryRow[]>, ctx: EmployeeContext, writes: EmployeeWrites, records: { add: number; update: number }): void {
  // A past row of a history keeps its own currency (a move abroad); the row in force sets the employee's.
  const currency = draft.currency ?? employee.currency;
  const minor = ctx.currencies.of(currency);
  const amountOf = (field: FieldName, text: string | null | undefined): number | undefined => {
    if (!text) return undefined;
    const parsed = parseAmount(text, currency, minor);
    if ('error' in parsed) {
      draft.row.problem(field, parsed.error);
      return undefined;
    }
    return parsed.value;
  };
  // A new employee's pay, or that of one who has not started yet, counts from the start date: a
  // re-read of a future hire's unchanged pay then finds it in force instead of adding it again today.
  const notStarted = Boolean(employee.start_date && employee.start_date > ctx.today);
  const date = draft.effectiveDate ?? (isNew || notStarted ? (employee.start_date ?? ctx.today) : ctx.today);
  const base = amountOf('baseSalary', draft.pay.base);
  const pays: Pay[] = [];
  if (base !== undefined) pays.push({ type: 'base_salary', amount: base, percentBp: null });
  const bonus = amountOf('bonusTarget', draft.pay.bonus);
  if (draft.pay.bonusPercent !== null && draft.pay.bonusPercent !== undefined) {
    const storedBase = recordInForce(history.get(`${employee.id}|base_salary`), date);
    const baseForBonus = base ?? (storedBase?.currency === currency ? Number(storedBase.amount) : undefined);
    if (bonus === undefined && baseForBonus === undefined) draft.row.problem('bonusTargetPercent', 'a bonus target in percent needs a base salary in the same currency to be turned into an amount');
    else pays.push({ type: 'bonus_target', amount: bonus ?? Math.round(((baseForBonus ?? 0) * draft.pay.bonusPercent) / 10_000), percentBp: draft.pay.bonusPercent });
  } else if (bonus !== undefined) pays.push({ type: 'bonus_target', amount: bonus, percentBp: null });
  const variable = amountOf('variablePay', draft.pay.variable);
  if (variable !== undefined) pays.push({ type: 'variable_pay', amount: variable, percentBp: null });
  const commission = amountOf('commission', draft.pay.commission);
  if (commission !== undefined) pays.push({ type: 'commission', amount: commission, percentBp: null });

  for (const pay of pays) {
    if (pay.amount === undefined) continue;
    const key = `${employee.id}|${pay.type}`;
    const past = history.get(key);
    const sameDay = past?.find((record) => record.effective_date === date);
    const current = recordInForce(past, date);
    if (current && samePay(current, pay.amount, currency, pay.percentBp)) continue;
    const record = {
      id: sameDay?.id ?? newId(),
      company_id: ctx.companyId,
      employee_id: employee.id,
      type: pay.type,
      amount: pay.amount,
      currency,
      percent_of_base_bp: pay.percentBp,
      effective_date: date,
      reason: hire ? 'hire' : 'import',
      source: ctx.source,
      // A corrected record keeps its creation time: the upsert leaves created_at alone.
      created_at: ctx.now,
    };
    writes.compensation.push(record);
    if (sameDay) records.update += 1;
    else records.add += 1;
    // The next row of a history compares with this pay (rows come oldest first).
    const planned = (past ?? []).filter((entry) => entry.effective_date !== date);
    planned.push(record);
    planned.sort((a, b) => (a.effective_date < b.effective_date ? -1 : a.effective_date > b.effective_date ? 1 : 0));
    history.set(key, planned);
  }
}
