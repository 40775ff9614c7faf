import { beforeAll, describe, expect, it } from 'vitest';
import { placesOf, subIndustriesOf } from '../../reference/catalog/index.js';
import { generateMarket, type GeneratedMarket } from '../generator/generate.js';
import { percentileInc } from './percentile.js';
import { DEFAULT_PRIVACY_RULE, NO_PAY_MASS_CHECKS, withholdingReason, type PrivacyRule } from './privacy.js';
import { EVERYWHERE, FOREX, marketOf, recordsFor, request, type CompanySpec } from './handMarket.js';
import { NO_AMOUNT, type MeasureId } from './participants.js';
import { queryRelease, queryRelease as runQuery, type BenchmarkCell, type BenchmarkResult, type QueryOptions } from './query.js';
import { buildRelease, type MarketRelease } from './release.js';
import type { BenchmarkRequest, MarketFilter } from './request.js';

function onlyCell(release: MarketRelease, overrides: Partial<BenchmarkRequest> = {}, privacy = {}): BenchmarkCell {
  const cells = queryRelease(release, request(overrides), { disclosure: false, forex: FOREX, privacy }).cells;
  expect(cells).toHaveLength(1);
  return cells[0]!;
}

function sized(sizes: number[]): BenchmarkCell {
  return onlyCell(buildRelease(marketOf(sizes.map(() => ({})), recordsFor(sizes)), { id: 'sized' }));
}

const STATEMENT = 'Fewer than 5 companies or 10 employees, or one company above 25%';

/** Which part of the rule a cell fails; never published, so read from the rule itself. */
function reasonFor(sizes: number[], rule: PrivacyRule = DEFAULT_PRIVACY_RULE) {
  return withholdingReason(rule, { companies: sizes.length, employees: sizes.reduce((n, s) => n + s, 0), largestCompanyEmployees: Math.max(...sizes) });
}

describe('privacy rule', () => {
  it('withholds 4 companies and publishes 5', () => {
    const four = sized([3, 3, 3, 3]);
    expect(four.status).toBe('insufficient_data');
    expect(four.label).toBe('Insufficient data');
    expect(four.insufficientReason).toBe(STATEMENT);
    expect(reasonFor([3, 3, 3, 3])).toBe('companies');
    const five = sized([2, 2, 2, 2, 2]);
    expect(five.status).toBe('published');
    expect(five.sample).toMatchObject({ companies: 5, employees: 10 });
  });

  it('withholds 9 employees and publishes 10', () => {
    const nine = sized([2, 2, 2, 2, 1]);
    expect(nine.status).toBe('insufficient_data');
    expect(nine.insufficientReason).toBe(STATEMENT);
    expect(reasonFor([2, 2, 2, 2, 1])).toBe('employees');
    expect(sized([2, 2, 2, 2, 2]).status).toBe('published');
  });

  it('publishes a company holding exactly 25% and withholds one just above', () => {
    const exactly = sized([25, 19, 19, 19, 18]);
    expect(exactly.sample.employees).toBe(100);
    expect(exactly.status).toBe('published');
    const above = sized([26, 19, 19, 19, 18]);
    expect(above.status).toBe('insufficient_data');
    expect(above.insufficientReason).toBe(STATEMENT);
    expect(reasonFor([26, 19, 19, 19, 18])).toBe('concentration');
    expect(sized([3, 3, 2, 2, 2]).status).toBe('published'); // 3 of 12 is 25%
  });

  it('takes its thresholds from the caller', () => {
    const release = buildRelease(marketOf([{}, {}, {}], recordsFor([2, 2, 2])), { id: 'small' });
    expect(onlyCell(release).status).toBe('insufficient_data');
    expect(onlyCell(release, {}, { minCompanies: 3, minEmployees: 6, maxCompanyShare: 0.34, minOutsideFour: 0, pPercent: 0 }).status).toBe('published');
    const strict = { ...DEFAULT_PRIVACY_RULE, minCompanies: 3, minEmployees: 6, maxCompanyShare: 0.33, minOutsideFour: 0, pPercent: 0 };
    expect(onlyCell(release, {}, strict).insufficientReason).toBe('Fewer than 3 companies or 6 employees, or one company above 33%');
    expect(reasonFor([2, 2, 2], strict)).toBe('concentration');
  });

  it('shows a withheld cell as below the threshold, never its pay, counts or size buckets', () => {
    // Four companies, 12 employees: buckets of 0–4 and 10–49 would narrow it to "a few companies, a dozen people".
    const cell = sized([3, 3, 3, 3]);
    expect(cell.percentiles).toBeNull();
    expect(cell.consistency).toBeNull();
    const below = { id: 'below_threshold', label: 'Below the threshold', min: 0, max: null };
    expect(cell.sample).toEqual({ companies: null, employees: null, companyBucket: below, employeeBucket: below });
    // A cell failing for another reason reads exactly the same.
    const { sample, insufficientReason, label } = sized([26, 19, 19, 19, 18]);
    expect({ sample, insufficientReason, label }).toEqual({ sample: cell.sample, insufficientReason: cell.insufficientReason, label: cell.label });
  });
});

describe('a published cell', () => {
  it('reports PERCENTILE.INC of its records with its sample and consistency', () => {
    // Bases 100,000 … 109,000: rank (n - 1) × p, e.g. p40 → 3.6 → 103,600.
    const cell = sized([2, 2, 2, 2, 2]);
    expect(cell.currency).toBe('USD');
    expect(cell.percentiles?.map((p) => [p.percentile, p.value])).toEqual([
      [10, 100_900],
      [25, 102_250],
      [40, 103_600],
      [50, 104_500],
      [60, 105_400],
      [75, 106_750],
      [90, 108_100],
    ]);
    // Ten values: the 95% interval of the median is the whole sample (the 1st and 10th values), so
    // the median's error is 4,500 / 104,500 = 4.3%: "High" (2–5%) for cash, measured, not assumed from n.
    expect(cell.medianUncertainty).toEqual({ confidence: 0.95, lower: 100_000, upper: 109_000, relativeError: 4_500 / 104_500 });
    expect(cell.consistency?.consistencyLabel).toBe('High');
    expect(cell.sample.companyBucket.label).toBe('5–9');
  });

  it('reports the percentiles asked for', () => {
    const release = buildRelease(marketOf([{}, {}, {}, {}, {}], recordsFor([2, 2, 2, 2, 2])), { id: 'p' });
    const cells = queryRelease(release, request({ percentiles: [50, 75] }), { disclosure: false, forex: FOREX });
    expect(cells.cells[0]?.percentiles?.map((p) => p.percentile)).toEqual([50, 75]);
  });
});

describe('market filters', () => {
  const companies: CompanySpec[] = [
    { stage: 'seed', industry: 'ind_tech_saas' },
    { stage: 'series_b', industry: 'ind_fin_fintech' },
    { stage: 'public', ownership: 'public', industry: 'ind_tech_ai' },
    { stage: 'private_established', ownership: 'founder_owned', industry: 'ind_health_biotech' },
    { stage: 'series_c', industry: 'ind_tech_saas' },
  ];
  const records = [
    ...recordsFor([2, 2, 2, 2, 2], 100_000, 1_000, { location: 'us_sf_bay_area' }),
    ...recordsFor([2, 2, 2, 2, 2], 80_000, 1_000, { location: 'us_boston' }),
    ...recordsFor([2, 2, 2, 2, 2], 90_000, 1_000, { location: 'ca_toronto' }),
    ...recordsFor([2, 2, 2, 2, 2], 60_000, 1_000, { location: 'gb_london' }),
    ...recordsFor([2, 2, 2, 2, 2], 50_000, 1_000, { location: 'de_berlin' }),
  ];
  let release: MarketRelease;
  beforeAll(() => {
    release = buildRelease(marketOf(companies, records), { id: 'filters' });
  });
  const employees = (filter: Partial<MarketFilter>): number | null =>
    onlyCell(release, { marketFilters: [{ ...EVERYWHERE, ...filter }] }, { minCompanies: 0, minEmployees: 0, maxCompanyShare: 1, minOutsideFour: 0, ...NO_PAY_MASS_CHECKS }).sample.employees;

  it('expands tiers, countries and regions to their metros', () => {
    expect(employees({ locations: ['840_1'] })).toBe(10);
    expect(employees({ locations: ['840_2'] })).toBe(10);
    expect(employees({ locations: ['840'] })).toBe(20);
    expect(employees({ locations: ['150'] })).toBe(20);
    expect(employees({ locations: ['us_boston', 'ca_toronto'] })).toBe(20);
  });

  it('intersects stages, ownership groups and industries', () => {
    expect(employees({ companyStages: ['seed', 'public'] })).toBe(20);
    expect(employees({ companyOwnershipGroups: ['public', 'founder_owned'] })).toBe(20);
    expect(employees({ industries: ['ind_technology'] })).toBe(30);
    expect(employees({ industries: ['ind_technology'], companyStages: ['series_c'], locations: ['840'] })).toBe(4);
  });

  it('answers in local currency, or in USD or another currency through the forex mapping', () => {
    const canada = { marketFilters: [{ ...EVERYWHERE, locations: ['124'] }] };
    const local = onlyCell(release, canada);
    expect(local.currency).toBe('CAD');
    expect(local.percentiles?.[3]?.value).toBe(94_500);
    const usd = onlyCell(release, { ...canada, currency: 'USD' });
    expect(usd.currency).toBe('USD');
    expect(usd.percentiles?.[3]?.value).toBeCloseTo((94_000 / 1.35 + 95_000 / 1.35) / 2, 6);
    // CAD 94,000 and 95,000 at 1.35 CAD and 0.92 EUR per USD: 64,059.26 and 64,740.74 euros.
    const euros = onlyCell(release, { ...canada, currency: 'EUR' });
    expect(euros.currency).toBe('EUR');
    expect(euros.percentiles?.[3]?.value).toBeCloseTo((64_059.259_259 + 64_740.740_741) / 2, 3);
  });

  it('answers a filter spanning currencies in USD even in local mode', () => {
    const cell = onlyCell(release, { marketFilters: [{ ...EVERYWHERE, locations: ['150'] }] });
    expect(cell.currency).toBe('USD');
    const values = [
      ...Array.from({ length: 10 }, (_, k) => (60_000 + 1_000 * k) / 0.8),
      ...Array.from({ length: 10 }, (_, k) => (50_000 + 1_000 * k) / 0.92),
    ].sort((a, b) => a - b);
    for (const p of cell.percentiles ?? []) expect(p.value).toBeCloseTo(percentileInc(values, values.length, p.percentile), 6);
  });

  it('refuses to convert without a rate', () => {
    expect(() => queryRelease(release, request({ currency: 'USD' }), { forex: { USD: 1 } })).toThrow(/CAD|GBP|EUR/);
  });
});

describe('founder type', () => {
  it('narrows E9 records and leaves other levels alone', () => {
    const records = [
      ...recordsFor([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 300_000, 1_000, { level: 'e9', founder: 'founder' }),
      ...recordsFor([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 400_000, 1_000, { level: 'e9', founder: 'non_founder' }),
      ...recordsFor([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 100_000, 1_000, { level: 'p3' }),
    ];
    const release = buildRelease(marketOf(Array.from({ length: 12 }, () => ({})), records), { id: 'founders' });
    const filter = { ...EVERYWHERE, founderTypes: ['non_founder'] };
    const levels: BenchmarkRequest['levels'] = [
      { type: 'level', id: 'e9' },
      { type: 'level', id: 'p3' },
    ];
    const cells = queryRelease(release, request({ marketFilters: [filter], levels }), { disclosure: false, forex: FOREX }).cells;
    expect(cells.map((c) => c.sample.employees)).toEqual([12, 12]);
    expect(cells[0]?.percentiles?.[0]?.value).toBeGreaterThan(400_000);
  });
});

/** The slow, obvious way: scan every record of the participant market. */
function reference(
  market: GeneratedMarket,
  families: string[],
  levels: string[],
  filter: MarketFilter,
  value: (record: number, amount: number) => number | null,
  measure: MeasureId,
): { values: number[]; companies: number } {
  const d = market.dimensions;
  const places = new Set(filter.locations.flatMap(placesOf));
  const industries = new Set(filter.industries.flatMap(subIndustriesOf));
  const values: number[] = [];
  const companies = new Set<number>();
  const e = market.employees;
  for (let i = 0; i < e.count; i++) {
    const c = e.company[i]!;
    const amount = e.amounts[measure][i]!;
    if (amount === NO_AMOUNT) continue;
    if (!families.includes(d.families[e.family[i]!]!) || !levels.includes(d.levels[e.level[i]!]!)) continue;
    if (!places.has(d.locations[e.location[i]!]!)) continue;
    if (!filter.companyStages.includes(d.stages[market.companies.stage[c]!]!)) continue;
    if (!filter.companyOwnershipGroups.includes(d.ownershipGroups[market.companies.ownership[c]!]!)) continue;
    if (!industries.has(d.industries[market.companies.industry[c]!]!)) continue;
    const v = value(i, amount);
    if (v === null) continue;
    values.push(v);
    companies.add(c);
  }
  return { values: values.sort((a, b) => a - b), companies: companies.size };
}

function expectCellMatches(cell: BenchmarkCell | undefined, expected: { values: number[]; companies: number }): void {
  expect(cell?.status).toBe('published');
  expect(cell?.sample.employees).toBe(expected.values.length);
  expect(cell?.sample.companies).toBe(expected.companies);
  for (const p of cell?.percentiles ?? []) {
    const want = percentileInc(expected.values, expected.values.length, p.percentile);
    expect(Math.abs(p.value - want)).toBeLessThanOrEqual(1e-9 * Math.abs(want));
  }
}

describe.each(['auto', 'sorted', 'matched'] as const)('on a generated market, reading groups %s', (readPath) => {
  let market: GeneratedMarket;
  let release: MarketRelease;
  beforeAll(() => {
    market = generateMarket({ seed: 11, employees: 30_000, companies: 150 });
    release = buildRelease(market, { id: 'generated' });
  });
  const queryRelease = (r: MarketRelease, q: BenchmarkRequest, options: QueryOptions = {}): BenchmarkResult =>
    runQuery(r, q, { ...options, readPath, disclosure: false });
  const open = { minCompanies: 1, minEmployees: 1, maxCompanyShare: 1, minOutsideFour: 0, ...NO_PAY_MASS_CHECKS };
  const usFilter: MarketFilter = { ...EVERYWHERE, locations: ['840'] };

  it('prices a level blend as the union of its levels', () => {
    const blend = request({ levels: [{ type: 'levelBlend', id: 'lb_p4_m4' }], marketFilters: [usFilter] });
    const cells = queryRelease(release, blend, { disclosure: false, privacy: open }).cells;
    const local = (_: number, amount: number): number => amount;
    expectCellMatches(cells[0], reference(market, ['software_engineering'], ['p4', 'm4'], usFilter, local, 'base'));
    const levels: BenchmarkRequest['levels'] = [
      { type: 'level', id: 'p4' },
      { type: 'level', id: 'm4' },
    ];
    const parts = queryRelease(release, request({ levels, marketFilters: [usFilter] }), { disclosure: false, privacy: open }).cells;
    expect(cells[0]?.sample.employees).toBe((parts[0]?.sample.employees ?? 0) + (parts[1]?.sample.employees ?? 0));
  });

  it('prices a family blend group as the union of its families', () => {
    const cells = queryRelease(release, request({ jobFamilies: ['bg_data'], marketFilters: [usFilter] }), { disclosure: false, privacy: open }).cells;
    expectCellMatches(cells[0], reference(market, ['data_science', 'data_analytics'], ['p3'], usFilter, (_, a) => a, 'base'));
  });

  it('converts, merges and matches a full scan across currencies', () => {
    const filter: MarketFilter = {
      ...EVERYWHERE,
      companyStages: ['series_b', 'series_c', 'public'],
      companyOwnershipGroups: ['venture_backed', 'public'],
    };
    const cells = queryRelease(
      release,
      request({ marketFilters: [filter], levels: [{ type: 'levelBlend', id: 'lb_p3_m3' }], compensationTypes: ['total_cash'], currency: 'USD' }),
      { disclosure: false, forex: FOREX, privacy: open },
    ).cells;
    const rates = market.dimensions.locationCurrencies.map((c) => FOREX[c as keyof typeof FOREX]);
    const usd = (i: number, amount: number): number => amount / rates[market.employees.location[i]!]!;
    expectCellMatches(cells[0], reference(market, ['software_engineering'], ['p3', 'm3'], filter, usd, 'total_cash'));
  });

  it('applies the equity options: annualized, actual value and percent of company', () => {
    const equity = { intendedVsActual: ['intended', 'actual'], views: ['value', 'percent_of_company'], timeframes: ['annualized'] };
    const newHire = request({ compensationTypes: ['new_hire_equity'], equity, marketFilters: [usFilter], levels: [{ type: 'level', id: 'p4' }] });
    const cells = queryRelease(release, newHire, { disclosure: false, forex: FOREX, privacy: open }).cells;
    expect(cells.map((c) => [c.equityOption?.intendedVsActual, c.equityOption?.view, c.unit])).toEqual([
      ['intended', 'value', 'currency'],
      ['intended', 'percent_of_company', 'percent'],
      ['actual', 'value', 'currency'],
      ['actual', 'percent_of_company', 'percent'],
    ]);
    const { valuationUsd, priceRatio, ownership } = market.companies;
    const company = (i: number): number => market.employees.company[i]!;
    const publicCode = market.dimensions.ownershipGroups.indexOf('public');
    const percent = (i: number, a: number): number | null =>
      ownership[company(i)] === publicCode ? null : ((a / 1) * 0.25 * 100) / valuationUsd[company(i)]!;
    expectCellMatches(cells[0], reference(market, ['software_engineering'], ['p4'], usFilter, (_, a) => a * 0.25, 'new_hire_equity'));
    expectCellMatches(cells[1], reference(market, ['software_engineering'], ['p4'], usFilter, percent, 'new_hire_equity'));
    const actual = (i: number, a: number): number => a * 0.25 * priceRatio[company(i)]!;
    expectCellMatches(cells[2], reference(market, ['software_engineering'], ['p4'], usFilter, actual, 'new_hire_equity'));
    expect(cells[3]?.percentiles).toEqual(cells[1]?.percentiles);
    expect(cells[1]?.currency).toBeNull();
  });

  it('reads the unvested timeframes from their own amounts', () => {
    const equity = { intendedVsActual: ['intended'], views: ['value'], unvestedTimeframes: ['total_unvested', 'next_12_months'] };
    const unvested = request({ compensationTypes: ['unvested_equity'], equity, marketFilters: [usFilter] });
    const cells = queryRelease(release, unvested, { disclosure: false, privacy: open }).cells;
    expectCellMatches(cells[0], reference(market, ['software_engineering'], ['p3'], usFilter, (_, a) => a, 'unvested_equity'));
    expectCellMatches(cells[1], reference(market, ['software_engineering'], ['p3'], usFilter, (_, a) => a, 'unvested_equity_next_12_months'));
  });

  it('matches a full scan on a narrow filter, founders included', () => {
    const narrow: MarketFilter = {
      companyStages: ['series_a', 'series_b'],
      companyOwnershipGroups: ['venture_backed'],
      locations: ['840_1', 'gb_london'],
      industries: ['ind_technology'],
      founderTypes: ['non_founder'],
    };
    const executives: MarketFilter = { ...EVERYWHERE, locations: ['840', 'gb_london'], founderTypes: ['non_founder'] };
    const levels: BenchmarkRequest['levels'] = [{ type: 'level', id: 'p3' }, { type: 'level', id: 'e9' }];
    const cells = queryRelease(
      release,
      request({ marketFilters: [narrow, executives], levels, compensationTypes: ['total_cash'], currency: 'USD' }),
      { disclosure: false, forex: FOREX, privacy: open },
    ).cells;
    const rates = market.dimensions.locationCurrencies.map((c) => FOREX[c as keyof typeof FOREX]);
    const usd = (i: number, amount: number): number => amount / rates[market.employees.location[i]!]!;
    expectCellMatches(cells[0], reference(market, ['software_engineering'], ['p3'], narrow, usd, 'total_cash'));
    const nonFounder = market.dimensions.founderTypes.indexOf('non_founder') + 1;
    const e9 = (i: number, amount: number): number | null => (market.employees.founder[i] === nonFounder ? usd(i, amount) : null);
    const expected = reference(market, ['software_engineering'], ['e9'], executives, e9, 'total_cash');
    expect(expected.values.length).toBeGreaterThan(5);
    expectCellMatches(cells[3], expected);
  });

  it('reads whole slices (every company, whole countries) exactly like a full scan', () => {
    const everywhere = { ...EVERYWHERE, founderTypes: ['founder', 'non_founder'] };
    const levels: BenchmarkRequest['levels'] = [{ type: 'level', id: 'p2' }, { type: 'level', id: 'e9' }];
    const cells = queryRelease(release, request({ marketFilters: [everywhere, { ...EVERYWHERE, locations: ['124'] }], levels, currency: 'USD' }), {
      forex: FOREX,
      privacy: open,
    }).cells;
    const rates = market.dimensions.locationCurrencies.map((c) => FOREX[c as keyof typeof FOREX]);
    const usd = (i: number, amount: number): number => amount / rates[market.employees.location[i]!]!;
    expectCellMatches(cells[0], reference(market, ['software_engineering'], ['p2'], everywhere, usd, 'base'));
    expectCellMatches(cells[1], reference(market, ['software_engineering'], ['e9'], everywhere, usd, 'base'));
    expectCellMatches(cells[2], reference(market, ['software_engineering'], ['p2'], { ...EVERYWHERE, locations: ['124'] }, usd, 'base'));
  });

  it('gives the same answer every time, whatever ran in between', () => {
    const levels: BenchmarkRequest['levels'] = [
      { type: 'level', id: 'p2' },
      { type: 'levelBlend', id: 'lb_p5_m5' },
    ];
    const typical = request({ jobFamilies: ['software_engineering', 'sales'], levels });
    const first = queryRelease(release, typical, { disclosure: false, forex: FOREX });
    queryRelease(release, request({ jobFamilies: ['bg_engineering'], marketFilters: [usFilter, EVERYWHERE] }), { disclosure: false, forex: FOREX });
    expect(queryRelease(release, typical, { disclosure: false, forex: FOREX })).toEqual(first);
  });

  it('is not changed by later edits to the market it was built from', () => {
    const before = queryRelease(release, request(), { disclosure: false, forex: FOREX });
    const copy = buildRelease(market, { id: 'copy' });
    market.companies.stage.fill(0);
    market.employees.amounts.base.fill(1);
    expect(queryRelease(copy, request(), { disclosure: false, forex: FOREX }).cells).toEqual(before.cells);
  });
});

describe('synthetic share', () => {
  const shareOf = (sizes: number[], syntheticCompanies: number, options: QueryOptions = {}): number | null => {
    const market = { ...marketOf(sizes.map(() => ({})), recordsFor(sizes)), syntheticCompanies };
    const release = buildRelease(market, { id: `synthetic-${syntheticCompanies}` });
    return queryRelease(release, request(), { forex: FOREX, ...options }).cells[0]!.syntheticShare;
  };

  it('is the share of the cell’s records from generated companies, whichever way the cell is read', () => {
    // Companies 0–2 generated, 3–4 participants, two records each: 6 of 10.
    for (const readPath of ['auto', 'sorted', 'matched'] as const) expect(shareOf([2, 2, 2, 2, 2], 3, { readPath })).toBe(0.6);
    expect(shareOf([2, 2, 2, 2, 2], 3, { wholeSlices: false })).toBe(0.6);
    expect(shareOf([2, 2, 2, 2, 2], 5)).toBe(1);
    expect(shareOf([2, 2, 2, 2, 2], 0)).toBe(0);
  });

  it('says 1 only when every record is generated and 0 only when none is', () => {
    // 299 of 300 rounds to 1.00 and 1 of 300 to 0.00: published as 0.99 and 0.01.
    expect(shareOf([60, 60, 60, 60, 59, 1], 5)).toBe(0.99);
    expect(shareOf([1, 60, 60, 60, 60, 59], 1)).toBe(0.01);
  });

  it('is null for a withheld cell', () => {
    expect(shareOf([3, 3, 3, 3], 4)).toBeNull();
  });
});

describe('a selective filter over two runs of one currency', () => {
  // Employees in San Francisco and contractors in Boston: two runs of US dollars, which a filter with
  // both employment types reads as one (merged after each run's records come out in order).
  const employees = [100, 300, 500, 700, 900, 1_100].map((k, i) => ({ company: i % 5, base: k * 1_000 }));
  const contractors = [200, 400, 600, 800].map((k, i) => ({ company: i % 5, base: k * 1_000, location: 'us_boston', contractor: true }));
  const release = buildRelease(marketOf([{}, {}, {}, {}, {}], [...employees, ...contractors]), { id: 'two-runs' });
  const open = { minCompanies: 1, minEmployees: 1, maxCompanyShare: 1, minOutsideFour: 0, ...NO_PAY_MASS_CHECKS };
  const ask = (employmentTypes: MarketFilter['employmentTypes'], readPath: QueryOptions['readPath']) =>
    queryRelease(release, request({ marketFilters: [{ ...EVERYWHERE, locations: ['840'], employmentTypes }], percentiles: [10, 25, 50, 75, 90] }), {
      disclosure: false,
      forex: FOREX,
      privacy: open,
      readPath,
    }).cells[0]!;

  it.each(['auto', 'sorted', 'matched'] as const)('answers the union of both runs, read %s', (readPath) => {
    const both = ask(['employee', 'contractor'], readPath);
    // 100k … 900k, 1,100k: p10 at rank 0.9, p25 at 2.25, p50 at 4.5, p75 at 6.75, p90 at 8.1.
    expect(both.percentiles?.map((p) => p.value)).toEqual([190_000, 325_000, 550_000, 775_000, 920_000]);
    expect(both.sample).toMatchObject({ companies: 5, employees: 10 });
    // The positive control: employees alone are one run, with a median of 600k.
    expect(ask(['employee'], readPath).percentiles?.find((p) => p.percentile === 50)?.value).toBe(600_000);
  });
});
