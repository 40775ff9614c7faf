import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { findSettingsRow } from './store.js';

/**
 * What an answer is computed with beyond pay equity's definitions (docs/pay-equity.md): the
 * company's pay-setting criteria and publication minimum, or the defaults before its first save.
 */
export interface TransparencyRules {
  criteria: string;
  publicationMinimum: number;
  version: number;
  updatedAt: string | null;
}

/**
 * Groups of fewer people than this are not shown: with 4 or fewer, an average comes close to
 * telling one colleague's pay. The same minimum as the product's other pay-equity figures (team
 * analytics, the data lab, pulse surveys).
 */
export const DEFAULT_PUBLICATION_MINIMUM = 5;

export const DEFAULT_RULES: TransparencyRules = { criteria: '', publicationMinimum: DEFAULT_PUBLICATION_MINIMUM, version: 0, updatedAt: null };

export async function transparencyRules(db: Knex, scope: CompanyScope): Promise<TransparencyRules> {
  const row = await findSettingsRow(db, scope);
  if (!row) return DEFAULT_RULES;
  return {
    criteria: row.criteria,
    publicationMinimum: Number(row.publication_minimum),
    version: Number(row.version),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
