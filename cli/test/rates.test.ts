import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { startTestServer } from '../../api/test/server.js';
import { type Run, freshConfigHome, paybench, paybenchInBackground } from './support.js';

/**
 * Imports change the reference rates every company sees: the ones that write run against a server of
 * their own, in this process, so the binary is run without blocking it.
 */
describe('paybench rates import', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let env: Record<string, string>;
  let dir: string;
  let companyAdmin: TestUser;
  let sharedSupport: TestUser;
  const run = (args: string[], extra: Record<string, string> = {}): Promise<Run> => paybenchInBackground(args, { ...env, ...extra }).done;

  beforeAll(async () => {
    server = await startTestServer();
    const db = await testDb(server.env);
    const support = await createTestUser(db, { companyId: null, internalAdmin: true });
    companyAdmin = (await createTestCompany(db)).users.admin as TestUser;
    dir = freshConfigHome();
    env = { PAYBENCH_URL: server.url, PAYBENCH_TOKEN: support.token, XDG_CONFIG_HOME: dir };
    sharedSupport = await createTestUser(await testDb(), { companyId: null, internalAdmin: true });
  });
  afterAll(() => server.stop());

  const file = (name: string, text: string): string => {
    const target = path.join(dir, name);
    writeFileSync(target, text);
    return target;
  };
  const latestUsd = async () => {
    const reply = await fetch(`${server.url}/api/forex/rates/latest?base=EUR`);
    const body = (await reply.json()) as { data: { rates: { currency: string; date: string; rate: number }[] } };
    return body.data.rates.find((rate) => rate.currency === 'USD');
  };

  it('checks a file on a dry run and writes nothing, then imports it', async () => {
    const csv = file('rates.csv', 'Date,USD,JPY,\n2025-05-12,1.1200,N/A,\n2025-05-09,1.1252,163.36,\n');
    const dry = await run(['rates', 'import', csv, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe('2 days (2025-05-09 to 2025-05-12), 2 currencies: 1 to add, 0 to correct, 2 unchanged\n');
    expect(dry.stderr).toBe('');
    expect(await latestUsd()).toMatchObject({ date: '2025-05-09' });

    const real = await run(['rates', 'import', csv]);
    expect(real.code).toBe(0);
    expect(real.stdout).toBe('2 days (2025-05-09 to 2025-05-12), 2 currencies: 1 added, 0 corrected, 2 unchanged\n');
    expect(await latestUsd()).toMatchObject({ date: '2025-05-12', rate: 1.12 });
  });

  it('reads the file from stdin with -, and prints JSON when asked', () => {
    // A dry run writes nothing, so the shared server will do.
    const dry = paybench(['--json', 'rates', 'import', '-', '--dry-run'], { PAYBENCH_TOKEN: sharedSupport.token, XDG_CONFIG_HOME: dir }, 'Date,GBP\n2025-05-12,0.8500\n');
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, days: 1, currencies: ['GBP'], added: 1 });
  });

  it('rejects a bad file with every line’s problem, exit 2, and writes nothing', async () => {
    const csv = file('bad.csv', 'Date,USD,GBP\n2025-05-13,1.13,0.84\n2025-05-14,abc,0.84\n2025-05-14,1.13,0.84\n');
    const rejected = await run(['rates', 'import', csv]);
    expect(rejected.code).toBe(2);
    expect(rejected.stdout).toBe('');
    expect(rejected.stderr.split('\n').filter((line) => line.startsWith('line '))).toEqual([
      'line 3: USD: "abc" is not a rate (a positive decimal, or N/A)',
      'line 4: Date: 2025-05-14 is already on line 3',
    ]);
    expect(rejected.stderr).toContain('The rates file has 2 problems; nothing was written.');
    expect(await latestUsd()).toMatchObject({ date: '2025-05-12' });
  });

  it('is for internal admins only', async () => {
    const refused = await run(['rates', 'import', file('one.csv', 'Date,USD\n2025-05-15,1.1\n')], { PAYBENCH_TOKEN: companyAdmin.token });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('This is for internal admins only.');
  });
});
