import createClient, { type Middleware } from 'openapi-fetch';
import { createInfiniteHook, createQueryHook } from 'swr-openapi';
import type { components, paths } from '../../../openapi.d.ts';
import { COMPANY_AS_KEY, VIEW_AS_KEY, accessToken } from '../auth/oidc';
import { leaveSession } from '../auth/leave';
import { currentSocketId } from '../realtime/socketId';
import { HttpError, errorBody, transportError } from './errors';
import { noteAnswer } from './offline';
import { withoutTokenWhereNotNeeded } from './tokenPolicy';

/** The one typed client of the contract; every screen reaches the API through it. */
export const api = createClient<paths>({ baseUrl: '/' });

/** Where a request went, as the spec's normalised errors name it: path and query. */
function pathOf(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

const auth: Middleware = {
  async onRequest({ request }) {
    const token = await accessToken();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    const viewAs = localStorage.getItem(VIEW_AS_KEY);
    const companyAs = localStorage.getItem(COMPANY_AS_KEY);
    if (viewAs) request.headers.set('X-Paybench-View-As', viewAs);
    if (companyAs) request.headers.set('X-Paybench-Company-As', companyAs);
    // Lets the server tell this tab's own changes apart from other people's in realtime events.
    const socketId = currentSocketId();
    if (socketId) request.headers.set('X-Socket-Id', socketId);
    return request;
  },
  async onResponse({ request, response }) {
    noteAnswer(pathOf(request), response);
    if (response.ok || response.status === 304) return response;
    // Every failed answer reaches a screen in the spec's normal form (the server's code and
    // message, the status, the catalogue's words, the url), whatever answered.
    const raw = await response.text();
    let parsed: unknown = raw;
    try {
      parsed = JSON.parse(raw);
    } catch {
      // not JSON: a proxy's page or an empty body; the catalogue speaks for it
    }
    const body = errorBody(response.status, pathOf(request), parsed);
    // A refused session sends the person to /logout, keeping the reason to show on sign-in.
    if (response.status === 401) leaveSession(body.clientResponse?.message ?? 'expired');
    const headers = new Headers(response.headers);
    headers.delete('Content-Length');
    headers.delete('Content-Encoding');
    headers.set('Content-Type', 'application/json');
    return new Response(JSON.stringify(body), { status: response.status, statusText: response.statusText, headers });
  },
  onError({ request, error }) {
    // No answer at all: "Network Error", "Request aborted" (code `canceled`) or "timeout of N ms exceeded".
    return transportError(error, pathOf(request));
  },
};
api.use(auth);
// The spec's total-rewards token rule (§7): public calls from those pages go without the token.
api.use(withoutTokenWhereNotNeeded);

/** The key prefix of every cached answer of the contract (see `queries.ts`). */
export const QUERY_PREFIX = 'paybench';

/** GET queries of the contract, cached by SWR under `[QUERY_PREFIX, path, init]`. */
export const useQuery = createQueryHook(api, QUERY_PREFIX);

/** Paged GET queries (a page per key, from a cursor), cached under `[QUERY_PREFIX-infinite, path, init]`. */
export const useInfiniteQuery = createInfiniteHook(api, `${QUERY_PREFIX}-infinite`);

/** The contract's one error shape. */
export type ApiError = components['schemas']['Error'];

/** The words a screen shows when a call failed and says nothing more specific. */
export const TRY_AGAIN = 'Please refresh the page and try again. If the problem persists, contact your company admin for support.';

/**
 * What a failed call says to a person: the server's specific message, else the catalogue's
 * description, else `fallback`.
 */
export function errorMessage(error: unknown, fallback = 'Something went wrong'): string {
  // A call that got no answer says what the catalogue says, not the HTTP client's terse words.
  if (error instanceof HttpError) return error.description;
  if (error && typeof error === 'object') {
    const known = error as { message?: unknown; description?: unknown };
    if (typeof known.message === 'string' && known.message) return known.message;
    if (typeof known.description === 'string' && known.description) return known.description;
  }
  return fallback;
}

/** The HTTP status a failed call carries (the contract's errors say it), if any. */
export function statusOf(error: unknown): number | undefined {
  return error && typeof error === 'object' && typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : undefined;
}
