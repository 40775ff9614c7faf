import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { Authority } from '../access/permissions.js';

/**
 * Which employees a caller may see for a permission: the whole company (`all`), their management
 * subtree (`reports`, themselves included), only their own record (`self`), or nobody.
 */
export type EmployeeReach = { kind: 'all' } | { kind: 'subtree'; rootId: string } | { kind: 'self'; employeeId: string } | { kind: 'none' };

type ReachPermission = 'team' | 'employeeCompensation' | 'compensationPlanning' | 'totalRewards' | 'demographics';

/** The employee record linked to a person's sign-in, if there is one. */
export async function ownEmployeeId(db: Knex, scope: CompanyScope, userId: string): Promise<string | undefined> {
  const row = await db('employees').where({ company_id: scope.companyId, user_id: userId }).first<{ id: string } | undefined>('id');
  return row?.id;
}

/** The reach when the caller's grants decide it alone (the whole company, or nobody); undefined when it starts from their own record. */
export function reachOfGrants(caller: Caller, permission: ReachPermission, authority: Authority = 'view'): EmployeeReach | undefined {
  if (hasPermission(caller.permissions, permission, authority, 'all')) return { kind: 'all' };
  const canReports = hasPermission(caller.permissions, permission, authority, 'reports');
  const canSelf = hasPermission(caller.permissions, permission, authority, 'self');
  return !canReports && !canSelf ? { kind: 'none' } : undefined;
}

/** The widest reach the caller's grants of `permission` give them. */
export async function employeeReach(
  db: Knex,
  scope: CompanyScope,
  caller: Caller,
  permission: ReachPermission,
  authority: Authority = 'view',
): Promise<EmployeeReach> {
  const decided = reachOfGrants(caller, permission, authority);
  if (decided) return decided;
  const canReports = hasPermission(caller.permissions, permission, authority, 'reports');
  const own = await ownEmployeeId(db, scope, caller.userId);
  if (!own) return { kind: 'none' };
  return canReports ? { kind: 'subtree', rootId: own } : { kind: 'self', employeeId: own };
}

/**
 * Limits an `employees` query (aliased `alias`) to the reach. The subtree is a recursive CTE over
 * manager_id, which SQLite and Postgres both run; depth is capped so a cycle in bad data cannot loop.
 */
export function withinReach(query: Knex.QueryBuilder, scope: CompanyScope, reach: EmployeeReach, alias = 'employees'): Knex.QueryBuilder {
  switch (reach.kind) {
    case 'all':
      return query;
    case 'none':
      return query.whereRaw('1 = 0');
    case 'self':
      return query.where(`${alias}.id`, reach.employeeId);
    case 'subtree':
      return query.whereRaw(
        `${alias}.id IN (WITH RECURSIVE reach_tree(id, depth) AS (
             SELECT id, 0 FROM employees WHERE company_id = ? AND id = ?
             UNION ALL
             SELECT e.id, reach_tree.depth + 1 FROM employees e JOIN reach_tree ON e.manager_id = reach_tree.id
             WHERE e.company_id = ? AND reach_tree.depth < 64
           ) SELECT id FROM reach_tree)`,
        [scope.companyId, reach.rootId, scope.companyId],
      );
  }
}

/** Whether one employee is within the reach (for single-record reads and writes). */
export async function isWithinReach(db: Knex, scope: CompanyScope, reach: EmployeeReach, employeeId: string): Promise<boolean> {
  if (reach.kind === 'all') return true;
  if (reach.kind === 'none') return false;
  if (reach.kind === 'self') return reach.employeeId === employeeId;
  const row = await withinReach(db('employees').where({ company_id: scope.companyId, id: employeeId }), scope, reach).first('id');
  return row !== undefined;
}
