import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { baseUrl, request } from '../../api/test/http.js';
import { startTestServer } from '../../api/test/server.js';
import type { components } from '../../api/src/contract-types.js';
import { type Run, freshConfigHome, paybench, paybenchInBackground } from './support.js';

type Release = components['schemas']['MarketRelease'];

describe('paybench catalog', () => {
  let analyst: TestUser;
  let employee: TestUser;
  const as = (user: TestUser) => ({ PAYBENCH_URL: baseUrl(), PAYBENCH_TOKEN: user.token, XDG_CONFIG_HOME: freshConfigHome() });

  beforeAll(async () => {
    const company = await createTestCompany(await testDb(), 'CLI Catalog Co');
    analyst = company.users.admin as TestUser;
    employee = company.users.employee as TestUser;
  });

  it('lists job families with their blend group, then the groups with the families each unites', () => {
    const run = paybench(['catalog', 'families'], as(analyst));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+BLEND GROUP\s+SEARCHABLE/);
    expect(lines.find((line) => line.startsWith('software_engineering'))).toMatch(/Software Engineering\s+bg_engineering\s+yes/);
    expect(lines.find((line) => line.startsWith('bg_engineering '))).toMatch(/Engineering\s+\S*software_engineering/);
    const json = paybench(['--json', 'catalog', 'families'], as(analyst));
    const parsed = JSON.parse(json.stdout) as { jobFamilies: { id: string }[]; familyBlendGroups: { id: string; associatedFamilies: string[] }[] };
    // Every family is united by exactly one group.
    const united = parsed.familyBlendGroups.flatMap((g) => g.associatedFamilies).sort();
    expect(united).toEqual(parsed.jobFamilies.map((f) => f.id).sort());
  });

  it('lists locations with coverage, by kind; a wrong kind exits 2; without benchmarking access exits 1', () => {
    const metros = paybench(['--json', 'catalog', 'locations', '--kind', 'metro'], as(analyst));
    expect(metros.code).toBe(0);
    const parsed = JSON.parse(metros.stdout) as { locations: { kind: string; metroListCount: number; coverageLabel: string }[] };
    expect(parsed.locations.length).toBeGreaterThan(0);
    expect(parsed.locations.every((l) => l.kind === 'metro' && l.metroListCount === 0)).toBe(true);
    const table = paybench(['catalog', 'locations', '--kind', 'country'], as(analyst));
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+KIND\s+CURRENCY\s+METROS\s+COVERAGE\s+EMPLOYEES\s+COMP TYPES/);
    expect(table.stdout).toMatch(/\n840\s+United States\s+country\s+USD\s+\d+\s+(High|Medium|Low) coverage/);
    const wrong = paybench(['catalog', 'locations', '--kind', 'planet'], as(analyst));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--kind must be one of region, country, tier, metro, not "planet".');
    const refused = paybench(['catalog', 'locations'], as(employee));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('403');
  });
});

/** Its own server: publishing and pinning change what every query of that server answers from. */
describe('paybench admin releases', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let staff: TestUser;
  let customer: TestUser;
  const as = (user: TestUser) => ({ PAYBENCH_URL: server.url, PAYBENCH_TOKEN: user.token, XDG_CONFIG_HOME: freshConfigHome() });

  beforeAll(async () => {
    server = await startTestServer({}, { demoMarketRecords: 4_000 });
    const db = await testDb(server.env);
    const company = await createTestCompany(db, 'CLI Release Staff');
    staff = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    customer = company.users.admin as TestUser;
  });
  afterAll(() => server.stop());

  // The server runs in this process: the binary runs beside it, not blocking it.
  const cli = (args: string[], user: TestUser): Promise<Run> => paybenchInBackground(args, as(user)).done;

  it('builds a draft, publishes it so it is served, and pins the first release back', async () => {
    const first = (await request<{ data: Release[] }>('/api/internal/market/releases', { base: server.url, headers: bearer(staff) })).body.data[0] as Release;
    const built = await cli(['--json', 'admin', 'releases', 'build', '--seed', '7', '--records', '3000'], staff);
    expect(built.code).toBe(0);
    const draft = JSON.parse(built.stdout) as Release;
    expect(draft).toMatchObject({ status: 'draft', serving: false, recordCount: 3000, source: { seed: 7, records: 3000 } });
    expect(draft.privacyScorecard?.passed).toBe(true);

    const listed = await cli(['admin', 'releases', 'list'], staff);
    expect(listed.stdout).toMatch(new RegExp(`${draft.id}\\s+\\S+\\s+draft\\s+passed\\s+3000`));

    const published = await cli(['admin', 'releases', 'publish', draft.id], staff);
    expect(published.code).toBe(0);
    expect(published.stdout.trim()).toBe(`${draft.id} published, serving`);
    const pinned = await cli(['admin', 'releases', 'pin', first.id], staff);
    expect(pinned.stdout.trim()).toBe(`${first.id} published, serving, pinned`);
    const after = (await request<{ data: Release[] }>('/api/internal/market/releases', { base: server.url, headers: bearer(staff) })).body.data;
    expect(after.find((r) => r.id === draft.id)).toMatchObject({ status: 'published', serving: false });

    const again = await cli(['admin', 'releases', 'publish', draft.id], staff);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('409');
    const outsider = await cli(['admin', 'releases', 'list'], customer);
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toContain('403');
    const badSeed = await cli(['admin', 'releases', 'build', '--seed', '0'], staff);
    expect(badSeed.code).toBe(2);
    expect(badSeed.stderr).toContain('--seed must be a whole number from 1 to 2147483647, not "0".');
  });
});
