/**
 * npm run bench:sizing [-- --engine sqlite|postgres] [-- --employees N] [-- --market-records N,M] [-- --json]
 *
 * The figures behind the sizing table of docs/self-hosting.md, measured on this machine. On each
 * engine: a real node (`api/src/main.ts` in a child process) started with the demo company and a
 * generated market release of the first `--market-records` size (default 150,000, the demo's), its
 * resident memory (RSS) and its database's size; then N employees (default 10,000; each with a base
 * salary, a third with a bonus target, as the other benchmarks arrange them) and again the size, per
 * 1,000 employees. Then, on the first engine only (the release is held in memory, the same on both),
 * a node per further market size (default 1,000,000) and its memory once started.
 * SQLite size: page_count × page_size of the database file; Postgres: pg_total_relation_size (tables,
 * indexes, TOAST) summed over the node's schema.
 */
import os from 'node:os';
import { readFileSync } from 'node:fs';
import type { Knex } from 'knex';
import { newId } from '../src/db/ids.js';
import { JOB_FAMILIES, LEVELS } from '../src/reference/catalog/index.js';
import { type BenchServer, type Engine, call, createBenchCompany, enginesOf, note, option, runOnEngines, startBenchServer } from './server.js';

interface Options {
  employees: number;
  marketRecords: number[];
  json: boolean;
  engines: Engine[];
}

const parseOptions = (argv: string[]): Options => ({
  employees: Number(option(argv, '--employees') ?? 10_000),
  marketRecords: (option(argv, '--market-records') ?? '150000,1000000').split(',').map(Number),
  json: argv.includes('--json'),
  engines: enginesOf(argv),
});

interface Figures {
  engine: Engine;
  /** What the demo company brings. */
  demo: { users: number; employees: number };
  marketRecords: number;
  startRssMb: number | null;
  startDatabaseMb: number;
  employees: number;
  seededRssMb: number | null;
  seededDatabaseMb: number;
  databaseMbPer1000Employees: number;
  /** Memory of a node started with a larger market release (first engine only). */
  markets: { records: number; rssMb: number | null; peakRssMb: number | null }[];
  loadAverage: number[];
}

const mb = (bytes: number): number => Math.round((bytes / 1e6) * 10) / 10;

/** Resident memory of the node now, in MB (Linux /proc; null elsewhere). */
function rssMb(server: BenchServer): number | null {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) && kb > 0 ? Math.round(kb / 1e3) : null;
  } catch {
    return null;
  }
}

async function databaseBytes(db: Knex, engine: Engine): Promise<number> {
  if (engine === 'sqlite') {
    const [pages] = (await db.raw('PRAGMA page_count')) as { page_count: number }[];
    const [size] = (await db.raw('PRAGMA page_size')) as { page_size: number }[];
    return (pages?.page_count ?? 0) * (size?.page_size ?? 0);
  }
  const result = (await db.raw(
    "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')",
  )) as { rows: { bytes: string | number }[] };
  return Number(result.rows[0]?.bytes ?? 0);
}

async function count(db: Knex, table: string): Promise<number> {
  const [row] = (await db(table).count<{ n: string | number }[]>('* as n')) as { n: string | number }[];
  return Number(row?.n ?? 0);
}

const PLACES = [
  ['US', 'us_sf_bay_area', 'USD'],
  ['US', 'us_austin', 'USD'],
  ['GB', 'gb_london', 'GBP'],
  ['DE', 'de_berlin', 'EUR'],
  ['CA', 'ca_toronto', 'CAD'],
] as const;

/** `count` employees with a base salary each and a bonus target for a third, inserted directly. */
async function insertEmployees(db: Knex, companyId: string, total: number): Promise<void> {
  const now = new Date().toISOString();
  for (let at = 0; at < total; at += 200) {
    const employees: Record<string, unknown>[] = [];
    const pay: Record<string, unknown>[] = [];
    for (let i = at; i < Math.min(total, at + 200); i += 1) {
      const id = newId();
      const family = JOB_FAMILIES[(i * 7) % 12]!;
      const level = LEVELS[(i * 11) % 8]!;
      const [country, location, currency] = PLACES[i % PLACES.length]!;
      employees.push({
        id, company_id: companyId, employee_number: `E${i}`, email: `person${i}@bench-sizing.test`, first_name: `Person${i}`, last_name: 'Sizing', title: family.name,
        job_family_id: family.id, level_id: level.id, track: level.track, country_code: country, location_id: location, currency,
        start_date: `20${10 + (i % 15)}-0${1 + (i % 9)}-01`, employment_type: 'full_time', status: 'active', performance_rating: ['meets', 'exceeds', 'developing'][i % 3],
        demographics: JSON.stringify({ gender: i % 2 ? 'woman' : 'man' }), version: 1, created_at: now, updated_at: now,
      });
      const base = 50_000 + level.levelRank * 12_000 + ((i * 7919) % 30_000);
      pay.push({ id: newId(), company_id: companyId, employee_id: id, type: 'base_salary', amount: base * 100, currency, effective_date: '2025-01-01', reason: 'hire', source: 'manual', created_at: now });
      if (i % 3 === 0) pay.push({ id: newId(), company_id: companyId, employee_id: id, type: 'bonus_target', amount: Math.round(base * 0.1) * 100, currency, effective_date: '2025-01-01', reason: 'hire', source: 'manual', created_at: now });
    }
    await db('employees').insert(employees);
    await db('compensation_records').insert(pay);
  }
}

let firstEngine: Engine | undefined;

async function benchEngine(engine: Engine, options: Options): Promise<Figures> {
  firstEngine ??= engine;
  const [demoMarket = 150_000, ...larger] = options.marketRecords;
  note(`${engine}: a node with the demo company and ${demoMarket.toLocaleString('en-US')} market records…`);
  const server = await startBenchServer(engine, { PAYBENCH_SEED_DEMO: 'true', PAYBENCH_DEMO_MARKET_RECORDS: String(demoMarket) });
  let figures: Omit<Figures, 'markets' | 'loadAverage'>;
  try {
    const demo = { users: await count(server.db, 'users'), employees: await count(server.db, 'employees') };
    const startRssMb = rssMb(server);
    const startBytes = await databaseBytes(server.db, engine);
    note(`${engine}: ${options.employees.toLocaleString('en-US')} employees…`);
    const company = await createBenchCompany(server.db, 'Bench Sizing');
    await insertEmployees(server.db, company.id, options.employees);
    // One team-table page, so the node has read the employees at least once.
    await call(`${server.url}/api/internal/companies/${company.id}/release-flags/team_view`, { method: 'PUT', token: company.supportToken, json: { enabled: true } });
    const page = await fetch(`${server.url}/api/team/employees/table?limit=200&columns=name&columns=level&columns=baseSalary`, { headers: { Authorization: `Bearer ${company.token}` } });
    await page.arrayBuffer();
    if (!page.ok) throw new Error(`the team table answered ${page.status}`);
    const seededBytes = await databaseBytes(server.db, engine);
    figures = {
      engine,
      demo,
      marketRecords: demoMarket,
      startRssMb,
      startDatabaseMb: mb(startBytes),
      employees: options.employees,
      seededRssMb: rssMb(server),
      seededDatabaseMb: mb(seededBytes),
      databaseMbPer1000Employees: mb(((seededBytes - startBytes) / options.employees) * 1000),
    };
  } finally {
    await server.stop();
  }
  const markets: Figures['markets'] = [];
  if (engine === firstEngine) {
    for (const records of larger) {
      note(`${engine}: a node with ${records.toLocaleString('en-US')} market records…`);
      const node = await startBenchServer(engine, { PAYBENCH_SEED_DEMO: 'true', PAYBENCH_DEMO_MARKET_RECORDS: String(records) });
      try {
        markets.push({ records, rssMb: rssMb(node), peakRssMb: node.peakRssMb() });
      } finally {
        await node.stop();
      }
    }
  }
  return { ...figures, markets, loadAverage: os.loadavg().map((value) => Math.round(value * 10) / 10) };
}

function report(f: Figures): string {
  return [
    `Sizing — ${f.engine}`,
    `  node with the demo company (${f.demo.users} users, ${f.demo.employees} employees) and ${f.marketRecords.toLocaleString('en-US')} market records: RSS ${f.startRssMb} MB, database ${f.startDatabaseMb} MB`,
    `  after ${f.employees.toLocaleString('en-US')} more employees and a team-table page of them: RSS ${f.seededRssMb} MB, database ${f.seededDatabaseMb} MB (${f.databaseMbPer1000Employees} MB per 1,000 employees)`,
    ...f.markets.map((m) => `  node with ${m.records.toLocaleString('en-US')} market records: RSS ${m.rssMb} MB once started (peak ${m.peakRssMb} MB)`),
    `  load average ${f.loadAverage.join(' / ')} on ${os.cpus().length} cores`,
    '',
  ].join('\n');
}

runOnEngines(parseOptions, {}, benchEngine, report);
