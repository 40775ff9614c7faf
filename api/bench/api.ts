/**
 * npm run bench:api [-- --seconds N] [-- --engine sqlite|postgres] [-- --employees N] [-- --clients N] [-- --processes N] [-- --json] [-- --cpu-prof DIR]
 *
 * With --cpu-prof the server writes a V8 CPU profile into DIR when it stops (open it in Chrome's DevTools).
 *
 * On each engine: a real server with a company of 10,000 employees (brought in through the HRIS
 * import job), then (a) the team table's pages one at a time, each after a write (so computed
 * afresh, not answered from the pages the server keeps until the next write), and again with no
 * write between reads, and (b) 200 concurrent clients for a while on a mix of GET /api/me, a
 * market-data query, a page of the team table and a planner's 8-row worksheet of a launched merit
 * cycle (nothing is written meanwhile, so the team pages are answered from what the server keeps; a
 * company being written to all the time gets the afresh figures of (a) instead).
 *
 * `--processes N`: the server runs N web processes sharing the port (PAYBENCH_WEB_PROCESSES; 1 by default here).
 * `--kinds me,marketData,teamTable,worksheet`: the mix of only those requests (all four by default),
 * to see one route under concurrency on its own.
 */
import { replaceUserRoles } from '../src/access/store.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../src/access/tokens.js';
import { insertUser } from '../src/access/usersStore.js';
import type { components } from '../src/contract-types.js';
import { newId } from '../src/db/ids.js';
import { TYPICAL_REQUEST } from './requests.js';
import {
  BENCH_FAMILIES as FAMILIES,
  BENCH_LEVELS as LEVELS,
  BENCH_PLACES as PLACES,
  type BenchServer,
  type Engine,
  type Latency,
  call,
  type BenchCompany,
  createBenchCompany,
  describeLatency,
  describeLoad,
  enginesOf,
  latency,
  machineLoad,
  note,
  numberOption, option,
  runOnEngines,
  send,
  startBenchServer,
  verdict,
} from './server.js';

type PeopleImport = components['schemas']['PeopleImport'];
type Cycle = components['schemas']['MeritCycle'];
type Worksheet = components['schemas']['Worksheet'];

const TARGETS = { mixErrors: 0, mixP99Ms: 1_000, teamPageP95Ms: 100 };

interface Options {
  seconds: number;
  employees: number;
  clients: number;
  json: boolean;
  engines: Engine[];
  cpuProfileDir: string | null;
  processes: number;
  kinds: string[] | null;
}

function parseOptions(argv: string[]): Options {
  return {
    seconds: numberOption(argv, '--seconds', 60),
    employees: numberOption(argv, '--employees', 10_000),
    clients: numberOption(argv, '--clients', 200),
    json: argv.includes('--json'),
    engines: enginesOf(argv),
    cpuProfileDir: option(argv, '--cpu-prof') ?? null,
    processes: numberOption(argv, '--processes', 1),
    kinds: option(argv, '--kinds')?.split(',') ?? null,
  };
}

const FIRST = ['Ada', 'Ben', 'Chloé', 'Dev', 'Eve', 'Finn', 'Grace', 'Hugo', 'Ines', 'Jon', 'Kai', 'Lea', 'Mia', 'Noor', 'Omar', 'Pia', 'Quinn', 'Rosa', 'Sam', 'Tia'];
const LAST = ['Andersen', 'Brown', 'Chen', 'Díaz', 'Evans', 'Fischer', 'García', 'Hughes', 'Ito', 'Jansen', 'Kowalski', 'López', 'Müller', 'Nguyen', 'Okafor', 'Patel', 'Quist', 'Rossi', 'Smith', 'Tanaka'];

/** An org of `count`: a chief, 20 heads under them, 480 managers under those, everyone else under a manager. */
function companyCsv(count: number): string {
  const id = (i: number) => `E${String(i).padStart(6, '0')}`;
  const managerOf = (i: number): string => (i === 0 ? '' : i <= 20 ? id(0) : i <= 500 ? id(1 + (i % 20)) : id(21 + (i % 480)));
  const lines = ['Employee ID,First Name,Last Name,Work Email,Job Title,Department,Manager ID,Country,Location,Currency,Start Date,Job Family,Level,Base Salary,Target Bonus %,Performance Rating'];
  for (let i = 0; i < count; i += 1) {
    const [country, location, currency] = PLACES[i % PLACES.length] ?? PLACES[0];
    const family = FAMILIES[(i * 3) % FAMILIES.length] ?? '';
    const level = LEVELS[(i * 7) % LEVELS.length] ?? 'P3';
    const start = `20${String(10 + (i % 15)).padStart(2, '0')}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    const base = 60_000 + ((i * 7919) % 140_000);
    const first = FIRST[(i * 13) % FIRST.length] ?? '';
    const last = LAST[(i * 17 + Math.floor(i / 20)) % LAST.length] ?? '';
    const rating = ['exceeds', 'meets', 'meets', 'developing', 'exceptional'][i % 5] ?? '';
    lines.push(`${id(i)},${first},${last},person${i}@bench-api.test,${family} ${level},${family},${managerOf(i)},${country},${location},${currency},${start},${family},${level},"${base.toLocaleString('en-US')}",${5 + (i % 4) * 5}%,${rating}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Brings the employees in through the HRIS import job, as a customer would. */
async function importEmployees(server: BenchServer, token: string, count: number): Promise<number> {
  const started = performance.now();
  const csv = companyCsv(count);
  const file = await call<{ data: { id: string } }>(`${server.url}/api/people-imports/files?kind=employees&filename=employees.csv`, { method: 'POST', token, body: csv, contentType: 'text/csv' });
  let run = (await call<{ data: PeopleImport }>(`${server.url}/api/people-imports/files/${file.data.id}/runs`, { method: 'POST', token, json: {} })).data;
  while (run.status === 'queued' || run.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    run = (await call<{ data: PeopleImport }>(`${server.url}/api/people-imports/runs/${run.id}`, { token })).data;
  }
  if (run.status !== 'applied') throw new Error(`the import ended ${run.status}: ${run.message ?? ''} ${JSON.stringify(run.errors.slice(0, 3))}`);
  return (performance.now() - started) / 1000;
}

/** The table as the web app asks for it: the default columns, pages of 200. */
const TABLE_COLUMNS = ['name', 'title', 'department', 'level', 'location', 'manager', 'baseSalary', 'compaRatio'];
const tablePath = (extra: string): string => `/api/team/employees/table?limit=200&${TABLE_COLUMNS.map((column) => `columns=${column}`).join('&')}${extra}`;
const TABLE_PAGES: Record<string, string> = {
  firstPage: tablePath(''),
  secondPage: tablePath('&cursor=200'),
  byBaseSalary: tablePath('&sort=baseSalary&order=desc'),
  byLevelFiltered: tablePath('&sort=level&department=Design&department=Sales'),
  search: tablePath('&search=garc'),
};

/**
 * A write the server hears of (through the data channel on Postgres, as any commit on SQLite): the
 * pages it keeps are stale, so the next read of each is computed afresh.
 */
async function touchData(server: BenchServer, companyId: string): Promise<void> {
  await server.db('companies').where({ id: companyId }).update({ updated_at: new Date().toISOString() });
}

/**
 * One page at a time: the team table's own latency, without other load. `afresh`: each read follows
 * a write, so none is answered from the pages the server keeps between writes.
 */
async function timeTablePages(server: BenchServer, company: BenchCompany, runs: number, afresh: boolean): Promise<Record<string, Latency>> {
  const out: Record<string, Latency> = {};
  for (const [name, route] of Object.entries(TABLE_PAGES)) {
    for (let i = 0; i < 5; i += 1) await call(`${server.url}${route}`, { token: company.token });
    const samples: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      if (afresh) await touchData(server, company.id);
      const reply = await send(`${server.url}${route}`, { token: company.token });
      if (reply.status !== 200) throw new Error(`${route} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      samples.push(reply.ms);
    }
    out[name] = latency(samples);
  }
  return out;
}

/** How many rows the planner's worksheet of the mix has. */
const WORKSHEET_ROWS = 8;

/**
 * A launched merit cycle over the whole company, and a manager (a people manager, signed in with an
 * API token) whose worksheet holds their `WORKSHEET_ROWS` reports: the manager's other reports move
 * to the next manager before the launch. Returns the path of that worksheet and the planner's token.
 */
async function plannerWorksheet(server: BenchServer, company: BenchCompany): Promise<{ path: string; token: string; rows: number }> {
  const db = server.db;
  const manager = (await db('employees').where({ company_id: company.id, employee_number: 'E000021' }).first('id')) as { id: string };
  const next = (await db('employees').where({ company_id: company.id, employee_number: 'E000022' }).first('id')) as { id: string };
  const reports = (await db('employees').where({ company_id: company.id, manager_id: manager.id }).orderBy('employee_number').select('id')) as { id: string }[];
  await db('employees').whereIn('id', reports.slice(WORKSHEET_ROWS).map((row) => row.id)).update({ manager_id: next.id });
  const userId = newId();
  await insertUser(db, { id: userId, email: 'planner@bench-api.test', company_id: company.id, first_name: 'Bench', last_name: 'Planner', email_verified: true });
  const role = (await db('roles').where({ company_id: company.id, key: 'people_manager' }).first('id')) as { id: string };
  await replaceUserRoles(db, { companyId: company.id }, userId, [role.id]);
  await db('employees').where({ id: manager.id }).update({ user_id: userId });
  const token = newTokenSecret();
  await db('api_tokens').insert({ id: newId(), company_id: company.id, user_id: userId, name: 'bench', token_hash: hashToken(token), token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });

  await call(`${server.url}/api/internal/companies/${company.id}/release-flags/compensation_planning`, { method: 'PUT', token: company.supportToken, json: { enabled: true } });
  const base = `${server.url}/api/v2/meritCycles`;
  const cycle = (await call<{ data: Cycle }>(base, { method: 'POST', token: company.token, json: { name: 'Bench', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', components: ['merit', 'promotion'] } })).data;
  const launched = await fetch(`${base}/${cycle.id}/transitions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${company.token}`, 'Content-Type': 'application/json', 'If-Match': `"${cycle.version}"` },
    body: JSON.stringify({ action: 'launch' }),
  });
  if (launched.status !== 200) throw new Error(`the launch answered ${launched.status}: ${(await launched.text()).slice(0, 300)}`);
  const sheets = (await call<{ data: Worksheet[] }>(`${base}/${cycle.id}/worksheets`, { token })).data;
  const own = sheets.find((sheet) => sheet.planner?.userId === userId);
  if (!own) throw new Error('the planner has no worksheet');
  return { path: `/api/v2/meritCycles/${cycle.id}/worksheets/${own.id}`, token, rows: own.counts.employees };
}

interface MixFigures {
  clients: number;
  seconds: number;
  requests: number;
  errors: number;
  requestsPerSecond: number;
  all: Latency;
  byKind: Record<string, Latency & { errors: number }>;
  firstErrors: string[];
  /** The server's CPU time (user + system, its web processes included) per answered request, in µs: unlike latency, it hardly depends on what else the machine does. */
  serverCpuMicrosPerRequest: number | null;
}

/** `clients` loops, each sending its next request as soon as the last is answered, for `seconds`. */
async function runMix(server: BenchServer, token: string, worksheet: { path: string; token: string }, options: Pick<Options, 'clients' | 'seconds' | 'kinds'>): Promise<MixFigures> {
  const { clients, seconds } = options;
  const every: { name: string; send: (i: number) => ReturnType<typeof send> }[] = [
    { name: 'me', send: () => send(`${server.url}/api/me`, { token }) },
    { name: 'marketData', send: () => send(`${server.url}/api/benchmarking/market-data`, { method: 'POST', token, json: TYPICAL_REQUEST }) },
    {
      name: 'teamTable',
      send: (i) => {
        const pages = [TABLE_PAGES.firstPage, TABLE_PAGES.secondPage, TABLE_PAGES.byBaseSalary, TABLE_PAGES.byLevelFiltered];
        return send(`${server.url}${pages[i % pages.length] ?? TABLE_PAGES.firstPage}`, { token });
      },
    },
    { name: 'worksheet', send: () => send(`${server.url}${worksheet.path}`, { token: worksheet.token }) },
  ];
  const kinds = options.kinds ? every.filter((kind) => options.kinds?.includes(kind.name)) : every;
  if (!kinds.length) throw new Error(`--kinds names none of ${every.map((kind) => kind.name).join(', ')}`);
  const samples = new Map(kinds.map((kind) => [kind.name, [] as number[]]));
  const errors = new Map(kinds.map((kind) => [kind.name, 0]));
  const firstErrors: string[] = [];
  const all: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const cpuBefore = server.cpuMs();
  const client = async (index: number): Promise<void> => {
    for (let i = index; performance.now() < deadline; i += 1) {
      const kind = kinds[i % kinds.length];
      if (!kind) continue;
      const began = performance.now();
      try {
        const reply = await kind.send(Math.floor(i / kinds.length));
        if (reply.status !== 200) {
          errors.set(kind.name, (errors.get(kind.name) ?? 0) + 1);
          if (firstErrors.length < 5) firstErrors.push(`${kind.name}: ${reply.status} ${reply.body.slice(0, 200)}`);
        }
      } catch (error) {
        errors.set(kind.name, (errors.get(kind.name) ?? 0) + 1);
        if (firstErrors.length < 5) firstErrors.push(`${kind.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const ms = performance.now() - began;
      samples.get(kind.name)?.push(ms);
      all.push(ms);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = server.cpuMs();
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  return {
    clients,
    seconds: Math.round(elapsed * 10) / 10,
    requests: all.length,
    errors: errorCount,
    requestsPerSecond: Math.round(all.length / elapsed),
    all: latency(all),
    byKind: Object.fromEntries(kinds.map((kind) => [kind.name, { ...latency(samples.get(kind.name) ?? []), errors: errors.get(kind.name) ?? 0 }])),
    firstErrors,
    serverCpuMicrosPerRequest: cpuBefore !== null && cpuAfter !== null && all.length ? Math.round(((cpuAfter - cpuBefore) * 1000) / all.length) : null,
  };
}

interface EngineFigures {
  engine: Engine;
  employees: number;
  processes: number;
  importSeconds: number;
  worksheetRows: number;
  /** The planner's worksheet, one request at a time, with no write since the last read (kept). */
  worksheetAlone: Latency;
  /** The same, each read after a write (computed afresh). */
  worksheetAfresh: Latency;
  /** Each read after a write: computed afresh. */
  teamTable: Record<string, Latency>;
  /** Reads with no write between them: answered from the pages the server keeps. */
  teamTableKept: Record<string, Latency>;
  mix: MixFigures;
  /** The machine's load as the mix ended. */
  load: ReturnType<typeof machineLoad>;
  targetsMet: { mixErrors: boolean; mixP99: boolean; teamPageP95: boolean };
}

async function benchEngine(engine: Engine, options: Options): Promise<EngineFigures> {
  note(`${engine}: starting a server…`);
  const server = await startBenchServer(engine, { PAYBENCH_WEB_PROCESSES: String(options.processes) }, options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []);
  try {
    const company = await createBenchCompany(server.db, 'Bench API');
    await call(`${server.url}/api/internal/companies/${company.id}/release-flags/team_view`, { method: 'PUT', token: company.supportToken, json: { enabled: true } });
    note(`${engine}: importing ${options.employees} employees…`);
    const importSeconds = await importEmployees(server, company.token, options.employees);
    note(`${engine}: launching a merit cycle…`);
    const worksheet = await plannerWorksheet(server, company);
    const worksheetSamples: number[] = [];
    const worksheetAfreshSamples: number[] = [];
    for (let i = 0; i < 210; i += 1) {
      // Every other read follows a write (a row edited elsewhere in planning season): computed afresh.
      const afresh = i % 2 === 1;
      if (afresh) await touchData(server, company.id);
      const reply = await send(`${server.url}${worksheet.path}`, { token: worksheet.token });
      if (reply.status !== 200) throw new Error(`the worksheet answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      if (i >= 10) (afresh ? worksheetAfreshSamples : worksheetSamples).push(reply.ms);
    }
    // Timed one at a time only when the mix has them.
    const tables = !options.kinds || options.kinds.includes('teamTable');
    if (tables) note(`${engine}: timing team table pages, each after a write…`);
    const teamTable = tables ? await timeTablePages(server, company, 100, true) : {};
    if (tables) note(`${engine}: timing team table pages kept between writes…`);
    const teamTableKept = tables ? await timeTablePages(server, company, 100, false) : {};
    note(`${engine}: ${options.clients} clients for ${options.seconds} s…`);
    const mix = await runMix(server, company.token, worksheet, options);
    return {
      engine,
      employees: options.employees,
      processes: options.processes,
      worksheetRows: worksheet.rows,
      worksheetAlone: latency(worksheetSamples),
      worksheetAfresh: latency(worksheetAfreshSamples),
      importSeconds: Math.round(importSeconds * 10) / 10,
      teamTable,
      teamTableKept,
      mix,
      load: machineLoad(),
      targetsMet: {
        mixErrors: mix.errors <= TARGETS.mixErrors,
        mixP99: mix.all.p99Ms <= TARGETS.mixP99Ms,
        teamPageP95: !tables || (teamTable.firstPage?.p95Ms ?? Infinity) <= TARGETS.teamPageP95Ms,
      },
    };
  } finally {
    await server.stop();
  }
}

function report(figures: EngineFigures): string {
  const lines = [
    `API under load — ${figures.engine}, ${figures.processes} web process${figures.processes === 1 ? '' : 'es'}, ${figures.employees.toLocaleString('en-US')} employees (imported in ${figures.importSeconds} s)`,
    `  a planner's ${figures.worksheetRows}-row worksheet, one request at a time: ${describeLatency(figures.worksheetAlone)}`,
    `    the same, each read after a write (computed afresh): ${describeLatency(figures.worksheetAfresh)}`,
    `  team table, one request at a time (200 rows, the default columns), each read after a write (computed afresh):`,
    ...Object.entries(figures.teamTable).map(([name, value]) => `    ${name.padEnd(16)} ${describeLatency(value)}`),
    `    first page p95 target ≤ ${TARGETS.teamPageP95Ms} ms: ${verdict(figures.targetsMet.teamPageP95)}`,
    `  the same with no write between reads (pages kept until the next write):`,
    ...Object.entries(figures.teamTableKept).map(([name, value]) => `    ${name.padEnd(16)} ${describeLatency(value)}`),
    `  mix of ${figures.mix.clients} concurrent clients for ${figures.mix.seconds} s (${Object.keys(figures.mix.byKind).join(', ')}):`,
    `    ${figures.mix.requests} requests (${figures.mix.requestsPerSecond}/s), ${figures.mix.errors} errors; ${describeLatency(figures.mix.all)}`,
    `    server CPU per request: ${figures.mix.serverCpuMicrosPerRequest ?? 'n/a'} µs${figures.engine === 'postgres' ? " (the database's own not included)" : ''}`,
    ...Object.entries(figures.mix.byKind).map(([name, value]) => `    ${name.padEnd(16)} ${value.count} requests, ${value.errors} errors; ${describeLatency(value)}`),
    `    targets: 0 errors ${verdict(figures.targetsMet.mixErrors)}; p99 ≤ ${TARGETS.mixP99Ms} ms ${verdict(figures.targetsMet.mixP99)}`,
    ...figures.mix.firstErrors.map((error) => `    error: ${error}`),
    `  ${describeLoad(figures.load)}`,
    '',
  ];
  return lines.join('\n');
}

runOnEngines(parseOptions, TARGETS, benchEngine, report);
