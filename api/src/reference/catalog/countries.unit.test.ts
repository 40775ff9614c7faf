import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  COUNTRIES,
  EUROPE_ID,
  LOCATIONS,
  METROS,
  PLACES,
  REGION_IDS,
  countryLocation,
  findLocation,
  metroListCount,
  placesOf,
} from './index.js';

const referenceData = (file: string): string => readFileSync(new URL(`../../../reference-data/${file}`, import.meta.url), 'utf8');

/** Current ISO 4217 codes: the shipped table's rows with no withdrawal date. */
function currentCurrencyCodes(): Set<string> {
  const codes = new Set<string>();
  for (const line of referenceData('codes-all.csv').split(/\r?\n/).slice(1)) {
    // Entities may be quoted with commas inside; the last four fields never are.
    const fields = line.split(',').map((f) => f.replace(/[\s\u00a0]+/g, ' ').trim());
    const [code, withdrawn] = [fields.at(-4), fields.at(-1)];
    if (code && !withdrawn) codes.add(code);
  }
  return codes;
}

describe('countries in the market catalog', () => {
  it('holds every ISO 3166-1 country once, with unique codes', () => {
    expect(COUNTRIES).toHaveLength(249);
    for (const key of ['numeric', 'alpha2', 'name'] as const) expect(new Set(COUNTRIES.map((c) => c[key])).size).toBe(249);
    for (const country of COUNTRIES) {
      expect(country.numeric, country.name).toMatch(/^\d{3}$/);
      expect(country.alpha2, country.name).toMatch(/^[A-Z]{2}$/);
    }
    const countryLocations = LOCATIONS.filter((l) => l.kind === 'country');
    expect(countryLocations.map((l) => l.paybenchLocationId).sort()).toEqual(COUNTRIES.map((c) => c.numeric).sort());
    expect(new Set(LOCATIONS.map((l) => l.paybenchLocationId)).size).toBe(LOCATIONS.length);
  });

  it('keeps every id saved queries and shares may name', () => {
    const kept = {
      '840': ['United States', 'country', 'US', 'USD'],
      '124': ['Canada', 'country', 'CA', 'CAD'],
      '826': ['United Kingdom', 'country', 'GB', 'GBP'],
      '276': ['Germany', 'country', 'DE', 'EUR'],
      '150': ['Europe', 'region', null, 'EUR'],
      '840_1': ['US Tier 1', 'tier', 'US', 'USD'],
      '840_2': ['US Tier 2', 'tier', 'US', 'USD'],
      '840_3': ['US Tier 3', 'tier', 'US', 'USD'],
    };
    for (const [id, [name, kind, country, currency]] of Object.entries(kept)) {
      expect(findLocation(id), id).toMatchObject({ paybenchLocationName: name, kind, country, currencyCode: currency });
    }
    // The 39 metros, in their order: the demo market is generated over them.
    expect(METROS.map((m) => m.paybenchLocationId)).toHaveLength(39);
    expect(METROS.slice(0, 3).map((m) => m.paybenchLocationId)).toEqual(['us_sf_bay_area', 'us_new_york', 'us_seattle']);
    expect(METROS.at(-1)?.paybenchLocationId).toBe('de_frankfurt');
    expect(findLocation('gb_london')).toMatchObject({ parentId: '826', currencyCode: 'GBP' });
    expect(findLocation('us_boston')).toMatchObject({ parentId: '840_2', marketTierLocationId: '840_2' });
  });

  it('gives each country its ISO 4217 currency', () => {
    const currency = (alpha2: string) => countryLocation(alpha2)?.currencyCode;
    expect([currency('ES'), currency('IN'), currency('FR'), currency('JP')]).toEqual(['EUR', 'INR', 'EUR', 'JPY']);
    expect([currency('US'), currency('CA'), currency('GB'), currency('DE'), currency('CH'), currency('BR')]).toEqual(['USD', 'CAD', 'GBP', 'EUR', 'CHF', 'BRL']);
    // Where ISO 4217 lists a fund code or a second currency beside the national one.
    expect([currency('US'), currency('MX'), currency('SV'), currency('PA')]).toEqual(['USD', 'MXN', 'USD', 'PAB']);
    // Antarctica has no currency: nobody can be placed there (no rate converts XXX).
    expect(currency('AQ')).toBe('XXX');
    const current = currentCurrencyCodes();
    expect(current.size).toBeGreaterThan(170);
    for (const country of COUNTRIES) expect(current.has(country.currencyCode), `${country.alpha2} ${country.currencyCode}`).toBe(true);
  });

  it('finds a country by its alpha-2 code in any case', () => {
    expect(countryLocation('es')).toMatchObject({ paybenchLocationId: '724', paybenchLocationName: 'Spain', kind: 'country', parentId: EUROPE_ID });
    expect(countryLocation(' IN ')).toMatchObject({ paybenchLocationId: '356', paybenchLocationName: 'India', parentId: REGION_IDS.asia });
    expect(countryLocation('FR')?.paybenchLocationId).toBe('250');
    expect(countryLocation('US')?.paybenchLocationId).toBe('840');
    expect(countryLocation('XK')).toBeUndefined();
    expect(countryLocation('')).toBeUndefined();
  });

  it('groups every country under one of the five regions, and every place rolls up to one', () => {
    const regions = LOCATIONS.filter((l) => l.kind === 'region');
    expect(regions.map((r) => r.paybenchLocationId).sort()).toEqual(['002', '009', '019', '142', '150']);
    expect(regions.every((r) => r.parentId === null)).toBe(true);
    const regionIds = new Set(regions.map((r) => r.paybenchLocationId));
    for (const country of LOCATIONS.filter((l) => l.kind === 'country')) expect(regionIds.has(country.parentId ?? ''), country.paybenchLocationName).toBe(true);
    expect(findLocation('840')?.parentId).toBe(REGION_IDS.americas);
    expect(findLocation('124')?.parentId).toBe(REGION_IDS.americas);
    // Every place lies in exactly one region.
    const inRegions = regions.flatMap((r) => placesOf(r.paybenchLocationId));
    expect(inRegions.sort()).toEqual(PLACES.map((p) => p.paybenchLocationId).sort());
    expect(PLACES).toHaveLength(249 + 39);
  });

  it('makes a country without metros a place of its own', () => {
    expect(placesOf('724')).toEqual(['724']);
    expect(metroListCount('724')).toBe(0);
    expect(placesOf(EUROPE_ID)).toEqual(expect.arrayContaining(['826', 'gb_london', '276', 'de_berlin', '724', '250']));
    expect(placesOf(REGION_IDS.asia)).toEqual(expect.arrayContaining(['356', '392']));
    expect(placesOf('826')).toEqual(['826', 'gb_london', 'gb_manchester', 'gb_edinburgh', 'gb_cambridge']);
  });
});
