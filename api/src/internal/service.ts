import type { Knex } from 'knex';
import type { Caller } from '../access/caller.js';
import { FLAG_DEFAULTS, FLAG_NAMES, type FlagName } from '../access/flags.js';
import { flagOverrides, setFlag } from '../access/store.js';
import { type CompanyRow, type ViewAsSessionRow, findCompanyById, findCompanyByKey, findUserRow } from '../access/usersStore.js';
import { findUserByEmail } from '../access/users.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';

type ViewAsSession = components['schemas']['ViewAsSession'];

export async function accessibleCompanies(db: Knex, search: string | undefined): Promise<components['schemas']['AccountSummary'][]> {
  const query = db<CompanyRow>('companies').orderBy('name');
  if (search) query.whereRaw('lower(name) like ?', [`%${search.toLowerCase()}%`]).orWhereRaw('lower(key) like ?', [`%${search.toLowerCase()}%`]);
  return (await query).map((row) => ({ companyId: row.id, companyKey: row.key, companyName: row.name, isDemo: Boolean(row.is_demo) }));
}

async function requireCompany(db: Knex, companyId: string): Promise<CompanyRow> {
  const company = await findCompanyById(db, companyId);
  if (!company) throw notFound();
  return company;
}

export async function companyFlags(db: Knex, companyId: string): Promise<components['schemas']['ReleaseFlag'][]> {
  await requireCompany(db, companyId);
  const overrides = await flagOverrides(db, { companyId });
  return FLAG_NAMES.map((flag) => {
    const enabled = overrides.get(flag) ?? FLAG_DEFAULTS[flag];
    return { flag, enabled, isDefault: enabled === FLAG_DEFAULTS[flag] };
  });
}

export async function toggleFlag(db: Knex, caller: Caller, companyId: string, flag: FlagName, enabled: boolean) {
  await requireCompany(db, companyId);
  await setFlag(db, { companyId }, flag, enabled, caller.userId);
  await emit(db, { companyId, actorUserId: caller.userId, name: 'release_flag.set', subjectType: 'release_flag', subjectId: flag, payload: { enabled } });
  return { flag, enabled, isDefault: enabled === FLAG_DEFAULTS[flag] };
}

async function present(db: Knex, row: ViewAsSessionRow): Promise<ViewAsSession> {
  const [admin, target, company] = await Promise.all([
    findUserRow(db, row.admin_user_id),
    row.target_user_id ? findUserRow(db, row.target_user_id) : undefined,
    findCompanyById(db, row.company_id),
  ]);
  return {
    id: row.id,
    mode: row.mode,
    adminEmail: admin?.email ?? '',
    targetEmail: target?.email ?? null,
    companyId: row.company_id,
    companyKey: company?.key ?? '',
    reason: row.reason,
    startedAt: new Date(row.started_at).toISOString(),
    endedAt: row.ended_at ? new Date(row.ended_at).toISOString() : null,
  };
}

export async function listSessions(db: Knex, caller: Caller) {
  const rows = await db<ViewAsSessionRow>('view_as_sessions').where({ admin_user_id: caller.userId }).orderBy('started_at', 'desc').limit(100);
  return Promise.all(rows.map((row) => present(db, row)));
}

/** Opens a recorded session; any earlier open session of this admin is ended first. */
export async function startSession(db: Knex, caller: Caller, input: components['schemas']['ViewAsSessionInput']) {
  if (Boolean(input.userEmail) === Boolean(input.companyKey)) {
    throw badRequest('Give either userEmail or companyKey', [{ field: 'body', message: 'needs exactly one of userEmail, companyKey' }]);
  }
  let row: ViewAsSessionRow;
  if (input.userEmail) {
    const target = await findUserByEmail(db, input.userEmail);
    if (!target?.company_id) throw notFound('No user with that e-mail belongs to a company.');
    if (target.id === caller.userId) throw new HttpError(409, 'view_as_self', { message: 'You cannot view as yourself.' });
    row = { id: newId(), company_id: target.company_id, admin_user_id: caller.userId, target_user_id: target.id, mode: 'user', reason: input.reason, started_at: new Date().toISOString(), ended_at: null };
  } else {
    const company = await findCompanyByKey(db, input.companyKey ?? '');
    if (!company) throw notFound('No company with that key.');
    row = { id: newId(), company_id: company.id, admin_user_id: caller.userId, target_user_id: null, mode: 'company', reason: input.reason, started_at: new Date().toISOString(), ended_at: null };
  }
  await db.transaction(async (trx) => {
    await trx('view_as_sessions').where({ admin_user_id: caller.userId }).whereNull('ended_at').update({ ended_at: row.started_at });
    await trx('view_as_sessions').insert(row);
    await emit(trx, { companyId: row.company_id, actorUserId: caller.userId, name: 'view_as.started', subjectType: row.mode, subjectId: row.target_user_id ?? row.company_id, payload: { reason: input.reason } });
  });
  return present(db, row);
}

export async function endSession(db: Knex, caller: Caller, sessionId: string) {
  const row = await db<ViewAsSessionRow>('view_as_sessions').where({ id: sessionId, admin_user_id: caller.userId }).first();
  if (!row) throw notFound();
  if (!row.ended_at) {
    const endedAt = new Date().toISOString();
    await db('view_as_sessions').where({ id: sessionId }).update({ ended_at: endedAt });
    await emit(db, { companyId: row.company_id, actorUserId: caller.userId, name: 'view_as.ended', subjectType: 'view_as_session', subjectId: row.id, payload: {} });
    row.ended_at = endedAt;
  }
  return present(db, row);
}
