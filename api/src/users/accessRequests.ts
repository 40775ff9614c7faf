import type { Knex } from 'knex';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { isoTimestampOrNull } from '../db/timestamps.js';
import { userSettings } from '../notifications/store.js';
import { emit, subscribe } from '../platform/events.js';
import { assertMayAssignRoles } from '../access/assignRoles.js';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { type ModuleName, isModuleName, moduleAvailable, moduleLabel, modulePermissions } from '../access/flags.js';
import { type AccessRequestRow, type AccessRequestStatus, decideAccessRequest, findAccessRequest, findOpenRequest, insertAccessRequest, listAccessRequestRows, requesterKinds } from './accessRequestsStore.js';
import { type PermissionMap, hasPermission, isPermissionName, permissionLabel, permissionNames, resolvePermissions } from '../access/permissions.js';
import { findRole, listRoles, parsePermissions, replaceUserRoles, rolesOfUsers } from '../access/store.js';
import { type FullUserRow, customerUsersOf, findCompanyById, findCustomerUser } from '../access/usersStore.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type Asked = { name: string; authority: 'view' | 'edit' };

// ── presenting ───────────────────────────────────────────────────────────────────────────

const person = (row: Pick<FullUserRow, 'id' | 'email' | 'first_name' | 'last_name'>): Schemas['AccessRequestPerson'] => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
});

async function present(db: Knex, scope: CompanyScope, rows: AccessRequestRow[]): Promise<Schemas['AccessRequest'][]> {
  if (!rows.length) return [];
  const userIds = [...new Set(rows.flatMap((row) => [row.requester_user_id, ...(row.decided_by_user_id ? [row.decided_by_user_id] : [])]))];
  // Deciders may be internal staff (approving while setting a company up), so people are read by company, not as its users.
  const people = new Map(
    (await db<FullUserRow>('users').where('company_id', scope.companyId).whereIn('id', userIds).select('id', 'email', 'first_name', 'last_name')).map((row) => [row.id, row]),
  );
  const roleIds = [...new Set(rows.flatMap((row) => (row.granted_role_id ? [row.granted_role_id] : [])))];
  const roles = new Map(roleIds.length ? (await db('roles').where('company_id', scope.companyId).whereIn('id', roleIds).select<{ id: string; key: string; name: string }[]>('id', 'key', 'name')).map((role) => [role.id, role]) : []);
  const kinds = await requesterKinds(db, scope, [...new Set(rows.map((row) => row.requester_user_id))]);
  const companyRoles = rows.some((row) => row.status === 'pending') ? await listRoles(db, scope) : [];
  return rows.map((row) => {
    const requester = people.get(row.requester_user_id);
    const decider = row.decided_by_user_id ? people.get(row.decided_by_user_id) : undefined;
    const role = row.granted_role_id ? roles.get(row.granted_role_id) : undefined;
    const requesterKind = kinds.get(row.requester_user_id) ?? 'user';
    const proposed = row.status === 'pending' && requesterKind !== 'candidate' ? leastRole(companyRoles, JSON.parse(row.permissions) as Asked[]) : undefined;
    return {
      id: row.id,
      requester: requester ? person(requester) : { id: row.requester_user_id, email: '', firstName: '', lastName: '' },
      requesterKind,
      module: row.module && isModuleName(row.module) ? row.module : null,
      permissions: JSON.parse(row.permissions) as Asked[],
      reason: row.reason,
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
      decidedAt: isoTimestampOrNull(row.decided_at),
      decidedBy: decider ? person(decider) : null,
      grantedRole: role ? { id: role.id, key: role.key, name: role.name } : null,
      proposedRole: proposed ? { id: proposed.id, key: proposed.key, name: proposed.name } : null,
      note: row.note,
    };
  });
}

/** What a request asks for, in words: "Salary bands" or "Employee pay (see)". */
export function describeAsked(module: string | null, permissions: Asked[]): string {
  if (module && isModuleName(module)) return moduleLabel(module);
  return permissions.map((entry) => `${permissionLabel(entry.name)} (${entry.authority === 'edit' ? 'see and change' : 'see'})`).join(', ');
}

// ── asking ───────────────────────────────────────────────────────────────────────────────

/** The permissions a request asks for: a module's that the caller lacks, or the one named. */
function askedFor(caller: Caller, input: Schemas['AccessRequestInput']): { module: ModuleName | null; asked: Asked[] } {
  if (input.module && input.permission) {
    throw badRequest('Ask for a module or a permission, not both', [{ field: 'body.permission', message: 'leave out when a module is named' }]);
  }
  if (input.module) {
    if (!moduleAvailable(input.module, caller.flags)) {
      throw new HttpError(409, 'module_off', { message: `${moduleLabel(input.module)} is not switched on for your company, so no role can give access to it yet. Your company admin can ask Paybench to switch it on.` });
    }
    const asked = modulePermissions(input.module)
      .filter((name) => !hasPermission(caller.permissions, name, 'view', undefined))
      .map((name) => ({ name, authority: 'view' as const }));
    if (!asked.length) throw new HttpError(409, 'already_granted', { message: `You already have access to ${moduleLabel(input.module)}.` });
    return { module: input.module, asked };
  }
  if (!input.permission) throw badRequest('Say what you need: a module or a permission', [{ field: 'body.module', message: 'name a module or a permission' }]);
  if (!isPermissionName(input.permission)) {
    throw badRequest('That is not a permission', [{ field: 'body.permission', message: `use one of: ${permissionNames().join(', ')}` }]);
  }
  const authority = input.authority ?? 'view';
  if (hasPermission(caller.permissions, input.permission, authority, undefined)) {
    throw new HttpError(409, 'already_granted', { message: `You already have ${permissionLabel(input.permission)} (${authority === 'edit' ? 'see and change' : 'see'}).` });
  }
  return { module: null, asked: [{ name: input.permission, authority }] };
}

const candidatesHoldNoRole = (message: string, status: 403 | 409) => new HttpError(status, 'candidate', { message });

/** Files a request (or answers the same open one again) and tells the company's admins, once committed. */
export async function createAccessRequest(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['AccessRequestInput']) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  // A candidate is outside the company until hired: they see their offer, never a role's data.
  if (caller.isCandidate) throw candidatesHoldNoRole('Candidates cannot ask for access: Paybench shows a candidate their offer only.', 403);
  const { module, asked } = askedFor(caller, input);
  const permissions = JSON.stringify(asked);
  const row = await db.transaction(async (trx) => {
    const open = await findOpenRequest(trx, scope, caller.userId, module, permissions);
    if (open) return open;
    const now = new Date().toISOString();
    const created: AccessRequestRow = {
      id: newId(),
      company_id: scope.companyId,
      requester_user_id: caller.userId,
      module,
      permissions,
      reason: input.reason.trim() || input.reason,
      status: 'pending',
      decided_by_user_id: null,
      decided_at: null,
      granted_role_id: null,
      note: null,
      created_at: now,
      updated_at: now,
    };
    await insertAccessRequest(trx, created);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'accessRequest.created', subjectType: 'accessRequest', subjectId: created.id, payload: { accessRequestId: created.id } });
    return created;
  });
  return (await present(db, scope, [row]))[0];
}

export async function listAccessRequests(ctx: Pick<ServiceContext, 'db' | 'caller'>, status: AccessRequestStatus | 'all') {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return present(db, scope, await listAccessRequestRows(db, scope, status === 'all' ? {} : { status }));
}

export async function myAccessRequests(ctx: Pick<ServiceContext, 'db' | 'caller'>) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return present(db, scope, await listAccessRequestRows(db, scope, { requesterId: caller.userId }));
}

// ── deciding ─────────────────────────────────────────────────────────────────────────────

const grantCount = (map: PermissionMap): number => Object.values(map).reduce((sum, grants) => sum + grants.length, 0);

type RoleRow = Awaited<ReturnType<typeof listRoles>>[number];

/** Of these roles, the one that grants everything asked with the fewest grants besides (the Admin role last). */
function leastRole(roles: RoleRow[], asked: Asked[]): RoleRow | undefined {
  const granting = roles.filter((role) => asked.every((entry) => hasPermission(parsePermissions(role), entry.name, entry.authority, undefined)));
  granting.sort((a, b) => Number(a.key === 'admin') - Number(b.key === 'admin') || grantCount(parsePermissions(a)) - grantCount(parsePermissions(b)) || a.name.localeCompare(b.name));
  return granting[0];
}

async function pendingRequest(db: Knex, scope: CompanyScope, id: string): Promise<AccessRequestRow> {
  const row = await findAccessRequest(db, scope, id);
  if (!row) throw notFound();
  if (row.status !== 'pending') throw alreadyDecided(row);
  return row;
}

const alreadyDecided = (row: AccessRequestRow) => new HttpError(409, 'already_decided', { message: `This request was already ${row.status}.` });

/** Grants the role the admin names (never one chosen for them: the contract requires `roleId`). */
export async function approveAccessRequest(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, body: { roleId: string; note?: string }) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  assertMayAssignRoles(caller);
  const decided = await db.transaction(async (trx) => {
    const row = await pendingRequest(trx, scope, id);
    const role = await findRole(trx, scope, body.roleId);
    if (!role) throw badRequest('Unknown role', [{ field: 'body.roleId', message: `${body.roleId} is not a role of this company` }]);
    const requester = await findCustomerUser(trx, scope, row.requester_user_id);
    if (!requester || requester.status !== 'active') throw new HttpError(409, 'user_removed', { message: 'The person who asked is no longer a user of the company.' });
    if (requester.is_candidate) throw candidatesHoldNoRole('The person who asked is a candidate: candidates hold no company role. Decline the request instead.', 409);
    const held = (await rolesOfUsers(trx, scope, [requester.id])).get(requester.id) ?? [];
    if (!held.some((entry) => entry.id === role.id)) await replaceUserRoles(trx, scope, requester.id, [...held.map((entry) => entry.id), role.id]);
    const now = new Date().toISOString();
    const decision = { status: 'approved' as const, decided_by_user_id: caller.userId, decided_at: now, granted_role_id: role.id, note: body.note?.trim() || null, updated_at: now };
    if (!(await decideAccessRequest(trx, scope, id, decision))) throw alreadyDecided({ ...row, status: 'approved' });
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'user.roles.set', subjectType: 'user', subjectId: requester.id, payload: { roles: [...held.map((entry) => entry.key), role.key] } });
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'accessRequest.decided', subjectType: 'accessRequest', subjectId: id, payload: { accessRequestId: id, status: 'approved' } });
    return { ...row, ...decision };
  });
  return (await present(db, scope, [decided]))[0];
}

export async function declineAccessRequest(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, body: { note?: string }) {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const decided = await db.transaction(async (trx) => {
    const row = await pendingRequest(trx, scope, id);
    const now = new Date().toISOString();
    const decision = { status: 'declined' as const, decided_by_user_id: caller.userId, decided_at: now, granted_role_id: null, note: body.note?.trim() || null, updated_at: now };
    if (!(await decideAccessRequest(trx, scope, id, decision))) throw alreadyDecided({ ...row, status: 'declined' });
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'accessRequest.decided', subjectType: 'accessRequest', subjectId: id, payload: { accessRequestId: id, status: 'declined' } });
    return { ...row, ...decision };
  });
  return (await present(db, scope, [decided]))[0];
}

// ── telling people ───────────────────────────────────────────────────────────────────────

/** The company's admins: its active users whose roles let them grant roles. */
export async function companyAdmins(db: Knex, scope: CompanyScope): Promise<FullUserRow[]> {
  const users = await customerUsersOf(db, scope).andWhere('users.status', 'active').andWhere('users.is_candidate', false);
  const roles = await rolesOfUsers(db, scope, users.map((user) => user.id));
  return users.filter((user) => hasPermission(resolvePermissions((roles.get(user.id) ?? []).map(parsePermissions)).resolved, 'roles', 'edit', undefined));
}

const fullName = (row: Pick<FullUserRow, 'first_name' | 'last_name' | 'email'>) => `${row.first_name} ${row.last_name}`.trim() || row.email;

/** Admins who chose e-mail for access changes are e-mailed; everyone sees the request in the app's user administration. */
export const notifyAccessRequested = subscribe('accessRequest.created', 'access.requestCreated', async (event, { db, mailer, config }) => {
  if (!event.companyId) return;
  const scope = { companyId: event.companyId };
  const row = await findAccessRequest(db, scope, event.payload.accessRequestId);
  if (!row || row.status !== 'pending') return;
  const requester = await findCustomerUser(db, scope, row.requester_user_id);
  const company = await findCompanyById(db, scope.companyId);
  if (!requester) return;
  const what = describeAsked(row.module, JSON.parse(row.permissions) as Asked[]);
  for (const admin of await companyAdmins(db, scope)) {
    if (!(await userSettings(db, scope, admin.id)).email.includes('accessChanged')) continue;
    await mailer.send({
      companyId: scope.companyId,
      to: admin.email,
      subject: `Paybench: ${fullName(requester)} asks for access to ${what}`,
      text: `${fullName(requester)} (${requester.email}) asks for access to ${what} at ${company?.name ?? 'your company'}.\n\nWhy: ${row.reason}\n\nApprove or decline it in Paybench: ${config.publicUrl}/settings/users`,
    });
  }
});

/** The requester learns the decision: in the app on their next look, and by e-mail if they chose it. */
export const notifyAccessDecided = subscribe('accessRequest.decided', 'access.requestDecided', async (event, { db, mailer, config }) => {
  if (!event.companyId) return;
  const scope = { companyId: event.companyId };
  const row = await findAccessRequest(db, scope, event.payload.accessRequestId);
  const [request] = row ? await present(db, scope, [row]) : [];
  if (!request || request.status === 'pending') return;
  const requester = await findCustomerUser(db, scope, request.requester.id);
  if (!requester || requester.status !== 'active') return;
  if (!(await userSettings(db, scope, requester.id)).email.includes('accessChanged')) return;
  const what = describeAsked(request.module, request.permissions);
  const approved = request.status === 'approved';
  await mailer.send({
    companyId: scope.companyId,
    to: requester.email,
    subject: approved ? `Paybench: you now have access to ${what}` : `Paybench: your request for ${what} was declined`,
    text: [
      approved ? `${request.decidedBy ? `${request.decidedBy.firstName} ${request.decidedBy.lastName}`.trim() : 'An admin'} gave you the ${request.grantedRole?.name ?? ''} role, which includes ${what}.` : `Your request for access to ${what} was declined.`,
      request.note ? `Note: ${request.note}` : '',
      `Open Paybench: ${config.publicUrl}/home`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  });
});
