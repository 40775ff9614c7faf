import { useMemo } from 'react';
import type { components } from '../../../../openapi.d.ts';
import useSWR from 'swr';
import { api, unwrap, useQuery } from '../../api/client';
import type { BenchmarkRequest } from './selection';

export type JobCatalogEntry = components['schemas']['JobCatalogEntry'];

/** Everything the picker and the results need to turn ids into names. */
export function useBenchmarkingCatalog() {
  const filters = useQuery('/api/benchmarking/filters');
  const catalog = useQuery('/api/benchmarking/job-catalog', {});
  const locations = useQuery('/api/benchmarking/data-composition/locations');
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
      for (const option of [...f.companyStagesWithIds, ...f.companyOwnershipGroupsWithIds]) map.set(option.id, option.displayString);
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
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 }).format(value);
}

export const INSUFFICIENT_REASONS: Record<string, string> = {
  companies: 'Too few companies in this slice',
  employees: 'Too few employees in this slice',
  concentration: 'One company holds too large a share of this slice',
};

/** Runs the data explorer's request; the same request is answered from SWR's cache for the hour. */
export function useBenchmark(request: BenchmarkRequest | null) {
  return useSWR(request ? ['paybench', 'market-data', JSON.stringify(request)] : null, async () => (await unwrap(api.POST('/api/benchmarking/market-data', { body: request ?? {} }))).data);
}
