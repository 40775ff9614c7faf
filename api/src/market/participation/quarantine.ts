import type { Knex } from 'knex';
import type { components } from '../../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../../db/timestamps.js';
import { HttpError, badRequest, notFound } from '../../kernel/errors.js';
import { cellLabel } from './plausibility.js';
import { decideQuarantine, findQuarantine, hasLaterScreening, latestScreening, listQuarantines, type QuarantineListRow, type StoredFinding } from './screeningStore.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];

const LIST_LIMIT = 200;

function present(row: QuarantineListRow, names: ReadonlyMap<string, string>): Schemas['MarketQuarantine'] {
  const findings = JSON.parse(row.findings) as StoredFinding[];
  return {
    id: row.id,
    releaseId: row.release_id,
    releaseVersion: row.release_version,
    company: { id: row.company_id, name: row.company_name },
    outcome: row.outcome === 'released' ? 'released' : 'quarantined',
    records: Number(row.records),
    previousRecords: row.previous_records === null ? null : Number(row.previous_records),
    findings: findings.map((f) => ({
      check: f.check,
      message: f.message,
      cell: f.cell === null ? null : { id: f.cell, label: cellLabel(f.cell) },
      otherCompany: f.otherCompanyId === null ? null : { id: f.otherCompanyId, name: names.get(f.otherCompanyId) ?? '' },
    })),
    decision: row.decision ? { action: row.decision, reason: row.decision_reason ?? '', decidedBy: row.decided_by_email, decidedAt: isoTimestamp(row.decided_at ?? row.created_at) } : null,
    appliedReleaseVersion: row.applied_release_version,
    heldAt: isoTimestamp(row.created_at),
  };
}

/** Company names of the participants a finding says were copied. */
async function otherNames(db: Knex, rows: QuarantineListRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((r) => (JSON.parse(r.findings) as StoredFinding[]).map((f) => f.otherCompanyId).filter((id): id is string => id !== null)))];
  if (ids.length === 0) return new Map();
  const found = (await db('companies').whereIn('id', ids).select('id', 'name')) as { id: string; name: string }[];
  return new Map(found.map((c) => [c.id, c.name]));
}

/** Internal admins: every contribution the plausibility checks held back (or that was released after a hold), newest first. */
export async function quarantines(ctx: Pick<ServiceContext, 'db'>): Promise<Schemas['MarketQuarantine'][]> {
  const { db } = ctx;
  const rows = await listQuarantines(db, LIST_LIMIT);
  const names = await otherNames(db, rows);
  return rows.map((row) => present(row, names));
}

/**
 * Internal admins: release a held-back contribution into the next build, or keep it held, with the
 * reason. Only a company's latest hold is decided (a later build screened it again), and a release a
 * build has already applied stands as recorded.
 */
export async function decide(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, input: Schemas['MarketQuarantineDecisionInput']): Promise<Schemas['MarketQuarantine']> {
  const { db, caller } = ctx;
  const reason = input.reason.trim();
  if (!reason) throw badRequest('Say why', [{ field: 'body.reason', message: 'must not be blank' }]);
  const row = await findQuarantine(db, id);
  if (!row || row.outcome !== 'quarantined') throw notFound('No held-back contribution with this id.');
  if (row.applied_release_id) throw new HttpError(409, 'quarantine_applied', { message: `Release ${row.applied_release_version} already took this contribution in.` });
  if (await hasLaterScreening(db, row)) throw new HttpError(409, 'quarantine_superseded', { message: 'A later build screened this company again; decide on its latest contribution.' });
  await decideQuarantine(db, id, { decision: input.action, decision_reason: reason, decided_by: caller.userId, decided_at: new Date().toISOString() });
  const updated = (await findQuarantine(db, id)) as QuarantineListRow;
  return present(updated, await otherNames(db, [updated]));
}

/**
 * What the company's participation page says of its last screening: only that its contribution was
 * held back for review (and whether it goes into the next build), never which check or what other
 * participants pay — that would let a company probe the others' range build by build.
 */
export async function heldBackOf(db: Knex, companyId: string): Promise<Schemas['MarketParticipation']['heldBack']> {
  const latest = await latestScreening(db, companyId);
  if (!latest || latest.outcome !== 'quarantined') return null;
  return { releaseVersion: latest.release_version, heldAt: isoTimestampOrNull(latest.created_at) ?? '', inNextRelease: latest.decision === 'release' && !latest.applied_release_id };
}
