// What answers on the port while `npm start` builds (plain Node: nothing is built yet). The same
// answers as the server's own start-up gate (api/src/kernel/startupGate.ts) says "starting", so a
// browser or a load balancer's health check sees "not yet" instead of a refused connection.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

/** How long a client should wait before asking again, as the starting server says it. */
export const RETRY_AFTER_SECONDS = 2;

/** The server's own `starting` message (api/src/kernel/startupGate.ts); a test keeps them equal. */
export const STARTING_MESSAGE = 'Paybench is starting; try again in a few seconds.';

/** The error catalogue's entry for 503 (api/src/kernel/errors.ts); a test keeps them equal. */
const UNAVAILABLE = { title: 'Service unavailable', description: 'Paybench is temporarily unavailable. Please wait and try again.' };

/** A page with nothing to fetch: it reloads itself until the server answers it. */
export const BUILDING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Paybench is being built</title></head>
<body style="font-family:system-ui,sans-serif;margin:3rem auto;max-width:32rem;padding:0 1rem;color:#1f2a44">
<h1 style="font-size:1.25rem">Paybench is being built…</h1><p>This page reloads when it is ready.</p></body></html>`;

/** The error body of a 503 `starting`, in the API's error shape. */
export function startingBody(requestId) {
  return { code: 'starting', ...UNAVAILABLE, status: 503, message: STARTING_MESSAGE, requestId };
}

/** Every request: 503 with Retry-After; a page for a browser, the API's `starting` error otherwise. */
export function answerBuilding(req, res) {
  const requestId = randomUUID();
  const headers = { 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store', 'X-Request-Id': requestId };
  const isPage = !(req.url ?? '/').startsWith('/api/') && (req.headers.accept ?? '').includes('text/html');
  // The request body is not read. No connection is kept: one kept would be cut when the port is handed over.
  req.resume();
  res.shouldKeepAlive = false;
  const head = req.method === 'HEAD';
  if (isPage) {
    res.writeHead(503, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(head ? undefined : BUILDING_PAGE);
    return;
  }
  res.writeHead(503, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(head ? undefined : JSON.stringify(startingBody(requestId)));
}

/** Why the port could not be opened, in the server's own words (api/src/cluster/port.ts); a test keeps them equal. */
export function portRefusal(error, port) {
  const code = error?.code;
  if (code === 'EADDRINUSE') return `port ${port} is in use (stop what listens there, or set PORT to another port)`;
  if (code === 'EACCES') return `port ${port} may not be opened by this user (ports below 1024 need privileges: set PORT to 1024 or above)`;
  if (code === 'EADDRNOTAVAIL') return `HOST is not an address of this machine, so port ${port} cannot be opened there`;
  return undefined;
}

/**
 * Where the server will listen, read as the server reads it; undefined when nothing should answer
 * during the build: a worker-only node (no web role), a port chosen at random (PORT=0), or a PORT
 * the server will refuse itself, saying why.
 */
export function listenAddress(env) {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  const roles = env.PAYBENCH_ROLES;
  if (roles && !roles.split(',').map((role) => role.trim()).includes('web')) return undefined;
  return { host: env.HOST ?? '0.0.0.0', port };
}

/**
 * Listens on the port and answers every request with `answerBuilding`. Resolves to `close`, which
 * frees the port for the server (it resolves once the listener and every connection are closed);
 * rejects with `{ refused }` when the port cannot be opened, or the listener's own error.
 */
export function serveWhileBuilding({ host, port }) {
  const server = createServer(answerBuilding);
  return new Promise((resolve, reject) => {
    server.once('error', (error) => {
      const refused = portRefusal(error, port);
      reject(refused ? Object.assign(new Error(refused), { refused }) : error);
    });
    server.listen(port, host, () => resolve({ address: server.address(), close: () => closeFully(server) }));
  });
}

/** Connections still open this long after the listener closed are cut: none may outlive the hand-over. */
const CLOSE_GRACE_MS = 500;

function closeFully(server) {
  return new Promise((resolve) => {
    // Requests in hand are answered (at once, each closing its connection); idle ones close now.
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
