import type { components } from '../contract-types.js';
import { type FieldError, badRequest } from '../kernel/errors.js';
import type { StoredRate } from './formulas.js';

/* A cycle's configuration: its defaults, the checks beyond the contract's, and the stored JSON read back. */

type Schemas = components['schemas'];
export type PerformanceConfig = Schemas['PerformanceCycleConfig'];
export type EligibilityCondition = Schemas['EligibilityCondition'];
export type RecommendationLogic = Schemas['RecommendationLogic'];
export type BudgetConfiguration = Schemas['BudgetConfiguration'];
export type ColumnsConfig = Schemas['WorksheetColumnsConfig'];
export type ColumnModes = Schemas['WorksheetColumnModes'];
export type WorksheetColumn = keyof ColumnModes;
export type DisplayMode = Schemas['DisplayMode'];
export type PlanningWindow = Schemas['PlanningWindow'];
export type CycleComponent = Schemas['MeritCycleComponent'];
export type PlannerMode = Schemas['PlannerMode'];
export type ForexRate = Schemas['ForexRate'];

export const DEFAULT_COMPONENTS: CycleComponent[] = ['merit'];

export const DEFAULT_PERFORMANCE: PerformanceConfig = {
  ratingField: 'performanceRating',
  scale: [
    { value: 'below', label: 'Below expectations' },
    { value: 'developing', label: 'Developing' },
    { value: 'meets', label: 'Meets expectations' },
    { value: 'exceeds', label: 'Exceeds expectations' },
    { value: 'exceptional', label: 'Exceptional' },
  ],
};

export const DEFAULT_ELIGIBILITY: EligibilityCondition = { kind: 'all', rules: [] };

export const DEFAULT_RECOMMENDATION: RecommendationLogic = {
  kind: 'flat',
  flat: { minBp: 0, targetBp: 300, maxBp: 600 },
  guidelines: { mode: 'advisory', commentRequired: false },
};

export const DEFAULT_BUDGET: BudgetConfiguration = { percentBp: 300, basis: 'orgBranch', overrides: [], spendComponents: ['merit', 'promotion'], blockOverBudget: false };

export const DEFAULT_COLUMNS: ColumnsConfig = { roles: [] };

export const COLUMNS: readonly WorksheetColumn[] = ['currentPay', 'bandPosition', 'rating', 'recommendation', 'merit', 'promotion', 'lumpSum', 'equityRefresh', 'newPay', 'newCompaRatio', 'comment'];

/** Columns a planner can change; the others are figures (edit reads as view). */
export const EDITABLE_COLUMNS: ReadonlySet<WorksheetColumn> = new Set(['merit', 'promotion', 'lumpSum', 'equityRefresh', 'comment']);

export const DEFAULT_COLUMN_MODES: Required<ColumnModes> = Object.fromEntries(COLUMNS.map((column) => [column, EDITABLE_COLUMNS.has(column) ? 'edit' : 'view'])) as Required<ColumnModes>;

/** What a cycle stores of its conversions: the named reference rates and, per currency, the exact rate into the cycle currency. */
export interface ExchangeTable {
  rates: ForexRate[];
  conversions: Record<string, StoredRate>;
  cycleDigits?: number;
}

export const parse = <T>(text: string): T => JSON.parse(text) as T;

const MAX_DEPTH = 4;

/** Rules the contract's shape cannot say: each kind with its own fields, nesting at most four deep. */
export function eligibilityProblems(condition: EligibilityCondition, field = 'body', depth = 1): FieldError[] {
  const problems: FieldError[] = [];
  const extra = (names: (keyof EligibilityCondition)[]) => {
    for (const name of names) if (condition[name] !== undefined) problems.push({ field: `${field}.${name}`, message: `is not used by a ${condition.kind} rule` });
  };
  switch (condition.kind) {
    case 'all':
    case 'any':
      extra(['date', 'months', 'values', 'onLeave']);
      if (depth >= MAX_DEPTH && condition.rules?.length) problems.push({ field: `${field}.rules`, message: `nests deeper than ${MAX_DEPTH} levels` });
      else (condition.rules ?? []).forEach((rule, index) => problems.push(...eligibilityProblems(rule, `${field}.rules.${index}`, depth + 1)));
      break;
    case 'hiredBefore':
      extra(['rules', 'months', 'values', 'onLeave']);
      if (!condition.date) problems.push({ field: `${field}.date`, message: 'is required for a hiredBefore rule' });
      break;
    case 'monthsSinceLastPayChange':
      extra(['rules', 'date', 'values', 'onLeave']);
      if (condition.months === undefined) problems.push({ field: `${field}.months`, message: 'is required for a monthsSinceLastPayChange rule' });
      break;
    case 'employmentType':
    case 'country':
    case 'department':
      extra(['rules', 'date', 'months', 'onLeave']);
      if (!condition.values?.length) problems.push({ field: `${field}.values`, message: `is required for a ${condition.kind} rule` });
      else if (condition.kind === 'employmentType') {
        condition.values.forEach((value, index) => {
          if (!['full_time', 'part_time', 'contractor', 'intern'].includes(value)) problems.push({ field: `${field}.values.${index}`, message: 'must be one of: full_time, part_time, contractor, intern' });
        });
      } else if (condition.kind === 'country') {
        condition.values.forEach((value, index) => {
          if (!/^[A-Z]{2}$/.test(value)) problems.push({ field: `${field}.values.${index}`, message: 'must be an ISO 3166 alpha-2 code (GB)' });
        });
      }
      break;
    case 'ratingPresent':
      extra(['rules', 'date', 'months', 'values', 'onLeave']);
      break;
    case 'onLeave':
      extra(['rules', 'months', 'values']);
      if (condition.onLeave === undefined) problems.push({ field: `${field}.onLeave`, message: 'is required for an onLeave rule (true: on leave, false: not on leave)' });
      break;
  }
  return problems;
}

function rangeProblems(range: { minBp: number; targetBp: number; maxBp: number }, field: string): FieldError[] {
  return range.minBp <= range.targetBp && range.targetBp <= range.maxBp ? [] : [{ field, message: 'must run min ≤ target ≤ max' }];
}

/** A recommendation logic that agrees with itself and with the cycle's performance scale. */
export function recommendationProblems(logic: RecommendationLogic, scale: PerformanceConfig['scale']): FieldError[] {
  const problems: FieldError[] = [];
  if (logic.fallback) problems.push(...rangeProblems(logic.fallback, 'body.fallback'));
  if (logic.kind === 'variables') return [...problems, ...variablesProblems(logic, scale)];
  if (logic.kind === 'flat') {
    if (!logic.flat) problems.push({ field: 'body.flat', message: 'is required for a flat recommendation' });
    else problems.push(...rangeProblems(logic.flat, 'body.flat'));
    if (logic.matrix) problems.push({ field: 'body.matrix', message: 'is for a matrix recommendation' });
    if (logic.variables) problems.push({ field: 'body.variables', message: 'is for a several-variables recommendation' });
    return problems;
  }
  if (!logic.matrix) return [{ field: 'body.matrix', message: 'is required for a matrix recommendation' }];
  if (logic.flat) problems.push({ field: 'body.flat', message: 'is for a flat recommendation' });
  if (logic.variables) problems.push({ field: 'body.variables', message: 'is for a several-variables recommendation' });
  const [a, b, c] = logic.matrix.thresholds;
  if (a === undefined || b === undefined || c === undefined || !(a < b && b < c)) problems.push({ field: 'body.matrix.thresholds', message: 'must be three ascending numbers' });
  const ratings = new Set(scale.map((entry) => entry.value));
  const seen = new Set<string>();
  logic.matrix.cells.forEach((cell, index) => {
    const field = `body.matrix.cells.${index}`;
    if (!ratings.has(cell.rating)) problems.push({ field: `${field}.rating`, message: `is not on the cycle's performance scale (${[...ratings].join(', ')})` });
    const key = `${cell.rating}|${cell.column}`;
    if (seen.has(key)) problems.push({ field, message: `repeats rating ${cell.rating} × column ${cell.column}` });
    seen.add(key);
    problems.push(...rangeProblems(cell, field));
  });
  return problems;
}

/** Several variables: each factor with the table its variable needs, steps that run forward, caps in order. */
function variablesProblems(logic: RecommendationLogic, scale: PerformanceConfig['scale']): FieldError[] {
  const problems: FieldError[] = [];
  if (logic.flat) problems.push({ field: 'body.flat', message: 'is for a flat recommendation' });
  if (logic.matrix) problems.push({ field: 'body.matrix', message: 'is for a matrix recommendation' });
  const variables = logic.variables;
  if (!variables) return [...problems, { field: 'body.variables', message: 'is required for a several-variables recommendation' }];
  if (variables.capMinBp !== undefined && variables.capMaxBp !== undefined && variables.capMinBp > variables.capMaxBp) problems.push({ field: 'body.variables.capMaxBp', message: 'must not be below capMinBp' });
  const ratings = new Set(scale.map((entry) => entry.value));
  const used = new Set<string>();
  variables.factors.forEach((factor, index) => {
    const field = `body.variables.factors.${index}`;
    if (used.has(factor.variable)) problems.push({ field: `${field}.variable`, message: `repeats ${factor.variable}` });
    used.add(factor.variable);
    if (factor.variable === 'rating') {
      if (factor.steps) problems.push({ field: `${field}.steps`, message: 'is for a variable with values (not rating)' });
      if (!factor.ratings?.length) problems.push({ field: `${field}.ratings`, message: 'is required for the rating variable' });
      const seen = new Set<string>();
      (factor.ratings ?? []).forEach((entry, at) => {
        if (!ratings.has(entry.rating)) problems.push({ field: `${field}.ratings.${at}.rating`, message: `is not on the cycle's performance scale (${[...ratings].join(', ')})` });
        if (seen.has(entry.rating)) problems.push({ field: `${field}.ratings.${at}.rating`, message: `repeats ${entry.rating}` });
        seen.add(entry.rating);
      });
      return;
    }
    if (factor.ratings) problems.push({ field: `${field}.ratings`, message: 'is for the rating variable' });
    if (!factor.steps?.length) problems.push({ field: `${field}.steps`, message: `is required for the ${factor.variable} variable` });
    (factor.steps ?? []).forEach((step, at) => {
      if (step.from !== undefined && step.to !== undefined && !(step.from < step.to)) problems.push({ field: `${field}.steps.${at}.to`, message: 'must be above from' });
    });
  });
  return problems;
}

export function budgetProblems(budget: BudgetConfiguration): FieldError[] {
  const seen = new Set<string>();
  const problems: FieldError[] = [];
  (budget.overrides ?? []).forEach((override, index) => {
    if (seen.has(override.key)) problems.push({ field: `body.overrides.${index}.key`, message: `names ${override.key} twice` });
    seen.add(override.key);
  });
  return problems;
}

export function windowProblems(windows: readonly PlanningWindow[]): FieldError[] {
  const problems: FieldError[] = [];
  const stages = new Set<string>();
  windows.forEach((window, index) => {
    if (stages.has(window.stage)) problems.push({ field: `body.windows.${index}.stage`, message: `has a second ${window.stage} window` });
    stages.add(window.stage);
    if (Date.parse(window.closesAt) <= Date.parse(window.opensAt)) problems.push({ field: `body.windows.${index}.closesAt`, message: 'must be after opensAt' });
  });
  return problems;
}

export function throwIfProblems(message: string, problems: FieldError[]): void {
  if (problems.length) throw badRequest(message, problems);
}

/** The caller's mode per column: the widest any of their roles gives (edit > view > none). */
export function columnModesFor(config: ColumnsConfig, roleKeys: readonly string[]): Required<ColumnModes> {
  const rank: Record<DisplayMode, number> = { none: 0, view: 1, edit: 2 };
  const configured = new Map(config.roles.map((entry) => [entry.roleKey, entry.columns]));
  const modes = { ...DEFAULT_COLUMN_MODES };
  for (const column of COLUMNS) {
    const perRole = roleKeys.length ? roleKeys.map((key) => configured.get(key)?.[column] ?? DEFAULT_COLUMN_MODES[column]) : [DEFAULT_COLUMN_MODES[column]];
    let best: DisplayMode = 'none';
    for (const mode of perRole) if (rank[mode] > rank[best]) best = mode;
    modes[column] = !EDITABLE_COLUMNS.has(column) && best === 'edit' ? 'view' : best;
  }
  return modes;
}
