import {
  COMPENSATION_TYPES,
  EQUITY_TIMEFRAME_OPTIONS,
  EQUITY_VIEW_OPTIONS,
  INTENDED_VS_ACTUAL_OPTIONS,
  UNVESTED_EQUITY_TIMEFRAME_OPTIONS,
} from './compensation.js';
import {
  ALL_INDUSTRIES_ID,
  COMPANY_STAGES,
  COMPANY_STATUSES,
  FOUNDER_TYPES,
  GRANT_TIMING,
  INDUSTRY_GROUPS,
  OWNERSHIP_GROUPS,
  RELATIONSHIP_TYPES,
  SUB_INDUSTRIES,
} from './companies.js';
import { FAMILY_BLEND_GROUPS, JOB_FAMILIES } from './families.js';
import { LEVEL_BLENDS, LEVELS, TRACKS } from './levels.js';
import { LOCATIONS, isPlace } from './locations.js';
import { COMPANY_COUNT_BUCKETS, CONSISTENCY_LABELS, EMPLOYEE_COUNT_BUCKETS, PERCENTILES } from './samples.js';
import type { CompensationType, JobFamily, Level, LevelBlend, Location } from './types.js';

export * from './compensation.js';
export * from './executives.js';
export * from './equityPractices.js';
export * from './companies.js';
export * from './countries.js';
export * from './families.js';
export * from './levels.js';
export * from './locations.js';
export * from './samples.js';
export type * from './types.js';

/** The whole catalog in one object, for presenters that list it. */
export const CATALOG = {
  compensationTypes: COMPENSATION_TYPES,
  intendedVsActualOptions: INTENDED_VS_ACTUAL_OPTIONS,
  equityTimeframeOptions: EQUITY_TIMEFRAME_OPTIONS,
  unvestedEquityTimeframeOptions: UNVESTED_EQUITY_TIMEFRAME_OPTIONS,
  equityViewOptions: EQUITY_VIEW_OPTIONS,
  tracks: TRACKS,
  levels: LEVELS,
  levelBlends: LEVEL_BLENDS,
  jobFamilies: JOB_FAMILIES,
  familyBlendGroups: FAMILY_BLEND_GROUPS,
  locations: LOCATIONS,
  industryGroups: INDUSTRY_GROUPS,
  companyStatuses: COMPANY_STATUSES,
  companyStages: COMPANY_STAGES,
  ownershipGroups: OWNERSHIP_GROUPS,
  founderTypes: FOUNDER_TYPES,
  relationshipTypes: RELATIONSHIP_TYPES,
  grantTiming: GRANT_TIMING,
  consistencyLabels: CONSISTENCY_LABELS,
  companyCountBuckets: COMPANY_COUNT_BUCKETS,
  employeeCountBuckets: EMPLOYEE_COUNT_BUCKETS,
  percentiles: PERCENTILES,
} as const;

const compensationTypeById = new Map(COMPENSATION_TYPES.map((t) => [t.id, t]));
const levelById = new Map(LEVELS.map((l) => [l.id, l]));
const levelBlendById = new Map(LEVEL_BLENDS.map((b) => [b.id, b]));
const familyById = new Map(JOB_FAMILIES.map((f) => [f.id, f]));
const blendGroupById = new Map(FAMILY_BLEND_GROUPS.map((g) => [g.id, g]));
const locationById = new Map(LOCATIONS.map((l) => [l.paybenchLocationId, l]));
const subIndustryIds = new Set(SUB_INDUSTRIES.map((s) => s.upstreamId));
const industryGroupById = new Map(INDUSTRY_GROUPS.map((g) => [g.upstreamId, g]));

export function findCompensationType(id: string): CompensationType | undefined {
  return compensationTypeById.get(id);
}

export function findLevel(id: string): Level | undefined {
  return levelById.get(id);
}

export function findLevelBlend(id: string): LevelBlend | undefined {
  return levelBlendById.get(id);
}

export function findJobFamily(id: string): JobFamily | undefined {
  return familyById.get(id);
}

export function findLocation(id: string): Location | undefined {
  return locationById.get(id);
}

export type LevelType = 'level' | 'levelBlend';

/** Level ids a level or level blend stands for; empty when the id is unknown. */
export function levelsOf(type: LevelType, id: string): string[] {
  if (type === 'level') return levelById.has(id) ? [id] : [];
  return levelBlendById.get(id)?.sublevels ?? [];
}

/** Family ids a job family or family blend group stands for; empty when unknown. */
export function familiesOf(id: string): string[] {
  if (familyById.has(id)) return [id];
  return blendGroupById.get(id)?.associatedFamilies ?? [];
}

/** Place ids under each location, the location itself first when it is a place (see PLACES). */
const placesById = new Map<string, readonly string[]>();
function collectPlaces(id: string): readonly string[] {
  const known = placesById.get(id);
  if (known) return known;
  const location = locationById.get(id);
  const own = location && isPlace(location) ? [id] : [];
  const places = [...own, ...LOCATIONS.filter((child) => child.parentId === id).flatMap((child) => collectPlaces(child.paybenchLocationId))];
  placesById.set(id, places);
  return places;
}
for (const location of LOCATIONS) collectPlaces(location.paybenchLocationId);

/**
 * Places under a location, where its records lie: a metro is its own; a country is its own (its
 * people outside its catalog metros) and its metros'; a tier its metros'; a region its countries'.
 * Empty when the id is unknown.
 */
export function placesOf(id: string): string[] {
  return [...(placesById.get(id) ?? [])];
}

/** The name older callers use for placesOf (people's location filter): metros and countries alike. */
export const metrosOf = placesOf;

const countryByCode = new Map(LOCATIONS.flatMap((l) => (l.kind === 'country' && l.country ? [[l.country, l] as const] : [])));

/** The country location of an ISO 3166-1 alpha-2 code (any case); undefined when no country has it. */
export function countryLocation(alpha2: string): Location | undefined {
  return countryByCode.get(alpha2.trim().toUpperCase());
}

/** Sub-industry ids under an industry group, a sub-industry, or every industry. */
export function subIndustriesOf(id: string): string[] {
  if (id === ALL_INDUSTRIES_ID) return SUB_INDUSTRIES.map((s) => s.upstreamId);
  if (subIndustryIds.has(id)) return [id];
  return industryGroupById.get(id)?.subIndustries.map((s) => s.upstreamId) ?? [];
}

/** How many metros each non-metro location groups (the spec's metroListCount). */
export function metroListCount(id: string): number {
  return placesOf(id).filter((place) => locationById.get(place)?.kind === 'metro').length;
}

