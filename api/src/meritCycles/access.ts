import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { HttpError } from '../kernel/errors.js';
import { hasPermission } from '../access/permissions.js';
import { ownEmployeeId } from '../people/visibility.js';
import type { PlannerMode } from './config.js';
import { parse } from './config.js';
import type { WorksheetRow } from './store.js';
import { plansWholeCompany } from './workflow.js';

/*
 * Who reaches what of a cycle. The org tree is the cycle's own (the managers as they were at
 * launch): a planner with the `reports` scope reaches the people below them (never their own row)
 * and the worksheets planned within their subtree; reviewers also reach the worksheets they review.
 * Outside that, a row or worksheet answers 404, like another company's.
 */

/** Each employee's manager, for the cycle's tree. */
export type ManagerOf = ReadonlyMap<string, string | null>;

const below = new WeakMap<ManagerOf, Map<string, Set<string>>>();

/** Everyone below `rootId` (not the root), following `managerOf`; safe against cycles in bad data. Kept per tree and root. */
export function descendantsOf(rootId: string, managerOf: ManagerOf): Set<string> {
  const known = below.get(managerOf)?.get(rootId);
  if (known) return known;
  const found = walkBelow(rootId, managerOf);
  const perRoot = below.get(managerOf) ?? new Map<string, Set<string>>();
  if (perRoot.size > 1000) perRoot.clear();
  perRoot.set(rootId, found);
  below.set(managerOf, perRoot);
  return found;
}

function walkBelow(rootId: string, managerOf: ManagerOf): Set<string> {
  const children = new Map<string, string[]>();
  for (const [employee, manager] of managerOf) {
    if (!manager) continue;
    const list = children.get(manager) ?? [];
    list.push(employee);
    children.set(manager, list);
  }
  const found = new Set<string>();
  const queue = [...(children.get(rootId) ?? [])];
  while (queue.length) {
    const next = queue.pop() as string;
    if (found.has(next) || next === rootId) continue;
    found.add(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/** Whether `ancestor` is above `employee` in the tree. */
export function isAbove(ancestor: string, employee: string, managerOf: ManagerOf): boolean {
  let at = managerOf.get(employee) ?? null;
  for (let steps = 0; at && steps < 256; steps += 1) {
    if (at === ancestor) return true;
    at = managerOf.get(at) ?? null;
  }
  return false;
}

export class CycleAccess {
  constructor(
    readonly caller: Caller,
    /** compensationPlanning view for the whole company. */
    readonly all: boolean,
    /** compensationPlanning edit for the whole company. */
    readonly editAll: boolean,
    readonly ownEmployeeId: string | null,
    /** The people below the caller (their reports' reach); empty without a reports grant. */
    readonly below: ReadonlySet<string>,
    /** Whether the reports grant is an edit grant. */
    readonly editsReports: boolean,
    private readonly managerOf: ManagerOf,
  ) {}

  reviews(worksheet: WorksheetRow): boolean {
    return parse<string[]>(worksheet.reviewers).includes(this.caller.userId);
  }

  seesWorksheet(worksheet: WorksheetRow): boolean {
    if (this.all || this.reviews(worksheet)) return true;
    const planner = worksheet.planner_employee_id;
    return planner !== null && (planner === this.ownEmployeeId || this.below.has(planner));
  }

  /** A row: everyone for whole-company planners; below the caller; or in a worksheet they review. Never one's own. */
  seesEmployee(employeeId: string, worksheet?: WorksheetRow): boolean {
    if (employeeId === this.ownEmployeeId && !this.all) return false;
    if (this.all || this.below.has(employeeId)) return true;
    return worksheet ? this.reviews(worksheet) : false;
  }

  /** Whether the caller plans (edits the rows of) this worksheet. */
  plansWorksheet(worksheet: WorksheetRow, mode: PlannerMode): boolean {
    if (this.editAll) return true;
    if (!this.editsReports) return false;
    if (worksheet.planner_user_id && worksheet.planner_user_id === this.caller.userId) return true;
    const planner = worksheet.planner_employee_id;
    return mode === 'allBelow' && planner !== null && this.ownEmployeeId !== null && isAbove(this.ownEmployeeId, planner, this.managerOf);
  }

  /** Whether the caller plans the worksheet directly above (to pull this one up). */
  plansParentOf(worksheet: WorksheetRow, byId: ReadonlyMap<string, WorksheetRow>): boolean {
    const parent = worksheet.parent_worksheet_id ? byId.get(worksheet.parent_worksheet_id) : undefined;
    if (!parent) return this.editAll;
    return this.editAll || (this.editsReports && parent.planner_user_id === this.caller.userId);
  }
}

export async function cycleAccess(db: Knex, scope: CompanyScope, caller: Caller, managerOf: ManagerOf): Promise<CycleAccess> {
  // The reach rule of people/visibility.ts (all, or the holder's subtree), read with one query for the caller's own record.
  const can = (authority: 'view' | 'edit', reach: 'all' | 'reports') => hasPermission(caller.permissions, 'compensationPlanning', authority, reach);
  const own = (await ownEmployeeId(db, scope, caller.userId)) ?? null;
  const reach = !can('view', 'all') && can('view', 'reports') && own ? descendantsOf(own, managerOf) : new Set<string>();
  return new CycleAccess(caller, can('view', 'all'), can('edit', 'all'), own, reach, can('edit', 'all') || (can('edit', 'reports') && own !== null), managerOf);
}

/** Setting a cycle up, launching, closing, chains and budgets: whole-company planners only. */
export function requireWholeCompany(caller: Caller, what: string): void {
  if (!plansWholeCompany(caller)) {
    throw new HttpError(403, 'forbidden', { message: `${what} needs the compensationPlanning permission (edit, whole company).` });
  }
}

/** Reading a whole cycle's figures (dashboard for everyone, exports): whole-company view. */
export function requireWholeCompanyView(access: CycleAccess, what: string): void {
  if (!access.all) throw new HttpError(403, 'forbidden', { message: `${what} needs the compensationPlanning permission (view, whole company).` });
}
