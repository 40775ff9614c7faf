import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

export type ReleaseStatus = 'draft' | 'published';

/** A release row: the parameters that rebuild the release, and what the build found. */
export interface ReleaseRow {
  id: string;
  version: string;
  status: ReleaseStatus;
  pinned: boolean | number;
  source_kind: 'demo';
  source_seed: number;
  source_records: number;
  record_count: number;
  company_count: number;
  /** Opted-in companies and their records included, anonymised (see participation/). */
  contributed_companies: number;
  contributed_records: number;
  built_at: string | Date;
  published_at: string | Date | null;
  /** The privacy scorecard (engine/scorecard.ts) as JSON; null for a release built before scorecards. */
  privacy_scorecard?: string | null;
}

export interface SettingsRow {
  company_id: string;
  override_base_compensation_requirement: boolean | number;
  override_equity_requirement: boolean | number;
  use_synthetic_location_insights_data: boolean | number;
  location: string | null;
  updated_at: string | Date;
}

export async function listReleases(db: Knex): Promise<ReleaseRow[]> {
  return db<ReleaseRow>('market_releases').orderBy('built_at', 'desc').orderBy('id', 'desc');
}

export async function findRelease(db: Knex, id: string): Promise<ReleaseRow | undefined> {
  return db<ReleaseRow>('market_releases').where({ id }).first();
}

export async function countReleases(db: Knex): Promise<number> {
  const row = await db('market_releases').count({ count: '*' }).first();
  return Number(row?.count ?? 0);
}

/** The release every node serves: the pinned one, else the newest published. */
export async function servedReleaseRow(db: Knex): Promise<ReleaseRow | undefined> {
  return db<ReleaseRow>('market_releases')
    .where({ status: 'published' })
    .orderBy('pinned', 'desc')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .first();
}

export async function insertRelease(db: Knex, row: ReleaseRow): Promise<void> {
  await db('market_releases').insert(row);
}

/** Only a draft can be published: the where clause makes publishing a published release a no-op. */
export async function markPublished(db: Knex, id: string, at: string): Promise<void> {
  await db('market_releases').where({ id, status: 'draft' }).update({ status: 'published', published_at: at });
}

export async function saveScorecard(db: Knex, id: string, scorecard: string): Promise<void> {
  await db('market_releases').where({ id }).update({ privacy_scorecard: scorecard });
}

export async function pinOnly(db: Knex, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('market_releases').whereNot({ id }).andWhere({ pinned: true }).update({ pinned: false });
    await trx('market_releases').where({ id }).update({ pinned: true });
  });
}

export async function findSettings(db: Knex, scope: CompanyScope): Promise<SettingsRow | undefined> {
  return db<SettingsRow>('company_benchmarking_settings').where({ company_id: scope.companyId }).first();
}

export async function saveSettings(db: Knex, scope: CompanyScope, row: Omit<SettingsRow, 'company_id'>): Promise<void> {
  await db('company_benchmarking_settings')
    .insert({ ...row, company_id: scope.companyId })
    .onConflict('company_id')
    .merge();
}
