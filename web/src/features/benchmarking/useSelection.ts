import { useCallback, useEffect, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { statusOf, useQuery } from '../../api/client';
import { useReportedFailure } from '../../api/errorReporting';
import { type BenchmarkingFilters, type PreferredLocation, type Selection, defaultSelection } from './selection';
import { decodeSelection, encodeSelection } from './selectionUrl';

/** The spec's states of the preferred benchmarking location (§4): not loaded yet, then one of three places or none. */
export type PreferredLocationState = { state: 'not-started-loading' } | { state: 'loaded'; location: PreferredLocation | null };

/**
 * The company's preferred benchmarking location, from its benchmarking settings. A person who may
 * not read the settings has none, like a company that chose none.
 */
export function usePreferredBenchmarkingLocation(): PreferredLocationState {
  const settings = useQuery('/api/benchmarking/settings');
  // A refusal (403: no access to the settings) is expected; any other failure goes to error tracking.
  useReportedFailure('The company benchmarking settings', statusOf(settings.error) === 403 ? undefined : settings.error);
  if (settings.data) return { state: 'loaded', location: settings.data.data.location };
  if (settings.error) return { state: 'loaded', location: null };
  return { state: 'not-started-loading' };
}

/** The last selection of this tab, as its query string: where the explorer returns to from the menu. */
const LAST_SELECTION = 'paybench.benchmark.lastSelection';

export function lastSelectionQuery(): string | null {
  return sessionStorage.getItem(LAST_SELECTION);
}

/** The last selection of this tab, for screens outside the explorer (compare). */
export function useLastSelection(filters: BenchmarkingFilters | undefined): Selection | null {
  return useMemo(() => {
    const query = lastSelectionQuery();
    return filters && query ? decodeSelection(query, filters) : null;
  }, [filters]);
}

/** The query string (with its "?") that carries a selection to another explorer screen. */
export function selectionQuery(selection: Selection | null, filters: BenchmarkingFilters | undefined): string {
  return selection && filters ? `?${encodeSelection(selection, filters)}` : '';
}

/**
 * The data explorer's selection: the URL holds it, so back and forward, reload, a new tab and a
 * shared link all show the same one. A URL without one takes the tab's last selection, else the
 * defaults with the company's preferred location, and says so in the URL at once (replacing it).
 * Changes replace the URL; going to another step of the explorer adds a history entry.
 */
export function useSelection(filters: BenchmarkingFilters | undefined) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const preferred = usePreferredBenchmarkingLocation();
  const selection = useMemo(() => (filters ? decodeSelection(search, filters) : null), [search, filters]);
  const query = selection && filters ? encodeSelection(selection, filters) : null;

  useEffect(() => {
    if (!filters || selection) return;
    const last = lastSelectionQuery();
    const restored = last ? decodeSelection(last, filters) : null;
    if (restored) return navigate(`${location}?${encodeSelection(restored, filters)}`, { replace: true });
    if (preferred.state === 'loaded') navigate(`${location}?${encodeSelection(defaultSelection(filters, preferred.location), filters)}`, { replace: true });
  }, [filters, selection, location, navigate, preferred]);

  useEffect(() => {
    if (query !== null) sessionStorage.setItem(LAST_SELECTION, query);
  }, [query]);

  const setSelection = useCallback(
    (next: Selection) => {
      if (filters) navigate(`${location}?${encodeSelection(next, filters)}`, { replace: true });
    },
    [filters, location, navigate],
  );
  const preferredLocation = preferred.state === 'loaded' ? preferred.location : null;
  return [selection, setSelection, { query: query === null ? '' : `?${query}`, preferredLocation }] as const;
}
