import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import { findCompany } from '../access/usersStore.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, type FieldError, notFound } from '../kernel/errors.js';
import { normaliseEmail } from '../access/users.js';
import { findLocation } from '../reference/catalog/index.js';
import { throwIfInvalid } from './access.js';
import { versionConflict, versionOf } from '../kernel/versions.js';
import { presentCandidate } from './present.js';
import { type CandidateRow, candidatePage, deleteCandidate, findCandidate, findCandidateByEmail, findEmployee, insertCandidate, updateCandidate } from './store.js';
import { checkCatalog, checkCurrency } from './validation.js';
import type { ServiceContext } from '../kernel/operations.js';

type Candidate = components['schemas']['Candidate'];

function emailTaken(email: string): HttpError {
  const message = `${email} is already a candidate of this company`;
  return new HttpError(409, 'already_taken', { message, errors: [{ field: 'body.email', message }] });
}

export async function listCandidates(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  query: { search?: string; status?: string; limit: number; cursor?: string },
): Promise<{ candidates: Candidate[]; nextCursor: string | null }> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  let after: string | undefined;
  if (query.cursor !== undefined) {
    after = Buffer.from(query.cursor, 'base64url').toString('utf8');
    if (!after.includes('@')) throw badRequest('The cursor is not one this server gave out', [{ field: 'query.cursor', message: 'is not a valid cursor' }]);
  }
  const page = await candidatePage(db, scope, { ...(query.search ? { search: query.search } : {}), ...(query.status ? { status: query.status } : {}) }, query.limit, after);
  const last = page.rows.at(-1);
  return { candidates: page.rows.map(presentCandidate), nextCursor: page.hasMore && last ? Buffer.from(last.email).toString('base64url') : null };
}

async function ownCandidate(db: Knex, scope: CompanyScope, id: string): Promise<CandidateRow> {
  const row = await findCandidate(db, scope, id);
  if (!row) throw notFound();
  return row;
}

export async function getCandidate(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Candidate> {
  const { db, caller } = ctx;
  return presentCandidate(await ownCandidate(db, companyScope(caller), id));
}

async function checkHiredEmployee(db: Knex, scope: CompanyScope, id: string | null | undefined, errors: FieldError[]): Promise<void> {
  if (id && !(await findEmployee(db, scope, id))) errors.push({ field: 'body.hiredEmployeeId', message: `${id} is not an employee of this company` });
}

export async function createCandidate(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: components['schemas']['CandidateInput']): Promise<Candidate> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const email = normaliseEmail(input.email);
  const row = await db.transaction(async (trx) => {
    const company = await findCompany(trx, scope);
    if (!company) throw notFound();
    const errors: FieldError[] = [];
    checkCatalog(input, errors);
    const currency = input.currency ?? (input.locationId ? findLocation(input.locationId)?.currencyCode : undefined) ?? company.currency;
    await checkCurrency(trx, currency, 'body.currency', errors);
    throwIfInvalid(errors);
    if (await findCandidateByEmail(trx, scope, email)) throw emailTaken(email);
    const now = new Date().toISOString();
    const row: CandidateRow = {
      id: newId(),
      company_id: scope.companyId,
      email,
      first_name: input.firstName.trim(),
      last_name: input.lastName.trim(),
      title: (input.title ?? '').trim(),
      job_family_id: input.jobFamilyId ?? null,
      level_id: input.levelId ?? null,
      location_id: input.locationId ?? null,
      country_code: input.countryCode ?? (input.locationId ? (findLocation(input.locationId)?.country ?? null) : null),
      currency,
      status: input.status ?? 'active',
      source: input.source?.trim() || null,
      hired_employee_id: null,
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await insertCandidate(trx, row);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'candidate.created', subjectType: 'candidate', subjectId: row.id, payload: {} });
    return row;
  });
  return presentCandidate(row);
}

export async function changeCandidate(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: components['schemas']['CandidateUpdate']): Promise<Candidate> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await ownCandidate(db, scope, id);
  const row = await db.transaction(async (trx) => {
    const current = await ownCandidate(trx, scope, id);
    if (Number(current.version) !== version) throw versionConflict('this candidate', Number(current.version));
    const errors: FieldError[] = [];
    checkCatalog(input, errors);
    await checkCurrency(trx, input.currency, 'body.currency', errors);
    await checkHiredEmployee(trx, scope, input.hiredEmployeeId, errors);
    throwIfInvalid(errors);
    const email = input.email === undefined ? undefined : normaliseEmail(input.email);
    if (email !== undefined && email !== current.email && (await findCandidateByEmail(trx, scope, email))) throw emailTaken(email);
    const changes: Partial<CandidateRow> = {
      ...(email !== undefined ? { email } : {}),
      ...(input.firstName !== undefined ? { first_name: input.firstName.trim() } : {}),
      ...(input.lastName !== undefined ? { last_name: input.lastName.trim() } : {}),
      ...(input.title !== undefined ? { title: input.title.trim() } : {}),
      ...(input.jobFamilyId !== undefined ? { job_family_id: input.jobFamilyId } : {}),
      ...(input.levelId !== undefined ? { level_id: input.levelId } : {}),
      ...(input.locationId !== undefined ? { location_id: input.locationId } : {}),
      ...(input.countryCode !== undefined ? { country_code: input.countryCode } : {}),
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(input.source !== undefined ? { source: input.source?.trim() || null } : {}),
      ...(input.hiredEmployeeId !== undefined ? { hired_employee_id: input.hiredEmployeeId } : {}),
      updated_at: new Date().toISOString(),
    };
    if (!(await updateCandidate(trx, scope, id, version, changes))) throw versionConflict('this candidate');
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'candidate.updated', subjectType: 'candidate', subjectId: id, payload: { fields: Object.keys(input) } });
    return { ...current, ...changes, version: version + 1 };
  });
  return presentCandidate(row);
}

export async function removeCandidate(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Candidate> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await db.transaction(async (trx) => {
    const current = await ownCandidate(trx, scope, id);
    await deleteCandidate(trx, scope, id);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'candidate.removed', subjectType: 'candidate', subjectId: id, payload: { email: current.email } });
    return current;
  });
  return presentCandidate(row);
}
