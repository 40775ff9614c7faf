import type { components } from '../contract-types.js';
import {
  type BudgetConfiguration,
  type ColumnModes,
  type ColumnsConfig,
  type CycleComponent,
  type EligibilityCondition,
  type ExchangeTable,
  type PerformanceConfig,
  type PlannerMode,
  type PlanningWindow,
  type RecommendationLogic,
  parse,
} from './config.js';
import { basisPointsOf, columnOf, compaRatioOf, convertWith, penetrationOf, prorationFactor } from './formulas.js';
import { type CycleCounts, type CycleRow, type EmployeeRowOfCycle, type UserName, amountOf, isoOf } from './store.js';

type Schemas = components['schemas'];
export type MeritCycle = Schemas['MeritCycle'];
export type WorksheetEmployee = Schemas['WorksheetEmployee'];
type Money = Schemas['Money'];
type Status = Schemas['EligibilityStatus'];

/** A cycle's stored configuration, read back once. */
export interface CycleConfig {
  components: CycleComponent[];
  plannerMode: PlannerMode;
  performance: PerformanceConfig;
  eligibility: EligibilityCondition;
  recommendation: RecommendationLogic;
  budget: BudgetConfiguration;
  columns: ColumnsConfig;
  windows: PlanningWindow[];
  exchange: ExchangeTable;
}

export function configOf(row: CycleRow): CycleConfig {
  return {
    components: parse<CycleComponent[]>(row.components),
    plannerMode: row.planner_mode === 'allBelow' ? 'allBelow' : 'ownReports',
    performance: parse<PerformanceConfig>(row.performance),
    eligibility: parse<EligibilityCondition>(row.eligibility),
    recommendation: parse<RecommendationLogic>(row.recommendation),
    budget: parse<BudgetConfiguration>(row.budget),
    columns: parse<ColumnsConfig>(row.columns),
    windows: parse<PlanningWindow[]>(row.planning_windows),
    exchange: parse<ExchangeTable>(row.exchange_rates),
  };
}

export function presentCycle(row: CycleRow, counts: CycleCounts, availableActions: MeritCycle['availableActions']): MeritCycle {
  const config = configOf(row);
  return {
    id: row.id,
    name: row.name,
    state: row.state as MeritCycle['state'],
    effectiveDate: row.effective_date,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    currency: row.currency,
    ratesAsOf: row.rates_as_of,
    exchangeRates: config.exchange.rates,
    components: config.components,
    bandSetId: row.band_set_id,
    plannerMode: config.plannerMode,
    performance: config.performance,
    eligibility: config.eligibility,
    recommendation: config.recommendation,
    budget: config.budget,
    columns: config.columns,
    planningWindows: config.windows,
    closingNoticeHours: Number(row.closing_notice_hours),
    counts,
    availableActions,
    launchedAt: row.launched_at ? isoOf(row.launched_at) : null,
    closedAt: row.closed_at ? isoOf(row.closed_at) : null,
    payRecordsWritten: Number(row.pay_records_written),
    version: Number(row.version),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

/** Converts amounts of the cycle's rows into the cycle currency, with the rates fixed at launch. */
export class CycleMoney {
  constructor(
    readonly currency: string,
    private readonly exchange: ExchangeTable,
  ) {}

  /** Null when the currency had no reference rate at launch. */
  toCycle(amount: number, currency: string): number | null {
    if (currency === this.currency) return amount;
    const rate = this.exchange.conversions[currency];
    return rate ? convertWith(amount, rate, this.exchange.cycleDigits ?? 2) : null;
  }

  money(amount: number | null, currency = this.currency): Money | null {
    return amount === null ? null : { amount, currency };
  }
}

/** What a row plans, as numbers (employee's currency). */
export interface Plan {
  base: number | null;
  merit: number;
  promotion: number | null;
  lumpSum: number | null;
  equityRefresh: number | null;
  /** A pay equity adjustment to the base (sent from pay equity), in the employee's currency. */
  equityAdjustment: number | null;
}

export const planOf = (row: EmployeeRowOfCycle): Plan => ({
  base: amountOf(row.current_base),
  merit: Number(row.merit_amount),
  promotion: amountOf(row.promotion_amount),
  lumpSum: amountOf(row.lump_sum_amount),
  equityRefresh: amountOf(row.equity_refresh_amount),
  equityAdjustment: amountOf(row.equity_adjustment_amount ?? null),
});

/** The base after the cycle: current + merit + promotion + a pay equity adjustment. */
export const newBaseOf = (plan: Plan): number | null => (plan.base === null ? null : plan.base + plan.merit + (plan.promotion ?? 0) + (plan.equityAdjustment ?? 0));

export const nameOf = (row: Pick<EmployeeRowOfCycle, 'first_name' | 'last_name'>): string => [row.first_name, row.last_name].filter(Boolean).join(' ');

export function presentRow(row: EmployeeRowOfCycle, money: CycleMoney, modes: Required<ColumnModes>, logic: RecommendationLogic): WorksheetEmployee {
  const plan = planOf(row);
  const local = (amount: number | null) => money.money(amount, row.currency);
  const newBase = newBaseOf(plan);
  const mid = amountOf(row.band_mid);
  const entry: WorksheetEmployee = {
    employeeId: row.employee_id,
    employeeNumber: row.employee_number,
    name: nameOf(row),
    title: row.title,
    department: row.department,
    jobFamilyId: row.job_family_id,
    levelId: row.level_id,
    managerId: row.manager_id,
    worksheetId: row.worksheet_id,
    currency: row.currency,
    eligibility: { status: row.eligibility as Status, reasons: parse<string[]>(row.reasons) },
    proration: { factor: prorationFactor({ daysEmployed: row.days_employed, daysInPeriod: row.days_in_period }), daysEmployed: row.days_employed, daysInPeriod: row.days_in_period },
    flags: parse<WorksheetEmployee['flags']>(row.flags),
    reviewed: Boolean(row.reviewed),
    version: Number(row.version),
    updatedAt: isoOf(row.updated_at),
  };
  if (modes.currentPay !== 'none') {
    entry.currentPay = local(plan.base);
    entry.currentPayInCycleCurrency = money.money(amountOf(row.base_in_cycle));
  }
  if (modes.bandPosition !== 'none') {
    if (row.band_id && mid !== null && plan.base !== null) {
      const min = Number(row.band_min);
      const max = Number(row.band_max);
      const compaRatio = compaRatioOf(plan.base, mid);
      const penetration = penetrationOf(plan.base, min, max);
      const matrix = logic.kind === 'matrix' ? logic.matrix : undefined;
      entry.bandPosition = {
        bandId: row.band_id,
        min: { amount: min, currency: row.currency },
        mid: { amount: mid, currency: row.currency },
        max: { amount: max, currency: row.currency },
        compaRatio,
        rangePenetration: penetration,
        column: matrix ? columnOf(matrix.axis === 'compaRatio' ? compaRatio : penetration, matrix.thresholds) : null,
      };
    } else entry.bandPosition = null;
  }
  if (modes.rating !== 'none') entry.rating = row.rating;
  if (modes.recommendation !== 'none') {
    entry.recommendation =
      row.rec_target_bp === null || row.rec_min_bp === null || row.rec_max_bp === null
        ? null
        : { minBp: row.rec_min_bp, targetBp: row.rec_target_bp, maxBp: row.rec_max_bp, targetAmount: { amount: Number(row.rec_target_amount ?? 0), currency: row.currency } };
  }
  if (modes.merit !== 'none') entry.merit = { percentBp: basisPointsOf(plan.merit, plan.base ?? 0), amount: { amount: plan.merit, currency: row.currency } };
  if (modes.promotion !== 'none') entry.promotion = local(plan.promotion);
  if (modes.lumpSum !== 'none') entry.lumpSum = local(plan.lumpSum);
  if (modes.equityRefresh !== 'none') entry.equityRefresh = local(plan.equityRefresh);
  if (modes.merit !== 'none' && plan.equityAdjustment !== null) entry.equityAdjustment = { amount: { amount: plan.equityAdjustment, currency: row.currency }, reason: row.equity_adjustment_reason ?? '' };
  if (modes.newPay !== 'none') {
    entry.newPay = local(newBase);
    entry.newPayInCycleCurrency = newBase === null ? null : money.money(money.toCycle(newBase, row.currency));
  }
  if (modes.newCompaRatio !== 'none') entry.newCompaRatio = newBase !== null && mid !== null ? compaRatioOf(newBase, mid) : null;
  if (modes.comment !== 'none') entry.comment = row.comment;
  return entry;
}

export function actorOf(userId: string | null, names: Map<string, UserName>): { userId: string | null; name: string | null } {
  return { userId, name: userId ? (names.get(userId)?.name ?? null) : null };
}
