import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { isoTimestampOrNull } from '../db/timestamps.js';

/*
 * Who approves what, as stored (one `workflow_settings` row per company, one version): the
 * merit-cycle approval chains a new cycle starts from and the approvers a band set's publication
 * needs. The areas that follow the rules read them here (meritCycles/chainRules.ts,
 * bands/sets.ts); the workflow settings screen (workflowSettings/) checks and writes them. Nothing
 * here knows a band or a cycle, so each of them reads the rules without knowing the others.
 */

export interface WorkflowSettingsRow {
  company_id: string;
  merit_chains: string;
  band_publication_approvers: string;
  version: number;
  updated_by: string | null;
  updated_at: string | Date;
}

/** A chain as stored: the branch (an employee, or null for the whole company) and its reviewers in order. */
export interface StoredChain {
  branchEmployeeId: string | null;
  reviewerUserIds: string[];
}

export interface WorkflowRules {
  meritChains: StoredChain[];
  bandPublicationApprovers: string[];
  version: number;
  updatedAt: string | null;
}

export const settingsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('workflow_settings').where('workflow_settings.company_id', scope.companyId);

export async function findSettings(db: Knex, scope: CompanyScope): Promise<WorkflowSettingsRow | undefined> {
  return (await settingsOf(db, scope).first()) as WorkflowSettingsRow | undefined;
}

export async function insertSettings(db: Knex, row: WorkflowSettingsRow): Promise<void> {
  await db('workflow_settings').insert(row);
}

export const parseList = <T>(text: string | undefined): T[] => (text ? (JSON.parse(text) as T[]) : []);

export async function rulesOf(db: Knex, scope: CompanyScope): Promise<WorkflowRules> {
  const row = await findSettings(db, scope);
  return {
    meritChains: parseList<StoredChain>(row?.merit_chains),
    bandPublicationApprovers: parseList<string>(row?.band_publication_approvers),
    version: row ? Number(row.version) : 0,
    updatedAt: row ? isoTimestampOrNull(row.updated_at) : null,
  };
}

/** The approvers a band set's publication needs now, in order; none: publishing needs no approval. */
export async function bandPublicationApprovers(db: Knex, scope: CompanyScope): Promise<string[]> {
  return (await rulesOf(db, scope)).bandPublicationApprovers;
}

/** The chains a new merit cycle starts with, as stored. */
export async function defaultMeritChains(db: Knex, scope: CompanyScope): Promise<StoredChain[]> {
  return (await rulesOf(db, scope)).meritChains;
}
