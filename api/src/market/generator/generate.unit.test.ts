import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOB_FAMILIES } from '../../reference/catalog/index.js';
import { percentileInc } from '../engine/percentile.js';
import { MEASURE_IDS, NO_AMOUNT } from '../engine/participants.js';
import { familyWageTargets, type FamilyWageTarget } from './bls.js';
import { allocateHeadcount, generateMarket, type GeneratedMarket } from './generate.js';
import { METRO_PROFILE } from './profiles.js';

function fingerprint(market: GeneratedMarket): string {
  const hash = createHash('sha256');
  const e = market.employees;
  for (const column of [e.company, e.family, e.level, e.location, e.founder]) hash.update(column);
  for (const id of MEASURE_IDS) hash.update(e.amounts[id]);
  hash.update(market.companies.names.join('|'));
  return hash.digest('hex');
}

/** US base pay of one family (optionally one level or metro), sorted. */
function usBase(market: GeneratedMarket, familyId: string, keep: (record: number) => boolean = () => true): Float64Array {
  const d = market.dimensions;
  const e = market.employees;
  const family = d.families.indexOf(familyId);
  const values: number[] = [];
  for (let i = 0; i < e.count; i++) {
    if (e.family[i] !== family || d.locationCurrencies[e.location[i]!] !== 'USD' || !keep(i)) continue;
    values.push(e.amounts.base[i]!);
  }
  return Float64Array.from(values).sort();
}

const median = (values: Float64Array): number => percentileInc(values, values.length, 50);

describe('generateMarket', () => {
  let targets: Map<string, FamilyWageTarget>;
  let market: GeneratedMarket;
  beforeAll(() => {
    targets = familyWageTargets();
    market = generateMarket({ seed: 2024, employees: 40_000, companies: 200, wageTargets: targets });
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const again = generateMarket({ seed: 2024, employees: 40_000, companies: 200, wageTargets: targets });
    expect(fingerprint(again)).toBe(fingerprint(market));
    const other = generateMarket({ seed: 2025, employees: 40_000, companies: 200, wageTargets: targets });
    expect(fingerprint(other)).not.toBe(fingerprint(market));
  });

  it('generates exactly the records and companies asked for', () => {
    expect(market.employees.count).toBe(40_000);
    expect(market.companies.count).toBe(200);
    expect(new Set(market.companies.ids).size).toBe(200);
    expect(new Set(market.companies.names).size).toBe(200);
    const perCompany = new Uint32Array(200);
    for (const c of market.employees.company) perCompany[c]!++;
    expect(Math.min(...perCompany)).toBeGreaterThanOrEqual(1);
  });

  it('lands each family’s US median base on the BLS median', () => {
    for (const family of JOB_FAMILIES) {
      const values = usBase(market, family.id);
      const target = targets.get(family.id)!.median;
      // Calibrated exactly before rounding to whole dollars.
      expect(Math.abs(median(values) / target - 1)).toBeLessThan(0.001);
    }
  });

  it('spreads each family’s US base pay like BLS: its p10, quartiles and p90 within 1%', () => {
    for (const family of JOB_FAMILIES) {
      const values = usBase(market, family.id);
      const target = targets.get(family.id)!;
      const targetOf = { 10: target.p10, 25: target.p25, 75: target.p75, 90: target.p90 };
      for (const p of [10, 25, 75, 90] as const) {
        expect(Math.abs(percentileInc(values, values.length, p) / targetOf[p] - 1), `${family.id} p${p}`).toBeLessThan(0.01);
      }
    }
    // Information security analysts, as BLS prints them: 69,210 / 90,050 / 153,550 / 182,370.
    const security = usBase(market, 'security_engineering');
    expect(percentileInc(security, security.length, 10) / 69_210).toBeCloseTo(1, 1);
    expect(percentileInc(security, security.length, 90) / 182_370).toBeCloseTo(1, 1);
  });

  it('is skewed to the right, as pay is', () => {
    for (const id of ['software_engineering', 'sales', 'finance', 'customer_support', 'design']) {
      const values = usBase(market, id);
      const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
      expect(mean).toBeGreaterThan(median(values));
    }
  });

  it('pays more at each level up and in the pricier metros', () => {
    const levels = market.dimensions.levels;
    const atLevel = (id: string) => (i: number) => market.employees.level[i] === levels.indexOf(id);
    const medians = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((id) => median(usBase(market, 'software_engineering', atLevel(id))));
    for (let k = 1; k < medians.length; k++) expect(medians[k]).toBeGreaterThan(medians[k - 1]!);
    const tierOne = new Set(['us_sf_bay_area', 'us_new_york', 'us_seattle'].map((id) => market.dimensions.locations.indexOf(id)));
    const inTierOne = (i: number): boolean => tierOne.has(market.employees.location[i]!);
    expect(median(usBase(market, 'software_engineering', inTierOne))).toBeGreaterThan(
      1.1 * median(usBase(market, 'software_engineering', (i) => !inTierOne(i))),
    );
  });

  it('keeps cash and equity consistent', () => {
    const { amounts } = market.employees;
    const broken: string[] = [];
    for (let i = 0; i < market.employees.count; i++) {
      const base = amounts.base[i]!;
      const extra = Math.max(0, amounts.variable[i]!) + Math.max(0, amounts.annual_bonus[i]!);
      if (base <= 0) broken.push(`record ${i} has no base pay`);
      if (amounts.total_cash[i] !== base + extra) broken.push(`total cash of record ${i} is not base + variable + bonus`);
      const unvested = amounts.unvested_equity[i]!;
      if (unvested !== NO_AMOUNT && amounts.unvested_equity_next_12_months[i]! > unvested) broken.push(`record ${i} vests more than it holds`);
    }
    expect(broken).toEqual([]);
  });

  it('gives every metro a pay profile', () => {
    for (const id of market.dimensions.locations) expect(METRO_PROFILE[id], id).toBeDefined();
  });
});

describe('allocateHeadcount', () => {
  it('splits records in proportion, at least one each, summing exactly', () => {
    const counts = allocateHeadcount(Float64Array.from([1, 1, 2, 0.001]), 1_000);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(1_000);
    expect(counts[3]).toBe(1);
    expect(counts[2]).toBeGreaterThan(counts[0]! * 1.9);
  });
});
