import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

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
  document_version_id: string;
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

export async function listLetters(db: Knex, scope: CompanyScope, cycleId: string, employeeIds?: ReadonlySet<string>): Promise<LetterRow[]> {
  const rows = (await lettersOf(db, scope).where({ cycle_id: cycleId }).select('*').orderBy([{ column: 'last_name' }, { column: 'first_name' }, { column: 'employee_id' }])) as LetterRow[];
  return employeeIds ? rows.filter((row) => employeeIds.has(row.employee_id)) : rows;
}

export async function findLetter(db: Knex, scope: CompanyScope, cycleId: string, employeeId: string): Promise<LetterRow | undefined> {
  return lettersOf(db, scope).where({ cycle_id: cycleId, employee_id: employeeId }).first();
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
  let query = lettersOf(db, scope).where({ cycle_id: cycleId }).whereNull('released_at');
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
export async function settleRelease(db: Knex, scope: CompanyScope, id: string, status: ReleaseRow['status'], outcome: string | null, jobId?: string): Promise<boolean> {
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
    .whereNotNull('reward_letters.released_at')
    .whereNull('reward_letters.confirmed_at')
    .select('reward_letters.id as letter_id', 'reward_letters.employee_id', 'reward_letters.first_name', 'users.email as email', 'reward_letters.last_reminder_id')
    .orderBy([{ column: 'reward_letters.last_name' }, { column: 'reward_letters.first_name' }]);
}

/** Records one reminder sent for a letter (by the sending's id, so a retried sending skips it). */
export async function markReminded(db: Knex, scope: CompanyScope, letterId: string, reminderId: string, at: string): Promise<void> {
  await lettersOf(db, scope).where({ id: letterId }).update({ reminded_at: at, reminders: db.raw('reminders + 1'), last_reminder_id: reminderId, updated_at: at });
}
