import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { writeAtVersion } from '../kernel/versions.js';

/* The team view's own table: its settings. It reads people only through people/reads/team.ts. */

export interface SettingsRow {
  id: string;
  company_id: string;
  owner_key: string;
  user_id: string | null;
  columns: string | null;
  comp_timeline: string | null;
  equity_details: string | null;
  version: number;
  updated_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

export const COMPANY_OWNER = 'company';

export async function findSettingsRow(db: Knex, scope: CompanyScope, ownerKey: string): Promise<SettingsRow | undefined> {
  const row = (await db('team_view_settings').where({ company_id: scope.companyId, owner_key: ownerKey }).first()) as SettingsRow | undefined;
  return row ? { ...row, version: Number(row.version) } : undefined;
}

export async function insertSettingsRow(db: Knex, row: SettingsRow): Promise<void> {
  await db('team_view_settings').insert(row);
}

/** Writes only when the stored version is still the one read; returns whether it did. */
export async function updateSettingsRow(
  db: Knex,
  scope: CompanyScope,
  ownerKey: string,
  version: number,
  changes: Partial<Pick<SettingsRow, 'columns' | 'comp_timeline' | 'equity_details'>> & Pick<SettingsRow, 'updated_by' | 'updated_at'>,
): Promise<boolean> {
  return writeAtVersion(() => db('team_view_settings').where({ company_id: scope.companyId, owner_key: ownerKey }), version, changes);
}
