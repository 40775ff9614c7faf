import {
  GRANT_TIMING,
  GRANT_TYPES,
  VESTING_CLIFFS,
  VESTING_FREQUENCIES,
  VESTING_SCHEDULES,
  LOCATIONS,
  findJobFamily,
  findLevel,
  findLocation,
  isPlace,
} from '../../reference/catalog/index.js';
import {
  EQUITY_PROGRAMME_UNKNOWN,
  MAX_PLACES,
  contractorPlace,
  placeOfLocation,
  type MarketEmploymentType,
  NO_AMOUNT,
  UNKNOWN_PRACTICE,
  catalogPracticeTables,
  emptyAmounts,
  type EquityPractices,
  type ParticipantMarket,
  type ReleaseDimensions,
} from '../engine/participants.js';

/**
 * What opted-in customers add to a release, anonymised: participants are numbers, records carry
 * no ids or names. Plain data, so it can be stored with the release and handed to a build thread.
 */
export interface ContributedParticipant {
  participant: number;
  companyStage: string;
  ownershipGroup: string;
  /** A sub-industry id. */
  industry: string;
  /** The place (metro or country) most of its contributed people work in. */
  headquarters: string;
  valuationUsd: number;
  grantsEquity: boolean;
  /** Whether `grantsEquity` is known: the company said, or its grants show it. */
  equityProgrammeKnown: boolean;
  grantType: string | null;
  vestingSchedule: string | null;
  vestingCliff: string | null;
  vestingFrequency: string | null;
  grantTimings: string[];
}

export interface ContributedRecord {
  participant: number;
  jobFamilyId: string;
  levelId: string;
  /** A place id: a metro, or a country at country level. */
  locationId: string;
  /** Contractors go in apart from employees (see contractorPlace) and are read only on request. */
  employmentType: MarketEmploymentType;
  /** The currency of the amounts when not the place's own: USD in a place whose own has no reference rate. */
  currency?: string;
  /**
   * Who the record is, stable across releases: a keyed hash of the employee's id within its company
   * (personTag), never 0. Its move is drawn from it, so a colleague joining or leaving does not give
   * it a new one. Absent on records stored before, which are told apart by their rank.
   */
  person?: number;
  /** Whole units of the place's currency (or of `currency`). */
  base: number;
  variable: number | null;
  annualBonus: number | null;
  totalCash: number;
  newHireEquity: number | null;
}

export interface Contribution {
  participants: ContributedParticipant[];
  records: ContributedRecord[];
}

export const NO_CONTRIBUTION: Contribution = Object.freeze({ participants: [], records: [] });

/** A record the market can place: a catalog family, level and place (metro or country), and some base pay. */
export function isPlaceable(record: Pick<ContributedRecord, 'jobFamilyId' | 'levelId' | 'locationId' | 'base'>): boolean {
  const place = findLocation(record.locationId);
  return Boolean(findJobFamily(record.jobFamilyId) && findLevel(record.levelId) && place && isPlace(place) && record.base > 0);
}

const catalogOrder = new Map(LOCATIONS.map((l, index) => [l.paybenchLocationId, index]));

/**
 * The dimensions with the places contributed records are in but the demo market is not (countries,
 * at country level), appended in catalog order with their currencies; the same dimensions when
 * there are none, so a release of metros only is laid out as before.
 */
function withPlacesOf(dimensions: ReleaseDimensions, contribution: Contribution): ReleaseDimensions {
  const known = new Set(dimensions.locations);
  const orderOf = (id: string): number => {
    const { placeId, contractor } = placeOfLocation(id);
    return (catalogOrder.get(placeId) ?? Infinity) * 2 + (contractor ? 1 : 0);
  };
  // Headquarters too: a company of contractors alone in a country has its headquarters there.
  const added = [...new Set([...contribution.records.map(recordLocationOf), ...contribution.participants.map((p) => p.headquarters)])]
    .filter((id) => !known.has(id))
    .sort((a, b) => orderOf(a) - orderOf(b) || a.localeCompare(b));
  if (added.length === 0) return dimensions;
  // A place's records all share one currency (collect.ts picks it by the rates alone).
  const recordCurrency = new Map(contribution.records.flatMap((record) => (record.currency ? [[record.locationId, record.currency] as const] : [])));
  const currencies = added.map((id) => {
    const { placeId } = placeOfLocation(id);
    const place = findLocation(placeId);
    if (!place || !isPlace(place)) throw new Error(`Contributed location '${id}' is not a place of the market catalog`);
    return recordCurrency.get(placeId) ?? place.currencyCode;
  });
  if (dimensions.locations.length + added.length > MAX_PLACES) {
    throw new Error(`Contributed records are in ${dimensions.locations.length + added.length} places; a release holds at most ${MAX_PLACES}`);
  }
  return {
    ...dimensions,
    locations: [...dimensions.locations, ...added],
    locationCurrencies: [...dimensions.locationCurrencies, ...currencies],
  };
}

/** Where a contributed record sits in the release: its place, or its place's contractors. */
function recordLocationOf(record: ContributedRecord): string {
  return record.employmentType === 'contractor' ? contractorPlace(record.locationId) : record.locationId;
}

/** The vesting schedule a grant's months say, when the catalog has one like it. */
export function scheduleOfMonths(months: number): string | null {
  return ({ 12: 'one_year', 36: 'three_year_even', 48: 'four_year_even', 60: 'five_year_even' } as Record<number, string>)[months] ?? null;
}

export function cliffOfMonths(months: number): string | null {
  return VESTING_CLIFFS.find((c) => c.months === months)?.id ?? null;
}

export const GRANT_TYPE_OF: Readonly<Record<string, string>> = { option: 'stock_options', rsu: 'rsu', rsa: 'rsa' };
export const GRANT_TIMING_OF: Readonly<Record<string, string>> = { new_hire: 'at_hire', refresher: 'annual_cycle', promotion: 'on_promotion', performance: 'ad_hoc', other: 'ad_hoc' };

const known = {
  grantTypes: new Set(GRANT_TYPES.map((t) => t.id)),
  schedules: new Set(VESTING_SCHEDULES.map((s) => s.id)),
  cliffs: new Set(VESTING_CLIFFS.map((c) => c.id)),
  frequencies: new Set(VESTING_FREQUENCIES.map((f) => f.id)),
  timings: new Set(GRANT_TIMING.map((g) => g.id)),
};

/**
 * The participant market with the contributions appended: contributed companies after the demo's,
 * their records after the demo's, with the same code tables plus the places only contributions are
 * in. Amounts a contribution does not carry are absent, as they are for demo records without them.
 */
export function mergeContributions(market: ParticipantMarket, contribution: Contribution): ParticipantMarket {
  if (contribution.records.length === 0) return market;
  const dimensions = withPlacesOf(market.dimensions, contribution);
  const code = (ids: readonly string[], id: string, what: string): number => {
    const index = ids.indexOf(id);
    if (index < 0) throw new Error(`Contributed ${what} '${id}' is not in the release's dimensions`);
    return index;
  };
  const demoCompanies = market.companies.count;
  const added = contribution.participants.length;
  const companies = market.companies;
  const appendBytes = (column: Uint8Array, values: number[]): Uint8Array => {
    const out = new Uint8Array(column.length + values.length);
    out.set(column);
    out.set(values, column.length);
    return out;
  };
  const appendDoubles = (column: Float64Array, values: number[]): Float64Array => {
    const out = new Float64Array(column.length + values.length);
    out.set(column);
    out.set(values, column.length);
    return out;
  };
  const byParticipant = [...contribution.participants].sort((a, b) => a.participant - b.participant);
  byParticipant.forEach((p, k) => {
    if (p.participant !== k) throw new Error('Contributed participants must be numbered from 0 without gaps');
  });
  const mergedCompanies = {
    count: demoCompanies + added,
    ids: [...companies.ids, ...byParticipant.map((p) => `participant_${p.participant + 1}`)],
    names: [...companies.names, ...byParticipant.map((p) => `Participant ${p.participant + 1}`)],
    stage: appendBytes(companies.stage, byParticipant.map((p) => code(dimensions.stages, p.companyStage, 'stage'))),
    ownership: appendBytes(companies.ownership, byParticipant.map((p) => code(dimensions.ownershipGroups, p.ownershipGroup, 'ownership group'))),
    industry: appendBytes(companies.industry, byParticipant.map((p) => code(dimensions.industries, p.industry, 'industry'))),
    headquarters: appendBytes(companies.headquarters, byParticipant.map((p) => code(dimensions.locations, p.headquarters, 'location'))),
    valuationUsd: appendDoubles(companies.valuationUsd, byParticipant.map((p) => p.valuationUsd)),
    priceRatio: appendDoubles(companies.priceRatio, byParticipant.map(() => 1)),
  };
  const demo = market.employees;
  const n = demo.count + contribution.records.length;
  const employees = {
    count: n,
    company: new Uint32Array(n),
    family: new Uint8Array(n),
    level: new Uint8Array(n),
    location: new Uint8Array(n),
    founder: new Uint8Array(n),
    amounts: emptyAmounts(n),
    person: new Int32Array(n),
  };
  employees.company.set(demo.company);
  employees.family.set(demo.family);
  employees.level.set(demo.level);
  employees.location.set(demo.location);
  employees.founder.set(demo.founder);
  if (demo.person) employees.person.set(demo.person);
  for (const id of Object.keys(demo.amounts) as (keyof typeof demo.amounts)[]) employees.amounts[id].set(demo.amounts[id]);
  contribution.records.forEach((record, k) => {
    const i = demo.count + k;
    employees.company[i] = demoCompanies + record.participant;
    employees.family[i] = code(dimensions.families, record.jobFamilyId, 'job family');
    employees.level[i] = code(dimensions.levels, record.levelId, 'level');
    employees.location[i] = code(dimensions.locations, recordLocationOf(record), 'location');
    employees.person[i] = record.person ?? 0;
    employees.amounts.base[i] = record.base;
    employees.amounts.variable[i] = record.variable ?? NO_AMOUNT;
    employees.amounts.annual_bonus[i] = record.annualBonus ?? NO_AMOUNT;
    employees.amounts.total_cash[i] = record.totalCash;
    employees.amounts.new_hire_equity[i] = record.newHireEquity ?? NO_AMOUNT;
  });
  return {
    dimensions,
    companies: mergedCompanies,
    employees,
    equityPractices: mergePractices(market.equityPractices, demoCompanies, byParticipant),
    syntheticCompanies: market.syntheticCompanies ?? 0,
  };
}

function mergePractices(demo: EquityPractices | undefined, demoCompanies: number, participants: ContributedParticipant[]): EquityPractices {
  const tables = demo?.tables ?? catalogPracticeTables();
  const size = demoCompanies + participants.length;
  const column = (existing: Uint8Array | undefined, fill: number): Uint8Array => {
    const out = new Uint8Array(size).fill(fill);
    if (existing) out.set(existing);
    return out;
  };
  const merged: EquityPractices = {
    tables,
    grantsEquity: column(demo?.grantsEquity, 0),
    grantType: column(demo?.grantType, UNKNOWN_PRACTICE),
    vestingSchedule: column(demo?.vestingSchedule, UNKNOWN_PRACTICE),
    cliff: column(demo?.cliff, UNKNOWN_PRACTICE),
    vestingFrequency: column(demo?.vestingFrequency, UNKNOWN_PRACTICE),
    grantTiming: column(demo?.grantTiming, 0),
  };
  const codeOf = (table: readonly string[], id: string | null, ids: Set<string>): number => (id && ids.has(id) ? table.indexOf(id) : UNKNOWN_PRACTICE);
  participants.forEach((p, k) => {
    const c = demoCompanies + k;
    merged.grantsEquity[c] = p.grantsEquity ? 1 : p.equityProgrammeKnown ? 0 : EQUITY_PROGRAMME_UNKNOWN;
    merged.grantType[c] = codeOf(tables.grantTypes, p.grantType, known.grantTypes);
    merged.vestingSchedule[c] = codeOf(tables.vestingSchedules, p.vestingSchedule, known.schedules);
    merged.cliff[c] = codeOf(tables.cliffs, p.vestingCliff, known.cliffs);
    merged.vestingFrequency[c] = codeOf(tables.vestingFrequencies, p.vestingFrequency, known.frequencies);
    merged.grantTiming[c] = p.grantTimings.filter((t) => known.timings.has(t)).reduce((mask, t) => mask | (1 << tables.grantTimings.indexOf(t)), 0);
  });
  return merged;
}
