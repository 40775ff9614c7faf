import type { Knex } from 'knex';
import type { CompanyScope } from '../../access/caller.js';

/** Someone outside the company invited to one shared slice; the link's secret is stored only as its SHA-256. */
export interface CollaboratorRow {
  id: string;
  company_id: string;
  slice_id: string;
  email: string;
  token_hash: string;
  invited_by: string | null;
  invited_by_name: string;
  invited_at: string | Date;
  expires_at: string | Date;
  revoked_at: string | Date | null;
  revoked_by: string | null;
}

export interface CollaboratorListRow extends CollaboratorRow {
  opens: number | string;
  last_opened_at: string | Date | null;
}

export interface OpenRow {
  id: string;
  company_id: string;
  collaborator_id: string;
  opened_at: string;
  address: string | null;
  user_agent: string | null;
}

function withOpens(db: Knex) {
  const opens = db('market_slice_collaborator_opens')
    .select('collaborator_id')
    .count({ opens: '*' })
    .max({ last_opened_at: 'opened_at' })
    .groupBy('collaborator_id')
    .as('o');
  return db('market_slice_collaborators as c')
    .leftJoin(opens, 'o.collaborator_id', 'c.id')
    .select('c.*', db.raw('coalesce(o.opens, 0) as opens'), 'o.last_opened_at');
}

export async function listCollaborators(db: Knex, scope: CompanyScope, sliceId: string): Promise<CollaboratorListRow[]> {
  return withOpens(db).where({ 'c.company_id': scope.companyId, 'c.slice_id': sliceId }).orderBy('c.invited_at', 'desc').orderBy('c.id', 'desc');
}

export async function findCollaborator(db: Knex, scope: CompanyScope, sliceId: string, id: string): Promise<CollaboratorListRow | undefined> {
  return withOpens(db).where({ 'c.company_id': scope.companyId, 'c.slice_id': sliceId, 'c.id': id }).first();
}

/** By the link's secret, across companies: the link is what names the company. */
export async function findCollaboratorByToken(db: Knex, tokenHash: string): Promise<CollaboratorRow | undefined> {
  return db('market_slice_collaborators').where({ token_hash: tokenHash }).first<CollaboratorRow | undefined>();
}

/** The address's unrevoked link to the slice: at most one, which the database enforces. */
export async function findLiveCollaborator(db: Knex, scope: CompanyScope, sliceId: string, email: string): Promise<CollaboratorListRow | undefined> {
  return withOpens(db).where({ 'c.company_id': scope.companyId, 'c.slice_id': sliceId, 'c.email': email }).whereNull('c.revoked_at').first();
}

export async function insertCollaborator(db: Knex, row: CollaboratorRow): Promise<void> {
  await db('market_slice_collaborators').insert(row);
}

/** Inviting the same address to the same slice again replaces the earlier link (one live link each, by a partial unique index). */
export async function revokeEarlierLinks(db: Knex, scope: CompanyScope, { sliceId, email, by, at }: { sliceId: string; email: string; by: string; at: string }): Promise<void> {
  await db('market_slice_collaborators').where({ company_id: scope.companyId, slice_id: sliceId, email }).whereNull('revoked_at').update({ revoked_at: at, revoked_by: by });
}

/** Revoking is once: a revoked link keeps who revoked it and when. */
export async function markCollaboratorRevoked(db: Knex, scope: CompanyScope, id: string, by: string, at: string): Promise<void> {
  await db('market_slice_collaborators').where({ company_id: scope.companyId, id }).whereNull('revoked_at').update({ revoked_at: at, revoked_by: by });
}

export async function insertOpen(db: Knex, row: OpenRow): Promise<void> {
  await db('market_slice_collaborator_opens').insert(row);
}
