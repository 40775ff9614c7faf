import { describe, expect, it } from 'vitest';
import { catalogDimensions, catalogPracticeTables, emptyAmounts, UNKNOWN_PRACTICE, type ParticipantMarket } from '../engine/participants.js';
import { buildRelease } from '../engine/release.js';
import { describePractices, withholding } from './practices.js';

const dimensions = catalogDimensions();
const tables = catalogPracticeTables();

interface Company {
  stage?: string;
  records?: number;
  grants?: boolean;
  schedule?: string;
  cliff?: string;
  type?: string;
  frequency?: string;
  timing?: string[];
}

/** A hand-made market of companies with the practices spelled out. */
function marketOf(companies: Company[]): ParticipantMarket {
  const perCompany = companies.map((c) => c.records ?? 2);
  const n = perCompany.reduce((a, b) => a + b, 0);
  const company = new Uint32Array(n);
  let i = 0;
  perCompany.forEach((count, c) => {
    for (let k = 0; k < count; k++) company[i++] = c;
  });
  const amounts = emptyAmounts(n);
  amounts.base.fill(100_000);
  amounts.total_cash.fill(100_000);
  const code = (table: readonly string[], id: string | undefined): number => (id === undefined ? UNKNOWN_PRACTICE : table.indexOf(id));
  return {
    dimensions,
    companies: {
      count: companies.length,
      ids: companies.map((_, c) => `c${c}`),
      names: companies.map((_, c) => `Company ${c}`),
      stage: Uint8Array.from(companies, (c) => dimensions.stages.indexOf(c.stage ?? 'series_b')),
      ownership: Uint8Array.from(companies, (c) => dimensions.ownershipGroups.indexOf(c.stage === 'public' ? 'public' : 'venture_backed')),
      industry: Uint8Array.from(companies, () => dimensions.industries.indexOf('ind_tech_saas')),
      headquarters: new Uint8Array(companies.length),
      valuationUsd: new Float64Array(companies.length).fill(1e8),
      priceRatio: new Float64Array(companies.length).fill(1),
    },
    employees: {
      count: n,
      company,
      family: new Uint8Array(n),
      level: new Uint8Array(n).fill(dimensions.levels.indexOf('p3')),
      location: new Uint8Array(n),
      founder: new Uint8Array(n),
      amounts,
    },
    equityPractices: {
      tables,
      grantsEquity: Uint8Array.from(companies, (c) => (c.grants === false ? 0 : 1)),
      vestingSchedule: Uint8Array.from(companies, (c) => (c.grants === false ? UNKNOWN_PRACTICE : code(tables.vestingSchedules, c.schedule ?? 'four_year_even'))),
      cliff: Uint8Array.from(companies, (c) => (c.grants === false ? UNKNOWN_PRACTICE : code(tables.cliffs, c.cliff ?? 'one_year_cliff'))),
      grantType: Uint8Array.from(companies, (c) => (c.grants === false ? UNKNOWN_PRACTICE : code(tables.grantTypes, c.type ?? 'stock_options'))),
      vestingFrequency: Uint8Array.from(companies, (c) => (c.grants === false ? UNKNOWN_PRACTICE : code(tables.vestingFrequencies, c.frequency ?? 'monthly'))),
      grantTiming: Uint8Array.from(companies, (c) => (c.timing ?? ['at_hire']).reduce((mask, id) => mask | (1 << tables.grantTimings.indexOf(id)), 0)),
    },
  };
}

const release = (companies: Company[]) => buildRelease(marketOf(companies), { id: 'practices-test' });

describe('equity practices under the privacy rule', () => {
  it('publish five companies with an equity programme, counting each company once whatever its size', () => {
    const result = describePractices(
      release([
        { records: 400, type: 'rsu', frequency: 'quarterly', cliff: 'no_cliff', timing: ['at_hire', 'annual_cycle'] },
        { type: 'rsu', frequency: 'quarterly', timing: ['at_hire', 'annual_cycle'] },
        { schedule: 'four_year_back_weighted' },
        {},
        { timing: ['at_hire', 'ad_hoc'] },
        { grants: false, records: 3 },
      ]),
      {},
    );
    expect(result).toMatchObject({ status: 'published', label: null, insufficientReason: null, sample: { companies: 5, employees: 408 } });
    expect(result.equityProgrammeShare).toBe(0.8333);
    const shareOf = (list: typeof result.grantTypes, id: string) => list?.find((s) => s.id === id);
    expect(shareOf(result.grantTypes, 'rsu')).toMatchObject({ companies: 2, share: 0.4 });
    expect(shareOf(result.grantTypes, 'stock_options')).toMatchObject({ companies: 3, share: 0.6 });
    expect(shareOf(result.vestingSchedules, 'four_year_back_weighted')).toMatchObject({ companies: 1, share: 0.2 });
    expect(shareOf(result.cliffs, 'no_cliff')?.companies).toBe(1);
    expect(shareOf(result.grantTiming, 'at_hire')?.share).toBe(1);
    expect(shareOf(result.grantTiming, 'annual_cycle')?.share).toBe(0.4);
    expect(shareOf(result.vestingFrequencies, 'quarterly')?.share).toBe(0.4);
  });

  it('withhold four companies, and five whose people are fewer than ten, saying only the rule', () => {
    const four = describePractices(release([{}, {}, {}, { records: 50 }, { grants: false }]), {});
    expect(withholding(4, 53)).toBe('companies');
    const statement = 'Fewer than 5 companies or 10 employees, or one company above 25%';
    const below = { id: 'below_threshold', label: 'Below the threshold', min: 0, max: null };
    expect(four).toMatchObject({ status: 'insufficient_data', label: 'Insufficient data', insufficientReason: statement, sample: { companies: null, employees: null, companyBucket: below, employeeBucket: below }, grantTypes: null, vestingSchedules: null, cliffs: null, vestingFrequencies: null, grantTiming: null, equityProgrammeShare: null });
    const small = describePractices(release([{ records: 1 }, { records: 1 }, { records: 1 }, { records: 1 }, { records: 5 }]), {});
    expect(withholding(5, 9)).toBe('employees');
    expect(small).toEqual(four);
    const justEnough = describePractices(release([{ records: 1 }, { records: 1 }, { records: 1 }, { records: 1 }, { records: 6 }]), {});
    expect(justEnough.status).toBe('published');
  });

  it('narrow by stage, ownership and industry', () => {
    const market = release([...Array.from({ length: 5 }, () => ({ stage: 'public', type: 'rsu' })), ...Array.from({ length: 5 }, () => ({ stage: 'seed' }))]);
    const publicOnly = describePractices(market, { companyStages: ['public'] });
    expect(publicOnly.grantTypes?.find((s) => s.id === 'rsu')?.share).toBe(1);
    const ventureOnly = describePractices(market, { companyOwnershipGroups: ['venture_backed'] });
    expect(ventureOnly.grantTypes?.find((s) => s.id === 'stock_options')?.share).toBe(1);
    expect(describePractices(market, { industries: ['ind_healthcare'] }).status).toBe('insufficient_data');
    expect(() => describePractices(market, { companyStages: [] })).toThrow('Please select at least one company stage');
  });
});
