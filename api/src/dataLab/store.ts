import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';
import type { ComputedInsight, InsightKind, InsightTable, Severity } from './kinds.js';

// ── insights ──────────────────────────────────────────────────────────────────────────────

export interface InsightRow {
  id: string;
  company_id: string;
  insight_key: string;
  kind: InsightKind;
  severity: Severity;
  title: string;
  metric_value: number | string;
  metric_unit: 'people' | 'percent' | 'count';
  method: string;
  link: string;
  subjects: string;
  details: string;
  needs_pay: boolean | number;
  needs_demographics: boolean | number;
  computed_at: string | Date;
}

/** What `details` holds: the figures over the whole company, and where the insight links to. */
export interface InsightDetails {
  table: InsightTable | null;
  linkLabel: string;
}

const insightsOf = (db: Knex, scope: CompanyScope) => db<InsightRow>('data_lab_insights').where('data_lab_insights.company_id', scope.companyId);

export async function listInsightRows(db: Knex, scope: CompanyScope): Promise<InsightRow[]> {
  return insightsOf(db, scope).select('*').orderBy('insight_key');
}

export async function findInsightRow(db: Knex, scope: CompanyScope, key: string): Promise<InsightRow | undefined> {
  return insightsOf(db, scope).where({ insight_key: key }).first();
}

/** The company's insights replaced as a whole by a new computation, with when and why it ran. */
export async function replaceInsights(db: Knex, scope: CompanyScope, insights: readonly ComputedInsight[], reason: string, computedAt: string): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('data_lab_insights').where({ company_id: scope.companyId }).delete();
    const rows = insights.map((insight) => ({
      id: newId(),
      company_id: scope.companyId,
      insight_key: insight.key,
      kind: insight.kind,
      severity: insight.severity,
      title: insight.title,
      metric_value: insight.value,
      metric_unit: insight.unit,
      method: insight.method,
      link: insight.link,
      subjects: JSON.stringify(insight.subjects),
      details: JSON.stringify({ table: insight.table, linkLabel: insight.linkLabel } satisfies InsightDetails),
      needs_pay: insight.needsPay,
      needs_demographics: insight.needsDemographics,
      computed_at: computedAt,
    }));
    for (let start = 0; start < rows.length; start += 50) await trx('data_lab_insights').insert(rows.slice(start, start + 50));
    const run = { company_id: scope.companyId, reason: reason.slice(0, 64), computed_at: computedAt };
    const updated = await trx('data_lab_insight_runs').where({ company_id: scope.companyId }).update(run);
    if (!updated) await trx('data_lab_insight_runs').insert(run);
  });
}

export async function lastComputedAt(db: Knex, scope: CompanyScope): Promise<string | null> {
  const row = (await db('data_lab_insight_runs').where({ company_id: scope.companyId }).first('computed_at')) as { computed_at: string | Date } | undefined;
  return row ? new Date(row.computed_at).toISOString() : null;
}

// ── a person's dismissals and snoozes ─────────────────────────────────────────────────────

export interface InsightStateRow {
  id: string;
  company_id: string;
  user_id: string;
  insight_key: string;
  state: 'dismissed' | 'snoozed';
  snoozed_until: string | Date | null;
  created_at: string | Date;
}

export async function insightStates(db: Knex, scope: CompanyScope, userId: string): Promise<Map<string, InsightStateRow>> {
  const rows = (await db('data_lab_insight_states').where({ company_id: scope.companyId, user_id: userId })) as InsightStateRow[];
  return new Map(rows.map((row) => [row.insight_key, row]));
}

/** Sets (or, for `open`, clears) the person's state of an insight. */
export async function saveInsightState(
  db: Knex,
  scope: CompanyScope,
  { userId, key, state, snoozedUntil }: { userId: string; key: string; state: 'open' | 'dismissed' | 'snoozed'; snoozedUntil: string | null },
): Promise<void> {
  await db('data_lab_insight_states').where({ company_id: scope.companyId, user_id: userId, insight_key: key }).delete();
  if (state === 'open') return;
  await db('data_lab_insight_states').insert({ id: newId(), company_id: scope.companyId, user_id: userId, insight_key: key, state, snoozed_until: snoozedUntil, created_at: new Date().toISOString() });
}

// ── bookmarks ─────────────────────────────────────────────────────────────────────────────

export type BookmarkKind = 'insight' | 'explorerQuery' | 'teamAnalytics';

export interface BookmarkRow {
  id: string;
  company_id: string;
  owner_user_id: string;
  kind: BookmarkKind;
  name: string;
  target: string;
  shared: boolean | number;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface BookmarkWithOwner extends BookmarkRow {
  owner_first_name: string | null;
  owner_last_name: string | null;
}

const bookmarksOf = (db: Knex, scope: CompanyScope) => db('data_lab_bookmarks').where('data_lab_bookmarks.company_id', scope.companyId);

const withOwner = (query: Knex.QueryBuilder): Knex.QueryBuilder =>
  query.leftJoin('users as owner', 'owner.id', 'data_lab_bookmarks.owner_user_id').select('data_lab_bookmarks.*', 'owner.first_name as owner_first_name', 'owner.last_name as owner_last_name');

/** The person's own bookmarks and those shared in the company, newest first. */
export async function listBookmarks(db: Knex, scope: CompanyScope, userId: string): Promise<BookmarkWithOwner[]> {
  return (await withOwner(bookmarksOf(db, scope))
    .where((q) => q.where('data_lab_bookmarks.owner_user_id', userId).orWhere('data_lab_bookmarks.shared', true))
    .orderBy([{ column: 'data_lab_bookmarks.created_at', order: 'desc' }, { column: 'data_lab_bookmarks.id', order: 'desc' }])) as BookmarkWithOwner[];
}

/** A bookmark the person may see (their own, or shared). */
export async function findVisibleBookmark(db: Knex, scope: CompanyScope, userId: string, id: string): Promise<BookmarkWithOwner | undefined> {
  return (await withOwner(bookmarksOf(db, scope))
    .where('data_lab_bookmarks.id', id)
    .where((q) => q.where('data_lab_bookmarks.owner_user_id', userId).orWhere('data_lab_bookmarks.shared', true))
    .first()) as BookmarkWithOwner | undefined;
}

export async function insertBookmark(db: Knex, row: BookmarkRow): Promise<void> {
  await db('data_lab_bookmarks').insert(row);
}

export const bookmarkRow = (db: Knex, scope: CompanyScope, id: string) => (): Knex.QueryBuilder => bookmarksOf(db, scope).where('data_lab_bookmarks.id', id);

export async function deleteBookmarkRow(db: Knex, scope: CompanyScope, id: string): Promise<void> {
  await bookmarksOf(db, scope).where('data_lab_bookmarks.id', id).delete();
}
