import type { components } from '../../../openapi.d.ts';
import { api, useQuery } from '../api/client';
import { useMutation } from '../api/queries';
import { NARROW, useMediaQuery } from './hooks';

type Preferences = components['schemas']['UserPreferences'];
export type GridLayout = components['schemas']['GridLayout'];
export type Density = 'compact' | 'comfortable';

/**
 * A grid's layout as the person left it (column order and widths) and their row density, kept in
 * their preferences: what they change is saved at once and comes back on any device. Compact rows
 * are the default on a desktop, comfortable ones on a phone.
 */
export function useGridLayout(id: string) {
  const phone = useMediaQuery(NARROW);
  const preferences = useQuery('/api/me/preferences');
  const { run } = useMutation();
  const stored = preferences.data?.data;
  const layout: GridLayout = stored?.grids?.[id] ?? {};
  const density: Density = stored?.gridDensity ?? (phone ? 'comfortable' : 'compact');

  async function save(change: (current: Preferences) => Preferences) {
    const current = preferences.data?.data ?? {};
    const next = change(current);
    // Shown at once; the answer (or a reload after a failure) settles it.
    void preferences.mutate({ data: next }, { revalidate: false });
    const result = await run(() => api.PUT('/api/me/preferences', { body: next }));
    if (!result.ok) void preferences.mutate();
  }

  return {
    loaded: preferences.data !== undefined || preferences.error !== undefined,
    layout,
    density,
    saveLayout: (changes: GridLayout) => save((current) => ({ ...current, grids: { ...current.grids, [id]: { ...current.grids?.[id], ...changes } } })),
    saveDensity: (next: Density) => save((current) => ({ ...current, gridDensity: next })),
  };
}
