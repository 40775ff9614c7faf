import { companyScope } from '../../access/caller.js';
import type { components } from '../../contract-types.js';
import { newId } from '../../db/ids.js';
import { HttpError, badRequest, notFound } from '../../kernel/errors.js';
import { versionConflict, versionOf } from '../../kernel/versions.js';
import { PERCENTILES } from '../../reference/catalog/index.js';
import { queryRelease, type BenchmarkRequest } from '../engine/index.js';
import { currentRelease } from '../releases.js';
import { checkedRequest, currencyForexMapping, currencyProblem, marketData, type MarketData } from '../service.js';
import { alignQueries, type ComparedQuery } from './compare.js';
import { presentSavedQuery, storedRequest } from './present.js';
import { deleteSavedQuery, findSavedQueries, findSavedQuery, insertSavedQuery, listSavedQueries, updateSavedQuery } from './store.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];
type SavedQueryInput = Schemas['SavedReportQueryInput'];

export const SAVED_QUERY_MESSAGES = {
  name: 'Please enter a name for the report query',
  compareEither: 'Choose a saved report query or give a request, not both',
} as const;


/** Name and request are checked together, so one answer lists every problem. */
function checkedInput(input: SavedQueryInput): { name: string; description: string; request: string } {
  const name = input.name.trim();
  const problems: { field: string; message: string }[] = [];
  if (!name) problems.push({ field: 'body.name', message: SAVED_QUERY_MESSAGES.name });
  let request: string | undefined;
  try {
    request = JSON.stringify(checkedRequest(input.request, 'body.request'));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    problems.push(...(error.errors ?? []));
  }
  if (problems.length || request === undefined) throw badRequest(problems[0]?.message ?? 'The report query is not valid', problems);
  return { name, description: input.description?.trim() ?? '', request };
}

export async function savedQueries(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['SavedReportQuery'][]> {
  const { db, caller } = ctx;
  return (await listSavedQueries(db, companyScope(caller))).map(presentSavedQuery);
}

export async function savedQuery(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['SavedReportQuery']> {
  const { db, caller } = ctx;
  const row = await findSavedQuery(db, companyScope(caller), id);
  if (!row) throw notFound();
  return presentSavedQuery(row);
}

export async function createSavedQuery(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: SavedQueryInput): Promise<Schemas['SavedReportQuery']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const checked = checkedInput(input);
  const now = new Date().toISOString();
  const id = newId();
  await insertSavedQuery(db, { id, company_id: scope.companyId, ...checked, created_by: caller.userId, updated_by: caller.userId, version: 1, created_at: now, updated_at: now });
  return savedQuery({ db, caller }, id);
}

/** Replaces name, description and request, only at the version the caller last read. */
export async function replaceSavedQuery(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: SavedQueryInput): Promise<Schemas['SavedReportQuery']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  // Another company's id is 404 before anything about the body is said.
  if (!(await findSavedQuery(db, scope, id))) throw notFound();
  const version = versionOf(ifMatch);
  const checked = checkedInput(input);
  if (!(await updateSavedQuery(db, scope, id, version, { ...checked, updated_by: caller.userId, updated_at: new Date().toISOString() }))) throw versionConflict('this report query');
  return savedQuery({ db, caller }, id);
}

export async function removeSavedQuery(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['SavedReportQuery']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const row = await findSavedQuery(db, scope, id);
  if (!row) throw notFound();
  if (!(await deleteSavedQuery(db, scope, id, Number(row.version)))) throw versionConflict('this report query');
  return presentSavedQuery(row);
}

/** A saved query answered from the served release; the stored request is checked again, as the catalog may have moved on. */
export async function runSavedQuery(ctx: Pick<ServiceContext, 'deps' | 'caller'>, id: string): Promise<MarketData> {
  const { deps, caller } = ctx;
  const row = await findSavedQuery(deps.db, companyScope(caller), id);
  if (!row) throw notFound();
  return marketData({ deps }, checkedRequest(storedRequest<Schemas['BenchmarkRequest']>(row.request), 'request'), 'request.currency');
}

type CompareInput = Schemas['CompareRequest'];

/**
 * Two to four saved or ad-hoc queries answered from the same release with the same percentiles,
 * their cells aligned by family, level and comp type.
 */
export async function compareQueries(ctx: Pick<ServiceContext, 'deps' | 'caller'>, input: CompareInput): Promise<Schemas['CompareResult']> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const problems: { field: string; message: string }[] = [];
  input.queries.forEach((query, index) => {
    if ((query.savedQueryId === undefined) === (query.request === undefined)) {
      problems.push({ field: `body.queries[${index}]`, message: SAVED_QUERY_MESSAGES.compareEither });
    }
  });
  if (problems.length) throw badRequest(problems[0]?.message ?? 'The comparison is not valid', problems);
  const ids = input.queries.flatMap((q) => (q.savedQueryId ? [q.savedQueryId] : []));
  const saved = new Map((await findSavedQueries(deps.db, scope, ids)).map((row) => [row.id, row]));
  // Another company's saved query is as unknown as one that never existed.
  if (ids.some((id) => !saved.has(id))) throw notFound();
  const requests: { label: string; savedQueryId: string | null; request: BenchmarkRequest; currencyField: string }[] = [];
  input.queries.forEach((query, index) => {
    const row = query.savedQueryId ? saved.get(query.savedQueryId) : undefined;
    try {
      const field = row ? `body.queries[${index}].savedQueryId` : `body.queries[${index}].request`;
      const request = row ? checkedRequest(storedRequest<Schemas['BenchmarkRequest']>(row.request), field) : checkedRequest(query.request ?? {}, field);
      const currencyField = row ? field : `${field}.currency`;
      requests.push({ label: query.label?.trim() || row?.name || `Query ${index + 1}`, savedQueryId: row?.id ?? null, request, currencyField });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      problems.push(...(error.errors ?? []));
    }
  });
  if (problems.length) throw badRequest(problems[0]?.message ?? 'The comparison is not valid', problems);
  const percentiles = input.percentiles ?? [...new Set(requests.flatMap((r) => r.request.percentiles ?? PERCENTILES))].sort((a, b) => a - b);
  // One release and one set of rates for every query, so the columns are comparable.
  const served = await currentRelease(deps);
  const forex = await currencyForexMapping(deps.db);
  const currencies = input.currency !== undefined ? [currencyProblem(forex, input.currency, 'body.currency')] : requests.map((r) => currencyProblem(forex, r.request.currency, r.currencyField));
  problems.push(...currencies.flatMap((problem) => (problem ? [problem] : [])));
  if (problems.length) throw badRequest(problems[0]?.message ?? 'The comparison is not valid', problems);
  const answered: ComparedQuery[] = requests.map(({ label, savedQueryId, request }) => ({
    label,
    savedQueryId,
    marketFilters: request.marketFilters,
    result: queryRelease(served.release, { ...request, percentiles, ...(input.currency ? { currency: input.currency } : {}) }, { forex }),
  }));
  const { columns, rows } = alignQueries(answered);
  return { releaseId: served.release.id, releaseVersion: served.row.version, percentiles, columns, rows };
}
