import type { components } from '../../../../openapi.d.ts';

export type BenchmarkingFilters = components['schemas']['BenchmarkingFilters'];
export type BenchmarkRequest = components['schemas']['BenchmarkRequest'];
export type BenchmarkResult = components['schemas']['BenchmarkResult'];
export type BenchmarkCell = components['schemas']['BenchmarkCell'];
export type MarketPercentile = components['schemas']['MarketPercentile'];

export interface MarketSelection {
  locations: string[];
  industries: string[];
  companyStages: string[];
  companyOwnershipGroups: string[];
  founderTypes: string[];
  /** Whose pay: empty for employees only (the market); both when contractors are included. */
  employmentTypes?: EmploymentType[];
}

export type EmploymentType = 'employee' | 'contractor';
/** What "Include contractors" asks for: contractors on request, beside the employees. */
export const WITH_CONTRACTORS: readonly EmploymentType[] = ['employee', 'contractor'];
export const includesContractors = (market: { employmentTypes?: readonly string[] }): boolean => market.employmentTypes?.includes('contractor') ?? false;

export interface LevelChoice {
  type: 'level' | 'levelBlend';
  id: string;
}

export interface Selection {
  jobFamilies: string[];
  levels: LevelChoice[];
  markets: MarketSelection[];
  compensationTypes: string[];
  equity: { intendedVsActual: string[]; views: string[]; timeframes: string[]; unvestedTimeframes: string[] };
  percentiles: MarketPercentile[];
  currency: 'local' | 'USD';
}

/** The only percentiles the product publishes (the filters list them too); the server refuses any other. */
export const MARKET_PERCENTILES: readonly MarketPercentile[] = [10, 25, 40, 50, 60, 75, 90];
export const isMarketPercentile = (value: number): value is MarketPercentile => (MARKET_PERCENTILES as readonly number[]).includes(value);
/** The picker offers these (spec §9), all among the published ones. */
export const PICKER_PERCENTILES: readonly MarketPercentile[] = [10, 25, 50, 75, 90];
export const TOTAL_EQUITY = 'total_equity';
export const UNVESTED_EQUITY = 'unvested_equity';
export const FOUNDER_LEVEL = 'e9';

/** Locations by tier (spec §9): the US as a whole and its three tiers, Canada, and in Europe the UK and Germany. */
export const LOCATION_GROUPS: { title: string; ids: string[] }[] = [
  { title: 'United States', ids: ['840', '840_1', '840_2', '840_3'] },
  { title: 'Canada', ids: ['124'] },
  { title: 'Europe', ids: ['826', '276'] },
];
export const LOCATION_HINTS: Record<string, string> = {
  '840': 'All US metros',
  '840_1': 'SF Bay Area, New York City, Seattle',
  '840_2': 'Nine metros',
  '840_3': 'Other US metros',
  '124': 'All of Canada',
  '826': 'United Kingdom',
  '276': 'Germany',
};

/**
 * The tier groups with only the locations the served release has records in (and those already
 * chosen, so they can be unchosen): a place with nobody in it could only answer "Insufficient data".
 */
export function offeredGroups(held: ReadonlySet<string>, chosen: readonly string[] = []): { title: string; ids: string[] }[] {
  return LOCATION_GROUPS.map((group) => ({ ...group, ids: group.ids.filter((id) => held.has(id) || chosen.includes(id)) })).filter((group) => group.ids.length > 0);
}

/** The catalog's regions (UN M49 codes); every other location id of three digits is a country (ISO 3166-1 numeric). */
export const REGION_IDS: readonly string[] = ['002', '019', '142', '150', '009'];

export interface NamedLocation {
  id: string;
  name: string;
}

/**
 * The regions and the countries (beyond LOCATION_GROUPS) among the locations the served release
 * holds, each by name: every ISO 3166-1 country is a market location, so there may be some 250.
 */
export function regionsAndCountries(locations: readonly NamedLocation[]): { regions: NamedLocation[]; countries: NamedLocation[] } {
  const grouped = new Set(LOCATION_GROUPS.flatMap((group) => group.ids));
  const byName = (a: NamedLocation, b: NamedLocation) => a.name.localeCompare(b.name);
  const areas = locations.filter((entry) => /^\d{3}$/.test(entry.id) && !grouped.has(entry.id)).map((entry) => ({ id: entry.id, name: entry.name }));
  return { regions: areas.filter((entry) => REGION_IDS.includes(entry.id)).sort(byName), countries: areas.filter((entry) => !REGION_IDS.includes(entry.id)).sort(byName) };
}

/** Countries whose name holds the text (any case), and those already chosen, so they can be unchosen. */
export function matchingCountries(countries: readonly NamedLocation[], text: string, chosen: readonly string[]): NamedLocation[] {
  const term = text.trim().toLocaleLowerCase();
  return term ? countries.filter((country) => country.name.toLocaleLowerCase().includes(term) || chosen.includes(country.id)) : [...countries];
}

/** The spec's default percentile codes: P25 for cash, P50 for equity. */
export const DEFAULT_PERCENTILE = { cash: 25, equity: 50 } as const satisfies Record<string, MarketPercentile>;

/** The default percentiles of a choice of compensation types: P25 when any is cash, P50 when any is equity. */
export function defaultPercentiles(compensationTypes: readonly string[], filters: Pick<BenchmarkingFilters, 'compTypes'>): MarketPercentile[] {
  const chosen = new Set<MarketPercentile>();
  for (const id of compensationTypes) chosen.add(filters.compTypes.equity.some((type) => type.id === id) ? DEFAULT_PERCENTILE.equity : DEFAULT_PERCENTILE.cash);
  if (chosen.size === 0) chosen.add(DEFAULT_PERCENTILE.cash);
  return [...chosen].sort((a, b) => a - b);
}

export function samePercentiles(a: readonly number[], b: readonly number[]): boolean {
  const order = (list: readonly number[]) => [...list].sort((x, y) => x - y);
  const right = order(b);
  return a.length === b.length && order(a).every((value, index) => value === right[index]);
}

/**
 * New compensation types: percentiles still at the defaults of the old types follow to the defaults
 * of the new ones; percentiles the person chose stay.
 */
export function withCompensationTypes(selection: Selection, compensationTypes: string[], filters: BenchmarkingFilters): Selection {
  const untouched = samePercentiles(selection.percentiles, defaultPercentiles(selection.compensationTypes, filters));
  return { ...selection, compensationTypes, percentiles: untouched ? defaultPercentiles(compensationTypes, filters) : selection.percentiles };
}

/** The preferred benchmarking location of the company settings (spec §4), as the picker's locations. */
export type PreferredLocation = 'Europe' | 'Canada' | 'United States';
export const PREFERRED_LOCATION_IDS: Record<PreferredLocation, string[]> = {
  Europe: ['826', '276'],
  Canada: ['124'],
  'United States': ['840'],
};

/** The whole market of the preferred location (else the United States), every stage and ownership group, every industry. */
export function defaultMarket(filters: BenchmarkingFilters, preferred: PreferredLocation | null = null): MarketSelection {
  return {
    locations: [...PREFERRED_LOCATION_IDS[preferred ?? 'United States']],
    industries: filters.industriesAndSubIndustriesWithIds.map((industry) => industry.upstreamId),
    companyStages: filters.companyStagesWithIds.map((stage) => stage.id),
    companyOwnershipGroups: filters.companyOwnershipGroupsWithIds.map((group) => group.id),
    founderTypes: [],
    employmentTypes: [],
  };
}

export function defaultSelection(filters: BenchmarkingFilters, preferred: PreferredLocation | null = null): Selection {
  const base = filters.compTypes.cash.find((type) => type.id === 'base') ?? filters.compTypes.cash[0];
  const compensationTypes = base ? [base.id] : [];
  return {
    jobFamilies: [],
    levels: [],
    markets: [defaultMarket(filters, preferred)],
    compensationTypes,
    equity: {
      intendedVsActual: filters.equityIntendedVsActualOptions.slice(0, 1).map((option) => option.value),
      views: filters.equityViewOptions.filter((view) => !view.isPremium).slice(0, 1).map((view) => view.value),
      timeframes: filters.equityTimeframeOptions.slice(0, 1).map((option) => option.value),
      unvestedTimeframes: filters.unvestedEquityTimeframeOptions.slice(0, 1).map((option) => option.value),
    },
    percentiles: defaultPercentiles(compensationTypes, filters),
    currency: 'local',
  };
}

export function toggle<T>(list: T[], item: T, same: (a: T, b: T) => boolean = Object.is): T[] {
  return list.some((entry) => same(entry, item)) ? list.filter((entry) => !same(entry, item)) : [...list, item];
}

export const needsEquityOptions = (selection: Selection, filters: BenchmarkingFilters): boolean =>
  selection.compensationTypes.some((id) => id !== TOTAL_EQUITY && filters.compTypes.equity.some((type) => type.id === id));

/** The spec's form rules (§5), with its messages word for word; keyed by the section they belong to. */
export function validateSelection(selection: Selection, filters: BenchmarkingFilters): { section: string; message: string }[] {
  const problems: { section: string; message: string }[] = [];
  const add = (section: string, message: string) => problems.push({ section, message });
  if (selection.compensationTypes.length === 0) add('compensationTypes', 'Please select at least one compensation type');
  if (selection.markets.length === 0) add('markets', 'Please select at least one market filter');
  if (selection.jobFamilies.length === 0) add('jobFamilies', 'Please select at least one job family');
  if (selection.levels.length === 0) add('levels', 'Please select at least one level option');
  const founderRequired = selection.levels.some((level) => level.id === FOUNDER_LEVEL);
  selection.markets.forEach((market, index) => {
    const section = `markets.${index}`;
    if (market.companyStages.length === 0) add(section, 'Please select at least one company stage');
    if (market.companyOwnershipGroups.length === 0) add(section, 'Please select at least one company ownership group');
    if (market.locations.length === 0) add(section, 'Please select at least one location');
    if (market.industries.length === 0) add(section, 'Please select at least one industry');
    if (founderRequired && market.founderTypes.length === 0) add(section, "Founder type is required when level 'E9' is selected");
  });
  if (needsEquityOptions(selection, filters)) {
    if (selection.equity.intendedVsActual.length === 0) add('equity', 'Please select at least one option');
    if (selection.equity.views.length === 0) add('equity', 'Please select at least one equity view');
    const unvested = selection.compensationTypes.includes(UNVESTED_EQUITY);
    const normal = selection.compensationTypes.some((id) => id !== UNVESTED_EQUITY && id !== TOTAL_EQUITY && filters.compTypes.equity.some((t) => t.id === id));
    if ((unvested && selection.equity.unvestedTimeframes.length === 0) || (normal && selection.equity.timeframes.length === 0)) {
      add('equity', 'Please select at least one timeframe');
    }
  }
  return problems;
}

/** The contract's request for a selection; equity options only when an equity type needs them. */
export function toRequest(selection: Selection, filters: BenchmarkingFilters): BenchmarkRequest {
  const founderRequired = selection.levels.some((level) => level.id === FOUNDER_LEVEL);
  return {
    compensationTypes: selection.compensationTypes,
    jobFamilies: selection.jobFamilies,
    levels: selection.levels,
    marketFilters: selection.markets.map((market) => ({
      locations: market.locations,
      industries: market.industries,
      companyStages: market.companyStages,
      companyOwnershipGroups: market.companyOwnershipGroups,
      ...(founderRequired ? { founderTypes: market.founderTypes } : {}),
      ...(includesContractors(market) ? { employmentTypes: market.employmentTypes } : {}),
    })),
    ...(needsEquityOptions(selection, filters) ? { equity: selection.equity } : {}),
    // A selection kept in the tab from before holds nothing else, but the server would refuse it.
    percentiles: selection.percentiles.filter(isMarketPercentile).sort((a, b) => a - b),
    currency: selection.currency,
  };
}

/** A stored request (a saved report) back into the picker's selection, with the defaults for what it leaves out. */
export function fromRequest(request: BenchmarkRequest, filters: BenchmarkingFilters): Selection {
  const defaults = defaultSelection(filters);
  return {
    jobFamilies: request.jobFamilies ?? [],
    levels: (request.levels ?? []).map((level) => ({ type: level.type === 'levelBlend' ? 'levelBlend' : 'level', id: level.id })),
    markets: (request.marketFilters ?? []).map((market) => ({
      locations: market.locations ?? [],
      industries: market.industries ?? [],
      companyStages: market.companyStages ?? [],
      companyOwnershipGroups: market.companyOwnershipGroups ?? [],
      founderTypes: market.founderTypes ?? [],
      // Employees alone are the default, kept as none named.
      employmentTypes: includesContractors(market) ? (market.employmentTypes ?? []) : [],
    })),
    compensationTypes: request.compensationTypes ?? [],
    equity: { ...defaults.equity, ...request.equity },
    // A report saved before only the published percentiles were accepted keeps just those.
    percentiles: request.percentiles?.filter(isMarketPercentile).length ? request.percentiles.filter(isMarketPercentile) : defaultPercentiles(request.compensationTypes ?? [], filters),
    currency: request.currency === 'USD' ? 'USD' : 'local',
  };
}
