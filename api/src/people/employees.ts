import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { findCompany, findCompanyUser, usersOf } from '../access/usersStore.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, type FieldError, notFound } from '../kernel/errors.js';
import { normaliseEmail } from '../access/users.js';
import { familiesOf, findLevel, findLocation, metrosOf } from '../reference/catalog/index.js';
import { type ReadAccess, readAccess, requirePermission, throwIfInvalid, today } from './access.js';
import { versionConflict, versionOf } from '../kernel/versions.js';
import { parseDemographics, presentCurrent, presentEmployee } from './present.js';
import {
  type EmployeeFilters,
  type EmployeeRow,
  type NameCursor,
  countActiveReports,
  currentRecords,
  directReportsOf,
  employeePage,
  findEmployee,
  findEmployeeByEmail,
  findEmployeeByNumber,
  findEmployeeByUser,
  findCompanyJob,
  findEmployeeWithin,
  idsWithinReach,
  insertEmployees,
  managementChain,
  reassignReports,
  activeReportIds,
  updateEmployee as storeUpdateEmployee,
} from './store.js';
import { checkCatalog, checkCurrency, checkLeave } from './validation.js';
import { STARTING, type StatusFilter } from './reads/status.js';
import { type EmployeeReach, employeeReach, isWithinReach } from './visibility.js';
import { diffFields, employeeFields, recordChanges } from './changes.js';
import type { ServiceContext } from '../kernel/operations.js';

type Employee = components['schemas']['Employee'];
type EmployeeInput = components['schemas']['EmployeeInput'];
type EmployeeUpdate = components['schemas']['EmployeeUpdate'];

const fullName = (row: Pick<EmployeeRow, 'first_name' | 'last_name'>): string => `${row.first_name} ${row.last_name}`.trim();

/** Presents employees as this caller may see them: pay only within their pay reach, demographics only with the permission. */
export async function presentForCaller(db: Knex, scope: CompanyScope, access: ReadAccess, rows: EmployeeRow[], asOf = today()): Promise<Employee[]> {
  const payIds = await idsWithinReach(db, scope, access.pay, rows.map((row) => row.id));
  const current = await currentRecords(db, scope, [...payIds], asOf);
  return rows.map((row) =>
    presentEmployee(row, {
      ...(payIds.has(row.id) ? { compensation: presentCurrent(row.currency, asOf, current.get(row.id)) } : {}),
      showDemographics: access.demographics,
    }),
  );
}

// ── reads ────────────────────────────────────────────────────────────────────────────────

export interface EmployeeListQuery {
  search?: string;
  department?: string;
  location?: string;
  family?: string;
  level?: string;
  manager?: string;
  status: StatusFilter;
  employmentType?: string;
  limit: number;
  cursor?: string;
}

const encodeCursor = (row: EmployeeRow): string => Buffer.from(JSON.stringify([row.last_name, row.first_name, row.id])).toString('base64url');

function decodeCursor(cursor: string): NameCursor {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 3 && value.every((part) => typeof part === 'string')) return value as NameCursor;
  } catch {
    // fall through to the refusal
  }
  throw badRequest('The cursor is not one this server gave out', [{ field: 'query.cursor', message: 'is not a valid cursor' }]);
}

function listFilters(query: EmployeeListQuery): EmployeeFilters {
  const errors: FieldError[] = [];
  const locationIds = query.location ? [query.location, ...metrosOf(query.location)] : undefined;
  if (query.location && !findLocation(query.location)) errors.push({ field: 'query.location', message: `${query.location} is not a location of the market catalog` });
  const familyIds = query.family ? familiesOf(query.family) : undefined;
  if (query.family && !familyIds?.length) errors.push({ field: 'query.family', message: `${query.family} is not a job family of the market catalog` });
  if (query.level && !findLevel(query.level)) errors.push({ field: 'query.level', message: `${query.level} is not a level of the market catalog` });
  throwIfInvalid(errors);
  return {
    status: query.status,
    ...(query.search ? { search: query.search } : {}),
    ...(query.department ? { department: query.department } : {}),
    ...(locationIds ? { locationIds } : {}),
    ...(familyIds ? { familyIds } : {}),
    ...(query.level ? { levelId: query.level } : {}),
    ...(query.manager ? { managerId: query.manager } : {}),
    ...(query.employmentType ? { employmentType: query.employmentType } : {}),
  };
}

export async function listEmployees(ctx: Pick<ServiceContext, 'db' | 'caller'>, query: EmployeeListQuery): Promise<{ employees: Employee[]; nextCursor: string | null }> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const filters = listFilters(query);
  const access = await readAccess(db, scope, caller);
  const page = await employeePage(db, scope, access.team, filters, { limit: query.limit, after: query.cursor ? decodeCursor(query.cursor) : undefined });
  const last = page.rows.at(-1);
  return { employees: await presentForCaller(db, scope, access, page.rows), nextCursor: page.hasMore && last ? encodeCursor(last) : null };
}

/** The employee if the caller's team reach covers them; 404 otherwise, in this company or another. */
async function visibleEmployee(db: Knex, scope: CompanyScope, reach: EmployeeReach, id: string): Promise<EmployeeRow> {
  const row = await findEmployeeWithin(db, scope, reach, id);
  if (!row) throw notFound();
  return row;
}

export async function getEmployee(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Employee> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const access = await readAccess(db, scope, caller);
  const row = await visibleEmployee(db, scope, access.team, id);
  return (await presentForCaller(db, scope, access, [row]))[0] as Employee;
}

export async function directReports(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, status: EmployeeFilters['status']): Promise<Employee[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const access = await readAccess(db, scope, caller);
  await visibleEmployee(db, scope, access.team, id);
  return presentForCaller(db, scope, access, await directReportsOf(db, scope, access.team, id, status));
}

// ── writes ───────────────────────────────────────────────────────────────────────────────

interface WriteContext {
  scope: CompanyScope;
  caller: Caller;
  /** Whom the caller may change (team edit). */
  reach: EmployeeReach;
}

async function writeContext(db: Knex, caller: Caller): Promise<WriteContext> {
  const scope = companyScope(caller);
  return { scope, caller, reach: await employeeReach(db, scope, caller, 'team', 'edit') };
}

/** Fields guarded by other permissions than `team`: pay-related ones and demographics. */
async function checkGuardedFields(db: Knex, ctx: WriteContext, input: EmployeeUpdate, employeeId: string | undefined): Promise<void> {
  if (input.demographics !== undefined) requirePermission(ctx.caller, 'demographics', 'demographics');
  if (input.performanceRating !== undefined) {
    requirePermission(ctx.caller, 'employeeCompensation', 'the performance rating');
    const payReach = await employeeReach(db, ctx.scope, ctx.caller, 'employeeCompensation', 'edit');
    if (employeeId && !(await isWithinReach(db, ctx.scope, payReach, employeeId))) {
      throw new HttpError(403, 'forbidden', { message: "Changing this employee's performance rating needs the employeeCompensation permission (edit) for them." });
    }
  }
}

/**
 * The manager must be an active employee the caller may change, and not the employee or anyone
 * below them: that would make a reporting cycle.
 */
async function checkManager(db: Knex, ctx: WriteContext, managerId: string, employee: EmployeeRow | undefined, errors: FieldError[], field = 'body.managerId'): Promise<void> {
  const manager = await findEmployee(db, ctx.scope, managerId);
  if (!manager || !(await isWithinReach(db, ctx.scope, ctx.reach, managerId))) {
    errors.push({ field, message: `${managerId} is not an employee you may assign people to` });
    return;
  }
  if (manager.status !== 'active') {
    errors.push({ field, message: `${fullName(manager)} is no longer employed${manager.termination_date ? ` (since ${manager.termination_date})` : ''}` });
    return;
  }
  if (!employee) return;
  if (manager.id === employee.id) {
    errors.push({ field, message: `${fullName(employee)} cannot be their own manager` });
    return;
  }
  const chain = await managementChain(db, ctx.scope, manager.id);
  const index = chain.findIndex((above) => above.id === employee.id);
  if (index >= 0) {
    const through = chain.slice(0, index).map(fullName);
    const path = through.length ? ` (through ${through.join(', ')})` : '';
    errors.push({ field, message: `would make a reporting cycle: ${fullName(manager)} already reports to ${fullName(employee)}${path}` });
  }
}

async function checkUniqueness(db: Knex, ctx: WriteContext, fields: { employeeNumber?: string; email?: string | null; userId?: string | null }, selfId: string | undefined): Promise<void> {
  const conflicts: FieldError[] = [];
  if (fields.employeeNumber !== undefined) {
    const other = await findEmployeeByNumber(db, ctx.scope, fields.employeeNumber);
    if (other && other.id !== selfId) conflicts.push({ field: 'body.employeeNumber', message: `${fields.employeeNumber} is already ${fullName(other)}'s employee number` });
  }
  if (fields.email) {
    const other = await findEmployeeByEmail(db, ctx.scope, fields.email);
    if (other && other.id !== selfId) conflicts.push({ field: 'body.email', message: `${fields.email} is already ${fullName(other)}'s e-mail` });
  }
  if (fields.userId) {
    const other = await findEmployeeByUser(db, ctx.scope, fields.userId);
    if (other && other.id !== selfId) conflicts.push({ field: 'body.userId', message: `this sign-in is already linked to ${fullName(other)}` });
  }
  if (conflicts.length) throw new HttpError(409, 'already_taken', { message: conflicts.map((c) => `${c.field} ${c.message}`).join('; '), errors: conflicts });
}

/** Without an explicit userId, the company user with the same e-mail (not yet linked) is the employee's sign-in. */
async function userFor(db: Knex, scope: CompanyScope, userId: string | null | undefined, email: string | null, errors: FieldError[]): Promise<string | null> {
  if (userId) {
    if (!(await findCompanyUser(db, scope, userId))) errors.push({ field: 'body.userId', message: `${userId} is not a user of this company` });
    return userId;
  }
  if (userId === null || !email) return null;
  const user = await usersOf(db, scope).where('users.email', email).andWhere('users.status', 'active').first<{ id: string } | undefined>('users.id');
  if (!user || (await findEmployeeByUser(db, scope, user.id))) return null;
  return user.id;
}

export async function createEmployee(context: Pick<ServiceContext, 'db' | 'caller'>, input: EmployeeInput): Promise<Employee> {
  const { db, caller } = context;
  const ctx = await writeContext(db, caller);
  await checkGuardedFields(db, ctx, input, undefined);
  const row = await db.transaction(async (trx) => {
    const errors: FieldError[] = [];
    const company = await findCompany(trx, ctx.scope);
    if (!company) throw notFound();
    checkCatalog(input, errors);
    checkLeave(input.leave, errors);
    const location = input.locationId ? findLocation(input.locationId) : undefined;
    const currency = input.currency ?? location?.currencyCode ?? company.currency;
    await checkCurrency(trx, currency, 'body.currency', errors);
    if (input.managerId) await checkManager(trx, ctx, input.managerId, undefined, errors);
    else if (ctx.reach.kind !== 'all') errors.push({ field: 'body.managerId', message: 'is required: you may add people only within your own organisation' });
    const email = input.email ? normaliseEmail(input.email) : null;
    const userId = await userFor(trx, ctx.scope, input.userId, email, errors);
    throwIfInvalid(errors);
    const employeeNumber = input.employeeNumber.trim();
    await checkUniqueness(trx, ctx, { employeeNumber, email, userId }, undefined);
    const now = new Date().toISOString();
    const row: EmployeeRow = {
      id: newId(),
      company_id: ctx.scope.companyId,
      employee_number: employeeNumber,
      user_id: userId,
      email,
      first_name: input.firstName.trim(),
      last_name: input.lastName.trim(),
      title: (input.title ?? '').trim(),
      company_job_id: null,
      job_code: null,
      job_family_id: input.jobFamilyId ?? null,
      level_id: input.levelId ?? null,
      track: input.levelId ? (findLevel(input.levelId)?.track ?? null) : null,
      manager_id: input.managerId ?? null,
      department: input.department?.trim() || null,
      country_code: input.countryCode ?? location?.country ?? null,
      location_id: input.locationId ?? null,
      currency,
      start_date: input.startDate ?? null,
      employment_type: input.employmentType ?? 'full_time',
      status: 'active',
      termination_date: null,
      performance_rating: input.performanceRating ?? null,
      leave_start_date: input.leave?.startDate ?? null,
      leave_end_date: input.leave?.endDate ?? null,
      legal_entity: input.legalEntity?.trim() || null,
      fte: input.fte ?? 1,
      weekly_hours: input.weeklyHours ?? null,
      demographics: JSON.stringify(input.demographics ?? {}),
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await insertEmployees(trx, [row]);
    await emit(trx, { companyId: ctx.scope.companyId, actorUserId: caller.userId, name: 'employee.created', subjectType: 'employee', subjectId: row.id, payload: {} });
    return row;
  });
  const access = await readAccess(db, ctx.scope, caller);
  return (await presentForCaller(db, ctx.scope, access, [row]))[0] as Employee;
}

/** An employee the caller may change: 404 outside their team edit reach. */
async function changeableEmployee(db: Knex, ctx: WriteContext, id: string): Promise<EmployeeRow> {
  const row = await findEmployeeWithin(db, ctx.scope, ctx.reach, id);
  if (!row) throw notFound();
  return row;
}

export async function updateEmployee(context: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: EmployeeUpdate): Promise<Employee> {
  const { db, caller } = context;
  const ctx = await writeContext(db, caller);
  const version = versionOf(ifMatch);
  await changeableEmployee(db, ctx, id);
  await checkGuardedFields(db, ctx, input, id);
  const row = await db.transaction(async (trx) => {
    const current = await changeableEmployee(trx, ctx, id);
    if (Number(current.version) !== version) throw versionConflict('this employee', Number(current.version));
    const errors: FieldError[] = [];
    checkCatalog(input, errors);
    checkLeave(input.leave, errors);
    await checkCurrency(trx, input.currency, 'body.currency', errors);
    if (input.managerId && input.managerId !== current.manager_id) await checkManager(trx, ctx, input.managerId, current, errors);
    else if (input.managerId === null && ctx.reach.kind !== 'all') errors.push({ field: 'body.managerId', message: 'cannot be removed: the employee would leave your organisation' });
    const email = input.email === undefined ? undefined : input.email === null ? null : normaliseEmail(input.email);
    const userId = input.userId === undefined ? undefined : await userFor(trx, ctx.scope, input.userId, null, errors);
    const job = input.companyJobId ? await findCompanyJob(trx, ctx.scope, input.companyJobId) : undefined;
    if (input.companyJobId && !job) errors.push({ field: 'body.companyJobId', message: `${input.companyJobId} is not a company job of this company` });
    if (input.terminationDate !== undefined && current.status !== 'terminated') {
      errors.push({ field: 'body.terminationDate', message: 'is for correcting the last day of someone who has left; end an employment with terminate' });
    }
    if (input.terminationDate !== undefined && current.start_date && input.terminationDate < (input.startDate ?? current.start_date)) {
      errors.push({ field: 'body.terminationDate', message: 'must not be before the start date' });
    }
    throwIfInvalid(errors);
    const employeeNumber = input.employeeNumber?.trim();
    await checkUniqueness(trx, ctx, { ...(employeeNumber !== undefined ? { employeeNumber } : {}), ...(email !== undefined ? { email } : {}), ...(userId !== undefined ? { userId } : {}) }, id);
    const location = input.locationId ? findLocation(input.locationId) : undefined;
    const changes: Partial<EmployeeRow> = {
      ...(employeeNumber !== undefined ? { employee_number: employeeNumber } : {}),
      ...(userId !== undefined ? { user_id: userId } : {}),
      ...(email !== undefined ? { email } : {}),
      ...(input.firstName !== undefined ? { first_name: input.firstName.trim() } : {}),
      ...(input.lastName !== undefined ? { last_name: input.lastName.trim() } : {}),
      ...(input.title !== undefined ? { title: input.title.trim() } : {}),
      // A company job brings its family, level and track, unless the same change names others.
      ...(input.companyJobId !== undefined ? { company_job_id: input.companyJobId } : {}),
      ...(job ? { job_family_id: job.job_family_id, level_id: job.level_id, track: job.track } : {}),
      ...(input.jobFamilyId !== undefined ? { job_family_id: input.jobFamilyId } : {}),
      ...(input.levelId !== undefined ? { level_id: input.levelId, track: input.levelId ? (findLevel(input.levelId)?.track ?? null) : null } : {}),
      ...(input.managerId !== undefined ? { manager_id: input.managerId } : {}),
      ...(input.department !== undefined ? { department: input.department?.trim() || null } : {}),
      ...(input.locationId !== undefined ? { location_id: input.locationId } : {}),
      // A move keeps the pay currency (pay records carry their own) but takes the new country.
      ...(input.countryCode !== undefined ? { country_code: input.countryCode } : location ? { country_code: location.country } : {}),
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
      ...(input.startDate !== undefined ? { start_date: input.startDate } : {}),
      ...(input.employmentType !== undefined ? { employment_type: input.employmentType } : {}),
      ...(input.performanceRating !== undefined ? { performance_rating: input.performanceRating } : {}),
      ...(input.leave !== undefined ? { leave_start_date: input.leave?.startDate ?? null, leave_end_date: input.leave?.endDate ?? null } : {}),
      ...(input.terminationDate !== undefined ? { termination_date: input.terminationDate } : {}),
      ...(input.legalEntity !== undefined ? { legal_entity: input.legalEntity?.trim() || null } : {}),
      ...(input.fte !== undefined ? { fte: input.fte } : {}),
      ...(input.weeklyHours !== undefined ? { weekly_hours: input.weeklyHours } : {}),
      ...(input.demographics !== undefined ? { demographics: JSON.stringify({ ...parseDemographics(current.demographics), ...input.demographics }) } : {}),
      updated_at: new Date().toISOString(),
    };
    if (!(await storeUpdateEmployee(trx, ctx.scope, id, version, changes))) throw versionConflict('this employee');
    const changed = Object.keys(input).filter((key) => key !== 'demographics');
    await emit(trx, { companyId: ctx.scope.companyId, actorUserId: caller.userId, name: 'employee.updated', subjectType: 'employee', subjectId: id, payload: { fields: input.demographics ? [...changed, 'demographics'] : changed } });
    const updated = { ...current, ...changes, version: version + 1 } as EmployeeRow;
    const fieldChanges = diffFields(employeeFields(current), employeeFields(updated));
    await recordChanges(trx, { companyId: ctx.scope.companyId, employeeId: id, entity: 'employee', entityId: id, changes: fieldChanges, changedBy: caller.userId });
    return updated;
  });
  const access = await readAccess(db, ctx.scope, caller);
  return (await presentForCaller(db, ctx.scope, access, [row]))[0] as Employee;
}

export async function terminateEmployee(context: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: components['schemas']['EmployeeTermination']): Promise<Employee> {
  const { db, caller } = context;
  const ctx = await writeContext(db, caller);
  const version = versionOf(ifMatch);
  await changeableEmployee(db, ctx, id);
  const row = await db.transaction(async (trx) => {
    const current = await changeableEmployee(trx, ctx, id);
    if (Number(current.version) !== version) throw versionConflict('this employee', Number(current.version));
    if (current.status === STARTING) {
      throw new HttpError(409, 'hire_not_started', { message: `${fullName(current)} has not started yet (starts on ${current.start_date ?? 'their start date'}): cancel the hire from their offer instead.` });
    }
    if (current.status === 'terminated') {
      throw new HttpError(409, 'already_terminated', { message: `${fullName(current)} already left on ${current.termination_date ?? 'an unknown date'}.` });
    }
    const reports = await countActiveReports(trx, ctx.scope, id);
    const errors: FieldError[] = [];
    if (reports > 0 && !input.reassignReportsTo) {
      errors.push({ field: 'body.reassignReportsTo', message: `is required: ${fullName(current)} has ${reports} active direct report${reports === 1 ? '' : 's'}` });
    }
    if (input.reassignReportsTo) {
      if (input.reassignReportsTo === id) errors.push({ field: 'body.reassignReportsTo', message: `cannot be ${fullName(current)}, who is leaving` });
      else await checkManager(trx, ctx, input.reassignReportsTo, current, errors, 'body.reassignReportsTo');
    }
    throwIfInvalid(errors);
    const now = new Date().toISOString();
    const movedIds = reports > 0 && input.reassignReportsTo ? await activeReportIds(trx, ctx.scope, id) : [];
    const moved = reports > 0 && input.reassignReportsTo ? await reassignReports(trx, ctx.scope, id, input.reassignReportsTo, now) : 0;
    for (const reportId of movedIds) {
      const change = { field: 'managerId', from: id, to: input.reassignReportsTo ?? null };
      await recordChanges(trx, { companyId: ctx.scope.companyId, employeeId: reportId, entity: 'employee', entityId: reportId, changes: [change], changedBy: caller.userId, at: now });
    }
    const changes = { status: 'terminated', termination_date: input.terminationDate, updated_at: now };
    if (!(await storeUpdateEmployee(trx, ctx.scope, id, version, changes))) throw versionConflict('this employee');
    await emit(trx, { companyId: ctx.scope.companyId, actorUserId: caller.userId, name: 'employee.terminated', subjectType: 'employee', subjectId: id, payload: { terminationDate: input.terminationDate, reportsMovedTo: input.reassignReportsTo ?? null, reportsMoved: moved } });
    const updated = { ...current, ...changes, version: version + 1 };
    await recordChanges(trx, { companyId: ctx.scope.companyId, employeeId: id, entity: 'employee', entityId: id, changes: diffFields(employeeFields(current), employeeFields(updated)), changedBy: caller.userId });
    return updated;
  });
  const access = await readAccess(db, ctx.scope, caller);
  return (await presentForCaller(db, ctx.scope, access, [row]))[0] as Employee;
}

// ── the caller's own record ──────────────────────────────────────────────────────────────

/** The caller's own employee record; everyone may see their own pay. */
export async function ownEmployee(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<{ scope: CompanyScope; row: EmployeeRow }> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await findEmployeeByUser(db, scope, caller.userId);
  if (!row) throw notFound('Your sign-in is not linked to an employee record.');
  return { scope, row };
}

export async function presentOwn(ctx: Pick<ServiceContext, 'db' | 'caller'>, scope: CompanyScope, row: EmployeeRow, asOf: string): Promise<Employee> {
  const { db, caller } = ctx;
  const access: ReadAccess = { team: { kind: 'self', employeeId: row.id }, pay: { kind: 'self', employeeId: row.id }, demographics: hasPermission(caller.permissions, 'demographics', 'view', undefined) };
  return (await presentForCaller(db, scope, access, [row], asOf))[0] as Employee;
}
