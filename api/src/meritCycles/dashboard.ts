import type { components } from '../contract-types.js';
import { budgetReport, budgetTree } from './budgets.js';
import { bottomUpOf, buildBudgetTree } from './budgetViews.js';
import { loadContext } from './context.js';
import { withEquityAdjustments } from './equityAdjustments.js';
import { noteViewer } from './realtime.js';
import { keptSums } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];

/** Budgets per worksheet and rolled up per branch, and top-down against bottom-up per node, over the worksheets the caller reaches. */
export async function dashboardBudgets(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<Schemas['BudgetReport']> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  const planned = { ...budgetReport(context, budgetTree(context.worksheets)), comparison: bottomUpOf(await buildBudgetTree(db, context)) };
  // Pay-equity adjustments sent to the cycle spend its budget too, shown apart: to whoever sees the whole cycle.
  const report = context.access.all ? await withEquityAdjustments(db, context, planned) : planned;
  await noteViewer(db, context.scope, context.cycle.id, caller.userId);
  return report;
}

/** Worksheets by state and employees reviewed, over the worksheets the caller reaches. */
export async function dashboardProgress(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<Schemas['CycleProgress']> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  const sums = keptSums(context.worksheets);
  const byState = { planning: 0, in_review: 0, sent_back: 0, approved: 0, pulled_up: 0 };
  const totals = { employees: 0, eligible: 0, reviewed: 0, changed: 0 };
  let worksheets = 0;
  for (const worksheet of context.worksheets) {
    if (!context.access.seesWorksheet(worksheet)) continue;
    worksheets += worksheet.state === 'pulled_up' ? 0 : 1;
    if (worksheet.state in byState) byState[worksheet.state as keyof typeof byState] += 1;
    const sum = sums.get(worksheet.id);
    if (!sum) continue;
    totals.employees += sum.employees;
    totals.eligible += sum.eligible;
    totals.reviewed += sum.reviewed;
    totals.changed += sum.changed;
  }
  await noteViewer(db, context.scope, context.cycle.id, caller.userId);
  return { worksheets, worksheetsByState: byState, ...totals, percentReviewed: totals.eligible ? Math.round((totals.reviewed / totals.eligible) * 1000) / 10 : 0 };
}
