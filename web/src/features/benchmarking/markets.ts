import type { BenchmarkingFilters } from './selection';

/** A market as a request or a selection holds it. */
export interface MarketLike {
  locations?: string[];
  industries?: string[];
  companyStages?: string[];
  companyOwnershipGroups?: string[];
  founderTypes?: string[];
  employmentTypes?: readonly string[];
}

/** Employees are the market; only a market with contractors says whose pay it holds (as the API names it). */
export function employmentName(market: MarketLike | undefined): string | null {
  if (!market?.employmentTypes?.includes('contractor')) return null;
  return market.employmentTypes.includes('employee') ? 'Employees and contractors' : 'Contractors';
}

/** A market's locations, and whose pay when not only employees': "US Tier 1 · Employees and contractors". */
function marketTitle(market: MarketLike, name: (id: string) => string): string {
  const employment = employmentName(market);
  return employment ? `${marketLocations(market, name)} · ${employment}` : marketLocations(market, name);
}

/** A market's locations by name: "US Tier 1", "United Kingdom, Germany". */
export function marketLocations(market: MarketLike | undefined, name: (id: string) => string): string {
  return (market?.locations ?? []).map(name).join(', ') || 'No location';
}

/** How a market is labelled in results: its locations, and its number when there are several. */
export function marketLabeller(markets: readonly MarketLike[] | undefined, name: (id: string) => string): (index: number) => string {
  return (index) => {
    const market = markets?.[index];
    if (!market) return `Market ${index + 1}`;
    return (markets?.length ?? 0) > 1 ? `Market ${index + 1}: ${marketTitle(market, name)}` : marketTitle(market, name);
  };
}

const narrowed = (chosen: readonly string[] | undefined, all: readonly string[]) => chosen !== undefined && !(chosen.length === all.length && all.every((id) => chosen.includes(id)));

/**
 * What sets a market apart beyond its locations: the stages, ownership groups and industries when
 * not all of them, and founder types. Nothing for the defaults.
 */
export function marketFilterNotes(market: MarketLike, filters: BenchmarkingFilters | undefined, name: (id: string) => string): string[] {
  if (!filters) return [];
  const notes: string[] = [];
  if (narrowed(market.companyStages, filters.companyStagesWithIds.map((stage) => stage.id))) notes.push(`stages: ${(market.companyStages ?? []).map(name).join(', ')}`);
  if (narrowed(market.companyOwnershipGroups, filters.companyOwnershipGroupsWithIds.map((group) => group.id))) notes.push(`ownership: ${(market.companyOwnershipGroups ?? []).map(name).join(', ')}`);
  if (narrowed(market.industries, filters.industriesAndSubIndustriesWithIds.map((industry) => industry.upstreamId))) notes.push(`industries: ${(market.industries ?? []).map(name).join(', ')}`);
  if (market.founderTypes?.length) notes.push(`founder types: ${market.founderTypes.map(name).join(', ')}`);
  const employment = employmentName(market);
  if (employment) notes.push(employment);
  return notes;
}

/** A market in one line: its locations, then what narrows it. */
export function describeMarket(market: MarketLike, filters: BenchmarkingFilters | undefined, name: (id: string) => string): string {
  return [marketLocations(market, name), ...marketFilterNotes(market, filters, name)].join(' · ');
}
