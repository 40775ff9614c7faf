import {
  COMPANY_STAGES,
  EQUITY_TIMEFRAME_OPTIONS,
  EQUITY_VIEW_OPTIONS,
  FOUNDER_LEVEL_ID,
  FOUNDER_TYPES,
  INTENDED_VS_ACTUAL_OPTIONS,
  OWNERSHIP_GROUPS,
  PERCENTILES,
  TOTAL_EQUITY_ID,
  UNVESTED_EQUITY_ID,
  UNVESTED_EQUITY_TIMEFRAME_OPTIONS,
  familiesOf,
  findCompensationType,
  isAllowedPercentile,
  levelsOf,
  placesOf,
  subIndustriesOf,
} from '../../reference/catalog/index.js';
import { EMPLOYMENT_TYPES } from './participants.js';
import type { BenchmarkRequest, BenchmarkRequestInput, MarketFilter, ValidationIssue } from './request.js';

/** The spec's messages, word for word; the last two, which the spec does not word, are ours. */
export const MESSAGES = {
  compensationTypes: 'Please select at least one compensation type',
  marketFilters: 'Please select at least one market filter',
  jobFamilies: 'Please select at least one job family',
  levels: 'Please select at least one level option',
  companyStages: 'Please select at least one company stage',
  companyOwnershipGroups: 'Please select at least one company ownership group',
  locations: 'Please select at least one location',
  industries: 'Please select at least one industry',
  founderTypes: "Founder type is required when level 'E9' is selected",
  intendedVsActual: 'Please select at least one option',
  equityViews: 'Please select at least one equity view',
  timeframes: 'Please select at least one timeframe',
  percentiles: `Percentiles must be some of ${PERCENTILES.join(', ')}`,
  currency: 'Currency must be local or an ISO 4217 code such as USD',
} as const;

const stageIds = new Set(COMPANY_STAGES.map((s) => s.id));
const ownershipIds = new Set(OWNERSHIP_GROUPS.map((o) => o.id));
const founderTypeIds = new Set(FOUNDER_TYPES.map((f) => f.id));
const intendedIds = new Set(INTENDED_VS_ACTUAL_OPTIONS.map((o) => o.value));
const viewIds = new Set(EQUITY_VIEW_OPTIONS.map((o) => o.value));
const timeframeIds = new Set(EQUITY_TIMEFRAME_OPTIONS.map((o) => o.value));
const unvestedTimeframeIds = new Set(UNVESTED_EQUITY_TIMEFRAME_OPTIONS.map((o) => o.value));

/** Every problem with a benchmark request, as field + message pairs; empty when it can run. */
export function validateBenchmarkRequest(input: BenchmarkRequestInput): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report = (field: string, message: string): void => void issues.push({ field, message });
  checkCompensationTypes(input.compensationTypes ?? [], report);
  const filters = input.marketFilters ?? [];
  if (filters.length === 0) report('marketFilters', MESSAGES.marketFilters);
  checkJobFamilies(input.jobFamilies ?? [], report);
  const founderRequired = checkLevels(input.levels ?? [], report);
  filters.forEach((filter, index) => checkMarketFilter(filter, `marketFilters[${index}]`, founderRequired, report));
  checkEquity(input, report);
  checkPercentiles(input.percentiles ?? [], report);
  // Whether the reference rates hold the code is known only with them, when the request runs.
  const currency = input.currency ?? 'local';
  if (currency !== 'local' && !/^[A-Z]{3}$/.test(currency)) report('currency', MESSAGES.currency);
  return issues;
}

/** Narrows a checked input to a request the engine can run. */
export function isValidBenchmarkRequest(input: BenchmarkRequestInput): input is BenchmarkRequest {
  return validateBenchmarkRequest(input).length === 0;
}

type Report = (field: string, message: string) => void;

function checkCompensationTypes(ids: string[], report: Report): void {
  if (ids.length === 0) report('compensationTypes', MESSAGES.compensationTypes);
  for (const id of ids) {
    const type = findCompensationType(id);
    if (!type) report('compensationTypes', `Unknown compensation type '${id}'`);
    else if (type.isDisabled) report('compensationTypes', `Compensation type '${id}' is not available`);
  }
}

function checkJobFamilies(ids: string[], report: Report): void {
  if (ids.length === 0) report('jobFamilies', MESSAGES.jobFamilies);
  for (const id of ids) if (familiesOf(id).length === 0) report('jobFamilies', `Unknown job family '${id}'`);
}

/** Returns whether E9 is among the chosen levels, which makes founder type mandatory. */
function checkLevels(levels: { type?: string; id?: string }[], report: Report): boolean {
  if (levels.length === 0) report('levels', MESSAGES.levels);
  let founderRequired = false;
  for (const level of levels) {
    if (level.type !== 'level' && level.type !== 'levelBlend') {
      report('levels', 'Level type must be level or levelBlend');
      continue;
    }
    const ids = levelsOf(level.type, level.id ?? '');
    if (ids.length === 0) report('levels', `Unknown level '${level.id ?? ''}'`);
    if (ids.includes(FOUNDER_LEVEL_ID)) founderRequired = true;
  }
  return founderRequired;
}

function checkMarketFilter(filter: Partial<MarketFilter>, path: string, founderRequired: boolean, report: Report): void {
  checkList(filter.companyStages, `${path}.companyStages`, MESSAGES.companyStages, (id) => stageIds.has(id), 'company stage', report);
  checkList(
    filter.companyOwnershipGroups,
    `${path}.companyOwnershipGroups`,
    MESSAGES.companyOwnershipGroups,
    (id) => ownershipIds.has(id),
    'company ownership group',
    report,
  );
  checkList(filter.locations, `${path}.locations`, MESSAGES.locations, (id) => placesOf(id).length > 0, 'location', report);
  checkList(filter.industries, `${path}.industries`, MESSAGES.industries, (id) => subIndustriesOf(id).length > 0, 'industry', report);
  const founders = filter.founderTypes ?? [];
  if (founderRequired && founders.length === 0) report(`${path}.founderTypes`, MESSAGES.founderTypes);
  for (const id of founders) if (!founderTypeIds.has(id)) report(`${path}.founderTypes`, `Unknown founder type '${id}'`);
  const employment = filter.employmentTypes;
  if (employment !== undefined) {
    if (employment.length === 0) report(`${path}.employmentTypes`, 'Please select at least one employment type');
    for (const id of employment) if (!(EMPLOYMENT_TYPES as readonly string[]).includes(id)) report(`${path}.employmentTypes`, `Unknown employment type '${id}'`);
  }
}

function checkList(
  ids: string[] | undefined,
  field: string,
  emptyMessage: string,
  known: (id: string) => boolean,
  what: string,
  report: Report,
): void {
  if (!ids || ids.length === 0) return report(field, emptyMessage);
  for (const id of ids) if (!known(id)) report(field, `Unknown ${what} '${id}'`);
}

function checkEquity(input: BenchmarkRequestInput, report: Report): void {
  const equityTypes = (input.compensationTypes ?? []).filter(
    (id) => findCompensationType(id)?.category === 'equity' && id !== TOTAL_EQUITY_ID,
  );
  if (equityTypes.length === 0) return;
  const equity = input.equity ?? {};
  checkList(equity.intendedVsActual, 'equity.intendedVsActual', MESSAGES.intendedVsActual, (v) => intendedIds.has(v), 'option', report);
  checkList(equity.views, 'equity.views', MESSAGES.equityViews, (v) => viewIds.has(v), 'equity view', report);
  if (equityTypes.some((id) => id !== UNVESTED_EQUITY_ID)) {
    checkList(equity.timeframes, 'equity.timeframes', MESSAGES.timeframes, (v) => timeframeIds.has(v), 'timeframe', report);
  }
  if (equityTypes.includes(UNVESTED_EQUITY_ID)) {
    checkList(
      equity.unvestedTimeframes,
      'equity.unvestedTimeframes',
      MESSAGES.timeframes,
      (v) => unvestedTimeframeIds.has(v),
      'unvested timeframe',
      report,
    );
  }
}

function checkPercentiles(percentiles: number[], report: Report): void {
  // Enough percentiles of one cell solve for every record in it; the product publishes seven.
  if (percentiles.some((value) => !isAllowedPercentile(value))) report('percentiles', MESSAGES.percentiles);
}
