import type { Knex } from 'knex';
import { ENTERPRISE_TAGS, type EnterpriseTag, type FlagName, flagDefaults, flagNames, segmentFlags } from '../access/flags.js';
import { flagOverrides, setFlag } from '../access/store.js';
import { type CompanyRow, type ViewAsSessionRow, findCompanyById, findCompanyByKey, findUserRow } from '../access/usersStore.js';
import { findUserByEmail } from '../access/users.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import type { ServiceContext } from '../kernel/operations.js';

type ViewAsSession = components['schemas']['ViewAsSession'];

export async function accessibleCompanies(ctx: Pick<ServiceContext, 'db'>, search: string | undefined): Promise<components['schemas']['AccountSummary'][]> {
  const { db } = ctx;
  const query = db<CompanyRow>('companies').orderBy('name');
  if (search) query.whereRaw('lower(name) like ?', [`%${search.toLowerCase()}%`]).orWhereRaw('lower(key) like ?', [`%${search.toLowerCase()}%`]);
  return (await query).map((row) => ({ companyId: row.id, companyKey: row.key, companyName: row.name, isDemo: Boolean(row.is_demo) }));
}

async function requireCompany(db: Knex, companyId: string): Promise<CompanyRow> {
  const company = await findCompanyById(db, companyId);
  if (!company) throw notFound();
  return company;
}

export async function companyFlags(ctx: Pick<ServiceContext, 'db'>, companyId: string): Promise<components['schemas']['ReleaseFlag'][]> {
  const { db } = ctx;
  await requireCompany(db, companyId);
  const overrides = await flagOverrides(db, { companyId });
  const defaults = flagDefaults();
  return flagNames().map((flag) => {
    const enabled = overrides.get(flag) ?? defaults[flag];
    return { flag, enabled, isDefault: enabled === defaults[flag] };
  });
}

export async function toggleFlag(ctx: Pick<ServiceContext, 'db' | 'caller'>, companyId: string, flag: FlagName, enabled: boolean) {
  const { db, caller } = ctx;
  await requireCompany(db, companyId);
  await setFlag(db, { companyId }, flag, enabled, caller.userId);
  await emit(db, { companyId, actorUserId: caller.userId, name: 'release_flag.set', subjectType: 'release_flag', subjectId: flag, payload: { enabled } });
  return { flag, enabled, isDefault: enabled === flagDefaults()[flag] };
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

export async function listSessions(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  const rows = await db<ViewAsSessionRow>('view_as_sessions').where({ admin_user_id: caller.userId }).orderBy('started_at', 'desc').limit(100);
  return Promise.all(rows.map((row) => present(db, row)));
}

/** Opens a recorded session; any earlier open session of this admin is ended first. */
export async function startSession(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: components['schemas']['ViewAsSessionInput']) {
  const { db, caller } = ctx;
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

export async function endSession(ctx: Pick<ServiceContext, 'db' | 'caller'>, sessionId: string) {
  const { db, caller } = ctx;
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

// ── Enterprise tags (customer segments) ───────────────────────────────────────────────────

const storedTags = (company: CompanyRow): EnterpriseTag[] => {
  const parsed: unknown = JSON.parse(company.enterprise_tags || '[]');
  return Array.isArray(parsed) ? ENTERPRISE_TAGS.filter((tag) => parsed.includes(tag)) : [];
};

async function presentTags(db: Knex, companyId: string, tags: EnterpriseTag[]): Promise<components['schemas']['CompanyEnterpriseTags']> {
  return {
    companyId,
    tags,
    segmentFlags: ENTERPRISE_TAGS.map((tag) => ({ tag, flags: segmentFlags(tag) })),
    flags: await companyFlags({ db }, companyId),
  };
}

export async function companyTags(ctx: Pick<ServiceContext, 'db'>, companyId: string) {
  const { db } = ctx;
  const company = await requireCompany(db, companyId);
  return presentTags(db, companyId, storedTags(company));
}

/**
 * Replaces the company's tags. The flags of a segment added are switched on; those of a segment
 * removed are switched off unless a tag the company keeps still ties them. One transaction: the
 * tags, the flags and the audit entry go in together.
 */
export async function setCompanyTags(ctx: Pick<ServiceContext, 'db' | 'caller'>, companyId: string, wanted: readonly EnterpriseTag[]) {
  const { db, caller } = ctx;
  const tags = ENTERPRISE_TAGS.filter((tag) => wanted.includes(tag));
  await db.transaction(async (trx) => {
    const company = await trx<CompanyRow>('companies').where({ id: companyId }).first();
    if (!company) throw notFound();
    const before = storedTags(company);
    const tied = new Set(tags.flatMap(segmentFlags));
    const flagsOn = tags.filter((tag) => !before.includes(tag)).flatMap(segmentFlags);
    const flagsOff = before.filter((tag) => !tags.includes(tag)).flatMap(segmentFlags).filter((flag) => !tied.has(flag));
    await trx('companies').where({ id: companyId }).update({ enterprise_tags: JSON.stringify(tags), updated_at: new Date().toISOString() });
    for (const flag of new Set(flagsOn)) await setFlag(trx, { companyId }, flag, true, caller.userId);
    for (const flag of new Set(flagsOff)) await setFlag(trx, { companyId }, flag, false, caller.userId);
    await emit(trx, {
      companyId,
      actorUserId: caller.userId,
      name: 'enterprise_tags.set',
      subjectType: 'company',
      subjectId: companyId,
      payload: { tags: [...tags], flagsOn: [...new Set(flagsOn)], flagsOff: [...new Set(flagsOff)] },
    });
  });
  return presentTags(db, companyId, tags);
}

type ErrorScreenText = components['schemas']['ErrorScreenText'];

const errorScreenOf = (company: CompanyRow): ErrorScreenText | null =>
  company.error_screen_title && company.error_screen_description ? { title: company.error_screen_title, description: company.error_screen_description } : null;

/** The text a company's error screen shows instead of the error's own (the spec's remote override), or null. */
export async function companyErrorScreen(ctx: Pick<ServiceContext, 'db'>, companyId: string): Promise<ErrorScreenText | null> {
  const { db } = ctx;
  return errorScreenOf(await requireCompany(db, companyId));
}

/** Sets (trimmed) or clears a company's error-screen text; audited. */
export async function setCompanyErrorScreen(ctx: Pick<ServiceContext, 'db' | 'caller'>, companyId: string, text: ErrorScreenText | null): Promise<ErrorScreenText | null> {
  const { db, caller } = ctx;
  const next = text ? { title: text.title.trim(), description: text.description.trim() } : null;
  if (next && (!next.title || !next.description)) {
    throw badRequest('The error screen needs a title and a description, or nothing.', [
      ...(next.title ? [] : [{ field: 'body.text.title', message: 'must not be blank' }]),
      ...(next.description ? [] : [{ field: 'body.text.description', message: 'must not be blank' }]),
    ]);
  }
  await db.transaction(async (trx) => {
    const company = await trx<CompanyRow>('companies').where({ id: companyId }).first();
    if (!company) throw notFound();
    await trx('companies').where({ id: companyId }).update({ error_screen_title: next?.title ?? null, error_screen_description: next?.description ?? null, updated_at: new Date().toISOString() });
    await emit(trx, { companyId, actorUserId: caller.userId, name: 'error_screen.set', subjectType: 'company', subjectId: companyId, payload: { title: next?.title ?? null, description: next?.description ?? null } });
  });
  return next;
}
