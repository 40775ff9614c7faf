import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { findCompanyById } from '../access/usersStore.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { presentJob } from '../jobs/present.js';
import { namesWithinReach } from './peopleReads.js';
import { type EmployeeReach, employeeReach } from '../people/visibility.js';
import { emit } from '../platform/events.js';
import { insightsJob, queueRecompute } from './jobs.js';
import { presentBookmark, presentInsight, presentSubscription } from './present.js';
import {
  type BookmarkRow,
  type InsightRow,
  bookmarkRow,
  deleteBookmarkRow,
  findInsightRow,
  findVisibleBookmark,
  insertBookmark,
  insightStates,
  lastComputedAt,
  listBookmarks,
  listInsightRows,
  saveInsightState,
} from './store.js';
import { type DataLabFeature, dataLabFeatures, findSubscriptionRow, requireDataLabFeature, saveDataLabFeatures } from './subscription.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];

// ── subscription ──────────────────────────────────────────────────────────────────────────

async function subscriptionOf(db: Knex, companyId: string): Promise<Schemas['DataLabSubscription']> {
  const company = await findCompanyById(db, companyId);
  if (!company) throw notFound();
  return presentSubscription(companyId, company.name, await dataLabFeatures(db, companyId), await findSubscriptionRow(db, companyId));
}

export const companySubscription = (ctx: Pick<ServiceContext, 'db' | 'caller'>) => subscriptionOf(ctx.db, companyScope(ctx.caller).companyId);

export const subscriptionForSupport = (ctx: Pick<ServiceContext, 'db'>, companyId: string) => subscriptionOf(ctx.db, companyId);

/** Internal admins set what a company has; turning insights on computes them at once. */
export async function setSubscription(ctx: Pick<ServiceContext, 'deps' | 'caller'>, companyId: string, features: Record<DataLabFeature, boolean>): Promise<Schemas['DataLabSubscription']> {
  const { deps, caller } = ctx;
  const before = await subscriptionOf(deps.db, companyId);
  await saveDataLabFeatures(deps.db, companyId, features, caller.userId);
  await emit(deps.db, { name: 'dataLab.subscription.set', companyId, actorUserId: caller.userId, subjectType: 'company', subjectId: companyId, payload: { from: before.features, to: features } });
  if (features.insights && !before.features.insights) await queueRecompute(deps, { companyId }, caller.userId, 'subscription');
  return subscriptionOf(deps.db, companyId);
}

// ── insights ──────────────────────────────────────────────────────────────────────────────

interface Reader {
  scope: CompanyScope;
  team: EmployeeReach;
  pay: EmployeeReach;
  demographics: boolean;
}

async function readerOf(db: Knex, caller: Caller): Promise<Reader> {
  const scope = companyScope(caller);
  await requireDataLabFeature(db, scope.companyId, 'insights');
  return {
    scope,
    team: await employeeReach(db, scope, caller, 'team'),
    pay: await employeeReach(db, scope, caller, 'employeeCompensation'),
    demographics: hasPermission(caller.permissions, 'demographics', 'view', 'all'),
  };
}

interface Subject {
  employeeId: string;
  detail: string;
}

/**
 * What one reader may see of an insight: the people in their `team` reach (and `employeeCompensation`
 * reach when it is about pay), or — for figures over the whole company — everything only when
 * their reach is the whole company. Null when nothing of it is theirs to see.
 */
async function visiblePeople(db: Knex, reader: Reader, row: InsightRow): Promise<Schemas['DataLabInsightPerson'][] | null> {
  const needsPay = Boolean(row.needs_pay);
  if (row.needs_demographics && !reader.demographics) return null;
  if (row.metric_unit !== 'people') return reader.team.kind === 'all' && (!needsPay || reader.pay.kind === 'all') ? [] : null;
  const subjects = JSON.parse(row.subjects) as Subject[];
  const ids = subjects.map((s) => s.employeeId);
  const named = await namesWithinReach(db, reader.scope, reader.team, ids);
  const payNamed = needsPay ? await namesWithinReach(db, reader.scope, reader.pay, ids) : named;
  const people = subjects
    .filter((s) => named.has(s.employeeId) && payNamed.has(s.employeeId))
    .map((s) => ({ employeeId: s.employeeId, name: named.get(s.employeeId) ?? '', detail: s.detail }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.employeeId.localeCompare(b.employeeId));
  return people.length ? people : null;
}

const RANK = { high: 0, medium: 1, low: 2 } as const;

export async function listInsights(ctx: Pick<ServiceContext, 'db' | 'caller'>, include: 'open' | 'all'): Promise<Schemas['DataLabInsightList']> {
  const { db, caller } = ctx;
  const reader = await readerOf(db, caller);
  const states = await insightStates(db, reader.scope, caller.userId);
  const now = new Date();
  const insights: Schemas['DataLabInsight'][] = [];
  let hiddenCount = 0;
  for (const row of await listInsightRows(db, reader.scope)) {
    const people = await visiblePeople(db, reader, row);
    if (!people) continue;
    const insight = presentInsight(row, people, states.get(row.insight_key), now);
    if (insight.state !== 'open') hiddenCount += 1;
    if (include === 'all' || insight.state === 'open') insights.push(insight);
  }
  insights.sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.key.localeCompare(b.key));
  return { computedAt: await lastComputedAt(db, reader.scope), insights, hiddenCount };
}

export async function setInsightState(ctx: Pick<ServiceContext, 'db' | 'caller'>, key: string, input: Schemas['DataLabInsightStateInput']): Promise<Schemas['DataLabInsight']> {
  const { db, caller } = ctx;
  const reader = await readerOf(db, caller);
  const row = await findInsightRow(db, reader.scope, key);
  const people = row ? await visiblePeople(db, reader, row) : null;
  if (!row || !people) throw notFound('That insight is not in your data lab. It may have been recomputed away.');
  if (input.snoozeDays !== undefined && input.state !== 'snoozed') throw badRequest('Only a snooze takes a number of days', [{ field: 'body.snoozeDays', message: 'is only for state snoozed' }]);
  const snoozedUntil = input.state === 'snoozed' ? new Date(Date.now() + (input.snoozeDays ?? 7) * 86_400_000).toISOString() : null;
  await saveInsightState(db, reader.scope, { userId: caller.userId, key, state: input.state, snoozedUntil });
  const states = await insightStates(db, reader.scope, caller.userId);
  return presentInsight(row, people, states.get(key), new Date());
}

export async function startRecompute(ctx: Pick<ServiceContext, 'deps' | 'caller'>, originSocketId: string | undefined): Promise<Schemas['BackgroundJob']> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  await requireDataLabFeature(deps.db, scope.companyId, 'insights');
  const row = await deps.jobs.start(insightsJob, { companyId: scope.companyId, ownerUserId: caller.userId, input: { reason: 'requested' }, originSocketId, maxAttempts: 2 });
  return presentJob(row, null);
}

// ── bookmarks ─────────────────────────────────────────────────────────────────────────────

const mayShare = (caller: Caller): boolean => hasPermission(caller.permissions, 'dataLab', 'edit', 'all');

function refuseSharing(): HttpError {
  return new HttpError(403, 'sharing_not_allowed', { message: 'Sharing a bookmark with the company needs data-lab edit access.' });
}

async function checkTarget(db: Knex, scope: CompanyScope, input: Pick<Schemas['DataLabBookmarkInput'], 'kind' | 'target'>): Promise<void> {
  if (input.kind === 'insight') {
    if (!(await findInsightRow(db, scope, input.target))) throw badRequest('That insight is not in your data lab', [{ field: 'body.target', message: 'is not the key of a current insight' }]);
    return;
  }
  const prefix = input.kind === 'explorerQuery' ? '/benchmarkingsurvey/data-explorer' : '/team/analytics';
  if (!input.target.startsWith(prefix)) {
    throw badRequest(`An ${input.kind === 'explorerQuery' ? 'explorer query' : 'team-analytics view'} is an address starting with ${prefix}`, [{ field: 'body.target', message: `must start with ${prefix}` }]);
  }
}

/** Bookmarks come with insights: a company without them has none. */
async function bookmarkScope(db: Knex, caller: Caller): Promise<CompanyScope> {
  const scope = companyScope(caller);
  await requireDataLabFeature(db, scope.companyId, 'insights');
  return scope;
}

export async function bookmarks(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['DataLabBookmark'][]> {
  const { db, caller } = ctx;
  const scope = await bookmarkScope(db, caller);
  return (await listBookmarks(db, scope, caller.userId)).map((row) => presentBookmark(row, caller.userId));
}

export async function createBookmark(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['DataLabBookmarkInput']): Promise<Schemas['DataLabBookmark']> {
  const { db, caller } = ctx;
  const scope = await bookmarkScope(db, caller);
  if (input.shared && !mayShare(caller)) throw refuseSharing();
  await checkTarget(db, scope, input);
  const now = new Date().toISOString();
  const row: BookmarkRow = { id: newId(), company_id: scope.companyId, owner_user_id: caller.userId, kind: input.kind, name: input.name.trim(), target: input.target, shared: input.shared ?? false, version: 1, created_at: now, updated_at: now };
  await insertBookmark(db, row);
  const saved = await findVisibleBookmark(db, scope, caller.userId, row.id);
  if (!saved) throw notFound();
  return presentBookmark(saved, caller.userId);
}

async function ownBookmark(db: Knex, caller: Caller, id: string) {
  const scope = await bookmarkScope(db, caller);
  const row = await findVisibleBookmark(db, scope, caller.userId, id);
  if (!row) throw notFound();
  if (row.owner_user_id !== caller.userId) throw new HttpError(403, 'not_bookmark_owner', { message: 'Only the person who saved a bookmark can change or delete it.' });
  return { scope, row };
}

export async function updateBookmark(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: Schemas['DataLabBookmarkUpdate']): Promise<Schemas['DataLabBookmark']> {
  const { db, caller } = ctx;
  const version = versionOf(ifMatch);
  const { scope } = await ownBookmark(db, caller, id);
  if (input.shared !== undefined && !mayShare(caller)) throw refuseSharing();
  const changes: Record<string, unknown> = { updated_at: new Date().toISOString() };
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.shared !== undefined) changes.shared = input.shared;
  await updateAtVersion(bookmarkRow(db, scope, id), version, changes, 'this bookmark');
  const saved = await findVisibleBookmark(db, scope, caller.userId, id);
  if (!saved) throw notFound();
  return presentBookmark(saved, caller.userId);
}

export async function deleteBookmark(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['DataLabBookmark']> {
  const { db, caller } = ctx;
  const { scope, row } = await ownBookmark(db, caller, id);
  await deleteBookmarkRow(db, scope, id);
  return presentBookmark(row, caller.userId);
}
