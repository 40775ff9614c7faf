import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { freshConfigHome, paybench } from './support.js';

type BandSet = components['schemas']['BandSet'];
type BandSetDetail = components['schemas']['BandSetDetail'];

describe('paybench bands', () => {
  let company: TestCompany;
  let env: Record<string, string>;
  let dir: string;
  let setId: string;

  beforeAll(async () => {
    const db = await testDb();
    company = await createTestCompany(db, 'CLI Bands Co');
    const support = await createTestUser(db, { companyId: company.id, internalAdmin: true });
    expect((await request(`/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', headers: bearer(support), json: { enabled: true } })).status).toBe(200);
    const admin = bearer(company.users.admin as TestUser);
    expect((await request('/api/bands/jobs', { method: 'POST', headers: admin, json: { jobFamilyId: 'software_engineering', levelId: 'p3', title: 'Engineer III', jobCode: 'ENG-3' } })).status).toBe(201);
    const set = await request<{ data: { id: string } }>('/api/bands/band-sets', { method: 'POST', headers: admin, json: { name: 'CLI bands', currency: 'USD', effectiveDate: '2026-02-01' } });
    setId = set.body.data.id;
    const built = await request(`/api/bands/band-sets/${setId}/build`, { method: 'POST', headers: admin, json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 10 } } });
    expect(built.status).toBe(200);
    dir = freshConfigHome();
    env = { PAYBENCH_TOKEN: company.users.analyst!.token, XDG_CONFIG_HOME: dir };
  });

  it('lists the band sets, as JSON and as a table', () => {
    const json = paybench(['bands', 'list', '--json'], env);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const sets = JSON.parse(json.stdout) as BandSet[];
    expect(sets.map((set) => ({ id: set.id, name: set.name, status: set.status, currency: set.currency, bandCount: set.bandCount, effectiveDate: set.effectiveDate }))).toEqual([
      { id: setId, name: 'CLI bands', status: 'draft', currency: 'USD', bandCount: 1, effectiveDate: '2026-02-01' },
    ]);
    const table = paybench(['bands', 'list'], env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+STATUS\s+CURRENCY\s+BANDS\s+EFFECTIVE$/);
    expect(table.stdout).toContain(setId);
  });

  it('exports a set to a file through the server’s job', () => {
    const target = path.join(dir, 'bands.csv');
    const run = paybench(['bands', 'export', setId, '--output', target], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    // A byte-order mark first (so spreadsheets read it as UTF-8) is not part of the header.
    const text = readFileSync(target, 'utf8').replace(/^\uFEFF/, '');
    expect(text.split('\n')[0]).toBe('Band set,Status,Job code,Job title,Job family,Level,Track,Pay zone,Differential %,Currency,Min,Mid,Max,Market percentile,Market value,Market release,Grade,Bonus target %,Bonus min %,Bonus max %,Variable target,Equity unit,Equity min,Equity mid,Equity max');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ 'Band set': 'CLI bands', Status: 'draft', 'Job code': 'ENG-3', 'Job title': 'Engineer III', 'Pay zone': 'Everywhere', Currency: 'USD', 'Market percentile': '50' });
    const [min, mid, max] = ['Min', 'Mid', 'Max'].map((key) => Number(rows[0]?.[key]));
    expect(mid).toBeGreaterThan(0);
    expect(min).toBeLessThan(mid as number);
    expect(max).toBeGreaterThan(mid as number);
  });

  it('prints the job id with --no-wait', () => {
    const run = paybench(['bands', 'export', setId, '--no-wait'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
  });

  it('refuses an unknown format with exit 2, and another company’s set with exit 1', async () => {
    const bad = paybench(['bands', 'export', setId, '--format', 'pdf'], env);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('--format must be csv or xlsx, not "pdf".');
    const other = await createTestCompany(await testDb(), 'CLI Other Bands Co');
    const outsider = paybench(['bands', 'export', setId], { ...env, PAYBENCH_TOKEN: other.users.admin!.token });
    expect(outsider.code).toBe(1);
    expect(outsider.stdout).toBe('');
    expect(outsider.stderr).toContain('404');
  });

  it('imports a bands file into a draft: a dry run writes nothing, a bad line writes nothing and is named, a good file applies', async () => {
    const adminEnv = { ...env, PAYBENCH_TOKEN: company.users.admin!.token };
    const exported = path.join(dir, 'exported.csv');
    expect(paybench(['bands', 'export', setId, '--output', exported], env).code).toBe(0);
    const [header, row] = readFileSync(exported, 'utf8').trim().split('\n');
    const cells = parse(`${header}\n${row}`, { columns: true }) as Record<string, string>[];
    const mid = Number(cells[0]?.Mid);
    const changed = path.join(dir, 'changed.csv');
    // Mid up by 1,000 (still within min and max, which the file keeps).
    writeFileSync(changed, `${header}\n${row?.replace(`,${cells[0]?.Mid},`, `,${(mid + 1000).toFixed(2)},`)}\n`);
    const bandsOf = async () => {
      const get = () => request<{ data: BandSetDetail }>(`/api/bands/band-sets/${setId}`, { headers: bearer(company.users.admin as TestUser) });
      // spawnSync held the event loop past the server's keep-alive timeout, so the first pick may be a
      // socket the server has closed meanwhile; a GET is safe to send again.
      return (await get().catch(get)).body.data;
    };
    const before = await bandsOf();

    const dry = paybench(['bands', 'import', changed, '--set', setId, '--dry-run'], adminEnv);
    // Hints go to a terminal only: a script gets the plan and nothing else.
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe('0 bands to add, 1 to update, 0 unchanged\n');
    expect((await bandsOf()).bands).toEqual(before.bands);

    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, `${header}\n${row}\n${row?.replace(',ENG-3,', ',NOPE,')}\n`);
    const refused = paybench(['bands', 'import', bad, '--set', setId], adminEnv);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('The file has 1 problem; nothing was written.');
    expect(refused.stderr).toContain('line 3: Job code: no company job has the job code "NOPE"');
    expect((await bandsOf()).bands).toEqual(before.bands);

    const applied = paybench(['bands', 'import', changed, '--set', setId], adminEnv);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toBe('0 bands added, 1 updated, 0 unchanged\n');
    expect((await bandsOf()).bands[0]?.mid.amount).toBe(Math.round((mid + 1000) * 100));

    const json = paybench(['bands', 'import', changed, '--set', setId, '--json'], adminEnv);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'bands', status: 'applied', bandSetId: setId, plan: { update: 0, unchanged: 1 } });
  });

  it('refuses an import without --set or into a set the caller cannot change', () => {
    const missing = paybench(['bands', 'import', path.join(dir, 'changed.csv')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Name the draft band set to import into with --set ID');
    const viewer = paybench(['bands', 'import', path.join(dir, 'changed.csv'), '--set', setId], env);
    expect(viewer.code).toBe(1);
    expect(viewer.stderr).toContain('403');
    const absent = paybench(['bands', 'import', path.join(dir, 'nowhere.csv'), '--set', setId], env);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain('Cannot read');
  });
});
