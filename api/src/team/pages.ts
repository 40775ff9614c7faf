import { type VersionSource, VersionedCache } from '../access/authCache.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { servedReleaseId } from '../market/releases.js';
import { today } from '../money/converter.js';
import type { TeamAccess } from './access.js';

export interface TablePage {
  table: components['schemas']['TeamTable'];
  nextCursor: string | null;
}

/** Pages kept per node: a few hundred answers of up to a few hundred rows each. */
const KEPT_PAGES = 256;

const pagesBySource = new WeakMap<VersionSource, VersionedCache<TablePage>>();

/**
 * Team table pages, kept until the next commit that writes data (`deps.dataVersion`): a page is
 * the same answer for everyone with the same reach asking the same question on the same day
 * against the same market release, until something it is read from changes. Without a data
 * version (a database only this process can see) nothing is kept.
 */
export function keptPage(deps: AppDeps, access: TeamAccess, query: unknown, load: () => Promise<TablePage>): Promise<TablePage> {
  const source = deps.dataVersion;
  if (!source) return load();
  let pages = pagesBySource.get(source);
  if (!pages) {
    pages = new VersionedCache<TablePage>(source, KEPT_PAGES);
    pagesBySource.set(source, pages);
  }
  return pages.get(keyOf(deps, access, query), load);
}

/** The page kept for the question, if one is and nothing was committed since; nothing is loaded. */
export async function peekPage(deps: AppDeps, access: TeamAccess, query: unknown): Promise<TablePage | undefined> {
  const pages = deps.dataVersion ? pagesBySource.get(deps.dataVersion) : undefined;
  return pages?.peek(keyOf(deps, access, query));
}

const keyOf = (deps: AppDeps, access: TeamAccess, query: unknown): string =>
  JSON.stringify([access.scope.companyId, access.records, access.pay, access.demographics, query, today(), servedReleaseId(deps)]);
