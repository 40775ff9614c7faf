import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { HttpError } from '../kernel/errors.js';
import { type CycleAccess, type ManagerOf, cycleAccess } from './access.js';
import { type ColumnModes, columnModesFor } from './config.js';
import { requireCycle } from './cycles.js';
import { type CycleConfig, CycleMoney, configOf } from './present.js';
import { type CycleRow, type WorksheetRow, findRow, listWorksheets, rowTree } from './store.js';

type WindowState = components['schemas']['PlanningWindowState'];

/** What every worksheet and row operation reads first: the cycle, its worksheets and the caller's reach in it. */
export interface CycleContext {
  scope: CompanyScope;
  caller: Caller;
  cycle: CycleRow;
  config: CycleConfig;
  money: CycleMoney;
  worksheets: WorksheetRow[];
  byId: Map<string, WorksheetRow>;
  managerOf: ManagerOf;
  access: CycleAccess;
  modes: Required<ColumnModes>;
  /** The worksheet holding the caller's own row, if they are in the cycle (read when first asked). */
  ownWorksheetId(): Promise<string | null>;
}

/**
 * A launched cycle's org tree (each row's manager at launch) never changes afterwards, so each node
 * keeps the trees of the cycles it served last rather than reading 10,000 rows per request.
 */
const trees = new Map<string, ManagerOf>();
const MAX_TREES = 32;

export async function treeOf(db: Knex, scope: CompanyScope, cycle: CycleRow): Promise<ManagerOf> {
  const known = trees.get(cycle.id);
  if (known) return known;
  const tree: ManagerOf = new Map((await rowTree(db, scope, cycle.id)).map((row) => [row.employee_id, row.manager_id]));
  if (cycle.state !== 'draft' && tree.size) {
    if (trees.size >= MAX_TREES) trees.delete(trees.keys().next().value as string);
    trees.set(cycle.id, tree);
  }
  return tree;
}

export async function loadContext(db: Knex, caller: Caller, cycleId: string): Promise<CycleContext> {
  const scope = companyScope(caller);
  const cycle = await requireCycle(db, scope, cycleId);
  const config = configOf(cycle);
  const worksheets = await listWorksheets(db, scope, cycle.id);
  // Whole-company planners reach everything: the org tree is needed only for the others.
  const wholeCompany = hasPermission(caller.permissions, 'compensationPlanning', 'view', 'all') && hasPermission(caller.permissions, 'compensationPlanning', 'edit', 'all');
  const managerOf: ManagerOf = wholeCompany ? new Map() : await treeOf(db, scope, cycle);
  const access = await cycleAccess(db, scope, caller, managerOf);
  let ownWorksheet: Promise<string | null> | undefined;
  const ownWorksheetId = (): Promise<string | null> => {
    ownWorksheet ??= access.ownEmployeeId ? findRow(db, scope, cycle.id, access.ownEmployeeId).then((row) => row?.worksheet_id ?? null) : Promise.resolve(null);
    return ownWorksheet;
  };
  return {
    scope,
    caller,
    cycle,
    config,
    money: new CycleMoney(cycle.currency, config.exchange),
    worksheets,
    byId: new Map(worksheets.map((worksheet) => [worksheet.id, worksheet])),
    managerOf,
    access,
    modes: columnModesFor(config.columns, caller.roles.map((role) => role.key)),
    ownWorksheetId,
  };
}

export type Stage = 'planning' | 'review';

/** A stage is open while the cycle is active and now is inside its window (no window: open). */
export function windowState(context: Pick<CycleContext, 'cycle' | 'config'>, stage: Stage, now = Date.now()): WindowState {
  const window = context.config.windows.find((candidate) => candidate.stage === stage);
  const active = context.cycle.state === 'active';
  if (!window) return { stage, opensAt: null, closesAt: null, open: active };
  return { stage, opensAt: window.opensAt, closesAt: window.closesAt, open: active && Date.parse(window.opensAt) <= now && now < Date.parse(window.closesAt) };
}

/** Why the stage is shut, or null when it is open. */
export function windowRefusal(context: Pick<CycleContext, 'cycle' | 'config'>, stage: Stage, now = Date.now()): HttpError | null {
  if (context.cycle.state !== 'active') {
    return new HttpError(409, 'cycle_not_active', { message: context.cycle.state === 'draft' ? 'This cycle has not been launched yet; its worksheets open when it is.' : `This cycle is ${context.cycle.state}; its worksheets are read-only.` });
  }
  const state = windowState(context, stage, now);
  if (state.open || !state.opensAt || !state.closesAt) return null;
  const what = stage === 'planning' ? 'planning window' : 'review window';
  if (now < Date.parse(state.opensAt)) {
    return new HttpError(409, 'planning_window_closed', { message: `The ${what} opens at ${state.opensAt}; until then worksheets are read-only${stage === 'review' ? ' for reviewers' : ''}.` });
  }
  return new HttpError(409, 'planning_window_closed', { message: `The ${what} closed at ${state.closesAt}; worksheets are read-only${stage === 'review' ? ' for reviewers' : ''}.` });
}

export function requireStageOpen(context: Pick<CycleContext, 'cycle' | 'config'>, stage: Stage): void {
  const refusal = windowRefusal(context, stage);
  if (refusal) throw refusal;
}

/** Worksheets whose rows can change. */
export const EDITABLE_STATES: ReadonlySet<string> = new Set(['planning', 'sent_back']);

/** The worksheet and the ones above it, nearest first. */
export function ancestry(worksheet: WorksheetRow, byId: ReadonlyMap<string, WorksheetRow>): WorksheetRow[] {
  const chain: WorksheetRow[] = [];
  const seen = new Set<string>();
  let at: WorksheetRow | undefined = worksheet;
  while (at && !seen.has(at.id)) {
    chain.push(at);
    seen.add(at.id);
    at = at.parent_worksheet_id ? byId.get(at.parent_worksheet_id) : undefined;
  }
  return chain;
}

/** The worksheets in the branch under `root` (itself included). */
export function branchOf(root: WorksheetRow, worksheets: readonly WorksheetRow[]): WorksheetRow[] {
  const children = new Map<string, WorksheetRow[]>();
  for (const worksheet of worksheets) {
    if (!worksheet.parent_worksheet_id) continue;
    const list = children.get(worksheet.parent_worksheet_id) ?? [];
    list.push(worksheet);
    children.set(worksheet.parent_worksheet_id, list);
  }
  const out: WorksheetRow[] = [];
  const seen = new Set<string>();
  const queue = [root];
  while (queue.length) {
    const next = queue.pop() as WorksheetRow;
    if (seen.has(next.id)) continue;
    seen.add(next.id);
    out.push(next);
    queue.push(...(children.get(next.id) ?? []));
  }
  return out;
}
