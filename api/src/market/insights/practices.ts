import type { components } from '../../contract-types.js';
import { badRequest, type FieldError } from '../../kernel/errors.js';
import {
  BELOW_THRESHOLD_BUCKET,
  COMPANY_COUNT_BUCKETS,
  COMPANY_STAGES,
  EMPLOYEE_COUNT_BUCKETS,
  GRANT_TIMING,
  GRANT_TYPES,
  INSUFFICIENT_DATA_LABEL,
  OWNERSHIP_GROUPS,
  VESTING_CLIFFS,
  VESTING_FREQUENCIES,
  VESTING_SCHEDULES,
  bucketOf,
  subIndustriesOf,
  type NamedOption,
} from '../../reference/catalog/index.js';
import { BENCHMARK_REQUEST_MESSAGES, DEFAULT_PRIVACY_RULE, EQUITY_PROGRAMME_UNKNOWN, UNKNOWN_PRACTICE, withheldStatement, type InsufficientReason, type MarketRelease } from '../engine/index.js';
import { currentRelease } from '../releases.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];
type Input = Schemas['EquityPracticesRequest'];
type Share = Schemas['EquityPracticeShare'];

const stageIds = new Set(COMPANY_STAGES.map((s) => s.id));
const ownershipIds = new Set(OWNERSHIP_GROUPS.map((o) => o.id));

/** Omitted lists mean everything; a list given empty is the explorer's mistake, with its message. */
function check(input: Input): { stages: Set<string>; ownership: Set<string>; industries: Set<string> } {
  const problems: FieldError[] = [];
  const list = (ids: string[] | undefined, all: string[], field: string, empty: string, known: (id: string) => boolean, what: string): Set<string> => {
    if (ids === undefined) return new Set(all);
    if (ids.length === 0) problems.push({ field: `body.${field}`, message: empty });
    for (const id of ids) if (!known(id)) problems.push({ field: `body.${field}`, message: `Unknown ${what} '${id}'` });
    return new Set(ids);
  };
  const stages = list(input.companyStages, [...stageIds], 'companyStages', BENCHMARK_REQUEST_MESSAGES.companyStages, (id) => stageIds.has(id), 'company stage');
  const ownership = list(input.companyOwnershipGroups, [...ownershipIds], 'companyOwnershipGroups', BENCHMARK_REQUEST_MESSAGES.companyOwnershipGroups, (id) => ownershipIds.has(id), 'company ownership group');
  const industries = list(input.industries, ['ind_all'], 'industries', BENCHMARK_REQUEST_MESSAGES.industries, (id) => subIndustriesOf(id).length > 0, 'industry');
  if (problems.length) throw badRequest(problems[0]?.message ?? 'The request is not valid', problems);
  return { stages, ownership, industries: new Set([...industries].flatMap(subIndustriesOf)) };
}

/**
 * A practice is a company's, so each company counts once: published with at least the rule's
 * companies, its employees behind them, and no company above the rule's share (one vote in n).
 * Which part failed is for tests only; a withheld answer carries the rule's one statement.
 */
export function withholding(companies: number, employees: number): InsufficientReason | null {
  const rule = DEFAULT_PRIVACY_RULE;
  if (companies < rule.minCompanies) return 'companies';
  if (employees < Math.max(1, rule.minEmployees)) return 'employees';
  if (1 / companies > rule.maxCompanyShare) return 'concentration';
  return null;
}

function shares(options: readonly NamedOption[], table: readonly string[], counts: Uint32Array, total: number): Share[] {
  return options.map((option) => {
    const code = table.indexOf(option.id);
    const companies = code >= 0 ? counts[code]! : 0;
    return { id: option.id, displayString: option.displayString, companies, share: Math.round((companies / total) * 10000) / 10000 };
  });
}

/** How the participants matching the filter grant equity: vesting, cliffs, vehicles, frequency, timing. */
export function describePractices(release: MarketRelease, input: Input): Omit<Schemas['EquityPractices'], 'releaseVersion'> {
  const filter = check(input);
  const practices = release.equityPractices;
  const { companies, dimensions } = release;
  const selected: number[] = [];
  let employees = 0;
  let considered = 0;
  let programmes = 0;
  for (let c = 0; c < companies.count; c++) {
    if (release.companyRecords[c] === 0) continue;
    if (!filter.stages.has(dimensions.stages[companies.stage[c]!]!)) continue;
    if (!filter.ownership.has(dimensions.ownershipGroups[companies.ownership[c]!]!)) continue;
    if (!filter.industries.has(dimensions.industries[companies.industry[c]!]!)) continue;
    // A company not known to grant equity or not is in neither side of the share.
    if (practices?.grantsEquity[c] === EQUITY_PROGRAMME_UNKNOWN) continue;
    considered++;
    if (practices?.grantsEquity[c] === 1) programmes++;
    // The practice shares are over the companies whose practice is known.
    if (!practices?.grantsEquity[c] || practices.vestingSchedule[c] === UNKNOWN_PRACTICE) continue;
    selected.push(c);
    employees += release.companyRecords[c]!;
  }
  if (withholding(selected.length, employees) !== null || !practices) {
    return {
      releaseId: release.id,
      status: 'insufficient_data',
      label: INSUFFICIENT_DATA_LABEL,
      insufficientReason: withheldStatement(),
      sample: { companies: null, employees: null, companyBucket: BELOW_THRESHOLD_BUCKET, employeeBucket: BELOW_THRESHOLD_BUCKET },
      equityProgrammeShare: null,
      vestingSchedules: null,
      cliffs: null,
      grantTypes: null,
      vestingFrequencies: null,
      grantTiming: null,
    };
  }
  const sample = {
    companies: selected.length,
    employees,
    companyBucket: bucketOf(COMPANY_COUNT_BUCKETS, selected.length),
    employeeBucket: bucketOf(EMPLOYEE_COUNT_BUCKETS, employees),
  };
  const { tables } = practices;
  const count = (column: Uint8Array, size: number): Uint32Array => {
    const counts = new Uint32Array(size);
    for (const c of selected) if (column[c]! < size) counts[column[c]!]!++;
    return counts;
  };
  const timing = new Uint32Array(tables.grantTimings.length);
  for (const c of selected) for (let k = 0; k < timing.length; k++) if (practices.grantTiming[c]! & (1 << k)) timing[k]!++;
  const total = selected.length;
  return {
    releaseId: release.id,
    status: 'published',
    label: null,
    insufficientReason: null,
    sample,
    equityProgrammeShare: Math.round((programmes / considered) * 10000) / 10000,
    vestingSchedules: shares(VESTING_SCHEDULES, tables.vestingSchedules, count(practices.vestingSchedule, tables.vestingSchedules.length), total),
    cliffs: shares(VESTING_CLIFFS, tables.cliffs, count(practices.cliff, tables.cliffs.length), total),
    grantTypes: shares(GRANT_TYPES, tables.grantTypes, count(practices.grantType, tables.grantTypes.length), total),
    vestingFrequencies: shares(VESTING_FREQUENCIES, tables.vestingFrequencies, count(practices.vestingFrequency, tables.vestingFrequencies.length), total),
    grantTiming: shares(GRANT_TIMING, tables.grantTimings, timing, total),
  };
}

export async function equityPractices(ctx: Pick<ServiceContext, 'deps'>, input: Input): Promise<Schemas['EquityPractices']> {
  const { deps } = ctx;
  const served = await currentRelease(deps);
  return { ...describePractices(served.release, input), releaseVersion: served.row.version };
}
