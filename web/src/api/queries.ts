import { useState } from 'react';
import useSWR, { type SWRConfiguration, mutate } from 'swr';
import type { paths } from '../../../openapi.d.ts';
import { useToasts } from '../ui/Toasts';
import { type ApiError, QUERY_PREFIX, api, errorMessage, statusOf } from './client';

// The screens' kit for the contract beyond plain GETs (`useQuery` in client.ts):
//  - read-only POST queries, cached like GETs under `[QUERY_PREFIX, path, { body }]`;
//  - invalidation by the contract's paths, never by the shape of a cache key;
//  - versioned saves (If-Match), where a conflict keeps what the person typed.

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The contract's paths that answer `method`. */
export type PathOf<M extends Method> = { [P in keyof paths]: paths[P] extends Record<M, object> ? P : never }[keyof paths];

/** Every path whose answers can be cached: GET queries and read-only POST queries. */
export type QueryPath = PathOf<'get'> | PathOf<'post'>;

type PostPath = PathOf<'post'>;
type PostOperation<P extends PostPath> = paths[P] extends { post: infer Operation } ? Operation : never;

/** What a POST query sends: the operation's JSON body. */
export type PostBody<P extends PostPath> = PostOperation<P> extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;

/** What a POST query answers: the operation's 200 JSON body (the contract's envelope, like `useQuery`). */
export type PostAnswer<P extends PostPath> = PostOperation<P> extends { responses: { 200: { content: { 'application/json': infer Answer } } } } ? Answer : never;

type PostKey<P extends PostPath> = readonly [typeof QUERY_PREFIX, P, { body: PostBody<P> }];

// openapi-fetch types each call by its literal path; a hook generic over the path calls it through this view.
const client = api as unknown as { POST(path: string, init: { body: unknown }): Promise<{ data?: unknown; error?: unknown }> };

/**
 * A read-only POST query (the explorer's market data, compare, insights, the person's jobs): the
 * same path and body are one cached answer, asked once for the app's hour-long de-duplication.
 * `null` asks nothing.
 */
export function usePostQuery<P extends PostPath>(path: P, body: PostBody<P> | null, config?: SWRConfiguration<PostAnswer<P>, ApiError>) {
  const key: PostKey<P> | null = body === null ? null : [QUERY_PREFIX, path, { body }];
  return useSWR<PostAnswer<P>, ApiError, PostKey<P> | null>(
    key,
    async ([, keyPath, init]: PostKey<P>) => {
      const { data, error } = await client.POST(keyPath, init);
      if (error !== undefined || data === undefined) throw error ?? new Error('Empty response');
      return data as PostAnswer<P>;
    },
    config,
  );
}

/** Which cached answers: one path, several, or the paths a test picks (e.g. everything under `/api/team/`). */
export type PathMatch = QueryPath | readonly QueryPath[] | ((path: QueryPath) => boolean);

/** The path a cache key of this kit stands for (`useQuery`, `useInfiniteQuery`, `usePostQuery`), if it is one. */
function pathOfKey(key: unknown): QueryPath | undefined {
  if (!Array.isArray(key) || typeof key[0] !== 'string' || !key[0].startsWith(QUERY_PREFIX) || typeof key[1] !== 'string') return undefined;
  return key[1] as QueryPath;
}

function matches(match: PathMatch, path: QueryPath): boolean {
  if (typeof match === 'function') return match(path);
  if (typeof match === 'string') return match === path;
  return match.includes(path);
}

/**
 * Asks the cached answers of these paths again. What a screen shows stays until the new answer
 * arrives; with `drop`, the answers are forgotten first (screens show their loading state, and a
 * screen opened later asks afresh).
 */
export async function invalidate(match: PathMatch, { drop = false }: { drop?: boolean } = {}): Promise<void> {
  const filter = (key: unknown) => {
    const path = pathOfKey(key);
    return path !== undefined && matches(match, path);
  };
  await (drop ? mutate(filter, undefined, { revalidate: true }) : mutate(filter));
}

/** Forgets every cached answer (a new identity, company or session); with `refetch`, screens ask again at once. */
export async function forgetAllAnswers({ refetch }: { refetch: boolean }): Promise<void> {
  await mutate(() => true, undefined, { revalidate: refetch });
}

/** The result of a versioned save: the answer, or why not (a conflict keeps the person's input). */
export type SaveResult<Data> = { ok: true; data: Data } | { ok: false; conflict: boolean; message: string };

/** A write of the contract that takes If-Match, called with the quoted version (e.g. `"3"`). */
export type VersionedWrite<Args extends unknown[], Data> = (ifMatch: string, ...args: Args) => Promise<{ data?: Data; error?: unknown; response: Response }>;

/**
 * Saves a versioned record (If-Match with the version the person read). Someone else's newer save
 * is refused (409 `version_conflict`, never merged): the server's message shows — "Someone else
 * changed … first. Reload and try again." — and nothing is reloaded, so what the person typed stays.
 * Other failures show their message too. Success is the caller's to announce.
 */
export function useVersionedSave<Args extends unknown[], Data>(write: VersionedWrite<Args, Data>) {
  const { add } = useToasts();
  const [busy, setBusy] = useState(false);
  const [conflict, setConflict] = useState(false);
  async function save(version: number, ...args: Args): Promise<SaveResult<Data>> {
    setBusy(true);
    const { data, error, response } = await write(`"${version}"`, ...args).finally(() => setBusy(false));
    if (error === undefined && data !== undefined) {
      setConflict(false);
      return { ok: true, data };
    }
    const status = statusOf(error) ?? response.status;
    const isConflict = status === 409 || status === 412;
    const message = errorMessage(error, isConflict ? 'Someone else changed this first. Reload and try again.' : undefined);
    setConflict(isConflict);
    add('error', message);
    return { ok: false, conflict: isConflict, message };
  }
  return { save, busy, conflict };
}
