import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi.js';
import { type TestCompany, type TestUser, bearer, createTestCompany, createTestUser, testDb } from '../../api/test/factories.js';
import { request } from '../../api/test/http.js';
import { freshConfigHome, paybench } from './support.js';

type BandSet = components['schemas']['BandSet'];

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
    const text = readFileSync(target, 'utf8');
    expect(text.split('\n')[0]).toBe('Band set,Status,Job code,Job title,Job family,Level,Track,Pay zone,Differential %,Currency,Min,Mid,Max,Market percentile,Market value,Market release');
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
});
