import { describe, expect, it } from 'vitest';
import { validateBenchmarkRequest } from '../../api/src/market/engine/validate.js';
import { presentFilters } from '../../api/src/market/present.js';
import { describeMarket, marketLabeller } from '../src/features/benchmarking/markets.js';
import {
  type BenchmarkRequest,
  MARKET_PERCENTILES,
  type Selection,
  defaultPercentiles,
  defaultSelection,
  fromRequest,
  toRequest,
  validateSelection,
  withCompensationTypes,
} from '../src/features/benchmarking/selection.js';
import { decodeSelection, encodeSelection } from '../src/features/benchmarking/selectionUrl.js';

// The filters the server would send, built by the server's own presenter.
const filters = presentFilters({ USD: 1, EUR: 0.92 }, '2026-01-01.1', new Map(), 'employee');

/** The picker's form rules and the engine's must agree, message for message (spec §5). */
function agree(selection: Selection) {
  const client = [...new Set(validateSelection(selection, filters).map((problem) => problem.message))].sort();
  const server = [...new Set(validateBenchmarkRequest(toRequest(selection, filters)).map((issue) => issue.message))].sort();
  expect(client).toEqual(server);
  return client;
}

describe('the data explorer form', () => {
  const base = (): Selection => ({ ...defaultSelection(filters), jobFamilies: ['software_engineering'], levels: [{ type: 'level', id: 'p3' }] });

  it('accepts the defaults with a family and a level, as the engine does', () => {
    expect(agree(base())).toEqual([]);
  });

  it('asks for a family, a level and a compensation type in the spec’s words', () => {
    expect(agree({ ...base(), jobFamilies: [], levels: [], compensationTypes: [] })).toEqual([
      'Please select at least one compensation type',
      'Please select at least one job family',
      'Please select at least one level option',
    ]);
  });

  it('asks every market for a stage, ownership group, location and industry', () => {
    const empty = { locations: [], industries: [], companyStages: [], companyOwnershipGroups: [], founderTypes: [] };
    expect(agree({ ...base(), markets: [empty] })).toEqual([
      'Please select at least one company ownership group',
      'Please select at least one company stage',
      'Please select at least one industry',
      'Please select at least one location',
    ]);
    expect(agree({ ...base(), markets: [] })).toEqual(['Please select at least one market filter']);
  });

  it('needs a founder type for E9, and equity options for equity types other than total equity', () => {
    const e9 = { ...base(), levels: [{ type: 'level' as const, id: 'e9' }] };
    expect(agree(e9)).toEqual(["Founder type is required when level 'E9' is selected"]);
    expect(agree({ ...e9, markets: e9.markets.map((market) => ({ ...market, founderTypes: ['founder'] })) })).toEqual([]);

    const grants = { ...base(), compensationTypes: ['new_hire_equity', 'unvested_equity'], equity: { intendedVsActual: [], views: [], timeframes: [], unvestedTimeframes: [] } };
    expect(agree(grants)).toEqual(['Please select at least one equity view', 'Please select at least one option', 'Please select at least one timeframe']);
    expect(agree({ ...grants, equity: defaultSelection(filters).equity })).toEqual([]);
    // Total equity alone needs none of them, and sends none.
    const total = { ...base(), compensationTypes: ['total_equity'], equity: { intendedVsActual: [], views: [], timeframes: [], unvestedTimeframes: [] } };
    expect(agree(total)).toEqual([]);
    expect(toRequest(total, filters).equity).toBeUndefined();
  });

  it('turns a saved request back into the same selection', () => {
    const selection: Selection = { ...base(), currency: 'USD', percentiles: [10, 50, 90] };
    expect(toRequest(fromRequest(toRequest(selection, filters), filters), filters)).toEqual(toRequest(selection, filters));
  });

  it('keeps only the published percentiles, the ones the server lists', () => {
    expect(MARKET_PERCENTILES).toEqual(filters.percentiles);
    // A report saved before the list was enforced: its other percentiles are dropped, and with none left the defaults return.
    const older = { ...toRequest(base(), filters), percentiles: [1, 40, 99] } as unknown as BenchmarkRequest;
    expect(fromRequest(older, filters).percentiles).toEqual([40]);
    // With none left, the default percentile code of base salary (cash): P25.
    expect(fromRequest({ ...older, percentiles: [33] } as unknown as BenchmarkRequest, filters).percentiles).toEqual([25]);
  });
});

describe('default percentile codes (spec §9: cash 25, equity 50)', () => {
  it('start at P25 for base salary, add P50 with an equity type, and leave a chosen set alone', () => {
    expect(defaultSelection(filters).percentiles).toEqual([25]);
    expect(defaultPercentiles(['total_equity'], filters)).toEqual([50]);
    expect(defaultPercentiles(['base', 'new_hire_equity'], filters)).toEqual([25, 50]);
    const start = defaultSelection(filters);
    const withEquity = withCompensationTypes(start, ['base', 'total_equity'], filters);
    expect(withEquity.percentiles).toEqual([25, 50]);
    expect(withCompensationTypes(withEquity, ['total_equity'], filters).percentiles).toEqual([50]);
    const chosen = { ...start, percentiles: [10, 90] as Selection['percentiles'] };
    expect(withCompensationTypes(chosen, ['base', 'total_equity'], filters).percentiles).toEqual([10, 90]);
  });

  it('pre-select the preferred benchmarking location, else the United States', () => {
    expect(defaultSelection(filters, 'Europe').markets.map((market) => market.locations)).toEqual([['826', '276']]);
    expect(defaultSelection(filters, 'Canada').markets.map((market) => market.locations)).toEqual([['124']]);
    expect(defaultSelection(filters, 'United States').markets.map((market) => market.locations)).toEqual([['840']]);
    expect(defaultSelection(filters, null).markets.map((market) => market.locations)).toEqual([['840']]);
  });
});

describe('the selection in the URL', () => {
  const chosen = (): Selection => ({
    ...defaultSelection(filters),
    jobFamilies: ['software_engineering', 'technical_writing'],
    levels: [
      { type: 'level', id: 'p3' },
      { type: 'levelBlend', id: 'p3_p4' },
    ],
  });

  it('is short: what equals the defaults is left out', () => {
    expect(encodeSelection(chosen(), filters)).toBe('f=software_engineering,technical_writing&l=p3,~p3_p4&m=840&c=base');
  });

  it('names every market with what narrows it, the percentiles and currency when not the defaults', () => {
    const selection: Selection = {
      ...chosen(),
      markets: [
        { ...defaultSelection(filters).markets[0]!, locations: ['840_1'], companyStages: ['seed', 'series_a'] },
        { ...defaultSelection(filters).markets[0]!, locations: ['826', '276'], founderTypes: ['founder'] },
      ],
      compensationTypes: ['base', 'total_equity'],
      percentiles: [75, 10],
      currency: 'USD',
    };
    const query = encodeSelection(selection, filters);
    expect(query).toBe('f=software_engineering,technical_writing&l=p3,~p3_p4&m=840_1;s:seed,series_a&m=826,276;t:founder&c=base,total_equity&p=10,75&cur=USD');
    // Read back, it is the same selection (percentiles in order), and it writes the same link again.
    expect(decodeSelection(`?${query}`, filters)).toEqual({ ...selection, percentiles: [10, 75] });
    expect(encodeSelection(decodeSelection(query, filters)!, filters)).toBe(query);
  });

  it('keeps empty choices empty, so the form says what is missing', () => {
    const empty: Selection = { ...chosen(), jobFamilies: [], markets: [{ ...defaultSelection(filters).markets[0]!, industries: [] }] };
    const back = decodeSelection(encodeSelection(empty, filters), filters);
    expect(back?.jobFamilies).toEqual([]);
    expect(back?.markets[0]?.industries).toEqual([]);
    expect(validateSelection(back!, filters).map((problem) => problem.message)).toEqual(['Please select at least one job family', 'Please select at least one industry']);
  });

  it('holds no selection without f, and survives nonsense', () => {
    expect(decodeSelection('', filters)).toBeNull();
    expect(decodeSelection('?employee=1', filters)).toBeNull();
    expect(decodeSelection('f=%E0%A4%A', filters)).toBeNull();
    // Percentiles the product does not publish are dropped; none left means the defaults.
    expect(decodeSelection('f=a&c=base&p=33,99', filters)?.percentiles).toEqual([25]);
  });

  it('labels each market by its locations, and describes what narrows it', () => {
    const names: Record<string, string> = { '840_1': 'US Tier 1', '276': 'Germany', seed: 'Seed' };
    const name = (id: string) => names[id] ?? id;
    const market = { ...defaultSelection(filters).markets[0]!, locations: ['840_1'], companyStages: ['seed'] };
    expect(marketLabeller([market], name)(0)).toBe('US Tier 1');
    expect(marketLabeller([market, { ...market, locations: ['276'] }], name)(1)).toBe('Market 2: Germany');
    expect(describeMarket(market, filters, name)).toBe('US Tier 1 · stages: Seed');
    expect(describeMarket({ ...market, companyStages: defaultSelection(filters).markets[0]!.companyStages }, filters, name)).toBe('US Tier 1');
  });
});
