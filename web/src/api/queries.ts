import { useState } from 'react';
import useSWR, { type SWRConfiguration, mutate } from 'swr';
import type { paths } from '../../../openapi.d.ts';
import { fieldProblems } from '../ui/FormProblem';
import { useToasts } from '../ui/Toasts';
import { type ApiError, QUERY_PREFIX, api, errorMessage, statusOf } from './client';

// The screens' kit for the contract beyond plain GETs (`useQuery` in client.ts):
//  - read-only POST queries, cached like GETs under `[QUERY_PREFIX, path, { body }]`;
//  - invalidation by the contract's paths, never by the shape of a cache key;
//  - writes (`useMutation`): busy, the failure in the screen's words, invalidation after success;
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

/** A failed write in the screen's words: the message, and each field the server named. */
export interface Problem {
  message: string;
  fields: string[];
}

/** What a write ends in: the answer, or the failure (with the status, when one answered). */
export type MutationResult<Data> = { ok: true; data: Data } | { ok: false; problem: Problem; status: number | undefined };

/** A write: a call of the contract's client, or anything answering in its shape. */
export type MutationCall<Data> = () => Promise<{ data?: Data; error?: unknown; response?: Response }>;

/** How a screen shows a failed write, the same for every write of the hook. */
export interface MutationOptions {
  /** An error toast (the default), or `problem` for the screen to show in place. */
  failure?: 'toast' | 'problem';
  /** The form's words for the fields a 400 names (see `fieldProblems`). */
  fieldNames?: Readonly<Record<string, string>>;
  /** The message when the failure words nothing itself, by status. */
  fallback?: (status: number | undefined) => string | undefined;
  /** How a screen words the failure itself, instead of the message and the fields named. */
  describe?: (error: unknown) => Problem;
}

/** What one write does besides the call. */
export interface RunOptions<Data> {
  /** The contract's paths whose cached answers are asked again once it succeeded (before `run` resolves). */
  invalidates?: PathMatch;
  /** Shows the outcome at once; the function it returns undoes that if the write fails. */
  optimistic?: () => () => void;
  /**
   * How long success keeps the screen busy: by default until the answer; `invalidated` until the
   * invalidated answers are back; `leaving` for good (the page goes elsewhere).
   */
  hold?: Hold | ((data: Data) => Hold | undefined);
}

type Hold = 'invalidated' | 'leaving';

/**
 * The one way a screen writes: `run(call)` marks the screen busy, makes the call, and on success
 * asks the named paths again; a failure (a refused answer, or no answer at all) becomes the
 * server's message with its field problems, shown as a toast or kept in `problem`. One hook can
 * run several writes that share the busy flag (the buttons of one panel).
 */
export function useMutation({ failure = 'toast', fieldNames, fallback, describe }: MutationOptions = {}) {
  const { add } = useToasts();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  async function run<Data>(call: MutationCall<Data>, { invalidates, optimistic, hold: holding }: RunOptions<Data> = {}): Promise<MutationResult<Data>> {
    setBusy(true);
    const undo = optimistic?.();
    const answer = await call().catch((error: unknown) => ({ error, data: undefined, response: undefined }));
    if (answer.error === undefined && answer.data !== undefined) {
      const hold = typeof holding === 'function' ? holding(answer.data) : holding;
      if (hold === undefined) setBusy(false);
      setProblem(null);
      if (invalidates !== undefined) await invalidate(invalidates);
      if (hold === 'invalidated') setBusy(false);
      return { ok: true, data: answer.data };
    }
    undo?.();
    setBusy(false);
    const status = statusOf(answer.error) ?? answer.response?.status;
    const failed = describe?.(answer.error) ?? { message: errorMessage(answer.error, fallback?.(status)), fields: fieldProblems(answer.error, fieldNames) };
    if (failure === 'toast') add('error', failed.message);
    setProblem(failed);
    return { ok: false, problem: failed, status };
  }

  return { run, busy, problem, setProblem };
}

/** A move to another page (a sign-in redirect) as a write: it answers only if the move could not start. */
export const leaveFor = (move: Promise<void>): ReturnType<MutationCall<'leaving'>> => move.then(() => ({ data: 'leaving' as const }));

/** The result of a versioned save: the answer, or why not (a conflict keeps the person's input). */
export type SaveResult<Data> = { ok: true; data: Data } | { ok: false; conflict: boolean; message: string };

/** A write of the contract that takes If-Match, called with the quoted version (e.g. `"3"`). */
export type VersionedWrite<Args extends unknown[], Data> = (ifMatch: string, ...args: Args) => Promise<{ data?: Data; error?: unknown; response: Response }>;

const isConflict = (status: number | undefined) => status === 409 || status === 412;

/**
 * Saves a versioned record (If-Match with the version the person read), through `useMutation`.
 * Someone else's newer save is refused (409 `version_conflict`, never merged): the server's
 * message shows — "Someone else changed … first. Reload and try again." — and nothing is
 * reloaded, so what the person typed stays. Other failures show their message too. Success is
 * the caller's to announce.
 */
export function useVersionedSave<Args extends unknown[], Data>(write: VersionedWrite<Args, Data>) {
  const { run, busy } = useMutation({ fallback: (status) => (isConflict(status) ? 'Someone else changed this first. Reload and try again.' : undefined) });
  const [conflict, setConflict] = useState(false);
  async function save(version: number, ...args: Args): Promise<SaveResult<Data>> {
    const result = await run(() => write(`"${version}"`, ...args));
    const refused = !result.ok && isConflict(result.status);
    setConflict(refused);
    return result.ok ? result : { ok: false, conflict: refused, message: result.problem.message };
  }
  return { save, busy, conflict };
}
