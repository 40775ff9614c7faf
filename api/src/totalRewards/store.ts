import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { writeAtVersion } from '../kernel/versions.js';

/* Total rewards' own table: the company's communicate settings. People are read through people/reads/totalRewards.ts. */

export interface CommunicateSettingsRow {
  id: string;
  company_id: string;
  appearance: string | null;
  logo: string | null;
  banner_image: string | null;
  sections: string | null;
  equity_display: string | null;
  future_modeling: string | null;
  benefits: string | null;
  user_groups: string | null;
  learning_hub: string | null;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export type SettingsColumns = Pick<
  CommunicateSettingsRow,
  'appearance' | 'logo' | 'banner_image' | 'sections' | 'equity_display' | 'future_modeling' | 'benefits' | 'user_groups' | 'learning_hub'
>;

const settingsOf = (db: Knex, scope: CompanyScope) => db<CommunicateSettingsRow>('communicate_settings').where('communicate_settings.company_id', scope.companyId);

export async function findSettingsRow(db: Knex, scope: CompanyScope): Promise<CommunicateSettingsRow | undefined> {
  const row = await settingsOf(db, scope).first();
  return row ? { ...row, version: Number(row.version) } : undefined;
}

/** The first save; false when another first save got in (the unique company key), which is a stale version. */
export async function insertSettingsRow(db: Knex, row: CommunicateSettingsRow): Promise<boolean> {
  await db('communicate_settings').insert(row).onConflict('company_id').ignore();
  const stored = await settingsOf(db, { companyId: row.company_id }).first('id');
  return stored?.id === row.id;
}

/** Writes only while the stored version is still the one read; returns whether it did. */
export async function updateSettingsRow(
  db: Knex,
  scope: CompanyScope,
  version: number,
  changes: Partial<SettingsColumns> & Pick<CommunicateSettingsRow, 'updated_by' | 'updated_at'>,
): Promise<boolean> {
  return writeAtVersion(() => settingsOf(db, scope), version, changes);
}

/** An issued statement's record beside its document version (same id): whom, what, as of when. */
export interface IssuedStatementRow {
  id: string;
  company_id: string;
  employee_id: string;
  first_name: string;
  last_name: string;
  title: string;
  as_of: string;
  issued_by: string | null;
  issued_at: string | Date;
}

const issuedOf = (db: Knex, scope: CompanyScope) => db<IssuedStatementRow>('total_rewards_issued_statements').where('total_rewards_issued_statements.company_id', scope.companyId);

export async function insertIssuedStatements(db: Knex, rows: IssuedStatementRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 200) await db('total_rewards_issued_statements').insert(rows.slice(at, at + 200));
}

/** Where a page of issued statements continues: after this one, newest first. */
export interface IssuedCursor {
  issuedAt: string;
  id: string;
}

/** Issued statements newest first (optionally one employee's), one more than `limit` to tell whether a page follows. */
export async function listIssuedStatements(db: Knex, scope: CompanyScope, query: { employeeId?: string | undefined; after?: IssuedCursor | undefined; limit: number }): Promise<IssuedStatementRow[]> {
  const rows = issuedOf(db, scope);
  if (query.employeeId) rows.andWhere('employee_id', query.employeeId);
  const after = query.after;
  if (after) rows.andWhere((where) => where.where('issued_at', '<', after.issuedAt).orWhere((same) => same.where('issued_at', after.issuedAt).andWhere('id', '<', after.id)));
  return rows.select('*').orderBy([{ column: 'issued_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(query.limit + 1);
}
