import { beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_STAGES, FOUNDER_TYPES, OWNERSHIP_GROUPS, placesOf } from '../../reference/catalog/index.js';
import { percentileInc } from '../engine/percentile.js';
import { buildRelease, type MarketRelease } from '../engine/release.js';
import { queryRelease, type QueryOptions } from '../engine/query.js';
import { NO_PAY_MASS_CHECKS } from '../engine/privacy.js';
import type { BenchmarkRequest, MarketFilter } from '../engine/request.js';
import { scopeMarketFilter } from '../engine/scope.js';
import { workspaceOf } from '../engine/workspace.js';
import { generateMarket } from '../generator/generate.js';
import { placeOf } from './collect.js';
import { mergeContributions, type ContributedParticipant, type ContributedRecord, type Contribution } from './contribution.js';

/** Units per USD; test values, only their presence matters. */
const FOREX = { USD: 1, CAD: 1.35, GBP: 0.8, EUR: 0.92, INR: 83, JPY: 150, BRL: 5, CHF: 0.9 };

const participant = (n: number, headquarters: string): ContributedParticipant => ({
  participant: n,
  companyStage: 'series_b',
  ownershipGroup: 'venture_backed',
  industry: 'ind_tech_saas',
  headquarters,
  valuationUsd: 100e6,
  grantsEquity: false,
  equityProgrammeKnown: false,
  grantType: null,
  vestingSchedule: null,
  vestingCliff: null,
  vestingFrequency: null,
  grantTimings: [],
});

/** Six participants with a dozen software engineers (P3) each in every place named, at a metro or a country. */
function contribution(places: string[]): Contribution {
  const participants = Array.from({ length: 6 }, (_, n) => participant(n, places[n % places.length]!));
  const records: ContributedRecord[] = [];
  participants.forEach((_, n) => {
    for (const place of places) {
      for (let k = 0; k < 12; k++) {
        const base = 50_000 + 997 * k + 3_001 * n;
        records.push({ participant: n, jobFamilyId: 'software_engineering', levelId: 'p3', locationId: place, employmentType: 'employee', base, variable: null, annualBonus: null, totalCash: base, newHireEquity: null });
      }
    }
  });
  return { participants, records };
}

// Spain and France pay in euros like Germany, Puerto Rico in dollars like the US; '840' holds people in no US metro.
const PLACES = ['724', '250', '630', '840', '356', '392', '076', '756', 'de_berlin'];

const everywhere = (locations: string[]): MarketFilter => ({
  companyStages: COMPANY_STAGES.map((s) => s.id),
  companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id),
  locations,
  industries: ['ind_all'],
  founderTypes: FOUNDER_TYPES.map((f) => f.id),
});

const ask = (locations: string[], currency = 'local'): BenchmarkRequest => ({
  compensationTypes: ['base', 'total_cash'],
  marketFilters: [everywhere(locations)],
  jobFamilies: ['software_engineering', 'data_science'],
  levels: [{ type: 'level', id: 'p3' }, { type: 'level', id: 'p4' }],
  currency,
});

describe('contributions in countries the demo market has no records in', () => {
  let release: MarketRelease;
  let demo: MarketRelease;

  beforeAll(() => {
    const generated = generateMarket({ seed: 7, employees: 6000 });
    demo = buildRelease(generated, { id: 'demo' });
    release = buildRelease(mergeContributions(generated, contribution(PLACES)), { id: 'merged' });
  });

  it('adds the countries to the release after the demo’s metros, in catalog order, with their currencies', () => {
    const added = release.dimensions.locations.slice(demo.dimensions.locations.length);
    expect(release.dimensions.locations.slice(0, demo.dimensions.locations.length)).toEqual(demo.dimensions.locations);
    expect(new Set(added)).toEqual(new Set(PLACES.filter((id) => id !== 'de_berlin')));
    expect(added[0]).toBe('840');
    const currencyOf = new Map(release.dimensions.locations.map((id, code) => [id, release.dimensions.locationCurrencies[code]]));
    expect([currencyOf.get('724'), currencyOf.get('356'), currencyOf.get('392'), currencyOf.get('630')]).toEqual(['EUR', 'INR', 'JPY', 'USD']);
    // One run per country: the demo's four first, as before; Spain and France apart from Germany, Puerto Rico apart from the US.
    expect(demo.runCurrencies).toEqual(['USD', 'CAD', 'GBP', 'EUR']);
    expect(release.runCurrencies.slice(0, 4)).toEqual(['USD', 'CAD', 'GBP', 'EUR']);
    expect(release.runCurrencies).toHaveLength(4 + 7);
    expect(release.sliceRuns).toBe(6);
  });

  it('answers the same whichever way the records are read, with places of one currency in several countries and runs past the statistics', () => {
    const filters = [['840'], ['276'], ['724'], ['150'], ['356'], ['142'], ['019'], ['840', '630'], ['276', '724', '250'], ['840_1', '724'], ['us_boston', '756']];
    for (const locations of filters) {
      for (const currency of ['local', 'USD', 'EUR']) {
        const answer = (options: QueryOptions) => queryRelease(release, ask(locations, currency), { forex: FOREX, ...options }).cells;
        const auto = answer({});
        expect(answer({ wholeSlices: false }), `${locations.join('+')} ${currency}`).toEqual(auto);
        expect(answer({ readPath: 'sorted' }), `${locations.join('+')} ${currency}`).toEqual(auto);
        expect(answer({ readPath: 'matched' }), `${locations.join('+')} ${currency}`).toEqual(auto);
      }
    }
  });

  it('counts exactly the records of the places a filter names', () => {
    const cell = (locations: string[]) => queryRelease(release, { ...ask(locations), jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }], compensationTypes: ['base'] }, { forex: FOREX, disclosure: false, privacy: { minCompanies: 1, minEmployees: 1, maxCompanyShare: 1, minOutsideFour: 0, ...NO_PAY_MASS_CHECKS } }).cells[0]!;
    const demoCell = (locations: string[]) => queryRelease(demo, { ...ask(locations), jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }], compensationTypes: ['base'] }, { forex: FOREX, disclosure: false, privacy: { minCompanies: 1, minEmployees: 1, maxCompanyShare: 1, minOutsideFour: 0, ...NO_PAY_MASS_CHECKS } }).cells[0]!;
    // Six participants × 12 people in each place.
    expect(cell(['724']).sample).toMatchObject({ companies: 6, employees: 72 });
    expect(cell(['724']).currency).toBe('EUR');
    expect(cell(['356']).currency).toBe('INR');
    // Germany and Spain in local currency: both euros, so euros.
    expect(cell(['276', '724']).currency).toBe('EUR');
    expect(cell(['276']).sample.employees).toBe((demoCell(['276']).sample.employees ?? 0) + 72);
    expect(cell(['840']).sample.employees).toBe((demoCell(['840']).sample.employees ?? 0) + 72);
    expect(cell(['840_1']).sample.employees).toBe(demoCell(['840_1']).sample.employees);
    expect(cell(['150']).sample.employees).toBe((demoCell(['150']).sample.employees ?? 0) + 72 * 4);
    expect(cell(['150']).currency).toBe('USD');
    // Exactly the contributed pay, with the figures left on their records.
    const exact = queryRelease(release, { ...ask(['724']), jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }], compensationTypes: ['base'], percentiles: [10, 50, 90] }, { forex: FOREX, disclosure: false }).cells[0]!;
    const spain = Float64Array.from(contribution(PLACES).records.filter((r) => r.locationId === '724').map((r) => r.base)).sort();
    expect(exact.percentiles?.map((p) => p.value)).toEqual([10, 50, 90].map((p) => percentileInc(spain, spain.length, p)));
  });

  it('keeps reading whole countries from the statistics when another country pays in the same currency', () => {
    const workspace = workspaceOf(release);
    for (const locations of [['840'], ['276'], ['124'], ['826', '276'], ['840', '124']]) {
      const scope = scopeMarketFilter(release, workspace, everywhere(locations), 'USD', FOREX);
      expect(scope.wholeSlice, locations.join('+')).toBe(true);
      expect(scope.slotRuns.flat().every((run) => run < release.sliceRuns), locations.join('+')).toBe(true);
    }
    // A tier is part of a country, and Spain's run comes after those with statistics: both are scanned.
    expect(scopeMarketFilter(release, workspace, everywhere(['840_1']), 'USD', FOREX).wholeSlice).toBe(false);
    expect(scopeMarketFilter(release, workspace, everywhere(['724']), 'USD', FOREX).slotRuns.flat()).toEqual([9]);
  });

  it('refuses a contributed location that is not a place', () => {
    expect(() => mergeContributions(generateMarket({ seed: 7, employees: 1000 }), contribution(['840_1']))).toThrow("Contributed location '840_1' is not a place of the market catalog");
    expect(() => mergeContributions(generateMarket({ seed: 7, employees: 1000 }), contribution(['150']))).toThrow('is not a place');
  });
});

describe('where an employee is placed', () => {
  const at = (location_id: string | null, country_code: string | null) => placeOf({ location_id, country_code })?.paybenchLocationId;

  it('at their metro when the catalog has it', () => {
    expect(at('gb_london', 'GB')).toBe('gb_london');
    expect(at('us_boston', 'ES')).toBe('us_boston');
  });

  it('else at their country: the one their location is in, or their country code’s', () => {
    // In Madrid: no metro there, so Spain.
    expect(at(null, 'ES')).toBe('724');
    expect(at(null, 'in')).toBe('356');
    expect(at(null, 'FR')).toBe('250');
    expect(at('826', 'GB')).toBe('826');
    expect(at('840_1', null)).toBe('840');
    expect(at('724', null)).toBe('724');
    // A region is no country; an unknown location falls back to the country code.
    expect(at('150', 'FR')).toBe('250');
    expect(at('somewhere_else', 'JP')).toBe('392');
    expect(placesOf(at(null, 'ES') ?? '')).toEqual(['724']);
  });

  it('nowhere when no country is known', () => {
    expect(at(null, null)).toBeUndefined();
    expect(at('150', null)).toBeUndefined();
    expect(at(null, 'XK')).toBeUndefined();
  });
});
