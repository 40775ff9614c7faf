import { describe, expect, it } from 'vitest';
import type { BenchmarkRequestInput, MarketFilter } from './request.js';
import { isValidBenchmarkRequest, validateBenchmarkRequest } from './validate.js';

const filter = (overrides: Partial<MarketFilter> = {}): Partial<MarketFilter> => ({
  companyStages: ['series_b'],
  companyOwnershipGroups: ['venture_backed'],
  locations: ['840_1'],
  industries: ['ind_technology'],
  ...overrides,
});

const valid = (overrides: BenchmarkRequestInput = {}): BenchmarkRequestInput => ({
  compensationTypes: ['base', 'total_equity'],
  marketFilters: [filter()],
  jobFamilies: ['software_engineering'],
  levels: [{ type: 'level', id: 'p3' }],
  ...overrides,
});

const equityRequest = (equity: BenchmarkRequestInput['equity'], types = ['new_hire_equity']): BenchmarkRequestInput =>
  valid({ compensationTypes: types, equity });

const fullEquity = { intendedVsActual: ['intended'], views: ['value'], timeframes: ['annualized'], unvestedTimeframes: ['total_unvested'] };

describe('validateBenchmarkRequest', () => {
  it('accepts a complete request', () => {
    expect(validateBenchmarkRequest(valid())).toEqual([]);
    expect(isValidBenchmarkRequest(valid())).toBe(true);
    expect(validateBenchmarkRequest(equityRequest(fullEquity, ['new_hire_equity', 'unvested_equity']))).toEqual([]);
  });

  it.each([
    [{ compensationTypes: [] }, 'compensationTypes', 'Please select at least one compensation type'],
    [{ marketFilters: [] }, 'marketFilters', 'Please select at least one market filter'],
    [{ jobFamilies: [] }, 'jobFamilies', 'Please select at least one job family'],
    [{ levels: [] }, 'levels', 'Please select at least one level option'],
    [{ marketFilters: [filter({ companyStages: [] })] }, 'marketFilters[0].companyStages', 'Please select at least one company stage'],
    [
      { marketFilters: [filter(), filter({ companyOwnershipGroups: [] })] },
      'marketFilters[1].companyOwnershipGroups',
      'Please select at least one company ownership group',
    ],
    [{ marketFilters: [filter({ locations: [] })] }, 'marketFilters[0].locations', 'Please select at least one location'],
    [{ marketFilters: [filter({ industries: [] })] }, 'marketFilters[0].industries', 'Please select at least one industry'],
    [
      { levels: [{ type: 'level', id: 'e9' }] },
      'marketFilters[0].founderTypes',
      "Founder type is required when level 'E9' is selected",
    ],
  ] as [BenchmarkRequestInput, string, string][])('reports %j as "%s: %s"', (overrides, field, message) => {
    expect(validateBenchmarkRequest(valid(overrides))).toEqual([{ field, message }]);
  });

  it('treats a missing list like an empty one', () => {
    expect(validateBenchmarkRequest({})).toEqual([
      { field: 'compensationTypes', message: 'Please select at least one compensation type' },
      { field: 'marketFilters', message: 'Please select at least one market filter' },
      { field: 'jobFamilies', message: 'Please select at least one job family' },
      { field: 'levels', message: 'Please select at least one level option' },
    ]);
    expect(validateBenchmarkRequest(valid({ marketFilters: [{}] }))).toHaveLength(4);
  });

  it('asks every market filter for a founder type once E9 is chosen', () => {
    const request = valid({ levels: [{ type: 'level', id: 'e9' }], marketFilters: [filter({ founderTypes: ['founder'] }), filter()] });
    expect(validateBenchmarkRequest(request)).toEqual([
      { field: 'marketFilters[1].founderTypes', message: "Founder type is required when level 'E9' is selected" },
    ]);
  });

  it('asks equity types other than total equity for an option, a view and a timeframe', () => {
    expect(validateBenchmarkRequest(equityRequest({ ...fullEquity, intendedVsActual: [] }))).toEqual([
      { field: 'equity.intendedVsActual', message: 'Please select at least one option' },
    ]);
    expect(validateBenchmarkRequest(equityRequest({ ...fullEquity, views: [] }))).toEqual([
      { field: 'equity.views', message: 'Please select at least one equity view' },
    ]);
    expect(validateBenchmarkRequest(equityRequest({ ...fullEquity, timeframes: [] }))).toEqual([
      { field: 'equity.timeframes', message: 'Please select at least one timeframe' },
    ]);
    expect(validateBenchmarkRequest(equityRequest(undefined))).toEqual([
      { field: 'equity.intendedVsActual', message: 'Please select at least one option' },
      { field: 'equity.views', message: 'Please select at least one equity view' },
      { field: 'equity.timeframes', message: 'Please select at least one timeframe' },
    ]);
  });

  it('asks unvested equity for an unvested timeframe, not the normal one', () => {
    const unvestedOnly = { intendedVsActual: ['actual'], views: ['value'], unvestedTimeframes: [] };
    expect(validateBenchmarkRequest(equityRequest(unvestedOnly, ['unvested_equity']))).toEqual([
      { field: 'equity.unvestedTimeframes', message: 'Please select at least one timeframe' },
    ]);
    expect(validateBenchmarkRequest(equityRequest({ ...unvestedOnly, unvestedTimeframes: ['annualized'] }, ['unvested_equity']))).toEqual([
      { field: 'equity.unvestedTimeframes', message: "Unknown unvested timeframe 'annualized'" },
    ]);
  });

  it('needs no equity options for total equity alone', () => {
    expect(validateBenchmarkRequest(valid({ compensationTypes: ['total_equity'] }))).toEqual([]);
  });

  it('names unknown ids, disabled comp types and bad percentiles', () => {
    const issues = validateBenchmarkRequest(
      valid({
        compensationTypes: ['base', 'signing_bonus', 'stock_tips'],
        jobFamilies: ['astronaut'],
        levels: [{ type: 'levelBlend', id: 'p3' }, { type: 'grade', id: 'p3' }],
        marketFilters: [filter({ locations: ['mars'], industries: ['ind_space'], companyStages: ['series_z'], companyOwnershipGroups: ['state'] })],
        percentiles: [50, 12.5, 33],
        currency: 'eur',
      }),
    );
    expect(issues).toEqual([
      { field: 'compensationTypes', message: "Compensation type 'signing_bonus' is not available" },
      { field: 'compensationTypes', message: "Unknown compensation type 'stock_tips'" },
      { field: 'jobFamilies', message: "Unknown job family 'astronaut'" },
      { field: 'levels', message: "Unknown level 'p3'" },
      { field: 'levels', message: 'Level type must be level or levelBlend' },
      { field: 'marketFilters[0].companyStages', message: "Unknown company stage 'series_z'" },
      { field: 'marketFilters[0].companyOwnershipGroups', message: "Unknown company ownership group 'state'" },
      { field: 'marketFilters[0].locations', message: "Unknown location 'mars'" },
      { field: 'marketFilters[0].industries', message: "Unknown industry 'ind_space'" },
      { field: 'percentiles', message: 'Percentiles must be some of 10, 25, 40, 50, 60, 75, 90' },
      { field: 'currency', message: 'Currency must be local or an ISO 4217 code such as USD' },
    ]);
  });
});
