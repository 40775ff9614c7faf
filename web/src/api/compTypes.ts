import type { components } from '../../../openapi.d.ts';
import { useQuery } from './client';

export type CompTypeId = components['schemas']['CompTypeId'];

export interface CompTypeNames {
  /** The company's title for a type when it renamed it, else the screen's own wording. */
  label(id: CompTypeId, wording: string): string;
  /** False when the company switched the type off (true while loading, and for base salary). */
  enabled(id: CompTypeId): boolean;
}

/**
 * The company's comp type settings as the screens that list compensation types use them (team
 * view, total rewards, offers, planning, pay equity): a renamed type shows the company's title, a
 * switched-off one is hidden. `enabled` false (a candidate, a page without a company) asks nothing.
 */
export function useCompTypes(enabled = true): CompTypeNames {
  const { data } = useQuery('/api/company/comp-types', enabled ? {} : null);
  const types = new Map((data?.data.types ?? []).map((type) => [type.id, type]));
  return {
    label: (id, wording) => {
      const type = types.get(id);
      return type && type.title !== type.defaultTitle ? type.title : wording;
    },
    enabled: (id) => !(types.get(id)?.isDisabled ?? false),
  };
}
