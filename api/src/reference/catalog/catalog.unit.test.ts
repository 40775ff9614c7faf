import { describe, expect, it } from 'vitest';
import {
  CATALOG,
  COMPANY_COUNT_BUCKETS,
  EMPLOYEE_COUNT_BUCKETS,
  FAMILY_BLEND_GROUPS,
  JOB_FAMILIES,
  LEVEL_BLENDS,
  LEVELS,
  LOCATIONS,
  METROS,
  SUB_INDUSTRIES,
  bucketOf,
  consistencyFor,
  familiesOf,
  findLevel,
  levelsOf,
  metroListCount,
  placesOf,
  subIndustriesOf,
} from './index.js';

const unique = (ids: string[]): boolean => new Set(ids).size === ids.length;

describe('benchmarking catalog', () => {
  it('has unique ids in every list', () => {
    expect(unique(CATALOG.compensationTypes.map((t) => t.id))).toBe(true);
    expect(unique([...LEVELS, ...LEVEL_BLENDS].map((l) => l.id))).toBe(true);
    expect(unique([...JOB_FAMILIES.map((f) => f.id), ...FAMILY_BLEND_GROUPS.map((g) => g.id)])).toBe(true);
    expect(unique(LOCATIONS.map((l) => l.paybenchLocationId))).toBe(true);
    expect(unique([...CATALOG.industryGroups.map((g) => g.upstreamId), ...SUB_INDUSTRIES.map((s) => s.upstreamId)])).toBe(true);
  });

  it('has the levels S1–S3, P1–P6, M3–M6 and E7–E9 on their tracks', () => {
    expect(LEVELS.map((l) => l.displayString)).toEqual(['S1', 'S2', 'S3', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'M3', 'M4', 'M5', 'M6', 'E7', 'E8', 'E9']);
    expect(findLevel('e9')?.track).toBe('tr_c');
    expect(findLevel('e7')?.track).toBe('tr_vp');
    expect(CATALOG.tracks.map((t) => t.id)).toEqual(['tr_s', 'tr_p', 'tr_m', 'trbl_pm', 'tr_vp', 'tr_c']);
  });

  it('builds level blends from existing levels', () => {
    for (const blend of LEVEL_BLENDS) {
      expect(blend.sublevels.length).toBeGreaterThan(1);
      for (const id of blend.sublevels) expect(findLevel(id), id).toBeDefined();
    }
    expect(levelsOf('levelBlend', 'lb_p4_m4')).toEqual(['p4', 'm4']);
    expect(levelsOf('level', 'lb_p4_m4')).toEqual([]);
  });

  it('puts every job family in exactly one blend group', () => {
    expect(JOB_FAMILIES.length).toBeGreaterThanOrEqual(25);
    const grouped = FAMILY_BLEND_GROUPS.flatMap((g) => g.associatedFamilies);
    expect(grouped.sort()).toEqual(JOB_FAMILIES.map((f) => f.id).sort());
    expect(familiesOf('bg_data')).toEqual(['data_science', 'data_analytics']);
  });

  it('tiers US metros as the spec says and rolls locations up to their places', () => {
    expect(placesOf('840_1').sort()).toEqual(['us_new_york', 'us_seattle', 'us_sf_bay_area']);
    expect(metroListCount('840_2')).toBe(9);
    expect(metroListCount('840')).toBe(metroListCount('840_1') + metroListCount('840_2') + metroListCount('840_3'));
    // A country holds its people outside its metros too: it is a place of its own.
    expect(placesOf('840')).toEqual(['840', ...placesOf('840_1'), ...placesOf('840_2'), ...placesOf('840_3')]);
    expect(placesOf('150').filter((id) => id.includes('_')).every((id) => id.startsWith('gb_') || id.startsWith('de_'))).toBe(true);
    expect(placesOf('gb_london')).toEqual(['gb_london']);
    expect(placesOf('nowhere')).toEqual([]);
    for (const metro of METROS) {
      expect(metro.coordinates).not.toBeNull();
      expect(['USD', 'CAD', 'GBP', 'EUR']).toContain(metro.currencyCode);
    }
  });

  it('expands industry groups and all industries to sub-industries', () => {
    expect(subIndustriesOf('ind_all')).toHaveLength(SUB_INDUSTRIES.length);
    expect(subIndustriesOf('ind_healthcare')).toEqual(['ind_health_tech', 'ind_health_biotech', 'ind_health_medical_devices']);
    expect(subIndustriesOf('ind_fin_fintech')).toEqual(['ind_fin_fintech']);
    expect(subIndustriesOf('nope')).toEqual([]);
  });

  it('buckets every sample size and labels consistency by broad comp type', () => {
    for (const n of [0, 4, 5, 9, 10, 499, 500, 1_000_000]) {
      expect(bucketOf(COMPANY_COUNT_BUCKETS, n)).toBeDefined();
      expect(bucketOf(EMPLOYEE_COUNT_BUCKETS, n)).toBeDefined();
    }
    // By the median's measured relative error: each band from its minimum up to (not including) its maximum.
    const label = (broad: 'cash' | 'equity', error: number | null) => consistencyFor(broad, error)?.consistencyLabel ?? null;
    expect([0, 0.019, 0.02, 0.049, 0.05, 0.099, 0.1, 0.199, 0.2, 0.9, 3].map((error) => label('cash', error))).toEqual([
      'Very high',
      'Very high',
      'High',
      'High',
      'Moderate',
      'Moderate',
      'Low',
      'Low',
      'Very low',
      'Very low',
      'Very low',
    ]);
    expect([0.04, 0.05, 0.15, 0.3, 0.4].map((error) => label('equity', error))).toEqual(['Very high', 'High', 'Moderate', 'Low', 'Very low']);
    expect(label('cash', null)).toBeNull();
  });
});
