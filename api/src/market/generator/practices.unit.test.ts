import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NO_AMOUNT, UNKNOWN_PRACTICE } from '../engine/participants.js';
import { generateMarket, type GeneratedMarket } from './generate.js';

/**
 * Who works where, at which level, for which company: what a market held before it had equity
 * practices, less the pay (recalibrated since to BLS's p10 and p90, the same draws mapped anew).
 */
function fingerprint(market: GeneratedMarket): string {
  const hash = createHash('sha256');
  const e = market.employees;
  for (const column of [e.company, e.family, e.level, e.location, e.founder]) hash.update(column);
  const c = market.companies;
  hash.update(c.names.join('|'));
  for (const column of [c.stage, c.ownership, c.industry, c.headquarters, c.valuationUsd, c.priceRatio]) hash.update(column);
  return hash.digest('hex');
}

describe('equity practices of the demo market', () => {
  const market = generateMarket({ seed: 2024, employees: 40_000, companies: 200 });
  const practices = market.equityPractices!;

  it('left every company and record of a seed exactly as generated before practices existed', () => {
    // Taken from the generator as it was before practices were added.
    expect(fingerprint(market)).toBe('e40fac73c66a30cd935eb83bce85c1e433d6e79246f42ebd0838be8dfb328b21');
  });

  it('are the same for the same seed and differ for another', () => {
    const again = generateMarket({ seed: 2024, employees: 40_000, companies: 200 }).equityPractices!;
    expect(again).toEqual(practices);
    const other = generateMarket({ seed: 2025, employees: 40_000, companies: 200 }).equityPractices!;
    expect(other.vestingSchedule).not.toEqual(practices.vestingSchedule);
  });

  it('belong to companies with an equity programme, who all grant at hire', () => {
    const holders = new Uint8Array(200);
    market.employees.amounts.new_hire_equity.forEach((amount, i) => {
      if (amount !== NO_AMOUNT) holders[market.employees.company[i]!] = 1;
    });
    expect([...practices.grantsEquity]).toEqual([...holders]);
    const atHire = 1 << practices.tables.grantTimings.indexOf('at_hire');
    for (let c = 0; c < 200; c++) {
      if (practices.grantsEquity[c]) {
        expect(practices.grantType[c]).toBeLessThan(practices.tables.grantTypes.length);
        expect(practices.grantTiming[c]! & atHire).toBe(atHire);
      } else {
        expect(practices.vestingSchedule[c]).toBe(UNKNOWN_PRACTICE);
      }
    }
  });

  it('look like the market: options at early stages, RSUs at public companies, mostly four years with a one-year cliff', () => {
    const big = generateMarket({ seed: 7, employees: 200_000 });
    const p = big.equityPractices!;
    const share = (stage: string, grantType: string): number => {
      let n = 0;
      let hits = 0;
      for (let c = 0; c < big.companies.count; c++) {
        if (!p.grantsEquity[c] || big.dimensions.stages[big.companies.stage[c]!] !== stage) continue;
        n++;
        if (p.tables.grantTypes[p.grantType[c]!] === grantType) hits++;
      }
      return hits / n;
    };
    expect(share('seed', 'stock_options')).toBeGreaterThan(0.75);
    expect(share('public', 'rsu')).toBeGreaterThan(0.8);
    const granting = [...p.grantsEquity].filter(Boolean).length;
    const fourYears = [...p.vestingSchedule].filter((v) => p.tables.vestingSchedules[v] === 'four_year_even').length;
    const oneYearCliff = [...p.cliff].filter((v) => p.tables.cliffs[v] === 'one_year_cliff').length;
    expect(fourYears / granting).toBeGreaterThan(0.6);
    expect(oneYearCliff / granting).toBeGreaterThan(0.6);
  });
});
