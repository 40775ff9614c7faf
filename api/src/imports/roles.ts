import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import { type PermissionMap, invalidGrants } from '../access/permissions.js';
import { type RoleRow, listRoles, parsePermissions } from '../access/store.js';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { type ImportChange, type ImportPlan, RowProblems, insertInChunks, summarise } from '../kernel/importPlan.js';
import type { ServiceContext } from '../kernel/operations.js';

type RolesImportRow = components['schemas']['RolesImportRow'];

const KEY = /^[a-z][a-z0-9_]{0,63}$/;

/** Key order and grant order do not make a role different. */
function canonical(map: PermissionMap): string {
  const names = Object.keys(map).sort();
  return JSON.stringify(names.map((name) => [name, (map[name] ?? []).map((g) => `${g.authority}:${g.scope}`).sort()]));
}

function actionFor(row: RolesImportRow, existing: RoleRow | undefined): ImportChange['action'] | undefined {
  if (!existing) return 'create';
  const same =
    existing.name === row.name.trim() &&
    existing.description === (row.description ?? existing.description).trim() &&
    canonical(parsePermissions(existing)) === canonical(row.permissions);
  return same ? undefined : 'update';
}

function checkRow(row: RolesImportRow, index: number, ctx: { firstIndex: Map<string, number>; known: Map<string, RoleRow> }, problems: RowProblems): void {
  const add = (field: string, message: string) => problems.add(index, row.line, field, message);
  if (!KEY.test(row.key)) add('key', 'must be lower-case letters, digits and _, starting with a letter');
  else if (ctx.firstIndex.get(row.key) !== index) add('key', `${row.key} appears more than once in the file`);
  if (!row.name.trim()) add('name', 'is required');
  for (const problem of invalidGrants(row.permissions)) add(problem.field.replace(/^body\./, ''), problem.message);
  const existing = ctx.known.get(row.key);
  if (existing?.is_builtin && canonical(parsePermissions(existing)) !== canonical(row.permissions)) {
    add('permissions', `${row.key} is a built-in role; its permissions cannot be changed`);
  }
}

async function apply(trx: Knex, scope: CompanyScope, rows: RolesImportRow[], known: Map<string, RoleRow>, changes: ImportChange[]): Promise<void> {
  const now = new Date().toISOString();
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const created: Record<string, unknown>[] = [];
  for (const change of changes) {
    const row = byKey.get(change.key);
    if (!row) continue;
    const values = { name: row.name.trim(), permissions: JSON.stringify(row.permissions), updated_at: now };
    const existing = known.get(row.key);
    if (!existing) {
      created.push({ id: newId(), company_id: scope.companyId, key: row.key, description: (row.description ?? '').trim(), is_builtin: false, version: 1, created_at: now, ...values });
      continue;
    }
    const description = (row.description ?? existing.description).trim();
    await trx('roles').where({ id: existing.id, company_id: scope.companyId }).update({ ...values, description, version: Number(existing.version) + 1 });
  }
  await insertInChunks(trx, 'roles', created);
}

/** Creates or updates roles by key, all or nothing; built-in roles keep their permissions. */
export async function importRoles(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: { rows: RolesImportRow[]; dryRun?: boolean }): Promise<ImportPlan> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const dryRun = input.dryRun ?? false;
  return db.transaction(async (trx) => {
    const known = new Map<string, RoleRow>((await listRoles(trx, scope)).map((role) => [role.key, role]));
    const firstIndex = new Map<string, number>();
    input.rows.forEach((row, index) => firstIndex.has(row.key) || firstIndex.set(row.key, index));
    const problems = new RowProblems();
    input.rows.forEach((row, index) => checkRow(row, index, { firstIndex, known }, problems));
    problems.throwIfAny('roles');
    const changes = input.rows.flatMap((row) => {
      const action = actionFor(row, known.get(row.key));
      return action ? [{ line: row.line, key: row.key, action }] : [];
    });
    const plan = summarise(dryRun, changes, input.rows.length);
    if (dryRun || !changes.length) return plan;
    await apply(trx, scope, input.rows, known, changes);
    await emit(trx, { companyId: scope.companyId, actorUserId: caller.userId, name: 'roles.imported', subjectType: 'company', subjectId: scope.companyId, payload: { changes } });
    return plan;
  });
}
