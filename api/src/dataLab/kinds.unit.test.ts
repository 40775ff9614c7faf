import { describe, expect, it } from 'vitest';
import type { DataLabEmployee } from './peopleReads.js';
import { bandInsights, budgetPacingInsights, compressionInsight, dataQualityInsights, equityRefreshInsight, marketInsight, payEquityInsight } from './kinds.js';

// Every expected figure below is worked out by hand from the data each case builds.
const DAY = '2026-11-25';

let sequence = 0;
function person(fields: Partial<Omit<DataLabEmployee, 'base'>> & { base?: number | null; effective?: string }): DataLabEmployee {
  sequence += 1;
  const { base, effective, ...rest } = fields;
  return {
    id: `e${sequence}`,
    jobFamilyId: 'software_engineering',
    levelId: 'p3',
    track: 'tr_p',
    title: null,
    jobCode: null,
    countryCode: 'US',
    locationId: 'us_sf_bay_area',
    startDate: '2020-01-01',
    gender: null,
    base: base === null ? null : { amount: (base ?? 100_000) * 100, currency: 'USD', effectiveDate: effective ?? '2026-01-01' },
    ...rest,
  };
}

describe('insights on generated data', () => {
  it('below band minimum and above maximum: who, by how much', () => {
    // 80,000 against a minimum of 90,000: (80 − 90) ÷ 90 = −11.1%. 130,000 against a maximum of 120,000: +8.3%.
    const placements = [
      { employeeId: 'low', base: 8_000_000, min: 9_000_000, max: 12_000_000, currency: 'USD' },
      { employeeId: 'inside', base: 10_000_000, min: 9_000_000, max: 12_000_000, currency: 'USD' },
      { employeeId: 'high', base: 13_000_000, min: 9_000_000, max: 12_000_000, currency: 'USD' },
    ];
    const [below, above] = bandInsights(placements, { id: 'set1', name: 'Bands 2026' });
    expect(below?.key).toBe('belowBandMin');
    expect(below?.severity).toBe('high');
    expect(below?.subjects).toEqual([{ employeeId: 'low', detail: 'Base $80,000, band minimum $90,000 (−11.1%)' }]);
    expect(below?.method).toContain('Of 3 employees placed in a band, 1 is below the minimum.');
    expect(below?.link).toBe('/bands/sets/set1');
    expect(above?.subjects).toEqual([{ employeeId: 'high', detail: 'Base $130,000, band maximum $120,000 (+8.3%)' }]);
    expect(bandInsights([placements[1] as (typeof placements)[number]], { id: 'set1', name: 'Bands 2026' })).toEqual([]);
  });

  it('pay vs market p50: cells more than 10% below counted, withheld cells said so and not counted', () => {
    // 90,000 vs 110,000: (90 − 110) ÷ 110 = −18.2%. 105,000 vs 100,000: +5.0%.
    const insight = marketInsight(
      [
        { label: 'Software Engineering p3 · us_sf_bay_area', employees: 4, companyMedian: 90_000, currency: 'USD', marketP50: 110_000, marketCompanies: 40, marketEmployees: 310 },
        { label: 'Software Engineering p4 · us_sf_bay_area', employees: 2, companyMedian: 105_000, currency: 'USD', marketP50: 100_000, marketCompanies: 22, marketEmployees: 140 },
        { label: 'Legal p5 · us_sf_bay_area', employees: 1, companyMedian: 200_000, currency: 'USD', marketP50: null, marketCompanies: null, marketEmployees: null },
      ],
      '2026.3',
    );
    expect(insight?.title).toBe('1 of 2 job families × levels with market data are paid more than 10% below market p50');
    expect(insight?.value).toBe(1);
    expect(insight?.table?.rows).toEqual([
      { label: 'Software Engineering p3 · us_sf_bay_area', cells: ['4', '$90,000', '$110,000', '−18.2%', '40 companies, 310 employees'] },
      { label: 'Software Engineering p4 · us_sf_bay_area', cells: ['2', '$105,000', '$100,000', '+5.0%', '22 companies, 140 employees'] },
      { label: 'Legal p5 · us_sf_bay_area', cells: ['1', '$200,000', 'Insufficient data', '—', 'Withheld: too few companies or employees'] },
    ]);
    expect(insight?.method).toContain('1 of 3 cells are withheld');
    expect(insight?.subjects).toEqual([]);
  });

  it('compression: tenured people paid below a new hire at the same job and level', () => {
    const hire = person({ startDate: '2026-06-01', base: 130_000 });
    const underpaid = person({ startDate: '2020-01-01', base: 120_000 });
    const fine = person({ startDate: '2019-01-01', base: 140_000 });
    const middle = person({ startDate: '2025-06-01', base: 100_000 }); // 543 days: neither new nor tenured
    const otherLevel = person({ startDate: '2018-01-01', base: 90_000, levelId: 'p4' });
    const insight = compressionInsight([hire, underpaid, fine, middle, otherLevel], DAY);
    expect(insight?.subjects).toEqual([{ employeeId: underpaid.id, detail: 'Started 2020-01-01, base $120,000; 1 hire of the last 12 months at the same job family and level is paid more' }]);
    expect(insight?.value).toBe(1);
    expect(compressionInsight([fine, middle, otherLevel], DAY)).toBeNull();
  });

  it('pay-equity gap by group against the largest, groups under 5 not shown', () => {
    // One cell of 12: five men at 100,000, five women at 90,000, two non-binary at 95,000; the median is 95,000.
    // Men 100 ÷ 95 = 105.3%, women 90 ÷ 95 = 94.7%; the gap (90 ÷ 95) ÷ (100 ÷ 95) − 1 = −10.0%.
    const people = [
      ...Array.from({ length: 5 }, () => person({ gender: 'man', base: 100_000 })),
      ...Array.from({ length: 5 }, () => person({ gender: 'woman', base: 90_000 })),
      ...Array.from({ length: 2 }, () => person({ gender: 'non_binary', base: 95_000 })),
    ];
    const insight = payEquityInsight(people);
    expect(insight?.title).toBe('Women are paid 10.0% less than men in the same job and level');
    expect(insight?.value).toBe(-10);
    expect(insight?.severity).toBe('high');
    expect(insight?.table?.rows).toEqual([
      { label: 'Men', cells: ['5', '105.3%', 'Reference'] },
      { label: 'Women', cells: ['5', '94.7%', '−10.0%'] },
      { label: '1 group under 5 people', cells: ['Not shown', 'Not shown', 'Not shown'] },
    ]);
    expect(JSON.stringify(insight)).not.toMatch(/non.binary/i);
    // With only four women there is one group of 5 or more: nothing to compare, no insight.
    expect(payEquityInsight(people.filter((p, index) => index !== 9))).toBeNull();
  });

  it('equity refresh: fully vested within six months with nothing vesting later', () => {
    const soon = person({});
    const refreshed = person({});
    const long = person({});
    const none = person({});
    const grants = [
      { employeeId: soon.id, grantDate: '2022-12-01', vestingStartDate: '2022-12-01', vestingMonths: 48 }, // ends 2026-12-01
      { employeeId: refreshed.id, grantDate: '2022-12-01', vestingStartDate: '2022-12-01', vestingMonths: 48 },
      { employeeId: refreshed.id, grantDate: '2025-01-01', vestingStartDate: '2025-01-01', vestingMonths: 48 }, // ends 2029-01-01
      { employeeId: long.id, grantDate: '2021-01-01', vestingStartDate: '2021-01-01', vestingMonths: 48 }, // ended 2025-01-01
    ];
    const insight = equityRefreshInsight([soon, refreshed, long, none], grants, DAY);
    expect(insight?.subjects).toEqual([
      { employeeId: long.id, detail: 'Fully vested since 2025-01-01; no grant vests after that' },
      { employeeId: soon.id, detail: 'Fully vested on 2026-12-01; no grant vests after that' },
    ]);
  });

  it('budget pacing of an open merit cycle', () => {
    // 900,000 of 1,000,000 cents used: 90.0%; 1 of 4 worksheets submitted (25%): 65 points ahead.
    const [insight] = budgetPacingInsights([{ cycleId: 'c1', name: 'Merit 2026', currency: 'USD', allocated: 1_000_000, used: 900_000, worksheets: 4, submitted: 1 }]);
    expect(insight?.title).toBe('Merit 2026 has used 90.0% of its budget with 1 of 4 worksheets submitted');
    expect(insight?.value).toBe(90);
    expect(insight?.severity).toBe('medium');
    expect(insight?.table?.rows[0]?.cells).toEqual(['$10,000', '$9,000', '$1,000', '1 of 4']);
    const [over] = budgetPacingInsights([{ cycleId: 'c1', name: 'Merit 2026', currency: 'USD', allocated: 1_000_000, used: 1_100_000, worksheets: 4, submitted: 4 }]);
    expect(over?.severity).toBe('high');
    expect(over?.value).toBe(110);
  });

  it('data quality: no job family, no level, stale or missing pay', () => {
    const noFamily = person({ jobFamilyId: null, levelId: null });
    const noLevel = person({ levelId: null });
    const stale = person({ effective: '2024-01-01' }); // 1,059 days before the day
    const fresh = person({ effective: '2025-09-01' }); // 450 days
    const unpaid = person({ base: null });
    const byKey = Object.fromEntries(dataQualityInsights([noFamily, noLevel, stale, fresh, unpaid], DAY).map((insight) => [insight.key, insight.subjects]));
    expect(byKey.unmappedJobs).toEqual([{ employeeId: noFamily.id, detail: 'No job family' }]);
    expect(byKey.missingLevels).toEqual([{ employeeId: noLevel.id, detail: 'No level' }]);
    expect(byKey.stalePay).toEqual([
      { employeeId: stale.id, detail: 'Base unchanged since 2024-01-01' },
      { employeeId: unpaid.id, detail: 'No base salary recorded' },
    ]);
  });
});
