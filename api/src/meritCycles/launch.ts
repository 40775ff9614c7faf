import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { type BandLocator, cycleBandLocator } from '../bands/reads.js';
import { newId } from '../db/ids.js';
import { type Rational, round } from '../money/rational.js';
import { Converter, today } from '../money/converter.js';
import { type MeritCycleBase, type MeritCycleEmployeeRow, activeEmployeesForMeritCycle, baseSalariesForMeritCycle } from './peopleReads.js';
import type { BudgetConfiguration, ExchangeTable } from './config.js';
import { addDays, budgetShare, columnOf, compaRatioOf, convertWith, evaluateEligibility, guidelineFor, penetrationOf, percentOf, prorationOf, wholeMonthsBetween } from './formulas.js';
import { type CycleConfig, configOf } from './present.js';
import { type CycleRow, type EmployeeRowOfCycle, type ExclusionRow, NO_SUMS, type WorksheetRow, type WorksheetSums, addInto, insertRows, insertWorksheets, listExclusions, rowSums, sumColumns } from './store.js';
import { worksheetWorkflow } from './workflow.js';

/*
 * Launching a cycle computes it, once, from people data: every active employee's eligibility (the
 * rules, then exclusions by hand) and proration, their band and position in it, the guideline and
 * the recommended merit (pre-filled as the plan), their share of the top-down budget, and one
 * worksheet per manager. Pay in force is read the day before the effective date (or today, if
 * that is earlier); every conversion uses the reference rates of that day, named on the cycle.
 */

export interface CycleComputation {
  asOf: string;
  exchange: ExchangeTable;
  rows: EmployeeRowOfCycle[];
  worksheets: WorksheetRow[];
}

export interface ComputeInput {
  cycle: CycleRow;
  config: CycleConfig;
  employees: readonly MeritCycleEmployeeRow[];
  bases: ReadonlyMap<string, MeritCycleBase>;
  exclusions: readonly ExclusionRow[];
  /** Exact rate from a currency into the cycle currency (null: none). */
  rateToCycle: (currency: string) => Promise<Rational | null>;
  digits: (currency: string) => number;
  /** Each employee's band in their currency, when the cycle has a band set. */
  bandOf: (employee: MeritCycleEmployeeRow, currency: string) => Promise<{ id: string; min: number; mid: number; max: number } | null>;
  asOf: string;
  now: string;
}

/** When pay in force is read: the day before the effective date, or today when that comes first. */
export function payDayOf(effectiveDate: string, day = today()): string {
  const before = addDays(effectiveDate, -1);
  return before < day ? before : day;
}

function budgetPercent(budget: BudgetConfiguration, managerOf: ReadonlyMap<string, string | null>, departmentOf: ReadonlyMap<string, string | null>): (employeeId: string) => number {
  const overrides = new Map((budget.overrides ?? []).map((override) => [override.key, override.percentBp]));
  if (budget.basis === 'department') return (employeeId) => overrides.get(departmentOf.get(employeeId) ?? '') ?? budget.percentBp;
  const memo = new Map<string, number>();
  const of = (employeeId: string, depth: number): number => {
    const known = memo.get(employeeId);
    if (known !== undefined) return known;
    const own = overrides.get(employeeId);
    const manager = managerOf.get(employeeId) ?? null;
    const value = own ?? (manager && depth < 256 ? of(manager, depth + 1) : budget.percentBp);
    memo.set(employeeId, value);
    return value;
  };
  return (employeeId) => of(employeeId, 0);
}

/** The whole computation, in memory (no database): what `launchCycle` writes, and what the benchmark times. */
export async function computeCycle(input: ComputeInput): Promise<CycleComputation> {
  const { cycle, config } = input;
  const cycleDigits = input.digits(cycle.currency);
  const conversions: ExchangeTable['conversions'] = {};
  const currencies = new Set<string>();
  for (const employee of input.employees) currencies.add(input.bases.get(employee.id)?.currency ?? employee.currency);
  for (const currency of currencies) {
    const rate = await input.rateToCycle(currency);
    if (rate) conversions[currency] = { n: rate.n.toString(), d: rate.d.toString(), digits: input.digits(currency) };
  }
  const toCycle = (amount: number, currency: string): number | null => {
    const rate = conversions[currency];
    return rate ? convertWith(amount, rate, cycleDigits) : null;
  };

  const active = new Set(input.employees.map((employee) => employee.id));
  const managerOf = new Map(input.employees.map((employee) => [employee.id, employee.manager_id && active.has(employee.manager_id) && employee.manager_id !== employee.id ? employee.manager_id : null]));
  const departmentOf = new Map(input.employees.map((employee) => [employee.id, employee.department]));
  const percentFor = budgetPercent(config.budget, managerOf, departmentOf);
  const exclusions = new Map(input.exclusions.map((exclusion) => [exclusion.employee_id, exclusion]));
  const scale = new Set(config.performance.scale.map((entry) => entry.value));
  const matrix = config.recommendation.kind === 'matrix' ? config.recommendation.matrix : undefined;
  const byVariables = config.recommendation.kind === 'variables';

  // One worksheet per manager of someone in the cycle, and one for the people without a manager.
  const planners = new Set([...managerOf.values()].filter((id): id is string => id !== null));
  const worksheetOf = new Map<string, string>([...planners].map((id) => [id, newId()]));
  const rootId = newId();
  let rootUsed = false;

  const rows: EmployeeRowOfCycle[] = [];
  for (const employee of input.employees) {
    const base = input.bases.get(employee.id);
    const currency = base?.currency ?? employee.currency;
    const proration = prorationOf(employee.start_date, cycle.period_start, cycle.period_end);
    const rating = employee.performance_rating && scale.has(employee.performance_rating) ? employee.performance_rating : null;
    const verdict = evaluateEligibility(
      config.eligibility,
      {
        startDate: employee.start_date,
        lastPayChange: base?.effectiveDate ?? null,
        employmentType: employee.employment_type,
        countryCode: employee.country_code,
        department: employee.department,
        rating,
        rawRating: employee.performance_rating,
        leaveStart: employee.leave_start_date ?? null,
        leaveEnd: employee.leave_end_date ?? null,
      },
      cycle.effective_date,
    );
    const reasons: string[] = [];
    if (!base || base.amount <= 0) reasons.push(`No base salary in force on ${input.asOf}`);
    const baseInCycle = base ? toCycle(base.amount, currency) : null;
    if (base && baseInCycle === null) reasons.push(`No reference exchange rate from ${currency} to ${cycle.currency} on or before ${input.asOf}`);
    reasons.push(...verdict.reasons);
    const excluded = exclusions.get(employee.id);
    const status = excluded ? 'excluded' : reasons.length ? 'ineligible' : 'eligible';
    const band = base ? await input.bandOf(employee, currency) : null;
    const amount = base?.amount ?? 0;
    const compa = band ? compaRatioOf(amount, band.mid) : null;
    const penetration = band ? penetrationOf(amount, band.min, band.max) : null;
    const column = matrix ? columnOf(matrix.axis === 'compaRatio' ? compa : penetration, matrix.thresholds) : null;
    // Whoever passes the rules gets a recommendation and a budget share, so that taking back an
    // exclusion restores them; only the eligible start with the recommendation as their plan.
    const passes = reasons.length === 0 && baseInCycle !== null;
    const variables = byVariables
      ? { rating, compaRatio: compa, rangePenetration: penetration, monthsSinceLastIncrease: base ? wholeMonthsBetween(base.effectiveDate, cycle.effective_date) : null }
      : undefined;
    const guideline = passes ? guidelineFor(config.recommendation, rating, column, variables) : null;
    const target = guideline ? percentOf(amount, guideline.targetBp, proration) : null;
    const eligible = status === 'eligible' && baseInCycle !== null;
    const manager = managerOf.get(employee.id) ?? null;
    const worksheetId = manager ? (worksheetOf.get(manager) ?? rootId) : rootId;
    if (worksheetId === rootId) rootUsed = true;
    rows.push({
      id: newId(),
      company_id: cycle.company_id,
      cycle_id: cycle.id,
      employee_id: employee.id,
      worksheet_id: worksheetId,
      employee_number: employee.employee_number,
      first_name: employee.first_name,
      last_name: employee.last_name,
      title: employee.title,
      department: employee.department,
      job_family_id: employee.job_family_id,
      level_id: employee.level_id,
      manager_id: manager,
      user_id: employee.user_id,
      rating,
      currency,
      current_base: base ? base.amount : null,
      base_in_cycle: baseInCycle,
      eligibility: status,
      reasons: JSON.stringify(reasons),
      excluded_reason: excluded?.reason ?? null,
      days_employed: proration.daysEmployed,
      days_in_period: proration.daysInPeriod,
      band_id: band?.id ?? null,
      band_min: band?.min ?? null,
      band_mid: band?.mid ?? null,
      band_max: band?.max ?? null,
      rec_min_bp: guideline?.minBp ?? null,
      rec_target_bp: guideline?.targetBp ?? null,
      rec_max_bp: guideline?.maxBp ?? null,
      rec_target_amount: target,
      rec_target_in_cycle: passes && target !== null ? (toCycle(target, currency) ?? 0) : 0,
      budget_in_cycle: passes && baseInCycle !== null ? budgetShare(baseInCycle, percentFor(employee.id), proration) : 0,
      merit_amount: eligible ? (target ?? 0) : 0,
      promotion_amount: null,
      lump_sum_amount: null,
      equity_refresh_amount: null,
      spend_in_cycle: eligible && target !== null && config.budget.spendComponents.includes('merit') ? (toCycle(target, currency) ?? 0) : 0,
      comment: null,
      flags: '[]',
      reviewed: false,
      edited: false,
      version: 1,
      updated_by: null,
      created_at: input.now,
      updated_at: input.now,
    });
  }

  const rowOf = new Map(rows.map((row) => [row.employee_id, row]));
  const byId = new Map<string, WorksheetRow>();
  const sheet = (id: string, planner: MeritCycleEmployeeRow | null, parent: string | null): WorksheetRow => ({
    id,
    company_id: cycle.company_id,
    cycle_id: cycle.id,
    planner_employee_id: planner?.id ?? null,
    planner_user_id: planner?.user_id ?? null,
    planner_name: planner ? [planner.first_name, planner.last_name].filter(Boolean).join(' ') : null,
    parent_worksheet_id: parent,
    depth: 0,
    state: worksheetWorkflow.initial,
    reviewers: '[]',
    review_step: null,
    pulled_up_into: null,
    allocated_override: null,
    ...sumColumns(NO_SUMS),
    version: 1,
    created_at: input.now,
    updated_at: input.now,
  });
  if (rootUsed) byId.set(rootId, sheet(rootId, null, null));
  for (const employee of input.employees) {
    const id = worksheetOf.get(employee.id);
    if (id) byId.set(id, sheet(id, employee, rowOf.get(employee.id)?.worksheet_id ?? null));
  }
  // Each worksheet starts with the sums of its rows.
  const sums = new Map<string, WorksheetSums>();
  for (const row of rows) {
    if (!row.worksheet_id) continue;
    const total = sums.get(row.worksheet_id) ?? { ...NO_SUMS };
    sums.set(row.worksheet_id, addInto(total, rowSums(row)));
  }
  for (const worksheet of byId.values()) Object.assign(worksheet, sumColumns(sums.get(worksheet.id) ?? NO_SUMS));
  // Depth from the parent chain; a loop in bad org data is cut where it closes.
  for (const worksheet of byId.values()) {
    const seen = new Set<string>([worksheet.id]);
    let depth = 0;
    let parent = worksheet.parent_worksheet_id ? byId.get(worksheet.parent_worksheet_id) : undefined;
    while (parent) {
      if (seen.has(parent.id)) {
        worksheet.parent_worksheet_id = null;
        depth = 0;
        break;
      }
      seen.add(parent.id);
      depth += 1;
      parent = parent.parent_worksheet_id ? byId.get(parent.parent_worksheet_id) : undefined;
    }
    worksheet.depth = depth;
  }
  return { asOf: input.asOf, exchange: { rates: [], conversions, cycleDigits }, rows, worksheets: [...byId.values()] };
}

/** The band of each employee in the cycle's band set (bands/placement.ts: their job's, else their grade's), in the employee's currency. */
function bandFinder(locator: BandLocator | null, converter: Converter): ComputeInput['bandOf'] {
  if (!locator) return async () => null;
  const rates = new Map<string, Promise<Rational | null>>();
  return async (employee, currency) => {
    const band = locator.locate(employee).band;
    if (!band) return null;
    // Bands are in their zone's currency (the set's for a zone without one).
    const pair = `${band.currency}>${currency}`;
    let rate = rates.get(pair);
    if (!rate) {
      rate = converter.exactRate(band.currency, currency);
      rates.set(pair, rate);
    }
    const exact = await rate;
    if (!exact) return null;
    const scale = (amount: number | string) =>
      Number(round({ n: BigInt(amount) * exact.n * 10n ** BigInt(converter.minorUnit(currency)), d: exact.d * 10n ** BigInt(converter.minorUnit(band.currency)) }, 'halfEven'));
    return { id: band.id, min: scale(band.min_amount), mid: scale(band.mid_amount), max: scale(band.max_amount) };
  };
}

/** Computes the cycle from people data and writes its rows and worksheets; the changes to the cycle row. */
export async function launchCycle(trx: Knex, scope: CompanyScope, caller: Caller, cycle: CycleRow): Promise<Partial<CycleRow>> {
  const config = configOf(cycle);
  const asOf = payDayOf(cycle.effective_date);
  const employees = await activeEmployeesForMeritCycle(trx, scope);
  const bases = await baseSalariesForMeritCycle(trx, scope, asOf);
  const exclusions = await listExclusions(trx, scope, cycle.id);
  // Planning budgets are the company's own money: its own rates where it has set them (named on the cycle).
  const converter = await Converter.open(trx, asOf, { scope });
  const now = new Date().toISOString();
  const computed = await computeCycle({
    cycle,
    config,
    employees,
    bases,
    exclusions,
    rateToCycle: (currency) => converter.exactRate(currency, cycle.currency),
    digits: (currency) => converter.minorUnit(currency),
    // A band set published to this cycle takes precedence over the one chosen in its settings.
    bandOf: bandFinder(await cycleBandLocator(trx, scope, { meritCycleId: cycle.id, chosenBandSetId: cycle.band_set_id }), converter),
    asOf,
    now,
  });
  await insertWorksheets(trx, computed.worksheets);
  await insertRows(trx, computed.rows);
  return {
    rates_as_of: asOf,
    exchange_rates: JSON.stringify({ ...computed.exchange, rates: converter.ratesUsed() }),
    launched_at: now,
    launched_by: caller.userId,
  };
}
