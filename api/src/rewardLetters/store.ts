import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { writeAtVersion } from '../kernel/versions.js';

/* The reward-letter tables; every function takes the company's scope. */

export interface LetterCycleRow {
  cycle_id: string;
  company_id: string;
  state: string;
  template_id: string | null;
  message: string;
  letters: number;
  rendered_at: string | Date | null;
  released_to_managers_at: string | Date | null;
  released_at: string | Date | null;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

export interface LetterRow {
  id: string;
  company_id: string;
  cycle_id: string;
  employee_id: string;
  user_id: string | null;
  manager_employee_id: string | null;
  manager_name: string | null;
  first_name: string;
  last_name: string;
  title: string;
  currency: string;
  old_base: number | string;
  new_base: number | string;
  /** Whether the letter goes out (written, released, reminded, exported); by default only where `changes_pay`. */
  enabled: boolean | number;
  /** Whether the cycle changed the employee's pay (a new base, a one-time bonus or an equity refresh). */
  changes_pay: boolean | number;
  version: number;
  /** The document version issued for it; null while it is switched off. */
  document_version_id: string | null;
  viewed_at: string | Date | null;
  confirmed_at: string | Date | null;
  /** When it became its employee's to read; null while it is not. */
  released_at: string | Date | null;
  reminded_at: string | Date | null;
  reminders: number;
  last_reminder_id: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

const INSERT_CHUNK = 200;

export const letterCyclesOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('reward_letter_cycles').where('reward_letter_cycles.company_id', scope.companyId);
export const lettersOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('reward_letters').where('reward_letters.company_id', scope.companyId);

export async function findLetterCycle(db: Knex, scope: CompanyScope, cycleId: string): Promise<LetterCycleRow | undefined> {
  return letterCyclesOf(db, scope).where({ cycle_id: cycleId }).first();
}

/** The cycle's letters row, made once: a second render of the same cycle (a retried job) finds it. */
export async function insertLetterCycleIfAbsent(db: Knex, row: LetterCycleRow): Promise<void> {
  await db('reward_letter_cycles').insert(row).onConflict('cycle_id').ignore();
}

/** A row as read: the flags as booleans on both engines (SQLite answers 1 and 0). */
const normalised = (row: LetterRow): LetterRow => ({ ...row, enabled: Boolean(row.enabled), changes_pay: Boolean(row.changes_pay), version: Number(row.version) });

/** Whether a letter goes out. */
export const isEnabled = (row: Pick<LetterRow, 'enabled'>): boolean => Boolean(row.enabled);

/** The cycle's letters by name; with `enabledOnly`, only those that go out. */
export async function listLetters(db: Knex, scope: CompanyScope, cycleId: string, options: { enabledOnly?: boolean } = {}): Promise<LetterRow[]> {
  const query = lettersOf(db, scope).where({ cycle_id: cycleId });
  if (options.enabledOnly) query.andWhere('enabled', true);
  const rows = (await query.select('*').orderBy([{ column: 'last_name' }, { column: 'first_name' }, { column: 'employee_id' }])) as LetterRow[];
  return rows.map(normalised);
}

export async function findLetter(db: Knex, scope: CompanyScope, cycleId: string, employeeId: string): Promise<LetterRow | undefined> {
  const row = (await lettersOf(db, scope).where({ cycle_id: cycleId, employee_id: employeeId }).first()) as LetterRow | undefined;
  return row && normalised(row);
}

/** Switches a letter on (pointed at the version just issued) or off (no version), at the version read; false when it was stale. */
export async function switchLetter(
  db: Knex,
  scope: CompanyScope,
  { letterId, version, enabled, documentVersionId, at }: { letterId: string; version: number; enabled: boolean; documentVersionId: string | null; at: string },
): Promise<boolean> {
  return writeAtVersion(() => lettersOf(db, scope).where({ id: letterId }), version, { enabled, document_version_id: documentVersionId, updated_at: at });
}

export async function insertLetters(db: Knex, rows: LetterRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += INSERT_CHUNK) await db('reward_letters').insert(rows.slice(at, at + INSERT_CHUNK));
}

/** Points each letter at the document version issued for it now (a template edit before release). */
export async function repointLetters(db: Knex, scope: CompanyScope, versions: ReadonlyMap<string, string>, at: string): Promise<void> {
  for (const [letterId, versionId] of versions) await lettersOf(db, scope).where({ id: letterId }).update({ document_version_id: versionId, updated_at: at });
}

/** Records the first time only: a second reading or confirmation keeps the first moment. */
export async function markFirst(db: Knex, scope: CompanyScope, letterId: string, column: 'viewed_at' | 'confirmed_at', at: string): Promise<void> {
  await lettersOf(db, scope).where({ id: letterId }).whereNull(column).update({ [column]: at, updated_at: at });
}

export interface OwnLetterRow extends LetterRow {
  cycle_name: string;
  effective_date: string;
}

/** The caller's letters released to them, newest effective date first. */
export async function releasedLettersOf(db: Knex, scope: CompanyScope, userId: string, employeeId: string | undefined): Promise<OwnLetterRow[]> {
  return lettersOf(db, scope)
    .join('reward_letter_cycles', 'reward_letter_cycles.cycle_id', 'reward_letters.cycle_id')
    .join('merit_cycles', 'merit_cycles.id', 'reward_letters.cycle_id')
    .whereNotNull('reward_letters.released_at')
    .andWhere('reward_letters.enabled', true)
    .andWhere((where) => {
      where.where('reward_letters.user_id', userId);
      if (employeeId) where.orWhere('reward_letters.employee_id', employeeId);
    })
    .select('reward_letters.*', 'merit_cycles.name as cycle_name', 'merit_cycles.effective_date as effective_date')
    .orderBy([{ column: 'merit_cycles.effective_date', order: 'desc' }, { column: 'reward_letters.cycle_id', order: 'desc' }]);
}

/** Makes the letters of these employees (or every letter) their employees' to read; those released already keep their moment. */
export async function releaseLetters(db: Knex, scope: CompanyScope, cycleId: string, employeeIds: readonly string[] | 'all', at: string): Promise<number> {
  if (employeeIds !== 'all' && !employeeIds.length) return 0;
  let query = lettersOf(db, scope).where({ cycle_id: cycleId, enabled: true }).whereNull('released_at');
  if (employeeIds !== 'all') query = query.whereIn('employee_id', employeeIds);
  return query.update({ released_at: at, updated_at: at });
}

export interface ReleaseRow {
  id: string;
  company_id: string;
  cycle_id: string;
  audience: 'all' | 'managers' | 'branch';
  branch_employee_id: string | null;
  release_at: string | Date;
  status: 'scheduled' | 'done' | 'cancelled' | 'failed';
  outcome: string | null;
  job_id: string | null;
  created_by: string;
  created_at: string | Date;
  updated_at: string | Date;
}

export const releasesOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('reward_letter_releases').where('reward_letter_releases.company_id', scope.companyId);

export async function insertRelease(db: Knex, row: ReleaseRow): Promise<void> {
  await db('reward_letter_releases').insert(row);
}

export async function listReleases(db: Knex, scope: CompanyScope, cycleId: string): Promise<ReleaseRow[]> {
  return releasesOf(db, scope).where({ cycle_id: cycleId }).select('*').orderBy([{ column: 'release_at' }, { column: 'id' }]);
}

export async function findRelease(db: Knex, scope: CompanyScope, id: string): Promise<ReleaseRow | undefined> {
  return releasesOf(db, scope).where({ id }).first();
}

/** Moves a planned release on from `scheduled` only; false when it was not scheduled any more. */
export async function settleRelease(
  db: Knex,
  scope: CompanyScope,
  { id, status, outcome, jobId }: { id: string; status: ReleaseRow['status']; outcome: string | null; jobId?: string },
): Promise<boolean> {
  const changes: Partial<ReleaseRow> = { status, outcome, updated_at: new Date().toISOString() };
  if (jobId) changes.job_id = jobId;
  return (await releasesOf(db, scope).where({ id, status: 'scheduled' }).update(changes)) === 1;
}

export interface ReminderRecipient {
  letter_id: string;
  employee_id: string;
  first_name: string;
  email: string | null;
  last_reminder_id: string | null;
}

/** The released letters nobody has confirmed yet, with their employee's sign-in address (null without one). */
export async function unconfirmedLetters(db: Knex, scope: CompanyScope, cycleId: string): Promise<ReminderRecipient[]> {
  return lettersOf(db, scope)
    .leftJoin('users', 'users.id', 'reward_letters.user_id')
    .where('reward_letters.cycle_id', cycleId)
    .andWhere('reward_letters.enabled', true)
    .whereNotNull('reward_letters.released_at')
    .whereNull('reward_letters.confirmed_at')
    .select('reward_letters.id as letter_id', 'reward_letters.employee_id', 'reward_letters.first_name', 'users.email as email', 'reward_letters.last_reminder_id')
    .orderBy([{ column: 'reward_letters.last_name' }, { column: 'reward_letters.first_name' }]);
}

/** Records one reminder sent for a letter (by the sending's id, so a retried sending skips it). */
export async function markReminded(db: Knex, scope: CompanyScope, letterId: string, reminderId: string, at: string): Promise<void> {
  await lettersOf(db, scope).where({ id: letterId }).update({ reminded_at: at, reminders: db.raw('reminders + 1'), last_reminder_id: reminderId, updated_at: at });
}
