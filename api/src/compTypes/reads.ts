import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { type CompType, type CompTypeId, applyChoices } from './catalog.js';
import { findSettings, parseChoices } from './store.js';

/**
 * The one read of a company's compensation types for the areas that list them (team view, total
 * rewards, offers, planning, pay equity): each type's title, and whether the company uses it.
 */
export interface CompTypes {
  readonly version: number;
  readonly all: readonly CompType[];
  /** The company's title for the type. */
  title(id: CompTypeId): string;
  /** The company's own title when it renamed the type, else null (the area keeps its wording). */
  renamed(id: CompTypeId): string | null;
  /** False when the company switched the type off (base salary is always on). */
  enabled(id: CompTypeId): boolean;
}

export function compTypesFrom(version: number, all: CompType[]): CompTypes {
  const byId = new Map(all.map((type) => [type.id, type]));
  return {
    version,
    all,
    title: (id) => byId.get(id)?.title ?? id,
    renamed: (id) => {
      const type = byId.get(id);
      return type && type.title !== type.defaultTitle ? type.title : null;
    },
    enabled: (id) => !(byId.get(id)?.isDisabled ?? false),
  };
}

export async function compTypesOf(db: Knex, scope: CompanyScope): Promise<CompTypes> {
  const stored = await findSettings(db, scope);
  return compTypesFrom(stored ? Number(stored.version) : 0, applyChoices(stored ? parseChoices(stored.types) : {}));
}
