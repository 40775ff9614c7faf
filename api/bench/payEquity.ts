/**
 * npm run bench:pay-equity [-- --engine sqlite|postgres] [-- --employees N] [-- --runs N] [-- --json]
 *
 * On each engine: a real server with a company of 10,000 employees (women, men, another gender and
 * none recorded; base pay in four currencies, bonuses for a third, a few leavers and part-timers),
 * timing the 2026 pay gap report (GET /api/pay-equity/report: Article 9 and the UK figures) and the
 * adjusted gap (GET /api/pay-equity/adjusted-gap: the regression on level, family, location and
 * tenure with its decomposition and cost to close), one request at a time. Target ≤ 2 s each.
 */
import os from 'node:os';
import type { components } from '../src/contract-types.js';
import { newId } from '../src/db/ids.js';
import { JOB_FAMILIES, LEVELS } from '../src/reference/catalog/index.js';
import { type BenchServer, type Engine, type Latency, call, createBenchCompany, describeLatency, enginesOf, latency, note, numberOption, runOnEngines, startBenchServer } from './server.js';

type Report = components['schemas']['PayEquityReport'];
type Adjusted = components['schemas']['PayEquityAdjustedGap'];

const TARGETS = { reportMs: 2_000, regressionMs: 2_000 };

interface Options {
  employees: number;
  runs: number;
  json: boolean;
  engines: Engine[];
}

const parseOptions = (argv: string[]): Options => ({
  employees: numberOption(argv, '--employees', 10_000),
  runs: numberOption(argv, '--runs', 5),
  json: argv.includes('--json'),
  engines: enginesOf(argv),
});

const PLACES = [
  ['US', 'us_sf_bay_area', 'USD', 1],
  ['US', 'us_austin', 'USD', 0.9],
  ['GB', 'gb_london', 'GBP', 0.6],
  ['DE', 'de_berlin', 'EUR', 0.65],
  ['CA', 'ca_toronto', 'CAD', 1.05],
] as const;
const GENDERS = ['woman', 'man', 'woman', 'man', 'man', 'woman', 'non_binary', 'man', 'woman', null] as const;

async function insertPeople(server: BenchServer, companyId: string, count: number): Promise<void> {
  const now = new Date().toISOString();
  const employees: Record<string, unknown>[] = [];
  const pay: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = newId();
    const family = JOB_FAMILIES[(i * 7) % 12]!;
    const level = LEVELS[(i * 11) % 8]!;
    const [country, location, currency, factor] = PLACES[i % PLACES.length]!;
    const gender = GENDERS[i % GENDERS.length]!;
    const leaver = i % 37 === 0;
    employees.push({
      id, company_id: companyId, employee_number: `E${i}`, email: `person${i}@bench-equity.test`, first_name: `Person${i}`, last_name: 'Bench', title: family.name,
      job_family_id: family.id, level_id: level.id, track: level.track, country_code: country, location_id: location, currency,
      start_date: `20${10 + (i % 15)}-0${1 + (i % 9)}-01`, employment_type: i % 13 === 0 ? 'part_time' : 'full_time',
      status: leaver ? 'terminated' : 'active', termination_date: leaver ? '2026-05-31' : null, performance_rating: ['meets', 'exceeds', 'developing'][i % 3],
      demographics: JSON.stringify({ gender }), version: 1, created_at: now, updated_at: now,
    });
    const womanFactor = gender === 'woman' ? 0.95 : 1;
    const base = Math.round((50_000 + level.levelRank * 12_000 + ((i * 7919) % 30_000)) * factor * womanFactor);
    pay.push({ id: newId(), company_id: companyId, employee_id: id, type: 'base_salary', amount: base * 100, currency, effective_date: '2025-01-01', reason: 'hire', source: 'manual', created_at: now });
    if (i % 3 === 0) pay.push({ id: newId(), company_id: companyId, employee_id: id, type: 'bonus_target', amount: Math.round(base * 0.1) * 100, currency, effective_date: '2025-01-01', reason: 'hire', source: 'manual', created_at: now });
  }
  for (let at = 0; at < employees.length; at += 500) await server.db('employees').insert(employees.slice(at, at + 500));
  for (let at = 0; at < pay.length; at += 500) await server.db('compensation_records').insert(pay.slice(at, at + 500));
}

interface Figures {
  engine: Engine;
  employees: number;
  workers: number;
  categories: number;
  meanGap: number | null;
  adjustedGap: number;
  interval: [number, number];
  columns: number;
  report: Latency;
  regression: Latency;
  loadAverage: number[];
  targetsMet: { report: boolean; regression: boolean };
}

async function timed<T>(runs: number, work: () => Promise<T>): Promise<{ latency: Latency; last: T }> {
  const samples: number[] = [];
  let last: T | undefined;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    last = await work();
    samples.push(performance.now() - started);
  }
  return { latency: latency(samples), last: last as T };
}

async function benchEngine(engine: Engine, options: Options): Promise<Figures> {
  note(`${engine}: starting a server…`);
  const server = await startBenchServer(engine);
  try {
    const company = await createBenchCompany(server.db, 'Bench Equity');
    await call(`${server.url}/api/internal/companies/${company.id}/release-flags/pay_equity`, { method: 'PUT', token: company.supportToken, json: { enabled: true } });
    note(`${engine}: ${options.employees} employees…`);
    await insertPeople(server, company.id, options.employees);
    const token = company.token;
    await call(`${server.url}/api/pay-equity/report?year=2026`, { token }); // warm-up
    const report = await timed(options.runs, () => call<{ data: Report }>(`${server.url}/api/pay-equity/report?year=2026`, { token }));
    const regression = await timed(options.runs, () => call<{ data: Adjusted }>(`${server.url}/api/pay-equity/adjusted-gap?year=2026&controls=level,family,location,tenure`, { token }));
    return {
      engine,
      employees: options.employees,
      workers: report.last.data.workers,
      categories: report.last.data.categories.length,
      meanGap: report.last.data.annual.total.meanGap,
      adjustedGap: regression.last.data.adjustedGap,
      interval: regression.last.data.adjustedGapInterval as [number, number],
      columns: regression.last.data.columns,
      report: report.latency,
      regression: regression.latency,
      loadAverage: os.loadavg().map((value) => Math.round(value * 10) / 10),
      targetsMet: { report: report.latency.p50Ms <= TARGETS.reportMs, regression: regression.latency.p50Ms <= TARGETS.regressionMs },
    };
  } finally {
    await server.stop();
  }
}

function report(figures: Figures): string {
  return [
    `Pay equity — ${figures.engine}`,
    `  2026 report for ${figures.employees.toLocaleString('en-US')} employees (${figures.workers.toLocaleString('en-US')} workers, ${figures.categories} categories; mean gap ${figures.meanGap} %)`,
    `    ${describeLatency(figures.report)}; target p50 ≤ ${TARGETS.reportMs} ms: ${figures.targetsMet.report ? 'ok' : 'OVER TARGET'}`,
    `  adjusted gap on level, family, location, tenure (${figures.columns} columns): ${figures.adjustedGap} % [${figures.interval.join(', ')}]`,
    `    ${describeLatency(figures.regression)}; target p50 ≤ ${TARGETS.regressionMs} ms: ${figures.targetsMet.regression ? 'ok' : 'OVER TARGET'}`,
    `  load average ${figures.loadAverage.join(' / ')} on ${os.cpus().length} cores`,
    '',
  ].join('\n');
}

runOnEngines(parseOptions, TARGETS, benchEngine, report);
