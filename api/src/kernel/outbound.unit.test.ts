import type { LookupAddress } from 'node:dns';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AddressRefused, checkOutboundAddress, guardedFetch } from './outbound.js';

/** Names this test resolves itself. */
const dns = vi.hoisted(() => ({ answers: new Map<string, LookupAddress[]>() }));

vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const lookup = (hostname: string, options: object, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void): void => {
    const answer = dns.answers.get(hostname);
    if (answer) return void setImmediate(() => callback(null, answer));
    actual.lookup(hostname, { ...options, all: true }, callback);
  };
  return { ...actual, default: { ...actual, lookup }, lookup };
});

describe('the outbound address guard', () => {
  const guarded = { allowPrivateNetworks: false };
  let server: Server;
  let port: number;
  const seen: { method: string; url: string; authorization: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
        if (req.url === '/hook') return void res.writeHead(303, { Location: `http://other.example.test:${port}/landed` }).end();
        if (req.url === '/to-file') return void res.writeHead(302, { Location: 'file:///etc/passwd' }).end();
        if (req.url === '/loop') return void res.writeHead(302, { Location: '/loop' }).end();
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  it('refuses special-purpose addresses in the URL and behind a name, before connecting', async () => {
    dns.answers.set('inside.example.test', [{ address: '10.1.2.3', family: 4 }]);
    dns.answers.set('local.example.test', [{ address: '127.0.0.1', family: 4 }]);
    await expect(guardedFetch('https://192.0.2.2:8443/hook', { method: 'POST' }, guarded)).rejects.toThrow('192.0.2.2 is in 192.0.2.0/24 (documentation)');
    await expect(guardedFetch('http://[::1]/', {}, guarded)).rejects.toThrow('::1 is in ::1/128 (loopback)');
    await expect(guardedFetch('https://inside.example.test/hook', {}, guarded)).rejects.toThrow('inside.example.test resolves to 10.1.2.3, which is in 10.0.0.0/8 (private use)');
    // The listener is really there: only the guard keeps the call from it.
    const before = seen.length;
    await expect(guardedFetch(`http://local.example.test:${port}/hook`, {}, guarded)).rejects.toBeInstanceOf(AddressRefused);
    expect(seen.length).toBe(before);
    expect(await checkOutboundAddress(new URL('https://inside.example.test/'), guarded)).toBeInstanceOf(AddressRefused);
    expect(await checkOutboundAddress(new URL('https://inside.example.test/'), { allowPrivateNetworks: true })).toBeUndefined();
  });

  it('follows a redirect as fetch does, checking it, and keeps credentials to the first origin', async () => {
    dns.answers.set('first.example.test', [{ address: '127.0.0.1', family: 4 }]);
    dns.answers.set('other.example.test', [{ address: '127.0.0.1', family: 4 }]);
    seen.length = 0;
    const allowed = { allowPrivateNetworks: true };
    const response = await guardedFetch(`http://first.example.test:${port}/hook`, { method: 'POST', headers: { authorization: 'Bearer secret', 'content-type': 'application/json' }, body: '{"text":"hi"}' }, allowed);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    // A 303 continues as a GET without the body; the other origin gets no Authorization.
    expect(seen).toEqual([
      { method: 'POST', url: '/hook', authorization: 'Bearer secret', body: '{"text":"hi"}' },
      { method: 'GET', url: '/landed', authorization: undefined, body: '' },
    ]);
    const manual = await guardedFetch(`http://first.example.test:${port}/hook`, { redirect: 'manual' }, allowed);
    expect(manual.status).toBe(303);
  });

  it('follows a redirect only to http(s), and only five times', async () => {
    const allowed = { allowPrivateNetworks: true };
    await expect(guardedFetch(`http://127.0.0.1:${port}/to-file`, {}, allowed)).rejects.toThrow('file: addresses are not called');
    seen.length = 0;
    await expect(guardedFetch(`http://127.0.0.1:${port}/loop`, {}, allowed)).rejects.toThrow(`127.0.0.1:${port} redirected too many times`);
    expect(seen.length).toBe(6);
  });
});
