import type { components } from '../contract-types.js';
import type { CycleContext } from './context.js';
import { type WorksheetRow, type WorksheetSums, amountOf, keptSums } from './store.js';

/*
 * Budgets in the cycle currency. Top-down: each eligible row's share is its base × the percent for
 * its department or org branch × its proration; a worksheet is allocated the sum of its rows'
 * shares unless a top-down allocation set its own share (`budgetViews.ts`). Bottoms-up: the sum of the recommendations (targets) and
 * the sum of what is planned (the spend components). A branch rolls up its worksheet and every one
 * below it.
 */

type Schemas = components['schemas'];
export type BudgetFigures = Schemas['BudgetFigures'];
export type WorksheetBudget = Schemas['WorksheetBudget'];
/** The report without the top-down against bottom-up comparison (`budgetViews.ts` adds it on the dashboard). */
export type BudgetReport = Omit<Schemas['BudgetReport'], 'comparison'>;

interface Numbers {
  eligiblePayroll: number;
  allocated: number;
  recommended: number;
  used: number;
}

const ZERO: Numbers = { eligiblePayroll: 0, allocated: 0, recommended: 0, used: 0 };
const add = (a: Numbers, b: Numbers): Numbers => ({ eligiblePayroll: a.eligiblePayroll + b.eligiblePayroll, allocated: a.allocated + b.allocated, recommended: a.recommended + b.recommended, used: a.used + b.used });

function figures(numbers: Numbers, currency: string): BudgetFigures {
  const money = (amount: number) => ({ amount, currency });
  return {
    eligiblePayroll: money(numbers.eligiblePayroll),
    allocated: money(numbers.allocated),
    recommended: money(numbers.recommended),
    used: money(numbers.used),
    remaining: money(numbers.allocated - numbers.used),
    overBudget: numbers.used > numbers.allocated,
  };
}

export interface BudgetTree {
  own: Map<string, Numbers>;
  branch: Map<string, Numbers>;
  sums: Map<string, WorksheetSums>;
}

/** Own and rolled-up figures of every worksheet (pulled-up ones hold no rows any more), from the sums kept on each. */
export function budgetTree(worksheets: readonly WorksheetRow[]): BudgetTree {
  const sums = keptSums(worksheets);
  const own = new Map<string, Numbers>();
  for (const worksheet of worksheets) {
    const sum = sums.get(worksheet.id);
    const override = amountOf(worksheet.allocated_override);
    own.set(worksheet.id, sum ? { eligiblePayroll: sum.eligible_payroll, allocated: override ?? sum.computed_budget, recommended: sum.recommended, used: sum.used } : { ...ZERO, allocated: override ?? 0 });
  }
  const branch = new Map<string, Numbers>();
  // Deepest first, so every child is rolled up before its parent.
  const ordered = [...worksheets].sort((a, b) => b.depth - a.depth);
  for (const worksheet of ordered) branch.set(worksheet.id, add(branch.get(worksheet.id) ?? ZERO, own.get(worksheet.id) ?? ZERO));
  for (const worksheet of ordered) {
    const parent = worksheet.parent_worksheet_id;
    if (parent && parent !== worksheet.id && own.has(parent)) branch.set(parent, add(branch.get(parent) ?? ZERO, branch.get(worksheet.id) ?? ZERO));
  }
  return { own, branch, sums };
}

export function worksheetBudget(worksheet: WorksheetRow, tree: BudgetTree, currency: string): WorksheetBudget {
  return {
    worksheetId: worksheet.id,
    plannerName: worksheet.planner_name,
    parentWorksheetId: worksheet.parent_worksheet_id,
    allocatedByHand: worksheet.allocated_override !== null,
    own: figures(tree.own.get(worksheet.id) ?? ZERO, currency),
    branch: figures(tree.branch.get(worksheet.id) ?? ZERO, currency),
  };
}

export const ownFigures = (worksheet: WorksheetRow, tree: BudgetTree, currency: string): BudgetFigures => figures(tree.own.get(worksheet.id) ?? ZERO, currency);

/** The report over the worksheets the caller sees: each one, and the total of the branches at the top of what they see. */
export function budgetReport(context: CycleContext, tree: BudgetTree): BudgetReport {
  const currency = context.cycle.currency;
  const visible = context.worksheets.filter((worksheet) => worksheet.state !== 'pulled_up' && context.access.seesWorksheet(worksheet));
  const shown = new Set(visible.map((worksheet) => worksheet.id));
  let total = ZERO;
  for (const worksheet of visible) {
    if (!worksheet.parent_worksheet_id || !shown.has(worksheet.parent_worksheet_id)) total = add(total, tree.branch.get(worksheet.id) ?? ZERO);
  }
  return { currency, percentBp: context.config.budget.percentBp, total: figures(total, currency), worksheets: visible.map((worksheet) => worksheetBudget(worksheet, tree, currency)) };
}
