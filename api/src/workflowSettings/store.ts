import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { usersOf } from '../access/usersStore.js';

export interface WorkflowSettingsRow {
  company_id: string;
  merit_chains: string;
  band_publication_approvers: string;
  version: number;
  updated_by: string | null;
  updated_at: string | Date;
}

export interface BandSetApprovalRow {
  band_set_id: string;
  company_id: string;
  approver_user_ids: string;
  decisions: string;
  submitted_by: string;
  submitted_at: string | Date;
}

export const settingsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('workflow_settings').where('workflow_settings.company_id', scope.companyId);

export async function findSettings(db: Knex, scope: CompanyScope): Promise<WorkflowSettingsRow | undefined> {
  return (await settingsOf(db, scope).first()) as WorkflowSettingsRow | undefined;
}

export async function insertSettings(db: Knex, row: WorkflowSettingsRow): Promise<void> {
  await db('workflow_settings').insert(row);
}

export const approvalsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('band_set_approvals').where('band_set_approvals.company_id', scope.companyId);

export async function findBandSetApproval(db: Knex, scope: CompanyScope, bandSetId: string): Promise<BandSetApprovalRow | undefined> {
  return (await approvalsOf(db, scope).where({ band_set_id: bandSetId }).first()) as BandSetApprovalRow | undefined;
}

/** A submission replaces the approval of the one before. */
export async function replaceBandSetApproval(db: Knex, scope: CompanyScope, row: BandSetApprovalRow): Promise<void> {
  await approvalsOf(db, scope).where({ band_set_id: row.band_set_id }).delete();
  await db('band_set_approvals').insert(row);
}

export async function updateDecisions(db: Knex, scope: CompanyScope, bandSetId: string, decisions: string): Promise<void> {
  await approvalsOf(db, scope).where({ band_set_id: bandSetId }).update({ decisions });
}

export interface UserContact {
  id: string;
  name: string;
  email: string;
  active: boolean;
}

type UserRowPart = { id: string; first_name: string | null; last_name: string | null; email: string; status: string };

const contactOf = (row: UserRowPart): UserContact => ({ id: row.id, name: [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email, email: row.email, active: row.status === 'active' });

/** The company's users among `ids` (those that exist). */
export async function usersById(db: Knex, scope: CompanyScope, ids: readonly string[]): Promise<Map<string, UserContact>> {
  const wanted = [...new Set(ids)];
  const found = new Map<string, UserContact>();
  for (let at = 0; at < wanted.length; at += 500) {
    const rows = (await usersOf(db, scope).whereIn('users.id', wanted.slice(at, at + 500)).select('users.id', 'users.first_name', 'users.last_name', 'users.email', 'users.status')) as UserRowPart[];
    for (const row of rows) found.set(row.id, contactOf(row));
  }
  return found;
}

/** The company's users by e-mail (lower case). */
export async function usersByEmail(db: Knex, scope: CompanyScope, emails: readonly string[]): Promise<Map<string, UserContact>> {
  const wanted = [...new Set(emails.map((email) => email.toLowerCase()))];
  const found = new Map<string, UserContact>();
  for (let at = 0; at < wanted.length; at += 500) {
    const rows = (await usersOf(db, scope).whereIn('users.email', wanted.slice(at, at + 500)).select('users.id', 'users.first_name', 'users.last_name', 'users.email', 'users.status')) as UserRowPart[];
    for (const row of rows) found.set(row.email.toLowerCase(), contactOf(row));
  }
  return found;
}
