import { ALL_INDUSTRIES_ID, COMPANY_STAGES, FOUNDER_TYPES, INDUSTRY_GROUPS, OWNERSHIP_GROUPS, SUB_INDUSTRIES, findLocation } from '../reference/catalog/index.js';
import type { MarketFilter } from './engine/index.js';

/** Between the parts of a market's name: "San Francisco Bay Area · Series B". */
export const MARKET_NAME_SEPARATOR = ' · ';

const industryNames = new Map<string, string>([
  ...INDUSTRY_GROUPS.map((group): [string, string] => [group.upstreamId, group.displayString]),
  ...SUB_INDUSTRIES.map((sub): [string, string] => [sub.upstreamId, sub.displayString]),
]);

/** The names of a selection in the catalog's order; nothing when it selects every option (it narrows nothing). */
function narrowing(selected: readonly string[] | undefined, options: readonly { id: string; displayString: string }[]): string[] {
  if (!selected || selected.length === 0) return [];
  const chosen = new Set(selected);
  if (options.every((option) => chosen.has(option.id))) return [];
  return options.filter((option) => chosen.has(option.id)).map((option) => option.displayString);
}

/**
 * A market as people say it: its locations, then whatever narrows it — company stages, ownership,
 * industries, founder types — each part only when it leaves something out. "San Francisco Bay
 * Area · Series B"; "United States" for the whole US market.
 */
export function marketName(filter: MarketFilter): string {
  const locations = filter.locations.map((id) => findLocation(id)?.paybenchLocationName ?? id);
  const industries = filter.industries.includes(ALL_INDUSTRIES_ID) ? [] : filter.industries.map((id) => industryNames.get(id) ?? id);
  const parts = [
    locations.join(', '),
    narrowing(filter.companyStages, COMPANY_STAGES).join(', '),
    narrowing(filter.companyOwnershipGroups, OWNERSHIP_GROUPS).join(', '),
    industries.join(', '),
    narrowing(filter.founderTypes, FOUNDER_TYPES).join(', '),
    employmentName(filter.employmentTypes),
  ];
  return parts.filter(Boolean).join(MARKET_NAME_SEPARATOR) || 'All markets';
}

/** Employees are the market; only a filter that includes contractors says so. */
function employmentName(types: readonly string[] | undefined): string {
  if (!types?.includes('contractor')) return '';
  return types.includes('employee') ? 'Employees and contractors' : 'Contractors';
}

/** Every market of a request named; two that would read the same are told apart by their position ("(market 2)"). */
export function marketNames(filters: readonly MarketFilter[]): string[] {
  const names = filters.map(marketName);
  return names.map((name, index) => (names.indexOf(name) !== names.lastIndexOf(name) ? `${name} (market ${index + 1})` : name));
}
