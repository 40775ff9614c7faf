import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { COMPANY_STAGES, OWNERSHIP_GROUPS } from '../../api/src/reference/catalog/index.js';
import { createTestCompany, testDb } from '../../api/test/factories.js';
import { freshConfigHome, paybench } from './support.js';

interface Result {
  percentiles: number[];
  cells: { marketFilterIndex: number; currency: string | null; jobFamilyId: string; levelId: string; compensationTypeId: string; status: string; percentiles: { percentile: number; value: number }[] | null }[];
}

const SLICE = ['--family', 'Software Engineering', '--level', 'p2,P3', '--location', '840_1', '--comp-type', 'base,total_cash', '--percentiles', '25,50,75', '--currency', 'USD'];

describe('paybench benchmark', () => {
  let env: Record<string, string>;
  let token: string;
  beforeAll(async () => {
    const company = await createTestCompany(await testDb());
    token = company.users.analyst!.token;
    env = { PAYBENCH_TOKEN: token, XDG_CONFIG_HOME: freshConfigHome() };
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
    expect(table.stdout.split('\n')[0]).toMatch(/^LOCATION\s+FAMILY\s+LEVEL\s+COMP TYPE\s+CURRENCY\s+P25\s+P50\s+P75\s+COMPANIES\s+EMPLOYEES\s+CONSISTENCY\s+DEMO$/);
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
    const rows = parse(exported.stdout, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toHaveLength(result.cells.length);
    for (const cell of result.cells) {
      const row = rows.find((candidate) => candidate['Job family'] === cell.jobFamilyId && candidate.Level === cell.levelId && candidate['Compensation type'] === cell.compensationTypeId);
      expect(row, `${cell.levelId} ${cell.compensationTypeId}`).toBeDefined();
      // Names beside the ids.
      expect(row).toMatchObject({ 'Job family name': 'Software Engineering', 'Level name': cell.levelId.toUpperCase(), 'Compensation type name': cell.compensationTypeId === 'base' ? 'Base salary' : 'Total cash' });
      for (const p of result.percentiles) {
        const value = cell.percentiles?.find((candidate) => candidate.percentile === p)?.value;
        // Major units at the currency's precision: dollars to the cent.
        expect(row?.[`P${p}`]).toBe(value === undefined ? '' : String(Math.round(value * 100) / 100));
      }
    }
  });

  it('asks every industry when --industry is not given', async () => {
    const run = paybench(['benchmark', 'query', '--family', 'Software Engineering', '--level', 'P3', '--location', '840_1', '--json'], env);
    expect(run.stderr).toBe('');
    const shown = JSON.parse(run.stdout) as Result;
    const everyIndustry = {
      compensationTypes: ['base'],
      marketFilters: [{ locations: ['840_1'], industries: ['ind_all'], companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id) }],
      jobFamilies: ['software_engineering'],
      levels: [{ type: 'level', id: 'p3' }],
    };
    const reply = await fetch(`${inject('baseUrl')}/api/benchmarking/market-data`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(everyIndustry),
    });
    const api = ((await reply.json()) as { data: Result }).data;
    expect(shown.cells).toEqual(api.cells);
  });

  it('answers in any currency with a reference rate, and refuses other currencies and percentiles with exit 2', () => {
    const uk = ['--family', 'Software Engineering', '--level', 'P3', '--location', '826'];
    const euros = paybench(['benchmark', 'query', ...uk, '--currency', 'eur'], env);
    expect(euros.stderr).toBe('');
    expect(euros.code).toBe(0);
    expect(euros.stdout.split('\n')[1]).toMatch(/^United Kingdom\s+Software Engineering\s+P3\s+Base salary\s+EUR\s+\d/);
    // Pounds into euros through the dollar, with the bundled rates of 9 May 2025 (1 EUR = 1.1252 USD = 0.8477 GBP).
    expect(euros.stdout.trimEnd().split('\n').at(-1)).toBe(
      'Converted through USD with the ECB euro reference rates of 2025-05-09: 1 USD = 0.8887 EUR, 1 USD = 0.7534 GBP. ' +
        "These rates are more than 30 days old: an internal admin can load newer ECB rates with 'paybench rates import <file>'.",
    );
    const local = paybench(['benchmark', 'query', ...uk], env);
    expect(local.stdout).not.toContain('Converted');
    const unknown = paybench(['benchmark', 'query', ...uk, '--currency', 'XYZ'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--currency: "XYZ" has no exchange rate; choose local or one of: .*\bEUR\b/);
    const percentiles = paybench(['benchmark', 'query', ...uk, '--percentiles', '25,33'], env);
    expect(percentiles.code).toBe(2);
    expect(percentiles.stderr).toContain('--percentiles: 33 is not one of 10, 25, 40, 50, 60, 75, 90');
  });

  it('prints a withheld cell as Insufficient data and the rule, with no sample size', () => {
    // Software engineers in Pittsburgh: S1 has under 5 companies, M5 under 10 employees.
    const run = paybench(['benchmark', 'query', '--family', 'Software Engineering', '--level', 'S1,M5', '--location', 'us_pittsburgh', '--percentiles', '50'], env);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      expect.stringMatching(/^LOCATION\s+FAMILY\s+LEVEL\s+COMP TYPE\s+CURRENCY\s+P50\s+COMPANIES\s+EMPLOYEES\s+CONSISTENCY\s+DEMO$/),
      expect.stringMatching(/^Pittsburgh\s+Software Engineering\s+S1\s+Base salary\s+USD\s+Insufficient data\s+Below the threshold\s+Below the threshold\s*$/),
      expect.stringMatching(/^Pittsburgh\s+Software Engineering\s+M5\s+Base salary\s+USD\s+Insufficient data\s+Below the threshold\s+Below the threshold\s*$/),
      '',
      'Insufficient data: Fewer than 5 companies or 10 employees, or one company above 25%',
      '',
    ]);
  });

  it('answers one labelled row per market for two locations, and one blended row only with --blend', () => {
    const two = ['--family', 'Software Engineering', '--level', 'P3', '--location', '840_1', '--location', '826', '--percentiles', '50'];
    const table = paybench(['benchmark', 'query', ...two], env);
    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^LOCATION\s+FAMILY\s+LEVEL\s+COMP TYPE\s+CURRENCY\s+P50\s/);
    // Each market in its own currency: dollars for the US tier, pounds for the UK.
    expect(lines[1]).toMatch(/^US Tier 1\s+Software Engineering\s+P3\s+Base salary\s+USD\s+\d+/);
    expect(lines[2]).toMatch(/^United Kingdom\s+Software Engineering\s+P3\s+Base salary\s+GBP\s+\d+/);
    expect(lines[3]).toBe('');

    // The same figures as each location asked alone (one market, as before).
    const alone = (location: string): number => {
      const run = paybench(['benchmark', 'query', '--family', 'Software Engineering', '--level', 'P3', '--location', location, '--percentiles', '50', '--json'], env);
      const cell = (JSON.parse(run.stdout) as Result).cells[0];
      return cell?.percentiles?.[0]?.value ?? NaN;
    };
    const [us, uk] = [alone('840_1'), alone('826')];
    expect(us).not.toBe(uk);
    // The table reads in whole units with thousands grouped ("139,958"); --json keeps the exact figure.
    const whole = (value: number) => String(Math.round(value)).replace(/\B(?=(\d{3})+$)/g, ',');
    expect(lines[1]?.split(/\s{2,}/)[5]).toBe(whole(us));
    expect(lines[2]?.split(/\s{2,}/)[5]).toBe(whole(uk));

    const json = JSON.parse(paybench(['benchmark', 'query', ...two, '--json'], env).stdout) as Result & { markets: { index: number; label: string; locations: string[] }[] };
    expect(json.markets).toEqual([
      { index: 0, label: 'US Tier 1', locations: ['840_1'] },
      { index: 1, label: 'United Kingdom', locations: ['826'] },
    ]);
    expect(json.cells.map((cell) => [cell.marketFilterIndex, cell.currency])).toEqual([
      [0, 'USD'],
      [1, 'GBP'],
    ]);
    const csv = parse(paybench(['benchmark', 'query', ...two, '--csv'], env).stdout, { columns: true }) as Record<string, string>[];
    // The CSV: each name beside its id, amounts in major units at the currency's precision (cents for USD and GBP).
    expect(csv.map((row) => [row.LOCATION, row['FAMILY ID'], row.FAMILY, row['LEVEL ID'], row.LEVEL, row['COMP TYPE ID'], row['COMP TYPE'], row.CURRENCY, row.P50])).toEqual([
      ['US Tier 1', 'software_engineering', 'Software Engineering', 'p3', 'P3', 'base', 'Base salary', 'USD', (Math.round(us * 100) / 100).toFixed(2)],
      ['United Kingdom', 'software_engineering', 'Software Engineering', 'p3', 'P3', 'base', 'Base salary', 'GBP', (Math.round(uk * 100) / 100).toFixed(2)],
    ]);

    // Pooled on request: one row, named as the blend, in dollars (the market spans two currencies).
    const blend = paybench(['benchmark', 'query', ...two, '--blend'], env);
    expect(blend.code).toBe(0);
    const blended = blend.stdout.split('\n');
    expect(blended[1]).toMatch(/^Blend of US Tier 1 \+ United Kingdom\s+Software Engineering\s+P3\s+Base salary\s+USD\s+\d+/);
    expect(blended[2]).toBe('');
    expect(blended[1]?.split(/\s{2,}/)[5]).not.toBe(us);
  });

  it('includes contractors only with --contractors, and says so on the row', () => {
    const slice = ['--family', 'Software Engineering', '--level', 'P3', '--location', '840_1', '--percentiles', '50'];
    const employees = paybench(['benchmark', 'query', ...slice], env);
    const withContractors = paybench(['benchmark', 'query', ...slice, '--contractors'], env);
    expect([employees.code, withContractors.code]).toEqual([0, 0]);
    expect(employees.stdout.split('\n')[1]).toMatch(/^US Tier 1\s+Software Engineering/);
    expect(withContractors.stdout.split('\n')[1]).toMatch(/^US Tier 1 \(with contractors\)\s+Software Engineering/);
    // The demo market holds no contractors: the same records, so the same figures and counts.
    const columns = (line: string | undefined) => line?.split(/\s{2,}/).slice(1);
    expect(columns(withContractors.stdout.split('\n')[1])).toEqual(columns(employees.stdout.split('\n')[1]));
  });

  it('refuses more markets than one query holds, pointing at --blend', () => {
    const eleven = ['840', '840_1', '840_2', '840_3', '826', '276', '124', 'us_pittsburgh', 'us_new_york', 'us_seattle', 'us_sf_bay_area'].flatMap((location) => ['--location', location]);
    const run = paybench(['benchmark', 'query', '--family', 'Software Engineering', '--level', 'P3', ...eleven], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--location: at most 10 markets in one query (11 given); ask in parts, or pool them with --blend');
  });

  it('returns the job id at once with --no-wait', () => {
    const run = paybench(['benchmark', 'export', ...SLICE, '--no-wait'], env);
    expect(run.code).toBe(0);
    const jobId = run.stdout.trim();
    const watched = paybench(['jobs', 'watch', jobId], env);
    expect(watched.stdout).toMatch(new RegExp(`^${jobId} succeeded \\(download \\S+\\)\\n$`));
  });
});
