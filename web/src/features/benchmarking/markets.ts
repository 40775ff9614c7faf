import type { BenchmarkingFilters } from './selection';

/** A market as a request or a selection holds it. */
export interface MarketLike {
  locations?: string[];
  industries?: string[];
  companyStages?: string[];
  companyOwnershipGroups?: string[];
  founderTypes?: string[];
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
    return (markets?.length ?? 0) > 1 ? `Market ${index + 1}: ${marketLocations(market, name)}` : marketLocations(market, name);
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
  return notes;
}

/** A market in one line: its locations, then what narrows it. */
export function describeMarket(market: MarketLike, filters: BenchmarkingFilters | undefined, name: (id: string) => string): string {
  return [marketLocations(market, name), ...marketFilterNotes(market, filters, name)].join(' · ');
}
