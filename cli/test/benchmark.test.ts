import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, testDb } from '../../api/test/factories.js';
import { freshConfigHome, paybench } from './support.js';

interface Result {
  percentiles: number[];
  cells: { jobFamilyId: string; levelId: string; compensationTypeId: string; status: string; percentiles: { percentile: number; value: number }[] | null }[];
}

const SLICE = ['--family', 'Software Engineering', '--level', 'p2,P3', '--location', '840_1', '--comp-type', 'base,total_cash', '--percentiles', '25,50,75', '--currency', 'USD'];

describe('paybench benchmark', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    const company = await createTestCompany(await testDb());
    env = { PAYBENCH_TOKEN: company.users.analyst!.token, XDG_CONFIG_HOME: freshConfigHome() };
  });

  it('lists what can be asked', () => {
    const run = paybench(['benchmark', 'filters'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Job families \(--family\)$/m);
    expect(run.stdout).toMatch(/^\s+software_engineering\s+Software Engineering$/m);
    expect(run.stdout).toMatch(/^\s+840_1\s+/m);
  });

  it('queries a slice as a table, and refuses unknown choices with exit 2', () => {
    const table = paybench(['benchmark', 'query', ...SLICE], env);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^FAMILY\s+LEVEL\s+COMP TYPE\s+CURRENCY\s+P25\s+P50\s+P75\s+COMPANIES\s+EMPLOYEES\s+CONSISTENCY$/);
    const unknown = paybench(['benchmark', 'query', ...SLICE, '--family', 'Astronautics'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--family: "Astronautics" is not one of the choices');
  });

  it('exports a file whose numbers equal the API’s results', () => {
    const query = paybench(['benchmark', 'query', ...SLICE, '--json'], env);
    expect(query.code).toBe(0);
    const result = JSON.parse(query.stdout) as Result;
    expect(result.cells.length).toBe(4);
    const exported = paybench(['benchmark', 'export', ...SLICE], env);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const rows = parse(exported.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(result.cells.length);
    for (const cell of result.cells) {
      const row = rows.find((candidate) => candidate['Job family'] === cell.jobFamilyId && candidate.Level === cell.levelId && candidate['Compensation type'] === cell.compensationTypeId);
      expect(row, `${cell.levelId} ${cell.compensationTypeId}`).toBeDefined();
      for (const p of result.percentiles) {
        const value = cell.percentiles?.find((candidate) => candidate.percentile === p)?.value;
        expect(row?.[`P${p}`]).toBe(value === undefined ? '' : String(value));
      }
    }
  });

  it('returns the job id at once with --no-wait', () => {
    const run = paybench(['benchmark', 'export', ...SLICE, '--no-wait'], env);
    expect(run.code).toBe(0);
    const jobId = run.stdout.trim();
    const watched = paybench(['jobs', 'watch', jobId], env);
    expect(watched.stdout).toMatch(new RegExp(`^${jobId} succeeded \\(download \\S+\\)\\n$`));
  });
});
