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

/** The caller's letters whose cycle released them to employees, newest effective date first. */
export async function releasedLettersOf(db: Knex, scope: CompanyScope, userId: string, employeeId: string | undefined): Promise<OwnLetterRow[]> {
  return lettersOf(db, scope)
    .join('reward_letter_cycles', 'reward_letter_cycles.cycle_id', 'reward_letters.cycle_id')
    .join('merit_cycles', 'merit_cycles.id', 'reward_letters.cycle_id')
    .where('reward_letter_cycles.state', 'released')
    .andWhere((where) => {
      where.where('reward_letters.user_id', userId);
      if (employeeId) where.orWhere('reward_letters.employee_id', employeeId);
    })
    .select('reward_letters.*', 'merit_cycles.name as cycle_name', 'merit_cycles.effective_date as effective_date')
    .orderBy([{ column: 'merit_cycles.effective_date', order: 'desc' }, { column: 'reward_letters.cycle_id', order: 'desc' }]);
}
