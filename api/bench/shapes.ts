import {
  COMPANY_STAGES,
  FAMILY_BLEND_GROUPS,
  INDUSTRY_GROUPS,
  JOB_FAMILIES,
  LEVEL_BLENDS,
  LEVELS,
  LOCATIONS,
  METROS,
  OWNERSHIP_GROUPS,
  UNITED_STATES_ID,
} from '../src/reference/catalog/index.js';
import type { BenchmarkRequest, LevelSelection, MarketFilter } from '../src/market/engine/request.js';
import { createRandom, type Random } from '../src/market/generator/random.js';

/**
 * Random explorer requests drawn from the catalog, one class of market filter each, for the bench's
 * shape suite: every request is the typical request's size (3 families × 4 levels × 2 market filters
 * × 5 comp types), its filters drawn as people narrow the market in the explorer.
 */
export const SHAPE_CLASSES = [
  'stages',
  'industries',
  'ownership',
  'metros',
  'companies and metros',
  'level blends',
  'family blends',
  'contractors',
] as const;
export type ShapeClass = (typeof SHAPE_CLASSES)[number];

export interface ShapedRequest {
  shape: ShapeClass;
  request: BenchmarkRequest;
}

const COMPENSATION_TYPES = ['base', 'annual_bonus', 'total_cash', 'total_equity', 'new_hire_equity'];
const EQUITY = { intendedVsActual: ['intended'], views: ['value'], timeframes: ['annualized'] };
const STAGES = COMPANY_STAGES.map((s) => s.id);
const OWNERSHIP = OWNERSHIP_GROUPS.map((o) => o.id);
const INDUSTRIES = [...INDUSTRY_GROUPS.map((g) => g.upstreamId), ...INDUSTRY_GROUPS.flatMap((g) => g.subIndustries.map((s) => s.upstreamId))];
const US_METROS = METROS.filter((m) => m.country === 'US').map((m) => m.paybenchLocationId);
const ALL_METROS = METROS.map((m) => m.paybenchLocationId);
/** Countries and US tiers: whole places a filter is often narrowed to. */
const AREAS = LOCATIONS.filter((l) => l.kind === 'tier' || (l.kind === 'country' && ['US', 'CA', 'GB', 'DE'].includes(l.country ?? ''))).map((l) => l.paybenchLocationId);
const PLAIN_LEVELS = LEVELS.filter((l) => l.id !== 'e9').map((l) => l.id);

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random.next() * items.length)]!;
}

/** Between `least` and `most` distinct items. */
function some<T>(random: Random, items: readonly T[], least: number, most: number): T[] {
  const count = Math.min(items.length, least + Math.floor(random.next() * (most - least + 1)));
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < count) chosen.push(pool.splice(Math.floor(random.next() * pool.length), 1)[0]!);
  return chosen;
}

function everyCompany(locations: string[]): MarketFilter {
  return { companyStages: STAGES, companyOwnershipGroups: OWNERSHIP, locations, industries: ['ind_all'] };
}

function companySubset(random: Random): MarketFilter {
  const filter = everyCompany([pick(random, AREAS)]);
  const narrowed = some(random, ['stages', 'industries', 'ownership'] as const, 1, 3);
  if (narrowed.includes('stages')) filter.companyStages = some(random, STAGES, 1, 4);
  if (narrowed.includes('industries')) filter.industries = some(random, INDUSTRIES, 1, 3);
  if (narrowed.includes('ownership')) filter.companyOwnershipGroups = some(random, OWNERSHIP, 1, 2);
  return filter;
}

function marketFilterOf(random: Random, shape: ShapeClass): MarketFilter {
  switch (shape) {
    case 'stages':
      return { ...everyCompany([pick(random, AREAS)]), companyStages: some(random, STAGES, 1, 4) };
    case 'industries':
      return { ...everyCompany([pick(random, AREAS)]), industries: some(random, INDUSTRIES, 1, 3) };
    case 'ownership':
      return { ...everyCompany([pick(random, AREAS)]), companyOwnershipGroups: some(random, OWNERSHIP, 1, 2) };
    case 'metros':
      return everyCompany(some(random, random.next() < 0.7 ? US_METROS : ALL_METROS, 2, 6));
    case 'companies and metros':
      return { ...companySubset(random), locations: some(random, US_METROS, 1, 5) };
    case 'level blends':
    case 'family blends':
      return random.next() < 0.5 ? companySubset(random) : everyCompany(some(random, US_METROS, 2, 5));
    case 'contractors':
      return { ...(random.next() < 0.5 ? companySubset(random) : everyCompany([UNITED_STATES_ID])), employmentTypes: random.next() < 0.5 ? ['contractor'] : ['employee', 'contractor'] };
  }
}

function levelsOf(random: Random, shape: ShapeClass): LevelSelection[] {
  if (shape === 'level blends') {
    const blends: LevelSelection[] = some(random, LEVEL_BLENDS, 2, 4).map((b) => ({ type: 'levelBlend', id: b.id }));
    return [...blends, ...some(random, PLAIN_LEVELS, 2, 2).map((id): LevelSelection => ({ type: 'level', id }))].slice(0, 4);
  }
  return some(random, PLAIN_LEVELS, 4, 4).map((id) => ({ type: 'level', id }));
}

function familiesOf(random: Random, shape: ShapeClass): string[] {
  if (shape === 'family blends') return [...some(random, FAMILY_BLEND_GROUPS, 1, 2).map((g) => g.id), ...some(random, JOB_FAMILIES, 1, 1).map((f) => f.id)];
  return some(random, JOB_FAMILIES, 3, 3).map((f) => f.id);
}

/** `count` requests, cycling through the shape classes; the same seed gives the same requests. */
export function randomShapes(seed: number, count: number): ShapedRequest[] {
  const random = createRandom(seed);
  const requests: ShapedRequest[] = [];
  for (let i = 0; i < count; i++) {
    const shape = SHAPE_CLASSES[i % SHAPE_CLASSES.length]!;
    requests.push({
      shape,
      request: {
        compensationTypes: COMPENSATION_TYPES,
        equity: EQUITY,
        jobFamilies: familiesOf(random, shape),
        levels: levelsOf(random, shape),
        marketFilters: [marketFilterOf(random, shape), marketFilterOf(random, shape)],
        currency: 'USD',
      },
    });
  }
  return requests;
}
