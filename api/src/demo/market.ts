import { ALL_INDUSTRIES_ID, COMPANY_STAGES, FOUNDER_LEVEL_ID, FOUNDER_TYPES, OWNERSHIP_GROUPS } from '../reference/catalog/index.js';
import { queryRelease, type MarketRelease } from '../market/engine/index.js';
import { buildDemoRelease } from '../market/generator/index.js';
import { DEMO_SEED, demoRecords } from '../market/releases.js';

/** The market median of base salary for a family × level × metro, in the metro's currency (major units); null where the market withholds it. */
export interface DemoMarket {
  medianOf(jobFamilyId: string, levelId: string, locationId: string): number | null;
}

const markets = new Map<number, DemoMarket>();

/** Prices from a built release, asked as the team view asks: every company in the location, base p50, local currency. */
export function marketOfRelease(release: MarketRelease): DemoMarket {
  const cache = new Map<string, number | null>();
  return {
    medianOf(jobFamilyId, levelId, locationId) {
      const key = `${jobFamilyId}|${levelId}|${locationId}`;
      if (cache.has(key)) return cache.get(key) ?? null;
      const result = queryRelease(release, {
        compensationTypes: ['base'],
        marketFilters: [
          {
            companyStages: COMPANY_STAGES.map((stage) => stage.id),
            companyOwnershipGroups: OWNERSHIP_GROUPS.map((group) => group.id),
            locations: [locationId],
            industries: [ALL_INDUSTRIES_ID],
            ...(levelId === FOUNDER_LEVEL_ID ? { founderTypes: FOUNDER_TYPES.map((type) => type.id) } : {}),
          },
        ],
        jobFamilies: [jobFamilyId],
        levels: [{ type: 'level', id: levelId }],
        percentiles: [50],
        currency: 'local',
      });
      const cell = result.cells[0];
      const p50 = cell?.status === 'published' ? (cell.percentiles?.find((value) => value.percentile === 50)?.value ?? null) : null;
      const median = p50 !== null && p50 > 0 ? p50 : null;
      cache.set(key, median);
      return median;
    },
  };
}

/**
 * The market a fresh install publishes (the demo seed at the configured size), which the demo
 * company is calibrated to; built once per process.
 */
export function demoMarket(records = demoRecords()): DemoMarket {
  let market = markets.get(records);
  if (!market) {
    market = marketOfRelease(buildDemoRelease({ seed: DEMO_SEED, employees: records }));
    markets.set(records, market);
  }
  return market;
}
