import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl } from '../../test/http.js';
import { startTestServer } from '../../test/server.js';

type Started = Awaited<ReturnType<typeof startTestServer>>;

/** A request with a Host header of our choosing (fetch sends the address's own host). */
function call(base: string, host: string, method: string, path: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, base), { method, headers: { host, 'content-type': 'application/json' } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location }));
    });
    request.on('error', reject);
    request.end(method === 'POST' ? '{}' : undefined);
  });
}

let server: Started;

beforeAll(async () => {
  server = await startTestServer({
    PAYBENCH_SEED_DEMO: 'false',
    PAYBENCH_REDIRECT_HOSTS: 'old-brand.example,admin.paybench.example',
  });
});

afterAll(async () => {
  await server?.stop();
});

// A test server on an ephemeral port is its own public address (http://127.0.0.1:<port>).
describe('host redirects', () => {
  it('moves a page on the old brand host to the app host with its path and query', async () => {
    expect(await call(server.url, 'old-brand.example', 'GET', '/benchmarking?job=eng&level=3')).toEqual({
      status: 301,
      location: `${server.url}/benchmarking?job=eng&level=3`,
    });
  });

  it('moves an API write on the admin host with 308, so the method and body are kept', async () => {
    expect(await call(server.url, 'Admin.Paybench.example', 'POST', '/api/auth/authn-migration-check')).toEqual({
      status: 308,
      location: `${server.url}/api/auth/authn-migration-check`,
    });
  });

  it('answers the app host itself as usual', async () => {
    const reply = await call(server.url, 'app.paybench.example', 'GET', '/api/currencies');
    expect(reply).toEqual({ status: 200, location: undefined });
  });

  it('moves nothing when no redirect hosts are configured (the shared test server has none)', async () => {
    const reply = await call(baseUrl(), 'old-brand.example', 'GET', '/api/currencies');
    expect(reply).toEqual({ status: 200, location: undefined });
  });
});
