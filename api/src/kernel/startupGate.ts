import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { errorBody, HttpError } from './errors.js';

/** How long a client should wait before asking again while the server starts. */
const RETRY_AFTER_SECONDS = 2;

/** What a starting server (and `npm start` while it builds, scripts/building.mjs) says to an API client. */
export const STARTING_MESSAGE = 'Paybench is starting; try again in a few seconds.';

export interface StartupGate {
  /** From now on requests go to the app. */
  open(app: RequestListener): void;
}

/** What a browser opening a page during start-up sees: a page that reloads itself. */
const STARTING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Paybench is starting</title></head>
<body style="font-family:system-ui,sans-serif;margin:3rem auto;max-width:32rem;padding:0 1rem;color:#1f2a44">
<h1 style="font-size:1.25rem">Paybench is starting…</h1><p>This page reloads by itself in a moment.</p></body></html>`;

function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  const requestId = randomUUID();
  const headers = { 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store', 'X-Request-Id': requestId };
  const isPage = !(req.url ?? '/').startsWith('/api/') && (req.headers.accept ?? '').includes('text/html');
  // The request body is not read: drain it so the connection stays usable.
  req.resume();
  if (isPage) {
    res.writeHead(503, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(req.method === 'HEAD' ? undefined : STARTING_PAGE);
    return;
  }
  const error = new HttpError(503, 'starting', { message: STARTING_MESSAGE, headers });
  res.writeHead(503, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify(errorBody(error, requestId)));
}

/**
 * The server's one request listener: every request is answered at once with 503 (`starting`, in
 * the error shape, with `Retry-After`) until `open` hands over to the app. A load balancer's
 * `/api/health` probe therefore tells "starting" (503 `starting`) from "ok" (200).
 */
export function startupGate(server: Server): StartupGate {
  let handler: RequestListener = answerStarting;
  server.on('request', (req, res) => handler(req, res));
  return {
    open(app) {
      handler = app;
    },
  };
}
