import { useMemo } from 'react';
import { useReportedFailure } from '../../api/errorReporting';
import type { components } from '../../../../openapi.d.ts';
import { useQuery } from '../../api/client';
import { usePostQuery } from '../../api/queries';
import { formatMajor } from '../../ui/format';
import { isMarketPercentile, type BenchmarkRequest } from './selection';

export type JobCatalogEntry = components['schemas']['JobCatalogEntry'];
type SampleBucket = components['schemas']['SampleBucket'];

/** Everything the picker and the results need to turn ids into names. */
/**
 * The catalog's locations with the served release's coverage (`coverageLabel`, `coverageText`, …),
 * by id: the pickers' hints. Absent while loading or when it cannot be read (the pickers then show
 * names alone).
 */
export function useLocationCoverage(): ReadonlyMap<string, string> {
  const catalog = useQuery('/api/benchmarking/catalog/locations');
  return useMemo(
    () => new Map((catalog.data?.data.locations ?? []).map((location) => [location.paybenchLocationId, `${location.coverageLabel}: ${location.coverageText}`])),
    [catalog.data],
  );
}

export function useBenchmarkingCatalog() {
  const filters = useQuery('/api/benchmarking/filters');
  const catalog = useQuery('/api/benchmarking/job-catalog', {});
  const locations = useQuery('/api/benchmarking/data-composition/locations');
  // The spec (§8): failed metadata fetches are reported to error tracking (and the screen shows them).
  useReportedFailure('The benchmarking filters', filters.error);
  const names = useMemo(() => {
    const map = new Map<string, string>();
    for (const entry of catalog.data?.data ?? []) map.set(entry.upstreamId, entry.displayString);
    for (const entry of locations.data?.data.locations ?? []) map.set(entry.id, entry.name);
    const f = filters.data?.data;
    if (f) {
      for (const track of f.levelsWithIds.levelTracks) for (const level of track.levels) map.set(level.id, level.displayString);
      for (const blend of f.levelsWithIds.levelBlends) map.set(blend.id, blend.displayString);
      for (const type of [...f.compTypes.cash, ...f.compTypes.equity]) map.set(type.id, type.title);
      for (const industry of f.industriesAndSubIndustriesWithIds) {
        map.set(industry.upstreamId, industry.displayString);
        for (const sub of industry.subIndustries) map.set(sub.upstreamId, sub.displayString);
      }
      for (const option of [...f.companyStagesWithIds, ...f.companyOwnershipGroupsWithIds, ...f.founderTypesWithIds]) map.set(option.id, option.displayString);
      for (const option of [...f.equityIntendedVsActualOptions, ...f.equityTimeframeOptions, ...f.unvestedEquityTimeframeOptions, ...f.equityViewOptions]) {
        map.set(option.value, option.label);
      }
    }
    return map;
  }, [filters.data, catalog.data, locations.data]);
  return {
    filters: filters.data?.data,
    catalog: catalog.data?.data,
    locations: locations.data?.data.locations,
    name: (id: string) => names.get(id) ?? id,
    error: filters.error ?? catalog.error ?? locations.error,
    isLoading: filters.isLoading || catalog.isLoading || locations.isLoading,
  };
}

export function formatValue(value: number, unit: 'currency' | 'percent', currency: string | null): string {
  if (unit === 'percent') return `${value.toLocaleString('en-US', { maximumFractionDigits: 3 })}%`;
  if (!currency) return value.toLocaleString('en-US', { maximumFractionDigits: 0 });
  return formatMajor(value, currency);
}

/** The bucket a withheld cell or a thin composition group gets: its size is not published, not even as a range. */
export const BELOW_THRESHOLD = 'below_threshold';

/** "10–24 companies · 50–99 employees", or "Below the threshold" and nothing that narrows it. */
export function sampleText(sample: { companyBucket: SampleBucket; employeeBucket: SampleBucket }): string {
  if (sample.companyBucket.id === BELOW_THRESHOLD || sample.employeeBucket.id === BELOW_THRESHOLD) return sample.companyBucket.label;
  return `${sample.companyBucket.label} companies · ${sample.employeeBucket.label} employees`;
}

/** A request as a screen builds it; only the published percentiles are sent (the server refuses others). */
export type BenchmarkRequestInput = Omit<BenchmarkRequest, 'percentiles'> & { percentiles?: readonly number[] };

/** Runs the data explorer's request; the same request is answered from the cache for the hour. */
export function useBenchmark(input: BenchmarkRequestInput | null) {
  const request: BenchmarkRequest | null = input ? { ...input, percentiles: input.percentiles?.filter(isMarketPercentile) } : null;
  return usePostQuery('/api/benchmarking/market-data', request);
}
