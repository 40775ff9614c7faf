import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { HttpError, badRequest } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { type Rational, divide, multiply, pow10, round } from '../money/rational.js';
import { requireWholeCompany } from './access.js';
import type { StoredRate } from './formulas.js';
import { type CycleContext, loadContext } from './context.js';
import { type WorksheetRow, cyclesOf, inTransaction, keptSums, rowsOf, worksheetsOf } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

/*
 * The three budget views of a cycle over its org tree (one node per worksheet, each in its planner's
 * pay currency; the top, without a planner, in the cycle's):
 * - top-down: each node's allocation is the budget of its whole branch — a percentage of the
 *   branch's eligible pay, an amount in the node's currency, or (not set) the cycle's computed
 *   budget; what is left to allocate is the allocation less the children's, and is what the node's
 *   own people may be given;
 * - bottom-up: what each worksheet's rows plan (the budget's spend components, in each row's
 *   currency), rolled up the branch and converted to the node's currency, against its allocation;
 * - allocations: each node's method and figure, edited at the cycle's version.
 * Amounts move between currencies at the rates the cycle froze at launch (each currency's total
 * converted once, exact, rounded half to even to the target's minor units).
 */

type Schemas = components['schemas'];
type Money = Schemas['Money'];
type Method = Schemas['BudgetAllocationMethod'];

interface AllocationRow {
  company_id: string;
  cycle_id: string;
  worksheet_id: string;
  method: string;
  percent_bp: number | null;
  amount: number | string | null;
  currency: string;
  updated_by: string | null;
  updated_at: string | Date;
}

interface BudgetRowFacts {
  employee_id: string;
  worksheet_id: string | null;
  eligibility: string;
  currency: string;
  current_base: number | string | null;
  merit_amount: number | string;
  promotion_amount: number | string | null;
  lump_sum_amount: number | string | null;
}

const allocationsOf = (db: Knex, scope: CompanyScope): Knex.QueryBuilder => db('merit_cycle_budget_allocations').where('merit_cycle_budget_allocations.company_id', scope.companyId);

/** Per-currency totals (minor units of each currency). */
type ByCurrency = Map<string, number>;

function addTo(target: ByCurrency, currency: string, amount: number): void {
  target.set(currency, (target.get(currency) ?? 0) + amount);
}

function addAll(target: ByCurrency, source: ByCurrency): void {
  for (const [currency, amount] of source) addTo(target, currency, amount);
}

const listed = (sums: ByCurrency): Money[] =>
  [...sums.entries()].filter(([, amount]) => amount !== 0).sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ amount, currency }));

/** Conversions between any two currencies of the cycle, through the rates it froze at launch. */
export class CycleRates {
  constructor(
    private readonly cycleCurrency: string,
    private readonly cycleDigits: number,
    private readonly conversions: Record<string, StoredRate>,
  ) {}

  /** The major-unit rate currency → cycle currency and the currency's minor-unit digits, or null without one. */
  private toCycle(currency: string): { rate: Rational; digits: number } | null {
    if (currency === this.cycleCurrency) return { rate: { n: 1n, d: 1n }, digits: this.cycleDigits };
    const stored = this.conversions[currency];
    return stored ? { rate: { n: BigInt(stored.n), d: BigInt(stored.d) }, digits: stored.digits } : null;
  }

  has(currency: string): boolean {
    return this.toCycle(currency) !== null;
  }

  digits(currency: string): number {
    return this.toCycle(currency)?.digits ?? this.cycleDigits;
  }

  /** amount (minor units of `from`) in `to`, exact then rounded once half to even; null without a rate. */
  convert(amount: number, from: string, to: string): number | null {
    if (from === to) return amount;
    const source = this.toCycle(from);
    const target = this.toCycle(to);
    if (!source || !target) return null;
    const major = divide(source.rate, target.rate); // from → to, major units
    const exact = multiply(multiply({ n: BigInt(amount), d: 1n }, major), { n: pow10(target.digits), d: pow10(source.digits) });
    return Number(round(exact, 'halfEven'));
  }

  /** Per-currency totals as one amount in `to` (each currency converted once; one without a rate counts nothing). */
  total(sums: ByCurrency, to: string): number {
    let out = 0;
    for (const [currency, amount] of sums) out += this.convert(amount, currency, to) ?? 0;
    return out;
  }
}

/** basis points of an amount, rounded half to even. */
const percentOf = (amount: number, percentBp: number): number => Number(round({ n: BigInt(amount) * BigInt(percentBp), d: 10_000n }, 'halfEven'));

interface Node {
  worksheet: WorksheetRow;
  currency: string;
  children: Node[];
  method: Method;
  percentBp: number | null;
  amount: number | null;
  updatedAt: string | null;
  /** The branch's eligible base pay and plans per currency; the worksheet's own plans per currency. */
  eligibleBranch: ByCurrency;
  plannedOwn: ByCurrency;
  plannedBranch: ByCurrency;
  /** The branch's computed budget, in the cycle currency (the worksheets' kept sums). */
  computedBranch: number;
  /** Node currency: the branch's eligible pay and the allocation. */
  eligiblePay: number;
  allocated: number;
}

interface BudgetTreeView {
  context: CycleContext;
  rates: CycleRates;
  /** Parents before their children. */
  nodes: Node[];
  byId: Map<string, Node>;
}

async function budgetRowFacts(db: Knex, scope: CompanyScope, cycleId: string): Promise<BudgetRowFacts[]> {
  return (await rowsOf(db, scope)
    .where({ cycle_id: cycleId })
    .select('employee_id', 'worksheet_id', 'eligibility', 'currency', 'current_base', 'merit_amount', 'promotion_amount', 'lump_sum_amount')) as BudgetRowFacts[];
}

async function allocationRows(db: Knex, scope: CompanyScope, cycleId: string): Promise<AllocationRow[]> {
  return (await allocationsOf(db, scope).where({ cycle_id: cycleId })) as AllocationRow[];
}

/** The cycle's budget tree with every node's figures. */
export async function buildBudgetTree(db: Knex, context: CycleContext): Promise<BudgetTreeView> {
  const { scope, cycle, config } = context;
  const rates = new CycleRates(cycle.currency, config.exchange.cycleDigits ?? 2, config.exchange.conversions);
  const [rows, stored] = await Promise.all([budgetRowFacts(db, scope, cycle.id), allocationRows(db, scope, cycle.id)]);
  const storedBy = new Map(stored.map((row) => [row.worksheet_id, row]));
  const currencyOfEmployee = new Map(rows.map((row) => [row.employee_id, row.currency]));
  const spend = config.budget.spendComponents;

  const sums = keptSums(context.worksheets);
  const byId = new Map<string, Node>();
  for (const worksheet of context.worksheets) {
    const plannerCurrency = worksheet.planner_employee_id ? currencyOfEmployee.get(worksheet.planner_employee_id) : undefined;
    const currency = plannerCurrency && rates.has(plannerCurrency) ? plannerCurrency : cycle.currency;
    const allocation = storedBy.get(worksheet.id);
    const method: Method = allocation?.method === 'percent' || allocation?.method === 'amount' ? allocation.method : 'computed';
    byId.set(worksheet.id, {
      worksheet,
      currency,
      children: [],
      method,
      percentBp: method === 'percent' ? Number(allocation?.percent_bp ?? 0) : null,
      amount: method === 'amount' ? Number(allocation?.amount ?? 0) : null,
      updatedAt: allocation ? new Date(allocation.updated_at).toISOString() : null,
      eligibleBranch: new Map(),
      plannedOwn: new Map(),
      plannedBranch: new Map(),
      computedBranch: sums.get(worksheet.id)?.computed_budget ?? 0,
      eligiblePay: 0,
      allocated: 0,
    });
  }
  for (const row of rows) {
    const node = row.worksheet_id ? byId.get(row.worksheet_id) : undefined;
    if (!node || row.eligibility !== 'eligible') continue;
    addTo(node.eligibleBranch, row.currency, Number(row.current_base ?? 0));
    const planned = (spend.includes('merit') ? Number(row.merit_amount) : 0) + (spend.includes('promotion') ? Number(row.promotion_amount ?? 0) : 0) + (spend.includes('lumpSum') ? Number(row.lump_sum_amount ?? 0) : 0);
    addTo(node.plannedOwn, row.currency, planned);
  }
  for (const node of byId.values()) addAll(node.plannedBranch, node.plannedOwn);

  // Children under their parents; the tops are the nodes whose parent is not in the tree.
  const tops: Node[] = [];
  for (const node of byId.values()) {
    const parent = node.worksheet.parent_worksheet_id ? byId.get(node.worksheet.parent_worksheet_id) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else tops.push(node);
  }
  const order = (list: Node[]) => list.sort((a, b) => (a.worksheet.planner_name ?? '').localeCompare(b.worksheet.planner_name ?? '') || a.worksheet.id.localeCompare(b.worksheet.id));
  const nodes: Node[] = [];
  const seen = new Set<string>();
  const visit = (node: Node) => {
    if (seen.has(node.worksheet.id)) return;
    seen.add(node.worksheet.id);
    nodes.push(node);
    for (const child of order(node.children)) visit(child);
  };
  for (const top of order(tops)) visit(top);

  // Roll up, deepest first (the reverse of parents-first).
  for (const node of [...nodes].reverse()) {
    for (const child of node.children) {
      addAll(node.eligibleBranch, child.eligibleBranch);
      addAll(node.plannedBranch, child.plannedBranch);
      node.computedBranch += child.computedBranch;
    }
  }
  for (const node of nodes) {
    node.eligiblePay = rates.total(node.eligibleBranch, node.currency);
    node.allocated =
      node.method === 'amount' ? (node.amount ?? 0) : node.method === 'percent' ? percentOf(node.eligiblePay, node.percentBp ?? 0) : (rates.convert(node.computedBranch, cycle.currency, node.currency) ?? 0);
  }
  return { context, rates, nodes, byId };
}

const allocatedBelow = (tree: BudgetTreeView, node: Node): number => node.children.reduce((sum, child) => sum + (tree.rates.convert(child.allocated, child.currency, node.currency) ?? 0), 0);

/** The nodes the caller sees (a pulled-up worksheet, whose rows moved up, is not shown). */
const visibleNodes = (tree: BudgetTreeView): Node[] => tree.nodes.filter((node) => node.worksheet.state !== 'pulled_up' && tree.context.access.seesWorksheet(node.worksheet));

const nodeHead = (node: Node) => ({
  worksheetId: node.worksheet.id,
  parentWorksheetId: node.worksheet.parent_worksheet_id,
  plannerName: node.worksheet.planner_name,
  depth: node.worksheet.depth,
  currency: node.currency,
});

export function topDownOf(tree: BudgetTreeView): Schemas['TopDownBudget'] {
  const { cycle, config } = tree.context;
  return {
    currency: cycle.currency,
    version: Number(cycle.version),
    percentBp: config.budget.percentBp,
    nodes: visibleNodes(tree).map((node) => {
      const below = allocatedBelow(tree, node);
      return {
        ...nodeHead(node),
        method: node.method,
        percentBp: node.percentBp,
        eligiblePay: { amount: node.eligiblePay, currency: node.currency },
        eligiblePayByCurrency: listed(node.eligibleBranch),
        allocated: { amount: node.allocated, currency: node.currency },
        allocatedBelow: { amount: below, currency: node.currency },
        leftToAllocate: { amount: node.allocated - below, currency: node.currency },
        overAllocated: below > node.allocated,
      };
    }),
  };
}

export function bottomUpOf(tree: BudgetTreeView): Schemas['BottomUpBudget'] {
  const { cycle } = tree.context;
  return {
    currency: cycle.currency,
    version: Number(cycle.version),
    nodes: visibleNodes(tree).map((node) => {
      const plannedBranch = tree.rates.total(node.plannedBranch, node.currency);
      const difference = node.allocated - plannedBranch;
      return {
        ...nodeHead(node),
        planned: { amount: tree.rates.total(node.plannedOwn, node.currency), currency: node.currency },
        plannedBranch: { amount: plannedBranch, currency: node.currency },
        plannedByCurrency: listed(node.plannedBranch),
        allocated: { amount: node.allocated, currency: node.currency },
        difference: { amount: difference, currency: node.currency },
        status: difference < 0 ? 'over' : difference > 0 ? 'under' : 'on',
      };
    }),
  };
}

export function allocationsView(tree: BudgetTreeView): Schemas['BudgetAllocations'] {
  const { cycle } = tree.context;
  return {
    currency: cycle.currency,
    version: Number(cycle.version),
    allocations: visibleNodes(tree).map((node) => ({
      ...nodeHead(node),
      method: node.method,
      percentBp: node.percentBp,
      amount: node.amount === null ? null : { amount: node.amount, currency: node.currency },
      allocated: { amount: node.allocated, currency: node.currency },
      updatedAt: node.updatedAt,
    })),
  };
}

export async function topDownBudget(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<Schemas['TopDownBudget']> {
  const { db, caller } = ctx;
  return topDownOf(await buildBudgetTree(db, await loadContext(db, caller, cycleId)));
}

export async function bottomUpBudget(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<Schemas['BottomUpBudget']> {
  const { db, caller } = ctx;
  return bottomUpOf(await buildBudgetTree(db, await loadContext(db, caller, cycleId)));
}

export async function budgetAllocations(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string): Promise<Schemas['BudgetAllocations']> {
  const { db, caller } = ctx;
  return allocationsView(await buildBudgetTree(db, await loadContext(db, caller, cycleId)));
}

type AllocationInput = Schemas['BudgetAllocationInput'];
type FieldError = { field: string; message: string };

function inputErrors(allocation: AllocationInput, index: number, node: Node | undefined): FieldError[] {
  const at = `body.allocations.${index}`;
  if (!node) return [{ field: `${at}.worksheetId`, message: 'is not a worksheet of this cycle' }];
  if (allocation.method === 'percent') {
    if (allocation.percentBp === undefined) return [{ field: `${at}.percentBp`, message: 'is needed for an allocation by percentage (0 to 10000 basis points)' }];
    if (allocation.amount !== undefined) return [{ field: `${at}.amount`, message: 'goes with an allocation by amount, not by percentage' }];
  }
  if (allocation.method === 'amount') {
    if (!allocation.amount) return [{ field: `${at}.amount`, message: `is needed for an allocation by amount, in ${node.currency}` }];
    if (allocation.percentBp !== undefined) return [{ field: `${at}.percentBp`, message: 'goes with an allocation by percentage, not by amount' }];
    if (allocation.amount.currency !== node.currency) return [{ field: `${at}.amount.currency`, message: `must be the node's currency, ${node.currency}` }];
    if (allocation.amount.amount < 0) return [{ field: `${at}.amount.amount`, message: 'must not be negative' }];
    if (allocation.amount.amount > 1e15) return [{ field: `${at}.amount.amount`, message: 'is too large' }];
  }
  if (allocation.method === 'computed' && (allocation.amount !== undefined || allocation.percentBp !== undefined)) {
    return [{ field: at, message: 'a computed allocation takes neither an amount nor a percentage' }];
  }
  return [];
}

const label = (node: Node): string => node.worksheet.planner_name ?? 'people without a manager';

/** Sets (or clears, with `computed`) nodes' allocations at the cycle's version, which moves on. */
export async function updateBudgetAllocations(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, ifMatch: string, allocations: AllocationInput[]): Promise<Schemas['BudgetAllocations']> {
  const { db, caller } = ctx;
  const version = versionOf(ifMatch);
  await inTransaction(db, async (trx) => {
    const context = await loadContext(trx, caller, cycleId);
    requireWholeCompany(caller, 'Allocating budgets');
    if (Number(context.cycle.version) !== version) throw versionConflict('this cycle', Number(context.cycle.version));
    if (context.cycle.state !== 'active' && context.cycle.state !== 'draft') throw badRequest(`A ${context.cycle.state} cycle's budgets do not change.`);
    const before = await buildBudgetTree(trx, context);
    const seen = new Set<string>();
    const errors = allocations.flatMap((allocation, index) => {
      if (seen.has(allocation.worksheetId)) return [{ field: `body.allocations.${index}.worksheetId`, message: 'is named twice' }];
      seen.add(allocation.worksheetId);
      return inputErrors(allocation, index, before.byId.get(allocation.worksheetId));
    });
    if (errors.length) throw badRequest('Some allocations cannot be set.', errors);

    const now = new Date().toISOString();
    for (const allocation of allocations) {
      const node = before.byId.get(allocation.worksheetId) as Node;
      const key = { company_id: context.scope.companyId, cycle_id: context.cycle.id, worksheet_id: allocation.worksheetId };
      await allocationsOf(trx, context.scope).where(key).delete();
      if (allocation.method === 'computed') continue;
      await trx('merit_cycle_budget_allocations').insert({
        ...key,
        method: allocation.method,
        percent_bp: allocation.method === 'percent' ? allocation.percentBp : null,
        amount: allocation.method === 'amount' ? allocation.amount?.amount : null,
        currency: node.currency,
        updated_by: caller.userId,
        updated_at: now,
      });
    }

    // The rules of allocating down: no node's children may be given more than it has (checked
    // where the change can break it: under each changed node, and under each changed node's parent).
    const after = await buildBudgetTree(trx, context);
    const problems: FieldError[] = [];
    allocations.forEach((allocation, index) => {
      const node = after.byId.get(allocation.worksheetId) as Node;
      const parent = node.worksheet.parent_worksheet_id ? after.byId.get(node.worksheet.parent_worksheet_id) : undefined;
      for (const holder of parent ? [node, parent] : [node]) {
        const below = allocatedBelow(after, holder);
        if (below > holder.allocated && holder.children.length) {
          problems.push({
            field: `body.allocations.${index}`,
            message: `the allocations under ${label(holder)} (${below} ${holder.currency} minor units) exceed what ${label(holder)} is allocated (${holder.allocated})`,
          });
        }
      }
    });
    if (problems.length) throw new HttpError(400, 'allocation_exceeds_parent', { message: "A child's allocations cannot exceed its parent's.", errors: problems });

    // What is left at each node is what its own people may be given: the worksheets' own allocation
    // (what editing a row is checked against) follows wherever an allocation was set.
    for (const node of after.nodes) {
      const explicit = node.method !== 'computed' || node.children.some((child) => child.method !== 'computed');
      const own = explicit ? after.rates.convert(node.allocated - allocatedBelow(after, node), node.currency, context.cycle.currency) : null;
      await worksheetsOf(trx, context.scope).where({ cycle_id: context.cycle.id, id: node.worksheet.id }).update({ allocated_override: own });
    }
    await updateAtVersion(() => cyclesOf(trx, context.scope).where({ id: context.cycle.id }), version, { updated_at: now }, 'this cycle');
  });
  return budgetAllocations({ db, caller }, cycleId);
}
