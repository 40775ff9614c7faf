import createClient, { type Middleware } from 'openapi-fetch';
import { createQueryHook } from 'swr-openapi';
import type { paths } from '../../../openapi.d.ts';
import { COMPANY_AS_KEY, SESSION_EXPIRED_REASON, VIEW_AS_KEY, accessToken } from '../auth/oidc';
import { currentSocketId } from '../realtime/socketId';

/** The one typed client of the contract; every screen reaches the API through it. */
export const api = createClient<paths>({ baseUrl: '/' });

let leaving = false;

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
  async onResponse({ response }) {
    // A refused session sends the person to /logout, keeping the reason to show on sign-in.
    if (response.status === 401 && window.location.pathname !== '/logout' && !leaving) {
      leaving = true; // several requests may be refused at once; leave once
      const body = (await response.clone().json().catch(() => ({}))) as { clientResponse?: { message?: string } };
      const reason = body.clientResponse?.message ?? 'expired';
      localStorage.setItem(SESSION_EXPIRED_REASON, reason);
      window.location.assign(`/logout?reason=${encodeURIComponent(reason)}`);
    }
    return response;
  },
};
api.use(auth);

export const useQuery = createQueryHook(api, 'paybench');

/** What a failed call says to a person: the server's specific message, else the catalogue's description. */
export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const known = error as { message?: unknown; description?: unknown };
    if (typeof known.message === 'string' && known.message) return known.message;
    if (typeof known.description === 'string' && known.description) return known.description;
  }
  return error instanceof Error ? error.message : 'Something went wrong';
}

/** Unwraps an openapi-fetch answer for SWR: data, or the contract's error thrown. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown }>): Promise<T> {
  const { data, error } = await call;
  if (error !== undefined || data === undefined) throw error ?? new Error('Empty response');
  return data;
}
