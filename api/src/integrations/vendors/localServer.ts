import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// What every vendor's conformance server shares: a plain HTTP server on a free port of this machine.

/** Listens on a free local port; the vendor API's base URL (`basePath` is where its paths start). */
export async function listenLocally(server: Server, basePath: string): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}`;
}

/** Closes the server with its kept-alive connections, so a test ends without waiting on them. */
export async function closeLocally(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
