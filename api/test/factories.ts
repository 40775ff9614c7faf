import type { Knex } from 'knex';
import { inject } from 'vitest';
import { replaceUserRoles } from '../src/access/store.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../src/access/tokens.js';
import { insertUser } from '../src/access/usersStore.js';
import { insertCompany } from '../src/companies/service.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { newId } from '../src/db/ids.js';

let shared: Promise<Knex> | undefined;

/** A connection to the shared test server's database, for arranging data a test then reads over HTTP. */
export function testDb(env: Record<string, string> = inject('serverEnv')): Promise<Knex> {
  if (env === inject('serverEnv') || JSON.stringify(env) === JSON.stringify(inject('serverEnv'))) {
    shared ??= openDatabase(loadConfig({ ...process.env, ...env }));
    return shared;
  }
  return openDatabase(loadConfig({ ...process.env, ...env }));
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
  companyId: string | null;
}

export interface TestCompany {
  id: string;
  roleIds: Map<string, string>;
  /** One user per built-in role, each with an API token. */
  users: Record<string, TestUser>;
}

const unique = (): string => Math.random().toString(36).slice(2, 10);

export async function createTestUser(
  db: Knex,
  options: { companyId: string | null; roleIds?: string[]; email?: string; internalAdmin?: boolean; candidate?: boolean },
): Promise<TestUser> {
  const id = newId();
  const email = options.email ?? `person-${unique()}@example.test`;
  await insertUser(db, {
    id,
    email,
    company_id: options.companyId,
    first_name: 'Test',
    last_name: email.split('@')[0] ?? 'Person',
    email_verified: true,
    is_internal_admin: options.internalAdmin ?? false,
    is_candidate: options.candidate ?? false,
  });
  if (options.companyId && options.roleIds?.length) await replaceUserRoles(db, { companyId: options.companyId }, id, options.roleIds);
  const token = newTokenSecret();
  await db('api_tokens').insert({ id: newId(), company_id: options.companyId, user_id: id, name: 'test', token_hash: hashToken(token), token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });
  return { id, email, token, companyId: options.companyId };
}

export const BUILTIN_ROLE_KEYS = ['admin', 'compensation_planner', 'people_manager', 'employee', 'analyst'] as const;

/** A company with the built-in roles and a person holding each, ready to call the API. */
export async function createTestCompany(db: Knex, name = `Company ${unique()}`): Promise<TestCompany> {
  const { id, roleIds } = await insertCompany(db, { name });
  const users: Record<string, TestUser> = {};
  for (const key of BUILTIN_ROLE_KEYS) {
    const roleId = roleIds.get(key);
    users[key] = await createTestUser(db, { companyId: id, roleIds: roleId ? [roleId] : [], email: `${key}-${unique()}@${id.slice(-6)}.test` });
  }
  return { id, roleIds, users };
}

export const bearer = (user: { token: string }): Record<string, string> => ({ Authorization: `Bearer ${user.token}` });

/** The market profile a participant states when it opts in. */
export interface ParticipantProfile {
  companyStage: string;
  ownershipGroup: string;
  industry: string;
}

const SAAS_SERIES_B: ParticipantProfile = { companyStage: 'series_b', ownershipGroup: 'venture_backed', industry: 'ind_tech_saas' };

/**
 * Makes a company a verified market participant the way the product does, over HTTP: an admin of
 * its at its own domain opts it in with a profile, claims the domain (proven at once: a verified
 * admin has an address there), and an internal admin approves the request. Its records enter the
 * next release build (if the plausibility checks pass them).
 */
export async function makeVerifiedParticipant(
  db: Knex,
  options: { base: string; companyId: string; staff: TestUser; domain?: string; profile?: Partial<ParticipantProfile> },
): Promise<{ admin: TestUser; domain: string }> {
  const domain = options.domain ?? `participant-${unique()}.test`;
  const adminRole = await db('roles').where({ company_id: options.companyId, key: 'admin' }).first<{ id: string }>('id');
  const admin = await createTestUser(db, { companyId: options.companyId, roleIds: [adminRole.id], email: `admin-${unique()}@${domain}` });
  const call = async (path: string, user: TestUser, method: string, json: unknown) => {
    const reply = await fetch(`${options.base}${path}`, { method, headers: { ...bearer(user), 'content-type': 'application/json' }, body: JSON.stringify(json) });
    if (!reply.ok) throw new Error(`${method} ${path} answered ${reply.status}: ${await reply.text()}`);
  };
  await call('/api/benchmarking/participation', admin, 'PUT', { participates: true, ...SAAS_SERIES_B, ...options.profile });
  await call('/api/company/domains', admin, 'POST', { domain });
  await call(`/api/internal/market/participants/${options.companyId}/decision`, options.staff, 'POST', { decision: 'approve' });
  return { admin, domain };
}
