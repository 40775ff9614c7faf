import type { Knex } from 'knex';
import { type Caller, companyScope } from '../../access/caller.js';
import type { components } from '../../contract-types.js';
import { newId } from '../../db/ids.js';
import { HttpError, badRequest, notFound, type FieldError } from '../../kernel/errors.js';
import { answerExecutive, checkedExecutiveRequest } from '../executive/service.js';
import { storedRequest } from '../queries/present.js';
import { findSavedQueries } from '../queries/store.js';
import { currentRelease } from '../releases.js';
import { checkedRequest, forexFor, marketData } from '../service.js';
import { presentSlice, sliceStatus, storedCell, storedPercentiles } from './present.js';
import { findSlice, insertSlice, listSlices, markRevoked, type SliceKind } from './store.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];

export const SLICE_MESSAGES = {
  title: 'Please enter a title for the shared slice',
  either: 'Choose a saved report query or give a request, not both',
  expiryPast: 'The expiry must be in the future',
  expiryFar: 'A shared slice can stay open for at most a year',
  tooLarge: 'A shared slice holds at most 5,000 cells; narrow the request',
} as const;

const MAX_CELLS = 5_000;
const YEAR_MS = 366 * 24 * 3600 * 1000;

function checkTitleAndExpiry(title: string, expiresAt: string | undefined, problems: FieldError[]): void {
  if (!title.trim()) problems.push({ field: 'body.title', message: SLICE_MESSAGES.title });
  if (expiresAt === undefined) return;
  const at = new Date(expiresAt).getTime();
  if (at <= Date.now()) problems.push({ field: 'body.expiresAt', message: SLICE_MESSAGES.expiryPast });
  else if (at > Date.now() + YEAR_MS) problems.push({ field: 'body.expiresAt', message: SLICE_MESSAGES.expiryFar });
}

/** Runs `check`, adding what it refuses to the problems instead of throwing at the first. */
function collect<T>(problems: FieldError[], check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 400) throw error;
    problems.push(...(error.errors ?? [{ field: 'body', message: error.message }]));
    return undefined;
  }
}

function refuse(problems: FieldError[]): never {
  throw badRequest(problems[0]?.message ?? 'The shared slice is not valid', problems);
}

interface Snapshot {
  kind: SliceKind;
  title: string;
  request: unknown;
  result: unknown;
  cells: number;
  releaseId: string;
  releaseVersion: string;
  savedQueryId: string | null;
  expiresAt: string | undefined;
}

async function store(db: Knex, caller: Caller, snapshot: Snapshot): Promise<Schemas['SharedSlice']> {
  if (snapshot.cells > MAX_CELLS) refuse([{ field: 'body.request', message: SLICE_MESSAGES.tooLarge }]);
  const scope = companyScope(caller);
  const id = newId();
  await insertSlice(db, {
    id,
    company_id: scope.companyId,
    kind: snapshot.kind,
    title: snapshot.title.trim(),
    request: JSON.stringify(snapshot.request),
    result: JSON.stringify(snapshot.result),
    release_id: snapshot.releaseId,
    release_version: snapshot.releaseVersion,
    saved_query_id: snapshot.savedQueryId,
    created_by: caller.userId,
    created_at: new Date().toISOString(),
    expires_at: snapshot.expiresAt ? new Date(snapshot.expiresAt).toISOString() : null,
    revoked_at: null,
    revoked_by: null,
  });
  const row = await findSlice(db, scope, id);
  if (!row) throw notFound();
  return presentSlice(row);
}

/** Shares what a request (or a saved query) answers now, from the release served now. */
export async function shareMarketData(ctx: Pick<ServiceContext, 'deps' | 'caller'>, input: Schemas['SharedSliceInput']): Promise<Schemas['SharedSlice']> {
  const { deps, caller } = ctx;
  const scope = companyScope(caller);
  const problems: FieldError[] = [];
  checkTitleAndExpiry(input.title, input.expiresAt, problems);
  if ((input.savedQueryId === undefined) === (input.request === undefined)) problems.push({ field: 'body', message: SLICE_MESSAGES.either });
  const saved = input.savedQueryId ? (await findSavedQueries(deps.db, scope, [input.savedQueryId]))[0] : undefined;
  if (input.savedQueryId && !saved) throw notFound();
  const requestInput = saved ? storedRequest<Schemas['BenchmarkRequest']>(saved.request) : input.request;
  const field = saved ? 'body.savedQueryId' : 'body.request';
  const request = requestInput ? collect(problems, () => checkedRequest(requestInput, field)) : undefined;
  if (problems.length || !request) refuse(problems);
  const result = await marketData({ deps }, request, saved ? field : `${field}.currency`);
  return store(deps.db, caller, {
    kind: 'employee',
    title: input.title,
    request,
    result,
    cells: result.cells.length,
    releaseId: result.releaseId,
    releaseVersion: result.releaseVersion,
    savedQueryId: saved?.id ?? null,
    expiresAt: input.expiresAt,
  });
}

export async function shareExecutiveData(ctx: Pick<ServiceContext, 'deps' | 'caller'>, input: Schemas['ExecutiveSharedSliceInput']): Promise<Schemas['SharedSlice']> {
  const { deps, caller } = ctx;
  const problems: FieldError[] = [];
  checkTitleAndExpiry(input.title, input.expiresAt, problems);
  const request = collect(problems, () => checkedExecutiveRequest(input.request, 'body.request'));
  if (problems.length || !request) refuse(problems);
  const served = await currentRelease(deps);
  const result = answerExecutive(served, await forexFor({ db: deps.db }, request.currency, 'body.request.currency'), request);
  return store(deps.db, caller, {
    kind: 'executive',
    title: input.title,
    request,
    result,
    cells: result.rows.reduce((n, row) => n + row.cells.length, 0),
    releaseId: served.release.id,
    releaseVersion: served.row.version,
    savedQueryId: null,
    expiresAt: input.expiresAt,
  });
}

export async function sharedSlices(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['SharedSlice'][]> {
  const { db, caller } = ctx;
  return (await listSlices(db, companyScope(caller))).map(presentSlice);
}

/**
 * A slice reads the same for everyone allowed to read it, for as long as it is open: the stored
 * answer, not today's release. Another company's slice, a slice of the other kind, a revoked or
 * an expired one: all 404, the last two saying why.
 */
async function openSlice(db: Knex, caller: Caller, id: string, kind: SliceKind) {
  const row = await findSlice(db, companyScope(caller), id);
  if (!row || row.kind !== kind) throw notFound();
  const status = sliceStatus(row);
  if (status === 'revoked') throw new HttpError(404, 'slice_revoked', { message: 'This shared slice was revoked.' });
  if (status === 'expired') throw new HttpError(404, 'slice_expired', { message: 'This shared slice has expired.' });
  return row;
}

export async function readSharedSlice(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['SharedSliceView']> {
  const { db, caller } = ctx;
  const row = await openSlice(db, caller, id, 'employee');
  const stored = JSON.parse(row.result) as Schemas['BenchmarkResult'];
  // Slices stored before answers named their rates read without them.
  return {
    slice: presentSlice(row),
    result: {
      ...stored,
      percentiles: storedPercentiles(stored.percentiles),
      cells: stored.cells.map(storedCell),
      exchangeRates: stored.exchangeRates ?? [],
      exchangeRatesStale: stored.exchangeRatesStale ?? false,
    },
  };
}

export async function readExecutiveSharedSlice(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['ExecutiveSharedSliceView']> {
  const { db, caller } = ctx;
  const row = await openSlice(db, caller, id, 'executive');
  const stored = JSON.parse(row.result) as Schemas['ExecutiveCompResult'];
  const rows = stored.rows.map((r) => ({ ...r, cells: r.cells.map(storedCell) }));
  return { slice: presentSlice(row), result: { ...stored, percentiles: storedPercentiles(stored.percentiles), rows } };
}

export async function revokeSlice(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['SharedSlice']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  if (!(await findSlice(db, scope, id))) throw notFound();
  await markRevoked(db, scope, id, caller.userId, new Date().toISOString());
  const row = await findSlice(db, scope, id);
  if (!row) throw notFound();
  return presentSlice(row);
}
