import { describe, expect, it } from 'vitest';
import { validateBenchmarkRequest } from '../../api/src/market/engine/validate.js';
import { presentFilters } from '../../api/src/market/present.js';
import { type BenchmarkRequest, MARKET_PERCENTILES, type Selection, defaultSelection, fromRequest, toRequest, validateSelection } from '../src/features/benchmarking/selection.js';

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
    expect(fromRequest({ ...older, percentiles: [33] } as unknown as BenchmarkRequest, filters).percentiles).toEqual([25, 50, 75]);
  });
});
