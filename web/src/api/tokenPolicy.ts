import type { Middleware } from 'openapi-fetch';

/**
 * The spec (§7): no bearer token on total-rewards pages except where the call needs one. The
 * statement, its PDF and who the person is are theirs alone and need it; the calls such a page
 * makes that are public in the contract (`security: []`: analytics events and error reports, health,
 * reference data) go without it, so nothing that identifies the person travels where it is not needed.
 * Images (the logo, the banner) are embedded in the statement and fetched by the browser, never with a
 * token; offline, the service worker answers from its cache and nothing is sent at all.
 */
const PUBLIC_PATHS = new Set(['/api/events/track', '/api/events/identify', '/api/events/page', '/api/health', '/api/currencies', '/api/forex/rates/latest', '/api/forex/rates/history', '/api/forex/convert']);

export const isTotalRewardsPage = (pathname: string): boolean => pathname === '/totalrewards' || pathname.startsWith('/totalrewards/');

/** Registered on the API client after its token middleware, before any screen runs (analytics events fire on the first route). */
export const withoutTokenWhereNotNeeded: Middleware = {
  onRequest({ request }) {
    const path = new URL(request.url).pathname;
    // Analytics events and error reports never carry it, on any page: they are public and say only what their body says.
    if (path.startsWith('/api/events/') || (isTotalRewardsPage(window.location.pathname) && PUBLIC_PATHS.has(path))) request.headers.delete('Authorization');
    return request;
  },
};
