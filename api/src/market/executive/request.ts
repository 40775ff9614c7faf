import { COMPANY_STAGES, EXECUTIVE_TITLES, FOUNDER_TYPES, OWNERSHIP_GROUPS, UNITED_STATES_ID, type ExecutiveTitle } from '../../reference/catalog/index.js';
import { BENCHMARK_REQUEST_MESSAGES, validateBenchmarkRequest, type BenchmarkRequestInput, type EquitySelection, type ValidationIssue } from '../engine/index.js';

/** An executive market filter: industries are required, the rest default to everything in the US. */
export interface ExecutiveMarketFilterInput {
  companyStages?: string[];
  companyOwnershipGroups?: string[];
  locations?: string[];
  industries?: string[];
}

export interface ExecutiveRequestInput {
  founderTypes?: string[];
  jobTitles?: string[];
  marketFilters?: ExecutiveMarketFilterInput[];
  compensationTypes?: string[];
  equity?: EquitySelection;
  percentiles?: number[];
  currency?: string;
}

/** The spec's executive rules, in the words of the employee explorer's messages. */
export const EXECUTIVE_MESSAGES = {
  founderTypes: 'Please select at least one founder type',
  jobTitles: 'Please select at least one job title',
  marketFilters: BENCHMARK_REQUEST_MESSAGES.marketFilters,
  industries: BENCHMARK_REQUEST_MESSAGES.industries,
} as const;

/** Comp types an executive query reports when it names none. */
export const DEFAULT_EXECUTIVE_COMPENSATION_TYPES = ['base', 'annual_bonus', 'total_cash', 'total_equity'];

const titleById = new Map(EXECUTIVE_TITLES.map((t) => [t.id, t]));
const founderTypeIds = new Set(FOUNDER_TYPES.map((f) => f.id));

export function findExecutiveTitle(id: string): ExecutiveTitle | undefined {
  return titleById.get(id);
}

/** One explorer request per title: the title's family and level, with the filters and founder types applied. */
export function titleRequest(input: ExecutiveRequestInput, title: ExecutiveTitle): BenchmarkRequestInput {
  const founderTypes = input.founderTypes ?? [];
  return {
    compensationTypes: input.compensationTypes ?? DEFAULT_EXECUTIVE_COMPENSATION_TYPES,
    marketFilters: (input.marketFilters ?? []).map((filter) => ({
      companyStages: filter.companyStages ?? COMPANY_STAGES.map((s) => s.id),
      companyOwnershipGroups: filter.companyOwnershipGroups ?? OWNERSHIP_GROUPS.map((o) => o.id),
      locations: filter.locations ?? [UNITED_STATES_ID],
      industries: filter.industries ?? [],
      founderTypes,
    })),
    jobFamilies: [title.jobFamilyId],
    levels: [{ type: 'level', id: title.levelId }],
    ...(input.equity ? { equity: input.equity } : {}),
    ...(input.percentiles ? { percentiles: input.percentiles } : {}),
    ...(input.currency ? { currency: input.currency } : {}),
  };
}

/** Every problem with an executive request; empty when it can run. */
export function validateExecutiveRequest(input: ExecutiveRequestInput): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const founderTypes = input.founderTypes ?? [];
  if (founderTypes.length === 0) issues.push({ field: 'founderTypes', message: EXECUTIVE_MESSAGES.founderTypes });
  for (const id of founderTypes) if (!founderTypeIds.has(id)) issues.push({ field: 'founderTypes', message: `Unknown founder type '${id}'` });
  const titles = input.jobTitles ?? [];
  if (titles.length === 0) issues.push({ field: 'jobTitles', message: EXECUTIVE_MESSAGES.jobTitles });
  for (const id of titles) if (!titleById.has(id)) issues.push({ field: 'jobTitles', message: `Unknown job title '${id}'` });
  const filters = input.marketFilters ?? [];
  if (filters.length === 0) issues.push({ field: 'marketFilters', message: EXECUTIVE_MESSAGES.marketFilters });
  filters.forEach((filter, index) => {
    if (!filter.industries?.length) issues.push({ field: `marketFilters[${index}].industries`, message: EXECUTIVE_MESSAGES.industries });
  });
  // Everything else is the explorer's rules, checked on the request of any one title.
  const probe = EXECUTIVE_TITLES[0];
  if (probe) {
    const explorerIssues = validateBenchmarkRequest(titleRequest({ ...input, founderTypes: ['founder'], marketFilters: filters.map((f) => ({ ...f, industries: f.industries?.length ? f.industries : ['ind_all'] })) }, probe));
    // Founder types and the presence of filters are reported above, once.
    for (const issue of explorerIssues) if (issue.field !== 'marketFilters' && !issue.field.endsWith('.founderTypes')) issues.push(issue);
  }
  return dedupe(issues);
}

function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.field}|${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
