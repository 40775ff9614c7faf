import {
  EQUITY_VIEW_OPTIONS,
  TOTAL_EQUITY_ID,
  UNVESTED_EQUITY_ID,
  findCompensationType,
  type CompensationCategory,
} from '../../reference/catalog/index.js';
import { isMeasureId, type MeasureId } from './participants.js';
import type { EquitySelection } from './request.js';

export interface EquityOption {
  intendedVsActual: string;
  view: string;
  timeframe: string;
}

/**
 * How a requested comp type (with one combination of equity options) is read from the release:
 * which amount column, a constant scale, and whether a per-company factor reorders the values.
 */
export interface MeasurePlan {
  compensationTypeId: string;
  equityOption: EquityOption | null;
  broadCompType: CompensationCategory;
  measure: MeasureId;
  /** Annualized grants are the four-year grant value × 0.25 (exact in binary, so order and values stay exact). */
  scale: number;
  companyFactor: 'none' | 'actual_value' | 'percent_of_company';
  unit: 'currency' | 'percent';
  /** Ownership groups whose companies count (the percent view excludes public companies). */
  allowedOwnershipGroups: readonly string[] | null;
}

const GRANT_VESTING_YEARS = 4;

export function planMeasures(compensationTypes: readonly string[], equity: EquitySelection = {}): MeasurePlan[] {
  return compensationTypes.flatMap((id) => planCompensationType(id, equity));
}

function planCompensationType(id: string, equity: EquitySelection): MeasurePlan[] {
  const type = findCompensationType(id);
  if (!type || type.isDisabled) throw new Error(`Compensation type '${id}' cannot be benchmarked`);
  if (type.category === 'cash' || id === TOTAL_EQUITY_ID) return [fixedPlan(id, type.category)];
  const timeframes = (id === UNVESTED_EQUITY_ID ? equity.unvestedTimeframes : equity.timeframes) ?? [];
  const plans: MeasurePlan[] = [];
  for (const intendedVsActual of equity.intendedVsActual ?? []) {
    for (const view of equity.views ?? []) {
      for (const timeframe of timeframes) plans.push(equityPlan(id, { intendedVsActual, view, timeframe }));
    }
  }
  return plans;
}

function fixedPlan(id: string, broadCompType: CompensationCategory): MeasurePlan {
  return {
    compensationTypeId: id,
    equityOption: null,
    broadCompType,
    measure: storedMeasure(id),
    scale: 1,
    companyFactor: 'none',
    unit: 'currency',
    allowedOwnershipGroups: null,
  };
}

function equityPlan(id: string, option: EquityOption): MeasurePlan {
  const view = EQUITY_VIEW_OPTIONS.find((v) => v.value === option.view);
  if (!view) throw new Error(`Unknown equity view '${option.view}'`);
  const percent = view.type === 'percent';
  return {
    compensationTypeId: id,
    equityOption: option,
    broadCompType: 'equity',
    measure: measureOf(id, option.timeframe),
    scale: option.timeframe === 'annualized' ? 1 / GRANT_VESTING_YEARS : 1,
    // Ownership is a share count, so the percent view does not move with the share price.
    companyFactor: percent ? 'percent_of_company' : option.intendedVsActual === 'actual' ? 'actual_value' : 'none',
    unit: percent ? 'percent' : 'currency',
    allowedOwnershipGroups: percent ? view.allowedCompanyOwnershipGroupIds : null,
  };
}

function measureOf(id: string, timeframe: string): MeasureId {
  if (id !== UNVESTED_EQUITY_ID) return storedMeasure(id);
  return timeframe === 'next_12_months' ? 'unvested_equity_next_12_months' : 'unvested_equity';
}

function storedMeasure(id: string): MeasureId {
  if (!isMeasureId(id)) throw new Error(`Compensation type '${id}' has no amounts in a release`);
  return id;
}
