import type { LookupAddress } from 'node:dns';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileUrlConnector } from './fileUrl.js';

/** Names this test resolves itself, and every lookup asked of it. */
const dns = vi.hoisted(() => ({ answers: new Map<string, LookupAddress[]>(), asked: [] as string[] }));

vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const lookup = (hostname: string, options: object, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void): void => {
    dns.asked.push(hostname);
    const answer = dns.answers.get(hostname);
    if (answer) return void setImmediate(() => callback(null, answer));
    actual.lookup(hostname, { ...options, all: true }, callback);
  };
  return { ...actual, default: { ...actual, lookup }, lookup };
});

const log = pino({ level: 'silent' });
const settings = (url: string) => ({ values: { url, importKind: 'employees' }, secrets: {} });

describe('the file-from-a-URL connector on the public internet only', () => {
  const env = { log, allowPrivateNetworks: false };

  it('checks every address a name resolves to, and connects to none when one is special-purpose', async () => {
    dns.answers.set('mixed.example.test', [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ]);
    expect(await fileUrlConnector.test(settings('http://mixed.example.test/people.csv'), env)).toEqual({
      ok: false,
      message:
        'mixed.example.test resolves to 10.1.2.3, which is in 10.0.0.0/8 (private use); this deployment does not fetch from such addresses (set PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS=true to allow private and special-purpose ones).',
    });
    dns.answers.set('mapped.example.test', [{ address: '::ffff:169.254.169.254', family: 6 }]);
    expect((await fileUrlConnector.test(settings('http://mapped.example.test/'), env)).message).toMatch(
      /^mapped\.example\.test resolves to ::ffff:169\.254\.169\.254 \(IPv4 169\.254\.169\.254\), which is in 169\.254\.0\.0\/16 \(link-local\); /,
    );
  });

  it('refuses an address in the URL without resolving anything', async () => {
    dns.asked.length = 0;
    expect((await fileUrlConnector.test(settings('http://192.0.2.1/people.csv'), env)).message).toMatch(/^192\.0\.2\.1 is in 192\.0\.2\.0\/24 \(documentation\); /);
    expect((await fileUrlConnector.test(settings('http://[64:ff9b::a9fe:a9fe]/'), env)).message).toMatch(/^64:ff9b::a9fe:a9fe \(IPv4 169\.254\.169\.254\) is in 169\.254\.0\.0\/16/);
    expect(dns.asked).toEqual([]);
  });
});

describe('the file-from-a-URL connector with private networks allowed', () => {
  const env = { log, allowPrivateNetworks: true };
  let server: Server;
  let port: number;
  const peers: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      peers.push(`${req.headers.host ?? ''} from ${req.socket.localAddress ?? ''}`);
      if (req.url === '/moved') return void res.writeHead(302, { Location: `http://second.example.test:${port}/people.csv` }).end();
      res.writeHead(200, { 'Content-Type': 'text/csv' }).end('Employee ID,First Name\nU1,Ana\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  it('connects to the address it resolved, and resolves again (and checks again) after a redirect', async () => {
    dns.answers.set('first.example.test', [{ address: '127.0.0.1', family: 4 }]);
    dns.answers.set('second.example.test', [{ address: '127.0.0.1', family: 4 }]);
    dns.asked.length = 0;
    const result = await fileUrlConnector.test(settings(`http://first.example.test:${port}/moved`), env);
    expect(result).toEqual({ ok: true, message: 'Fetched the file: 2 columns, 1 rows.' });
    expect(dns.asked).toEqual(['first.example.test', 'second.example.test']);
    expect(peers).toEqual([`first.example.test:${port} from 127.0.0.1`, `second.example.test:${port} from 127.0.0.1`]);
  });
});
