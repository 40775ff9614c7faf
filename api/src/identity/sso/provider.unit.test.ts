import type { LookupAddress } from 'node:dns';
import { type Server, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ProviderUnreachable, discoverProvider } from './provider.js';

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

/**
 * A company's sign-in provider is an address its admin types: Paybench must not be made to call its
 * own network through it. A listener on loopback counts the connections that reach it; it hangs up
 * at once, so a call that gets there fails quickly, but it got there.
 */
describe("a company's sign-in provider on the server's own network", () => {
  let listener: Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    dns.answers.set('idp.inside.test', [{ address: '127.0.0.1', family: 4 }]);
  });
  afterAll(() => listener.close());
  afterEach(() => {
    delete process.env.PAYBENCH_SSO_ALLOW_PRIVATE_NETWORKS;
  });

  const discover = (issuerUrl: string) => discoverProvider({ issuerUrl, clientId: 'paybench', clientSecret: 'secret' }).then(
    () => undefined,
    (error: unknown) => error,
  );

  it('is reached where private networks are allowed (the control of the test below)', async () => {
    process.env.PAYBENCH_SSO_ALLOW_PRIVATE_NETWORKS = 'true';
    const before = connections;
    expect(await discover(`https://idp.inside.test:${port}`)).toBeInstanceOf(ProviderUnreachable);
    expect(connections).toBeGreaterThan(before);
  });

  it('is refused, by address or by a name resolving to it, before any connection', async () => {
    const before = connections;
    const literal = await discover(`https://127.0.0.1:${port}`);
    expect(literal).toBeInstanceOf(ProviderUnreachable);
    expect((literal as Error).message).toBe('127.0.0.1 is in 127.0.0.0/8 (loopback), which Paybench does not call');
    const named = await discover(`https://idp.inside.test:${port}`);
    expect((named as Error).message).toBe('idp.inside.test resolves to 127.0.0.1, which is in 127.0.0.0/8 (loopback), which Paybench does not call');
    const uniqueLocal = await discover('https://[fd00::2]/');
    expect((uniqueLocal as Error).message).toBe('fd00::2 is in fc00::/7 (unique local), which Paybench does not call');
    expect(connections).toBe(before);
  });
});
