import { once } from 'node:events';
import { Agent, createServer as createHttpServer, request } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { portProblem } from '../src/cluster/port.js';
import { STARTING_MESSAGE } from '../src/kernel/startupGate.js';
import { errorBody, HttpError } from '../src/kernel/errors.js';

/** scripts/building.mjs: what answers on the port while `npm start` builds (plain Node). */
interface Building {
  listenAddress(env: Record<string, string | undefined>): { host: string; port: number } | undefined;
  serveWhileBuilding(address: { host: string; port: number }): Promise<{ address: AddressInfo; close(): Promise<void> }>;
}

const BUILDING = pathToFileURL(path.resolve(import.meta.dirname, '..', '..', 'scripts', 'building.mjs')).href;
const load = async (): Promise<Building> => (await import(BUILDING)) as Building;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function get(port: number, pathname: string, options: { accept?: string; agent?: Agent } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, agent: options.agent, headers: options.accept ? { accept: options.accept } : {} }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the port while npm start builds', () => {
  it('answers /api/health with the server’s own 503 `starting`, and a page with one that reloads itself', async () => {
    const { serveWhileBuilding } = await load();
    const building = await serveWhileBuilding({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = building.address;
      const health = await get(port, '/api/health');
      expect(health.status).toBe(503);
      expect(health.headers['retry-after']).toBe('2');
      // Nothing is kept alive, so the hand-over cuts no connection.
      expect(health.headers.connection).toBe('close');
      expect(health.headers['content-type']).toBe('application/json; charset=utf-8');
      const requestId = String(health.headers['x-request-id']);
      expect(JSON.parse(health.text)).toEqual(errorBody(new HttpError(503, 'starting', { message: STARTING_MESSAGE }), requestId));

      const page = await get(port, '/offers/new', { accept: 'text/html,application/xhtml+xml' });
      expect(page.status).toBe(503);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('Paybench is being built…');
      expect(page.text).toContain('This page reloads when it is ready.');
      expect(page.text).toContain('<meta http-equiv="refresh" content="2">');
      // Nothing to fetch: no script, style sheet, image or font.
      expect(page.text).not.toMatch(/<(script|link|img)\b|url\(/);
    } finally {
      await building.close();
    }
  });

  it('refuses a port in use with the server’s own reason', async () => {
    const { serveWhileBuilding } = await load();
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as AddressInfo;
    try {
      const refusal = serveWhileBuilding({ host: '127.0.0.1', port });
      await expect(refusal).rejects.toMatchObject({ refused: portProblem({ code: 'EADDRINUSE' }, port)?.message });
    } finally {
      taken.close();
    }
  });

  it('frees the port for the server, kept-alive connections too', async () => {
    const { serveWhileBuilding } = await load();
    const building = await serveWhileBuilding({ host: '127.0.0.1', port: 0 });
    const { port } = building.address;
    const agent = new Agent({ keepAlive: true });
    await get(port, '/api/health', { agent });
    await building.close();
    // The server takes the port at once, and the connection kept alive is gone with the listener:
    // the same client's next request reaches the server.
    const server = createHttpServer((_req, res) => res.end('the server')).listen(port, '127.0.0.1');
    await once(server, 'listening');
    expect((await get(port, '/api/health', { agent })).text).toBe('the server');
    agent.destroy();
    server.close();
  });

  it('answers where the server will listen, and nowhere for a worker-only node or a random port', async () => {
    const { listenAddress } = await load();
    expect(listenAddress({})).toEqual({ host: '0.0.0.0', port: 3000 });
    expect(listenAddress({ HOST: '127.0.0.1', PORT: '8080', PAYBENCH_ROLES: 'web,worker' })).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(listenAddress({ PAYBENCH_ROLES: 'worker' })).toBeUndefined();
    expect(listenAddress({ PORT: '0' })).toBeUndefined();
  });
});
