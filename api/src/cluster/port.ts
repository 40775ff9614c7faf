import { type Server, createServer } from 'node:http';
import { startupGate } from '../kernel/startupGate.js';

/**
 * A reason start-up stops that the operator fixes themselves (the port is taken): printed as one
 * line, without a stack, by `main`.
 */
export class StartupRefused extends Error {}

/** Why the port could not be opened, said for people; undefined for an error that is not about the port. */
export function portProblem(error: unknown, port: number): StartupRefused | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new StartupRefused(`port ${port} is in use (stop what listens there, or set PORT to another port)`);
  if (code === 'EACCES') return new StartupRefused(`port ${port} may not be opened by this user (ports below 1024 need privileges: set PORT to 1024 or above)`);
  if (code === 'EADDRNOTAVAIL') return new StartupRefused(`HOST is not an address of this machine, so port ${port} cannot be opened there`);
  return undefined;
}

/** The port held by a cluster's primary while it prepares the database. */
export interface HeldPort {
  /** The port opened (the one chosen when PORT=0). */
  port: number;
  /** Closes the listener and every connection to it, so the web processes can take the port. */
  release(): Promise<void>;
}

/**
 * Opens the port before a cluster's primary migrates and forks, and answers there meanwhile as a
 * starting server does (503 `starting`, a page that reloads itself): a port that is taken stops
 * start-up at once with a clear reason, instead of every web process failing to listen, and a
 * client sees "starting" instead of a refused connection while the database is prepared. A free
 * port (PORT=0) is chosen here too, as every process must listen on the same one.
 */
export function holdPort(host: string, port: number): Promise<HeldPort> {
  const server = createServer();
  // No connection is kept: one kept would be cut when the port is handed over (first listener: before the gate answers).
  server.on('request', (_req, res) => {
    res.shouldKeepAlive = false;
  });
  startupGate(server);
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(portProblem(error, port) ?? error));
    server.listen(port, host, () => {
      const address = server.address();
      const opened = typeof address === 'object' && address ? address.port : port;
      resolve({ port: opened, release: () => releaseFully(server) });
    });
  });
}

/** Connections still open this long after the listener closed are cut: none may outlive the hand-over. */
const RELEASE_GRACE_MS = 500;

function releaseFully(server: Server): Promise<void> {
  return new Promise((resolve) => {
    // Requests in hand are answered (at once, each closing its connection); idle ones close now.
    const cut = setTimeout(() => server.closeAllConnections(), RELEASE_GRACE_MS);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
