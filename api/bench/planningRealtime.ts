/**
 * The live-update target of merit cycles: "an edit reaches a second planner's open worksheet
 * ≤ 300 ms p95". Run by `npm run bench:planning` after its other figures, or alone:
 * tsx api/bench/planningRealtime.ts [-- --engine sqlite|postgres] [-- --reports N] [-- --edits N] [-- --json]
 *
 * On each engine: a real server, a manager with N direct reports (their worksheet of N rows), the
 * manager signed in with a socket.io client after opening that worksheet (so a viewer of the cycle),
 * and a whole-company planner editing rows of it over HTTP one at a time. Each sample is the time
 * from the edit's request being sent to the manager's socket receiving `emitMeritCycleEmployeesUpdate`
 * naming that row at its new version. The machine's load is printed beside the figures.
 */
import type { Knex } from 'knex';
import { type Socket, io } from 'socket.io-client';
import { replaceUserRoles } from '../src/access/store.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../src/access/tokens.js';
import { insertUser } from '../src/access/usersStore.js';
import type { components } from '../src/contract-types.js';
import { newId } from '../src/db/ids.js';
import { SOCKET_PATH } from '../src/realtime/server.js';
import { type BenchServer, type Engine, type Latency, call, createBenchCompany, describeLatency, describeLoad, enginesOf, latency, machineLoad, note, option, startBenchServer, verdict } from './server.js';

type Schemas = components['schemas'];

const TARGETS = { liveUpdateP95Ms: 300 };

interface Options {
  reports: number;
  edits: number;
  json: boolean;
  engines: Engine[];
}

interface Figures {
  engine: Engine;
  worksheetRows: number;
  liveUpdate: Latency;
  load: { loadAverage1m: number; cores: number };
  targetMet: boolean;
}

interface EmployeesUpdate {
  meritCycleId: string;
  employees: { employeeId: string; version: number }[];
}

function parseOptions(argv: string[]): Options {
  return {
    reports: Number(option(argv, '--reports') ?? 2_000),
    edits: Number(option(argv, '--edits') ?? 200),
    json: argv.includes('--json'),
    engines: enginesOf(argv),
  };
}

/** A manager and their reports, each with a base salary; returns the manager's and the reports' employee ids. */
async function insertTeam(db: Knex, companyId: string, reports: number): Promise<{ managerId: string; reportIds: string[] }> {
  const now = new Date().toISOString();
  const managerId = newId();
  const reportIds = Array.from({ length: reports }, () => newId());
  const employee = (id: string, index: number, manager: string | null) => ({
    id,
    company_id: companyId,
    employee_number: `R${index}`,
    email: `person${index}@bench-realtime.test`,
    first_name: `Person${index}`,
    last_name: 'Bench',
    title: 'Engineer',
    job_family_id: 'software_engineering',
    level_id: index === 0 ? 'm4' : 'p3',
    manager_id: manager,
    department: 'Engineering',
    country_code: 'US',
    location_id: 'us_sf_bay_area',
    currency: 'USD',
    start_date: '2021-01-01',
    employment_type: 'full_time',
    status: 'active',
    performance_rating: 'meets',
    demographics: '{}',
    version: 1,
    created_at: now,
    updated_at: now,
  });
  const employees = [employee(managerId, 0, null), ...reportIds.map((id, index) => employee(id, index + 1, managerId))];
  const pay = employees.map((row, index) => ({ id: newId(), company_id: companyId, employee_id: row.id, type: 'base_salary', amount: (80_000 + index * 10) * 100, currency: 'USD', effective_date: '2024-01-01', reason: 'hire', source: 'manual', created_at: now }));
  for (let at = 0; at < employees.length; at += 500) await db('employees').insert(employees.slice(at, at + 500));
  for (let at = 0; at < pay.length; at += 500) await db('compensation_records').insert(pay.slice(at, at + 500));
  return { managerId, reportIds };
}

/** The manager's sign-in: the people_manager role, linked to their employee record, and an API token. */
async function managerToken(db: Knex, companyId: string, employeeId: string): Promise<string> {
  const userId = newId();
  await insertUser(db, { id: userId, email: 'manager@bench-realtime.test', company_id: companyId, first_name: 'Bench', last_name: 'Manager', email_verified: true });
  const role = (await db('roles').where({ company_id: companyId, key: 'people_manager' }).first('id')) as { id: string };
  await replaceUserRoles(db, { companyId }, userId, [role.id]);
  await db('employees').where({ id: employeeId }).update({ user_id: userId });
  const token = newTokenSecret();
  await db('api_tokens').insert({ id: newId(), company_id: companyId, user_id: userId, name: 'bench', token_hash: hashToken(token), token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });
  return token;
}

async function connect(server: BenchServer, token: string): Promise<Socket> {
  const socket = io(server.url, { path: SOCKET_PATH, transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

async function benchEngine(engine: Engine, options: Options): Promise<Figures> {
  note(`${engine}: starting a server for the live-update target…`);
  const server = await startBenchServer(engine);
  let socket: Socket | undefined;
  try {
    const company = await createBenchCompany(server.db, 'Bench Realtime');
    await call(`${server.url}/api/internal/companies/${company.id}/release-flags/compensation_planning`, { method: 'PUT', token: company.supportToken, json: { enabled: true } });
    const { managerId, reportIds } = await insertTeam(server.db, company.id, options.reports);
    const viewerToken = await managerToken(server.db, company.id, managerId);

    const base = `${server.url}/api/v2/meritCycles`;
    const draft = (await call<{ data: Schemas['MeritCycle'] }>(base, { method: 'POST', token: company.token, json: { name: 'Bench live', effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' } })).data;
    const launched = await write(`${base}/${draft.id}/transitions`, { method: 'POST', token: company.token, json: { action: 'launch' }, version: draft.version });
    if (launched.status !== 200) throw new Error(`launch answered ${launched.status}: ${launched.body.slice(0, 300)}`);
    const cycleUrl = `${base}/${draft.id}`;

    // The second planner opens their worksheet (which makes them a viewer of the cycle) and keeps a socket.
    const sheets = (await call<{ data: Schemas['Worksheet'][] }>(`${cycleUrl}/worksheets`, { token: viewerToken })).data;
    const own = sheets.find((sheet) => sheet.counts.employees === options.reports);
    if (!own) throw new Error('the manager has no worksheet of their reports');
    await call(`${cycleUrl}/worksheets/${own.id}`, { token: viewerToken });
    socket = await connect(server, viewerToken);
    const waiting = new Map<string, () => void>();
    socket.on('emitMeritCycleEmployeesUpdate', (update: EmployeesUpdate) => {
      for (const row of update.employees) waiting.get(`${row.employeeId}@${row.version}`)?.();
    });

    note(`${engine}: ${options.edits} edits of a ${options.reports}-row worksheet, each awaited on the other planner's socket…`);
    const versions = new Map<string, number>();
    const samples: number[] = [];
    for (let run = 0; run < options.edits + 5; run += 1) {
      const employeeId = reportIds[run % reportIds.length] ?? '';
      let version = versions.get(employeeId);
      if (version === undefined) version = (await call<{ data: Schemas['WorksheetEmployee'] }>(`${cycleUrl}/employees/${employeeId}`, { token: company.token })).data.version;
      const arrived = new Promise<number>((resolve) => waiting.set(`${employeeId}@${(version ?? 0) + 1}`, () => resolve(performance.now())));
      const started = performance.now();
      const reply = await write(`${cycleUrl}/employees/${employeeId}`, { method: 'PATCH', token: company.token, json: { meritPercentBp: 250 + (run % 5) * 25 }, version });
      if (reply.status !== 200) throw new Error(`the edit answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      const received = await withTimeout(arrived, 10_000, `no update for edit ${run} within 10 s`);
      waiting.delete(`${employeeId}@${version + 1}`);
      versions.set(employeeId, version + 1);
      if (run >= 5) samples.push(received - started); // the first five warm the path up
    }
    const liveUpdate = latency(samples);
    return { engine, worksheetRows: options.reports, liveUpdate, load: machineLoad(), targetMet: liveUpdate.p95Ms <= TARGETS.liveUpdateP95Ms };
  } finally {
    socket?.close();
    await server.stop();
  }
}

/** A versioned write (If-Match), answered with its status and body; the shared `send` sends no such header. */
async function write(url: string, init: { method: string; token: string; json: unknown; version: number }): Promise<{ status: number; body: string }> {
  const response = await fetch(url, {
    method: init.method,
    headers: { Authorization: `Bearer ${init.token}`, 'Content-Type': 'application/json', 'If-Match': `"${init.version}"` },
    body: JSON.stringify(init.json),
  });
  return { status: response.status, body: await response.text() };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<T>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}

function report(figures: Figures): string {
  return [
    `Merit cycles, live updates — ${figures.engine}`,
    `  an edit reaching a second planner's open ${figures.worksheetRows}-row worksheet (request sent → socket event): ${describeLatency(figures.liveUpdate)} — target p95 ≤ ${TARGETS.liveUpdateP95Ms} ms: ${verdict(figures.targetMet)}`,
    `  ${describeLoad(figures.load)}`,
    '',
  ].join('\n');
}

/** Runs the target on each engine asked for; `argv` as `npm run bench:planning` received it. */
export async function main(argv: string[]): Promise<void> {
  const options = parseOptions(argv);
  const results: Figures[] = [];
  for (const engine of options.engines) {
    const figures = await benchEngine(engine, options);
    results.push(figures);
    if (!options.json) process.stdout.write(report(figures));
  }
  if (options.json) process.stdout.write(`${JSON.stringify({ targets: TARGETS, engines: results })}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    note(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 1;
  });
}
