import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi.js';
import { type TestCompany, type TestUser, createTestCompany, testDb } from '../../api/test/factories.js';
import { ENGINEERS_US } from '../../api/src/market/test/requests.js';
import { freshConfigHome, freshRequest, paybench } from './support.js';

type Settings = components['schemas']['CompanyBenchmarkingSettings'];
type Context = components['schemas']['BenchmarkingContext'];
type SavedQuery = components['schemas']['SavedReportQuery'];

const pairsOf = (stdout: string): Record<string, string> => Object.fromEntries(stdout.trim().split('\n').map((line) => line.split(/\s{2,}/) as [string, string]));

describe('paybench benchmark access and settings', { timeout: 300_000 }, () => {
  let company: TestCompany;
  let admin: TestUser;
  const as = (user: TestUser) => ({ PAYBENCH_TOKEN: user.token, XDG_CONFIG_HOME: freshConfigHome() });

  beforeAll(async () => {
    company = await createTestCompany(await testDb(), 'CLI Benchmark Settings Co');
    admin = company.users.admin as TestUser;
  });

  it('says what the caller may do in benchmarking, as the API answers it', async () => {
    const expected = (await freshRequest<{ data: Context }>('/api/benchmarking/context', { token: admin.token })).body.data;
    const json = paybench(['benchmark', 'access', '--json'], as(admin));
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toEqual(expected);
    expect(expected.access).toBe('edit');
    const text = paybench(['benchmark', 'access'], as(admin));
    expect(text.code).toBe(0);
    expect(pairsOf(text.stdout)).toMatchObject({ 'Your access': 'view market data, save reports and change the settings', 'Preferred location': 'none chosen' });
    const employee = pairsOf(paybench(['benchmark', 'access'], as(company.users.employee as TestUser)).stdout);
    expect(employee['Your access']).toMatch(/^none/);
  });

  it('changes the settings named and keeps the rest', async () => {
    const shown = paybench(['benchmark', 'settings'], as(admin));
    expect(shown.stderr).toBe('');
    expect(pairsOf(shown.stdout)).toEqual({
      'Preferred location': 'none chosen',
      'Override base compensation requirement': 'no',
      'Override equity requirement': 'no',
      'Synthetic location insights': 'no',
    });
    const changed = paybench(['benchmark', 'settings', '--location', 'united states', '--synthetic-locations'], as(admin));
    expect(changed.code).toBe(0);
    expect(changed.stderr).toBe('Saved the benchmarking settings.\n');
    expect(pairsOf(changed.stdout)).toMatchObject({ 'Preferred location': 'United States', 'Synthetic location insights': 'yes', 'Override equity requirement': 'no' });
    const stored = (await freshRequest<{ data: Settings }>('/api/benchmarking/settings', { token: admin.token })).body.data;
    expect(stored).toEqual({ location: 'United States', useSyntheticLocationInsightsData: true, overrideBaseCompensationRequirement: false, overrideEquityRequirement: false });
    const back = JSON.parse(paybench(['benchmark', 'settings', '--location', 'none', '--no-synthetic-locations', '--override-equity', '--json'], as(admin)).stdout) as Settings;
    expect(back).toEqual({ location: null, useSyntheticLocationInsightsData: false, overrideBaseCompensationRequirement: false, overrideEquityRequirement: true });
    const wrong = paybench(['benchmark', 'settings', '--location', 'Asia'], as(admin));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--location must be one of "Europe", "Canada", "United States" or none, not "Asia".');
    const employee = paybench(['benchmark', 'settings', '--location', 'Europe'], as(company.users.employee as TestUser));
    expect(employee.code).toBe(1);
  });

  it('lists the saved report queries and renames one, its request kept', async () => {
    const created = await freshRequest<{ data: SavedQuery }>('/api/benchmarking/saved-queries', { method: 'POST', token: admin.token, json: { name: 'Engineers US', description: 'P3 and P4', request: ENGINEERS_US } });
    expect(created.status).toBe(201);
    const listed = paybench(['benchmark', 'saved', 'list'], as(admin));
    expect(listed.stderr).toBe('');
    const rows = listed.stdout.trim().split('\n').map((line) => line.split(/\s{2,}/));
    expect(rows[0]).toEqual(['ID', 'NAME', 'DESCRIPTION', 'UPDATED']);
    expect(rows.slice(1).map((row) => row.slice(0, 3))).toEqual([[created.body.data.id, 'Engineers US', 'P3 and P4']]);
    const renamed = paybench(['benchmark', 'saved', 'rename', 'engineers us', 'Engineers, United States'], as(admin));
    expect(renamed.stderr).toBe('');
    expect(renamed.code).toBe(0);
    expect(renamed.stdout).toBe('Renamed “Engineers US” to “Engineers, United States”.\n');
    const stored = (await freshRequest<{ data: SavedQuery }>(`/api/benchmarking/saved-queries/${created.body.data.id}`, { token: admin.token })).body.data;
    expect(stored).toMatchObject({ name: 'Engineers, United States', description: 'P3 and P4', version: created.body.data.version + 1 });
    expect(stored.request).toEqual(created.body.data.request);
    const unknown = paybench(['benchmark', 'saved', 'rename', 'Designers', 'Anything'], as(admin));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No saved report query is called "Designers".');
    const employee = paybench(['benchmark', 'saved', 'rename', created.body.data.id, 'Mine now'], as(company.users.employee as TestUser));
    expect(employee.code).toBe(1);
  });
});
