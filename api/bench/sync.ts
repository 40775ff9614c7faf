/**
 * npm run bench:sync [-- --engine sqlite|postgres] [-- --vendor bamboohr,hibob,personio,workday,rippling] [-- --employees N] [-- --json] [-- --cpu-prof DIR]
 *
 * Syncs 10,000 employees from each vendor's conformance server through a connection of that
 * vendor, on a fresh server on each engine (the server in a process of its own): BambooHR and
 * HiBob with five years of pay history (a compensation row a year), Personio, Workday (a report as
 * a service) and Rippling with the pay in force, as their APIs give it. The first sync reads and
 * writes everyone; the second finds nothing changed (incremental where the vendor offers a
 * "changed since": BambooHR, Personio, Workday's prompt; a full read for HiBob and Rippling).
 * Meanwhile /api/health is asked every 50 ms, whether or not the last answer came back, so a
 * stalled server shows as the wait of every request sent during the stall. Targets: the first sync
 * within 60 s, /api/health p99 within 200 ms. Every figure is printed with the load average, and each
 * sync with the server's CPU time over it (steadier than wall time on a shared machine).
 * With --cpu-prof the server writes a V8 CPU profile into DIR when it stops (open it in Chrome's DevTools).
 */
import path from 'node:path';
import type { components } from '../src/contract-types.js';
import { BambooHrTestServer } from '../src/integrations/vendors/bamboohr/testServer.js';
import { HiBobTestServer } from '../src/integrations/vendors/hibob/testServer.js';
import { PersonioTestServer } from '../src/integrations/vendors/personio/testServer.js';
import { RipplingTestServer } from '../src/integrations/vendors/rippling/testServer.js';
import { WorkdayTestServer } from '../src/integrations/vendors/workday/testServer.js';
import {
  BENCH_FAMILIES as FAMILIES,
  BENCH_LEVELS as LEVELS,
  type BenchServer,
  type Engine,
  type Latency,
  call,
  createBenchCompany,
  describeLatency,
  describeLoad,
  enginesOf,
  machineLoad,
  note,
  numberOption,
  option,
  pollHealth,
  startBenchServer,
  verdict,
} from './server.js';

type PeopleImport = components['schemas']['PeopleImport'];
type Integration = components['schemas']['Integration'];

const argv = process.argv.slice(2);
const EMPLOYEES = numberOption(argv, '--employees', 10_000);
const YEARS = 5;
const MANAGERS = 200;
const HEALTH_EVERY_MS = 50;
const TARGET_SECONDS = 60;
const TARGET_HEALTH_P99_MS = 200;
const json = argv.includes('--json');
const cpuProfileDir = option(argv, '--cpu-prof');

const PLACES = [
  ['United States', 'New York City', 'USD'],
  ['United States', 'Austin', 'USD'],
  ['United Kingdom', 'London', 'GBP'],
  ['Germany', 'Berlin', 'EUR'],
  ['Canada', 'Toronto', 'CAD'],
] as const;

/** A BambooHR account of `count` employees, each with a raise a year for five years. */
function loadBamboo(bamboo: BambooHrTestServer, count: number): void {
  const longAgo = '2025-01-01T00:00:00Z';
  const thisYear = new Date().getUTCFullYear();
  for (let i = 1; i <= count; i += 1) {
    const [country, location, currency] = PLACES[i % PLACES.length] ?? PLACES[0];
    const family = FAMILIES[i % FAMILIES.length] ?? '';
    const level = LEVELS[(i * 7) % LEVELS.length] ?? 'P3';
    const manager = i === 1 ? null : i <= MANAGERS ? '1' : String(1 + (i % MANAGERS));
    bamboo.addEmployee(
      String(i),
      {
        employeeNumber: `E${i}`,
        firstName: `Given${i}`,
        lastName: `Family${i}`,
        workEmail: `person${i}@bench.test`,
        jobTitle: `${family} ${level}`,
        department: family,
        division: 'Operations',
        location,
        country,
        hireDate: `${thisYear - YEARS - 1}-0${1 + (i % 9)}-15`,
        terminationDate: '0000-00-00',
        status: 'Active',
        employmentHistoryStatus: i % 10 === 0 ? 'Part-Time' : 'Full-Time',
        supervisorEId: manager,
        gender: null,
        ethnicity: null,
      },
      longAgo,
    );
    const base = 60_000 + ((i * 7919) % 140_000);
    for (let year = YEARS - 1; year >= 0; year -= 1) {
      // Five raises of 3 % each, the latest this January.
      bamboo.addCompensation(String(i), { startDate: `${thisYear - year}-01-01`, rate: `${Math.round(base * 1.03 ** (YEARS - 1 - year))}.00 ${currency}`, reason: 'Merit' }, longAgo);
    }
  }
}

/** One worker of the bench company: who they are, where, and the base pay of each of the five years (oldest first). */
interface BenchWorker {
  id: number;
  family: string;
  level: string;
  manager: number | null;
  country: string;
  location: string;
  currency: string;
  hireDate: string;
  partTime: boolean;
  pay: number[];
}

function benchWorker(i: number): BenchWorker {
  const [country, location, currency] = PLACES[i % PLACES.length] ?? PLACES[0];
  const base = 60_000 + ((i * 7919) % 140_000);
  return {
    id: i,
    family: FAMILIES[i % FAMILIES.length] ?? '',
    level: LEVELS[(i * 7) % LEVELS.length] ?? 'P3',
    manager: i === 1 ? null : i <= MANAGERS ? 1 : 1 + (i % MANAGERS),
    country,
    location,
    currency,
    hireDate: `${new Date().getUTCFullYear() - YEARS - 1}-0${1 + (i % 9)}-15`,
    partTime: i % 10 === 0,
    // Five raises of 3 % each, the latest this January.
    pay: Array.from({ length: YEARS }, (_, year) => Math.round(base * 1.03 ** year)),
  };
}

const payStart = (yearsAgo: number): string => `${new Date().getUTCFullYear() - yearsAgo}-01-01`;
const LONG_AGO = '2025-01-01T00:00:00.000Z';

/** A Bob account: people, a work entry each and a salary a year. */
function loadHiBob(bob: HiBobTestServer, count: number): void {
  for (let i = 1; i <= count; i += 1) {
    const w = benchWorker(i);
    const [year, month, day] = w.hireDate.split('-');
    bob.addPerson(
      { id: String(i), firstName: `Given${i}`, surname: `Family${i}`, email: `person${i}@bench.test`, startDate: `${day}/${month}/${year}`, employmentType: w.partTime ? 'Part-Time' : 'Full-Time', status: 'Active', terminationDate: null },
      [{ effectiveDate: w.hireDate, title: `${w.family} ${w.level}`, department: w.family, site: w.location, reportsTo: w.manager === null ? null : String(w.manager) }],
      w.pay.map((value, index) => ({ effectiveDate: payStart(YEARS - 1 - index), value, currency: w.currency, payPeriod: 'Annual' as const })),
    );
  }
}

/** A Personio account: its fixed salaries are kept in one currency (the connection says which), monthly. */
function loadPersonio(personio: PersonioTestServer, count: number): void {
  for (let i = 1; i <= count; i += 1) {
    const w = benchWorker(i);
    personio.add(
      {
        id: i, first_name: `Given${i}`, last_name: `Family${i}`, email: `person${i}@bench.test`, position: `${w.family} ${w.level}`, department: w.family, office: 'Berlin',
        supervisorId: w.manager, hire_date: w.hireDate, termination_date: null, status: 'active', employment_type: 'internal', weekly_working_hours: w.partTime ? '20' : '40',
        subcompany: 'Bench GmbH', gender: 'diverse', fix_salary: Math.round((w.pay.at(-1) ?? 0) / 12), fix_salary_interval: 'monthly', hourly_salary: 0,
      },
      LONG_AGO,
    );
  }
}

/** A Workday worker report: one entry per worker with the pay in force. */
function loadWorkday(workday: WorkdayTestServer, count: number): void {
  for (let i = 1; i <= count; i += 1) {
    const w = benchWorker(i);
    workday.add(
      {
        Employee_ID: `E${i}`, 'Legal_Name_-_First_Name': `Given${i}`, 'Legal_Name_-_Last_Name': `Family${i}`, 'Email_-_Primary_Work': `person${i}@bench.test`, Business_Title: `${w.family} ${w.level}`,
        Supervisory_Organization: w.family, Manager_ID: w.manager === null ? undefined : `E${w.manager}`, Location: w.location, Country: w.country, Hire_Date: w.hireDate, Worker_Status: 'Active',
        Time_Type: w.partTime ? 'Part_time' : 'Full_time', Company: 'Bench Inc.', Total_Base_Pay_Annualized: String(w.pay.at(-1)), Currency: w.currency,
      },
      LONG_AGO,
    );
  }
}

/** A Rippling company: workers with their compensation's annual salary equivalent. */
function loadRippling(rippling: RipplingTestServer, count: number): void {
  for (let i = 1; i <= count; i += 1) {
    const w = benchWorker(i);
    rippling.people.push({
      id: `w-${i}`, number: `E${i}`, givenName: `Given${i}`, familyName: `Family${i}`, title: `${w.family} ${w.level}`, department: w.family, managerId: w.manager === null ? null : `w-${w.manager}`,
      workLocationId: null, country: w.country, startDate: w.hireDate, endDate: null, status: 'ACTIVE', employmentType: w.partTime ? 'SALARIED_PT' : 'SALARIED_FT', legalEntity: 'Bench Inc.',
      salary: w.pay.at(-1) ?? 0, currency: w.currency, bonusPercent: null, gender: null,
    });
  }
}

/** A vendor's conformance server, loaded with the bench company, and how to connect to it. */
interface BenchVendor {
  kind: string;
  name: string;
  /** Starts the server loaded with `count` employees; the compensation rows it holds. */
  start(count: number): Promise<{ apiUrl: string; payRows: number }>;
  stop(): Promise<void>;
  config(apiUrl: string): Record<string, string>;
  /** Moves the vendor's clock on past the incremental margin. */
  advance(ms: number): void;
}

function vendorsOf(args: string[]): BenchVendor[] {
  const bamboo = new BambooHrTestServer();
  const bob = new HiBobTestServer();
  const personio = new PersonioTestServer();
  const workday = new WorkdayTestServer();
  const rippling = new RipplingTestServer();
  const all: BenchVendor[] = [
    {
      kind: 'bamboohr', name: 'BambooHR', stop: () => bamboo.stop(), advance: (ms) => bamboo.advance(ms),
      start: async (count) => (loadBamboo(bamboo, count), { apiUrl: await bamboo.start(), payRows: bamboo.compensation.length }),
      config: (apiUrl) => ({ companyDomain: bamboo.companyDomain, apiUrl, apiKey: bamboo.apiKey }),
    },
    {
      kind: 'hibob', name: 'HiBob', stop: () => bob.stop(), advance: () => undefined,
      start: async (count) => (loadHiBob(bob, count), { apiUrl: await bob.start(), payRows: count * YEARS }),
      config: (apiUrl) => ({ apiUrl, serviceUserId: bob.serviceUserId, serviceUserToken: bob.serviceUserToken }),
    },
    {
      kind: 'personio', name: 'Personio', stop: () => personio.stop(), advance: (ms) => personio.advance(ms),
      start: async (count) => (loadPersonio(personio, count), { apiUrl: await personio.start(), payRows: count }),
      config: (apiUrl) => ({ apiUrl, clientId: personio.clientId, clientSecret: personio.clientSecret, currency: 'EUR' }),
    },
    {
      kind: 'workday', name: 'Workday', stop: () => workday.stop(), advance: (ms) => workday.advance(ms),
      start: async (count) => (loadWorkday(workday, count), { apiUrl: await workday.start(), payRows: count }),
      config: (apiUrl) => ({ reportUrl: workday.reportUrl(apiUrl), authMethod: 'basic', username: workday.username, password: workday.password, changedSincePrompt: 'Changed_Since' }),
    },
    {
      kind: 'rippling', name: 'Rippling', stop: () => rippling.stop(), advance: () => undefined,
      start: async (count) => (loadRippling(rippling, count), { apiUrl: await rippling.start(), payRows: count }),
      config: (apiUrl) => ({ apiUrl, apiToken: rippling.apiToken }),
    },
  ];
  const chosen = option(args, '--vendor');
  if (!chosen) return all;
  const kinds = chosen.split(',');
  const unknown = kinds.filter((kind) => !all.some((vendor) => vendor.kind === kind));
  if (unknown.length) throw new Error(`--vendor must be among ${all.map((vendor) => vendor.kind).join(', ')}, not ${unknown.join(', ')}`);
  return all.filter((vendor) => kinds.includes(vendor.kind));
}

/**
 * A read asked again when its kept-alive connection was reset: on a loaded machine the server may
 * close an idle connection just as the next poll goes out on it. Reads only; a sync is started once.
 */
async function readAgain<T>(read: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= attempts || (error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
    }
  }
}

interface SyncFigures {
  seconds: number;
  /** The server's CPU time (user + system) over the sync: far steadier than wall time on a shared machine. */
  serverCpuMs: number | null;
  rows: number | null;
  plan: PeopleImport['plan'];
  health: Latency & { errors: number };
  load: { loadAverage1m: number; cores: number };
}

async function syncOnce(server: BenchServer, token: string, integrationId: string): Promise<SyncFigures> {
  const health = pollHealth(server.url, HEALTH_EVERY_MS);
  const cpuBefore = server.cpuMs();
  const started = performance.now();
  let run = (await call<{ data: PeopleImport }>(`${server.url}/api/integrations/${integrationId}/syncs`, { method: 'POST', token, json: {} })).data;
  while (run.status === 'queued' || run.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = (await readAgain(() => call<{ data: PeopleImport }>(`${server.url}/api/people-imports/runs/${run.id}`, { token }))).data;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = server.cpuMs();
  const polled = await health.stop();
  if (run.status !== 'applied') throw new Error(`the sync ended ${run.status}: ${run.message ?? ''} ${JSON.stringify(run.errors.slice(0, 5))}`);
  return { seconds, serverCpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, rows: run.rowCount, plan: run.plan, health: { ...polled.latency, errors: polled.errors }, load: machineLoad() };
}

interface EngineFigures {
  engine: Engine;
  vendor: string;
  employees: number;
  payRows: number;
  first: SyncFigures;
  again: SyncFigures;
  serverPeakRssMb: number | null;
  targetsMet: boolean;
}

async function benchEngine(engine: Engine, vendor: BenchVendor, loaded: { apiUrl: string; payRows: number }): Promise<EngineFigures> {
  note(`${engine}: starting a server…`);
  const server = await startBenchServer(engine, { PAYBENCH_DEMO_MARKET_RECORDS: '1000', PAYBENCH_INTEGRATIONS_ALLOW_PRIVATE_NETWORKS: 'true' }, cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProfileDir)}`] : []);
  try {
    // The health route's first answer sets it up (its request validation is compiled then): not the sync's doing.
    await call(`${server.url}/api/health`);
    const company = await createBenchCompany(server.db, 'Bench Sync');
    const connection = (await call<{ data: Integration }>(`${server.url}/api/integrations`, { method: 'POST', token: company.token, json: { kind: vendor.kind, name: vendor.name, config: vendor.config(loaded.apiUrl) } })).data;
    if (connection.status !== 'connected') throw new Error(`the ${vendor.name} connection test failed: ${connection.statusMessage ?? ''}`);
    note(`${engine}: syncing ${EMPLOYEES} employees from ${vendor.name} (${loaded.payRows} compensation rows)…`);
    const first = await syncOnce(server, company.token, connection.id);
    // The vendor's clock moves on past the incremental margin: the next sync asks only for what changed since (where it can).
    vendor.advance(10 * 60_000);
    note(`${engine}: syncing ${vendor.name} again (nothing changed)…`);
    const again = await syncOnce(server, company.token, connection.id);
    return {
      engine,
      vendor: vendor.name,
      employees: EMPLOYEES,
      payRows: loaded.payRows,
      first,
      again,
      serverPeakRssMb: server.peakRssMb(),
      targetsMet: first.seconds <= TARGET_SECONDS && Math.max(first.health.p99Ms, again.health.p99Ms) <= TARGET_HEALTH_P99_MS && first.health.errors + again.health.errors === 0,
    };
  } finally {
    await server.stop();
  }
}

function report(result: EngineFigures): string {
  const plan = (p: PeopleImport['plan']) => (p ? `${p.create} created, ${p.update} updated, ${p.unchanged} unchanged; ${p.compensationRecords.add} compensation records added` : '');
  const cpu = (figures: SyncFigures) => (figures.serverCpuMs === null ? '?' : `${(figures.serverCpuMs / 1000).toFixed(1)} s`);
  const health = (h: SyncFigures['health']) => `${describeLatency(h)} over ${h.count} requests${h.errors ? `, ${h.errors} errors` : ''}`;
  return [
    `${result.vendor} sync, ${result.employees} employees (${result.payRows} compensation rows), ${result.engine}`,
    `  first sync     ${result.first.seconds.toFixed(1)} s (target ≤ ${TARGET_SECONDS} s), server CPU ${cpu(result.first)}: ${result.first.rows} rows read; ${plan(result.first.plan)}`,
    `                 /api/health meanwhile: ${health(result.first.health)}`,
    `                 ${describeLoad(result.first.load)}`,
    `  again          ${result.again.seconds.toFixed(1)} s, server CPU ${cpu(result.again)}: ${result.again.rows} rows read; ${plan(result.again.plan)}`,
    `                 /api/health meanwhile: ${health(result.again.health)}`,
    `                 ${describeLoad(result.again.load)}`,
    `  targets (≤ ${TARGET_SECONDS} s, health p99 ≤ ${TARGET_HEALTH_P99_MS} ms): ${verdict(result.targetsMet)}`,
    `  peak memory    ${result.serverPeakRssMb ?? '?'} MB resident (the server process)`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const results: EngineFigures[] = [];
  for (const vendor of vendorsOf(argv)) {
    const loaded = await vendor.start(EMPLOYEES);
    try {
      for (const engine of enginesOf(argv)) {
        const result = await benchEngine(engine, vendor, loaded);
        results.push(result);
        if (!json) process.stdout.write(report(result));
      }
    } finally {
      await vendor.stop();
    }
  }
  if (json) {
    const withoutChanges = (figures: SyncFigures) => ({ ...figures, plan: figures.plan ? { ...figures.plan, changes: undefined } : null });
    process.stdout.write(`${JSON.stringify({ targets: { seconds: TARGET_SECONDS, healthP99Ms: TARGET_HEALTH_P99_MS }, engines: results.map((r) => ({ ...r, first: withoutChanges(r.first), again: withoutChanges(r.again) })) })}\n`);
  }
}

main().catch((error: unknown) => {
  note(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
