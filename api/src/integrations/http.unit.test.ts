import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorError } from './connector.js';
import { VendorHttp, allPages, offsetPages, rateLimitResetMs, retryAfterMs } from './http.js';
import { inForce } from '../kernel/history.js';
import { annualAmount } from './vendorRows.js';

/** A vendor API whose answers each test sets: a status, headers and a body per path. */
let answers: Record<string, { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }[]> = {};
const seen: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push(`${req.method} ${req.url}`);
    const queue = answers[path] ?? [];
    const answer = queue.length > 1 ? queue.shift() : queue[0];
    if (!answer) return void res.writeHead(404).end();
    setTimeout(() => res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? ''), answer.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const log = pino({ level: 'silent' });
const client = (retry: Record<string, number> = {}, allowPrivateNetworks = true) =>
  new VendorHttp({ system: 'Vendor', baseUrl: base, headers: () => ({ Authorization: 'Bearer t' }), errorDetail: (response) => response.headers.get('x-error') ?? undefined, permissionHint: 'Give the token the people scope.' }, { log, allowPrivateNetworks, retry: { baseDelayMs: 5, ...retry } });
const failure = async (promise: Promise<unknown>): Promise<ConnectorError> => {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof ConnectorError)) throw new Error(`expected a ConnectorError, got ${String(error)}`);
  return error;
};

describe('the vendor HTTP client', () => {
  it('reads Retry-After in seconds or as a date', () => {
    expect(retryAfterMs('2')).toBe(2_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(30_000);
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('reads X-RateLimit-Reset as a Unix time or as seconds from now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(rateLimitResetMs(String(now / 1000 + 3), now)).toBe(3_000);
    expect(rateLimitResetMs(String(now / 1000 - 3), now)).toBe(0);
    expect(rateLimitResetMs('5', now)).toBe(5_000);
    expect(rateLimitResetMs('later', now)).toBeUndefined();
    expect(rateLimitResetMs(null, now)).toBeUndefined();
  });

  it('repeats a query key given a list', () => {
    expect(client().urlOf('people', { 'attributes[]': ['a', 'b'], limit: 2, skip: undefined }).search).toBe('?attributes%5B%5D=a&attributes%5B%5D=b&limit=2');
  });

  it('finds the entry of a history in force on a day, else the first to come', () => {
    const entries = [{ start: '2024-01-01' }, { start: '2025-06-01' }, { start: '2099-01-01' }];
    expect(inForce(entries, (entry) => entry.start, '2026-01-01')).toBe(entries[1]);
    expect(inForce(entries, (entry) => entry.start, '2023-01-01')).toBe(entries[0]);
    expect(inForce([], (entry: { start: string }) => entry.start, '2026-01-01')).toBeUndefined();
  });

  it('makes pay annual by the words systems use for its period', () => {
    expect(annualAmount(5000, 'Monthly')).toBe(60_000);
    expect(annualAmount(50, 'hour')).toBe(104_000);
    expect(annualAmount(120000, 'Annual')).toBe(120_000);
    expect(annualAmount(1000, null)).toBe(1000);
    // 4,000 every two weeks × 26 = 104,000; 5,000 twice a month × 24 = 120,000.
    expect(annualAmount(4000, 'Bi-weekly')).toBe(104_000);
    expect(annualAmount(5000, 'Semi-monthly')).toBe(120_000);
    expect(annualAmount(1000, 'fortnight')).toBeUndefined();
  });

  it('names bad credentials, a missing permission and a missing resource', async () => {
    answers = { '/v1/a': [{ status: 401, headers: { 'x-error': 'Token expired' } }], '/v1/b': [{ status: 403 }], '/v1/c': [{ status: 404 }] };
    expect(await failure(client().json('a'))).toMatchObject({ problem: 'credentials', message: 'Vendor refused the credentials (401): Token expired. Check the API key or token and enter it again.' });
    expect(await failure(client().json('b', { what: 'the people list' }))).toMatchObject({ problem: 'permission', message: 'Vendor denied access to the people list (403). Give the token the people scope.' });
    expect(await failure(client().json('c'))).toMatchObject({ problem: 'notFound' });
  });

  it('retries 5xx a bounded number of times, then says the vendor may be down', async () => {
    seen.length = 0;
    answers = { '/v1/down': [{ status: 503 }] };
    expect(await failure(client({ retries: 2 }).json('down', { what: 'the list' }))).toMatchObject({ problem: 'vendor', message: 'Vendor answered 503 for the list, 3 times; it may be down.' });
    // The first call and two retries.
    expect(seen).toHaveLength(3);
    answers = { '/v1/flaky': [{ status: 502 }, { status: 200, body: '{"ok":true}' }] };
    expect(await client().json('flaky')).toEqual({ ok: true });
  });

  it('waits for a 429 as asked, and gives up at once on a wait longer than it allows', async () => {
    answers = { '/v1/busy': [{ status: 429, headers: { 'retry-after': '0' } }, { status: 200, body: '[1]' }] };
    expect(await client().json('busy')).toEqual([1]);
    answers = { '/v1/later': [{ status: 429, headers: { 'retry-after': '3600' } }] };
    expect(await failure(client({ maxWaitMs: 60_000 }).json('later'))).toMatchObject({ problem: 'rateLimited', message: 'Vendor is rate-limiting Paybench (429) and asks to wait 3600 seconds, longer than a sync waits; the next sync tries again.' });
  });

  it('times out a call that does not answer, and says so', async () => {
    answers = { '/v1/slow': [{ status: 200, body: '{}', delayMs: 400 }] };
    const error = await failure(client({ timeoutMs: 100, retries: 1 }).json('slow'));
    expect(error).toMatchObject({ problem: 'unreachable' });
    expect(error.message).toBe(`Vendor (${new URL(base).host}) did not answer within 0.1 seconds (tried 2 times).`);
  });

  it('calls through the outbound address guard', async () => {
    const error = await failure(client({}, false).json('anything'));
    expect(error.problem).toBe('refused');
    expect(error.message).toMatch(/^127\.0\.0\.1 is in 127\.0\.0\.0\/8 \(loopback\); this deployment does not call such addresses/);
  });

  it('reads every page by cursor and by offset, and stops a list that never ends', async () => {
    // 5 items in pages of 2: offsets 0, 2, 4 (a short page ends it).
    const items = [1, 2, 3, 4, 5];
    const offsets: number[] = [];
    expect(await offsetPages(2, async (offset, limit) => (offsets.push(offset), items.slice(offset, offset + limit)))).toEqual(items);
    expect(offsets).toEqual([0, 2, 4]);
    expect(await allPages<string, string>(async (cursor) => (cursor ? { items: ['b'], next: undefined } : { items: ['a'], next: 'c1' }))).toEqual(['a', 'b']);
    await expect(allPages(async () => ({ items: [1], next: 'again' }), { maxPages: 3 })).rejects.toThrow('The list did not end after 3 pages.');
  });
});
