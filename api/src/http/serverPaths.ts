/*
 * Every path the server answers itself, never the app. One list for both places that must agree:
 * the SPA fallback (`http/webApp.ts`) never answers the server's own endpoints with the app, and the
 * service worker (`web/vite.config.ts`) never answers a navigation to any of these with the app
 * shell, so a link from an e-mail opens the server's page even in a browser that has used the app.
 * No imports: the web build reads this file too.
 */

/** Endpoints with no page of their own: the API, the socket, discovery, the provider's user info. */
export const SERVER_ENDPOINT_PREFIXES = ['/api/', '/engine.io/', '/.well-known/', '/userinfo'] as const;

/**
 * Pages the server renders: the identity provider's (authorization, sign-in, sign-up, consent, forgot
 * password, the device code, sign-out), the pages of links sent by e-mail (invitation, password reset,
 * e-mail verification, proof of a company's e-mail domain), enterprise sign-in's callback, and the legal texts (static files, opened
 * from the network like any other page of the server's).
 */
export const SERVER_PAGE_PREFIXES = ['/authorize', '/oauth/', '/interaction/', '/v2/', '/invitation/', '/password-reset/', '/verify-email/', '/domain-proof/', '/auth/sso/', '/legal/'] as const;

const startsWithAny = (pathname: string, prefixes: readonly string[]): boolean => prefixes.some((prefix) => pathname.startsWith(prefix));

/** The server's endpoints: the SPA fallback passes them by. */
export const isServerEndpoint = (pathname: string): boolean => pathname === '/api' || startsWithAny(pathname, SERVER_ENDPOINT_PREFIXES);

/** Whatever the server answers itself, page or endpoint. */
export const isServerPath = (pathname: string): boolean => isServerEndpoint(pathname) || startsWithAny(pathname, SERVER_PAGE_PREFIXES);

/** The service worker's navigation denylist (matched against path and query): every path above. */
export const serviceWorkerDenylist = (): RegExp[] =>
  [...SERVER_ENDPOINT_PREFIXES, ...SERVER_PAGE_PREFIXES].map((prefix) => new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
