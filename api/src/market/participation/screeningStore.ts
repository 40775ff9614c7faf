import type { Knex } from 'knex';
import { newId } from '../../db/ids.js';
import type { ParticipantVerdict, PlausibilityCheck, ScreeningOutcome } from './plausibility.js';

/** A finding as stored: the copied participant named by its company (internal admins only). */
export interface StoredFinding {
  check: PlausibilityCheck;
  message: string;
  cell: string | null;
  otherCompanyId: string | null;
}

export interface ScreeningRow {
  id: string;
  release_id: string;
  company_id: string;
  outcome: ScreeningOutcome;
  records: number;
  previous_records: number | null;
  findings: string;
  decision: 'release' | 'keep' | null;
  decision_reason: string | null;
  decided_by: string | null;
  decided_at: string | Date | null;
  applied_release_id: string | null;
  created_at: string | Date;
}

/**
 * What a build needs of each company's earlier screenings, in the order of `companyIds`: the records
 * of its last contribution that went into a release (a held-back jump is not the new normal), and
 * whether an internal admin released its last hold into this build.
 */
export async function screeningHistory(db: Knex, companyIds: readonly string[]): Promise<{ previousRecords: (number | null)[]; released: boolean[] }> {
  if (companyIds.length === 0) return { previousRecords: [], released: [] };
  const rows = (await db('market_release_screenings').whereIn('company_id', companyIds).orderBy('created_at', 'desc').orderBy('id', 'desc')) as ScreeningRow[];
  const previous = new Map<string, number>();
  const latest = new Map<string, ScreeningRow>();
  for (const row of rows) {
    if (!latest.has(row.company_id)) latest.set(row.company_id, row);
    if (row.outcome !== 'quarantined' && !previous.has(row.company_id)) previous.set(row.company_id, Number(row.records));
  }
  return {
    previousRecords: companyIds.map((id) => previous.get(id) ?? null),
    released: companyIds.map((id) => {
      const row = latest.get(id);
      return row?.outcome === 'quarantined' && row.decision === 'release' && !row.applied_release_id;
    }),
  };
}

/** Records what the checks found for every contributing company, and marks the releases of holds this build applied. */
export async function saveScreenings(db: Knex, releaseId: string, companyIds: readonly string[], verdicts: readonly ParticipantVerdict[]): Promise<void> {
  if (verdicts.length === 0) return;
  const at = new Date().toISOString();
  await db.batchInsert(
    'market_release_screenings',
    verdicts.map((v) => ({
      id: newId(),
      release_id: releaseId,
      company_id: companyIds[v.participant],
      outcome: v.outcome,
      records: v.records,
      previous_records: v.previousRecords,
      findings: JSON.stringify(v.findings.map((f): StoredFinding => ({ check: f.check, message: f.message, cell: f.cell, otherCompanyId: f.other === null ? null : (companyIds[f.other] ?? null) }))),
      created_at: at,
    })),
    200,
  );
  // A release stands for the next build only: this one took it (or found nothing left to hold).
  await db('market_release_screenings')
    .whereIn('company_id', [...companyIds])
    .where({ outcome: 'quarantined', decision: 'release' })
    .whereNull('applied_release_id')
    .whereNot({ release_id: releaseId })
    .update({ applied_release_id: releaseId });
}

export interface QuarantineListRow extends ScreeningRow {
  company_name: string;
  release_version: string;
  decided_by_email: string | null;
  applied_release_version: string | null;
}

const quarantineQuery = (db: Knex) =>
  db('market_release_screenings as s')
    .join('companies as c', 'c.id', 's.company_id')
    .join('market_releases as r', 'r.id', 's.release_id')
    .leftJoin('users as u', 'u.id', 's.decided_by')
    .leftJoin('market_releases as a', 'a.id', 's.applied_release_id')
    .whereIn('s.outcome', ['quarantined', 'released'])
    .select('s.*', 'c.name as company_name', 'r.version as release_version', 'u.email as decided_by_email', 'a.version as applied_release_version');

/** Held-back (and released) contributions, newest first. */
export async function listQuarantines(db: Knex, limit: number): Promise<QuarantineListRow[]> {
  return (await quarantineQuery(db).orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(limit)) as QuarantineListRow[];
}

export async function findQuarantine(db: Knex, id: string): Promise<QuarantineListRow | undefined> {
  return (await quarantineQuery(db).where('s.id', id).first()) as QuarantineListRow | undefined;
}

/** Whether a build screened the company after this screening. */
export async function hasLaterScreening(db: Knex, row: Pick<ScreeningRow, 'company_id' | 'created_at' | 'id'>): Promise<boolean> {
  const later = await db('market_release_screenings').where({ company_id: row.company_id }).where('created_at', '>', row.created_at).first('id');
  return Boolean(later);
}

export async function decideQuarantine(db: Knex, id: string, decision: { decision: 'release' | 'keep'; decision_reason: string; decided_by: string; decided_at: string }): Promise<void> {
  await db('market_release_screenings').where({ id }).update(decision);
}

/** The company's latest screening, for its participation page (its own row only: the scope is the caller's). */
export async function latestScreening(db: Knex, companyId: string): Promise<(Pick<ScreeningRow, 'outcome' | 'decision' | 'applied_release_id' | 'created_at'> & { release_version: string }) | undefined> {
  return (await db('market_release_screenings as s')
    .join('market_releases as r', 'r.id', 's.release_id')
    .where('s.company_id', companyId)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .first('s.outcome', 's.decision', 's.applied_release_id', 's.created_at', 'r.version as release_version')) as
    | (Pick<ScreeningRow, 'outcome' | 'decision' | 'applied_release_id' | 'created_at'> & { release_version: string })
    | undefined;
}
