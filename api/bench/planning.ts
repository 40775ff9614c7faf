/**
 * npm run bench:planning [-- --engine sqlite|postgres] [-- --employees N] [-- --reports N] [-- --runs N] [-- --json] [-- --cpu-prof DIR]
 *
 * With --cpu-prof the server writes a V8 CPU profile into DIR when it stops (open it in Chrome's DevTools).
 *
 * On each engine: a real server with a company of 10,000 employees (a CEO, managers of 2,000 direct
 * reports each, base pay in four currencies, ratings) and a merit cycle with eligibility rules, a flat
 * recommendation and a top-down budget. Times, one request at a time:
 * - launching the cycle (eligibility, proration, recommendations, budgets and worksheets for everyone),
 *   each run on a fresh draft;
 * - a planner (a manager with the `reports` scope) loading their 2,000-row worksheet;
 * - the same worksheet in Chromium, signed in as that planner: from the navigation to a grid that
 *   takes a keystroke (needs the web app built and Chromium; see worksheetBrowser.ts);
 * - an edit of one row with its budget roll-up (the worksheet and every branch above it);
 * - closing the cycle: every worksheet submitted and approved, then the close that writes the new
 *   base salaries into people data (timed alone).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { Knex } from 'knex';
import { replaceUserRoles } from '../src/access/store.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../src/access/tokens.js';
import { insertUser } from '../src/access/usersStore.js';
import type { components } from '../src/contract-types.js';
import { newId } from '../src/db/ids.js';
import { browserUnavailable, plannerPassword, timeWorksheetInBrowser } from './worksheetBrowser.js';
import { type BenchServer, type Engine, type Latency, type Reply, createBenchCompany, describeLatency, describeLoad, enginesOf, latency, machineLoad, note, option, runOnEngines, startBenchServer, verdict } from './server.js';

type Schemas = components['schemas'];
type Cycle = Schemas['MeritCycle'];
type Worksheet = Schemas['Worksheet'];

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** One request over a kept-alive connection, with the headers a versioned write needs (If-Match). */
function send(url: string, init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const started = performance.now();
  const body = init.json !== undefined ? JSON.stringify(init.json) : undefined;
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? 'GET', headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
      response.on('error', reject);
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

/** Like `send`, but a non-2xx answer is an error; the parsed JSON body. */
async function call<T>(url: string, init: Parameters<typeof send>[1] = {}): Promise<T> {
  const reply = await send(url, init);
  if (reply.status < 200 || reply.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url} answered ${reply.status}: ${reply.body.slice(0, 500)}`);
  return JSON.parse(reply.body) as T;
}

/** CPU time the server process has used so far, in ms (Linux; null elsewhere): wall time on a busy machine says little. */
function serverCpuMs(server: BenchServer): number | null {
  try {
    const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

const TARGETS = { launchMs: 2_000, worksheetMs: 500, worksheetInBrowserMs: 2_000, editMs: 50, closeMs: 10_000 };
const PLANNER_EMAIL = 'manager@bench-planning.test';

interface Options {
  employees: number;
  reports: number;
  runs: number;
  json: boolean;
  engines: Engine[];
  cpuProfileDir: string | null;
}

function parseOptions(argv: string[]): Options {
  return {
    employees: Number(option(argv, '--employees') ?? 10_000),
    reports: Number(option(argv, '--reports') ?? 2_000),
    runs: Number(option(argv, '--runs') ?? 5),
    json: argv.includes('--json'),
    engines: enginesOf(argv),
    cpuProfileDir: option(argv, '--cpu-prof') ?? null,
  };
}

const PLACES = [
  ['US', 'us_sf_bay_area', 'USD', 1],
  ['GB', 'gb_london', 'GBP', 0.6],
  ['DE', 'de_berlin', 'EUR', 0.65],
  ['CA', 'ca_toronto', 'CAD', 1.05],
] as const;
const RATINGS = ['below', 'developing', 'meets', 'meets', 'exceeds', 'exceptional'];

/** A CEO, managers reporting to them, and everyone else spread over the managers; base pay for all. Returns the managers' ids. */
async function insertOrg(db: Knex, companyId: string, count: number, reportsEach: number): Promise<string[]> {
  const now = new Date().toISOString();
  const employees: Record<string, unknown>[] = [];
  const pay: Record<string, unknown>[] = [];
  const ceo = newId();
  const managers = Array.from({ length: Math.max(1, Math.ceil((count - 1) / (reportsEach + 1))) }, () => newId());
  const person = (id: string, index: number, managerId: string | null) => {
    const [country, location, currency, factor] = PLACES[index % PLACES.length] ?? PLACES[0];
    employees.push({
      id,
      company_id: companyId,
      employee_number: `P${index}`,
      email: `person${index}@bench-planning.test`,
      first_name: `Person${index}`,
      last_name: 'Bench',
      title: 'Engineer',
      job_family_id: 'software_engineering',
      level_id: 'p3',
      track: 'tr_p',
      manager_id: managerId,
      department: index % 2 ? 'Engineering' : 'Product',
      country_code: country,
      location_id: location,
      currency,
      // One in ten joined during the performance period: prorated.
      start_date: index % 10 === 0 ? '2025-06-15' : '2021-01-01',
      employment_type: index % 50 === 0 ? 'contractor' : 'full_time',
      status: 'active',
      performance_rating: RATINGS[index % RATINGS.length],
      demographics: '{}',
      version: 1,
      created_at: now,
      updated_at: now,
    });
    pay.push({ id: newId(), company_id: companyId, employee_id: id, type: 'base_salary', amount: Math.round((60_000 + ((index * 7919) % 160_000)) * factor) * 100, currency, effective_date: index % 10 === 0 ? '2025-06-15' : '2024-01-01', reason: 'hire', source: 'manual', created_at: now });
  };
  person(ceo, 0, null);
  managers.forEach((id, index) => person(id, index + 1, ceo));
  for (let index = managers.length + 1; index < count; index += 1) person(newId(), index, managers[(index - managers.length - 1) % managers.length] ?? ceo);
  for (let at = 0; at < employees.length; at += 500) await db('employees').insert(employees.slice(at, at + 500));
  for (let at = 0; at < pay.length; at += 500) await db('compensation_records').insert(pay.slice(at, at + 500));
  return managers;
}

/** A sign-in for a manager: the people_manager role (compensation planning for their reports), linked to their employee record. */
async function managerToken(db: Knex, companyId: string, employeeId: string): Promise<{ token: string; userId: string }> {
  const userId = newId();
  await insertUser(db, { id: userId, email: PLANNER_EMAIL, company_id: companyId, first_name: 'Bench', last_name: 'Manager', email_verified: true });
  const role = (await db('roles').where({ company_id: companyId, key: 'people_manager' }).first('id')) as { id: string };
  await replaceUserRoles(db, { companyId }, userId, [role.id]);
  await db('employees').where({ id: employeeId }).update({ user_id: userId });
  const token = newTokenSecret();
  await db('api_tokens').insert({ id: newId(), company_id: companyId, user_id: userId, name: 'bench', token_hash: hashToken(token), token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });
  return { token, userId };
}

interface EngineFigures {
  engine: Engine;
  employees: number;
  eligible: number;
  worksheets: number;
  worksheetRows: number;
  payRecordsWritten: number;
  launch: Latency;
  /** Server CPU per launch (the database's own work on Postgres not included). */
  launchCpuMs: number | null;
  /** The machine's load while the launches ran. */
  launchLoad: { loadAverage1m: number; cores: number };
  worksheet: Latency;
  worksheetCpuMs: number | null;
  /** Navigation to a grid that takes a keystroke, in Chromium; null where it could not be measured. */
  worksheetInBrowser: Latency | null;
  edit: Latency;
  closeMs: number;
  targetsMet: { launch: boolean; worksheet: boolean; worksheetInBrowser: boolean | null; edit: boolean; close: boolean };
}

async function draftCycle(server: BenchServer, token: string, name: string): Promise<Cycle> {
  const base = `${server.url}/api/v2/meritCycles`;
  let cycle = (await call<{ data: Cycle }>(base, { method: 'POST', token, json: { name, effectiveDate: '2026-01-01', periodStart: '2025-01-01', periodEnd: '2025-12-31', components: ['merit', 'promotion'] } })).data;
  const put = async (path: string, json: unknown) => {
    const reply = await send(`${base}/${cycle.id}${path}`, { method: 'PUT', token, json, headers: { 'If-Match': `"${cycle.version}"` } });
    if (reply.status !== 200) throw new Error(`PUT ${path} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
    cycle = (JSON.parse(reply.body) as { data: Cycle }).data;
  };
  await put('/eligibility/rules', { kind: 'all', rules: [{ kind: 'employmentType', values: ['full_time', 'part_time'] }, { kind: 'hiredBefore', date: '2025-10-01' }] });
  await put('/recommendationLogic', { kind: 'flat', flat: { minBp: 100, targetBp: 300, maxBp: 600 }, guidelines: { mode: 'advisory', commentRequired: false } });
  await put('/budgets/configuration', { percentBp: 300, basis: 'department', overrides: [{ key: 'Product', percentBp: 250 }], spendComponents: ['merit', 'promotion'], blockOverBudget: false });
  return cycle;
}

async function transition(server: BenchServer, token: string, cycle: Cycle, action: 'launch' | 'close' | 'cancel', comment?: string) {
  const reply = await send(`${server.url}/api/v2/meritCycles/${cycle.id}/transitions`, { method: 'POST', token, json: { action, ...(comment ? { comment } : {}) }, headers: { 'If-Match': `"${cycle.version}"` } });
  if (reply.status !== 200) throw new Error(`${action} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
  return { ms: reply.ms, cycle: (JSON.parse(reply.body) as { data: Cycle }).data };
}

async function benchEngine(engine: Engine, options: Options): Promise<EngineFigures> {
  note(`${engine}: starting a server…`);
  const server = await startBenchServer(engine, {}, options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []);
  try {
    const company = await createBenchCompany(server.db, 'Bench Planning');
    const token = company.token;
    await call(`${server.url}/api/internal/companies/${company.id}/release-flags/compensation_planning`, { method: 'PUT', token: company.supportToken, json: { enabled: true } });
    note(`${engine}: ${options.employees} employees, managers of ${options.reports} each…`);
    const managers = await insertOrg(server.db, company.id, options.employees, options.reports);
    const { token: plannerToken, userId: plannerUserId } = await managerToken(server.db, company.id, managers[0] ?? '');

    note(`${engine}: launching ${options.runs} cycles…`);
    const launchSamples: number[] = [];
    const launchCpu: number[] = [];
    let cycle: Cycle | undefined;
    for (let run = 0; run < options.runs + 1; run += 1) {
      if (cycle) await transition(server, token, cycle, 'cancel', 'Bench: the next run');
      const draft = await draftCycle(server, token, `Bench ${run}`);
      const cpuBefore = serverCpuMs(server);
      const launched = await transition(server, token, draft, 'launch');
      const cpuAfter = serverCpuMs(server);
      if (run > 0) {
        launchSamples.push(launched.ms); // the first warms the server up
        if (cpuBefore !== null && cpuAfter !== null) launchCpu.push(cpuAfter - cpuBefore);
      }
      cycle = launched.cycle;
    }
    if (!cycle) throw new Error('no cycle');
    const launchLoad = machineLoad();
    const cycleUrl = `${server.url}/api/v2/meritCycles/${cycle.id}`;

    const plannerSheets = await call<{ data: Worksheet[] }>(`${cycleUrl}/worksheets`, { token: plannerToken });
    const own = plannerSheets.data.find((worksheet) => worksheet.planner?.userId !== null && worksheet.counts.employees >= options.reports - 1);
    if (!own) throw new Error('the planner has no worksheet');
    note(`${engine}: loading a ${own.counts.employees}-row worksheet ${options.runs * 4} times…`);
    const worksheetSamples: number[] = [];
    const worksheetCpu: number[] = [];
    let rows = 0;
    for (let run = 0; run < options.runs * 4 + 1; run += 1) {
      const cpuBefore = serverCpuMs(server);
      const reply = await send(`${cycleUrl}/worksheets/${own.id}`, { token: plannerToken });
      const cpuAfter = serverCpuMs(server);
      if (reply.status !== 200) throw new Error(`the worksheet answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      if (run > 0) {
        worksheetSamples.push(reply.ms);
        if (cpuBefore !== null && cpuAfter !== null) worksheetCpu.push(cpuAfter - cpuBefore);
      }
      rows = (JSON.parse(reply.body) as { data: Schemas['WorksheetDetail'] }).data.employees.length;
    }

    const detail = (JSON.parse((await send(`${cycleUrl}/worksheets/${own.id}`, { token: plannerToken })).body) as { data: Schemas['WorksheetDetail'] }).data;
    const editable = detail.employees.filter((row) => row.eligibility.status === 'eligible');

    const unavailable = browserUnavailable();
    let browserSamples: number[] | null = null;
    if (unavailable) note(`${engine}: the worksheet in Chromium is not measured: ${unavailable}`);
    else {
      note(`${engine}: the ${rows}-row worksheet in Chromium, ${options.runs} visits…`);
      browserSamples = await timeWorksheetInBrowser({
        baseUrl: server.url,
        email: PLANNER_EMAIL,
        password: await plannerPassword(server.db, plannerUserId),
        worksheetPath: `/compensationplanning/cycles/${cycle.id}/worksheets/${own.id}`,
        editable: new Set(editable.map((row) => row.employeeId)),
        runs: options.runs,
      });
    }

    note(`${engine}: ${options.runs * 10} edits with their budget roll-up…`);
    const editSamples: number[] = [];
    for (let run = 0; run < options.runs * 10 + 1; run += 1) {
      const row = editable[run % editable.length];
      if (!row) break;
      const current = JSON.parse((await send(`${cycleUrl}/employees/${row.employeeId}`, { token: plannerToken })).body) as { data: Schemas['WorksheetEmployee'] };
      const reply = await send(`${cycleUrl}/employees/${row.employeeId}`, { method: 'PATCH', token: plannerToken, json: { meritPercentBp: 250 + (run % 5) * 25 }, headers: { 'If-Match': `"${current.data.version}"` } });
      if (reply.status !== 200) throw new Error(`the edit answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      if (run > 0) editSamples.push(reply.ms);
    }

    note(`${engine}: submitting and approving every worksheet, then closing…`);
    const sheets = (await call<{ data: Worksheet[] }>(`${cycleUrl}/worksheets`, { token })).data;
    for (const sheet of sheets) {
      if (!sheet.counts.eligible) continue;
      const submitted = await call<{ data: Worksheet }>(`${cycleUrl}/worksheets/${sheet.id}/submit`, { method: 'POST', token, json: {}, headers: { 'If-Match': `"${sheet.version}"` } });
      let state = submitted.data;
      while (state.state === 'in_review') state = (await call<{ data: Worksheet }>(`${cycleUrl}/worksheets/${sheet.id}/approve`, { method: 'POST', token, json: {}, headers: { 'If-Match': `"${state.version}"` } })).data;
    }
    const fresh = (await call<{ data: Cycle }>(cycleUrl, { token })).data;
    const closed = await transition(server, token, fresh, 'close');
    return {
      engine,
      employees: options.employees,
      eligible: fresh.counts.eligible,
      worksheets: fresh.counts.worksheets,
      worksheetRows: rows,
      payRecordsWritten: closed.cycle.payRecordsWritten,
      launch: latency(launchSamples),
      launchCpuMs: launchCpu.length ? latency(launchCpu).p50Ms : null,
      launchLoad,
      worksheet: latency(worksheetSamples),
      worksheetCpuMs: worksheetCpu.length ? latency(worksheetCpu).p50Ms : null,
      worksheetInBrowser: browserSamples ? latency(browserSamples) : null,
      edit: latency(editSamples),
      closeMs: Math.round(closed.ms),
      targetsMet: {
        launch: latency(launchSamples).p50Ms <= TARGETS.launchMs,
        worksheet: latency(worksheetSamples).p50Ms <= TARGETS.worksheetMs,
        worksheetInBrowser: browserSamples ? latency(browserSamples).p95Ms <= TARGETS.worksheetInBrowserMs : null,
        edit: latency(editSamples).p50Ms <= TARGETS.editMs,
        close: closed.ms <= TARGETS.closeMs,
      },
    };
  } finally {
    await server.stop();
  }
}

const engineNote = (engine: Engine): string => (engine === 'postgres' ? "the database's own work not included" : 'the database included, in process');

function report(figures: EngineFigures): string {
  return [
    `Merit cycles — ${figures.engine}`,
    `  ${figures.employees} employees (${figures.eligible} eligible), ${figures.worksheets} worksheets`,
    `  launch (eligibility, proration, recommendations, budgets, worksheets): ${describeLatency(figures.launch)} — target ≤ ${TARGETS.launchMs} ms: ${verdict(figures.targetsMet.launch)}`,
    `    server CPU per launch: p50 ${figures.launchCpuMs ?? 'n/a'} ms (${engineNote(figures.engine)}); ${describeLoad(figures.launchLoad)}`,
    `  a planner's ${figures.worksheetRows}-row worksheet (API): ${describeLatency(figures.worksheet)} — target ≤ ${TARGETS.worksheetMs} ms: ${verdict(figures.targetsMet.worksheet)}`,
    `    server CPU per load: p50 ${figures.worksheetCpuMs ?? 'n/a'} ms`,
    figures.worksheetInBrowser
      ? `  the same worksheet in Chromium, from navigation to a grid that takes a keystroke: ${describeLatency(figures.worksheetInBrowser)} — target p95 ≤ ${TARGETS.worksheetInBrowserMs} ms: ${verdict(figures.targetsMet.worksheetInBrowser === true)}`
      : '  the same worksheet in Chromium: not measured (see above)',
    `  an edit with its budget roll-up: ${describeLatency(figures.edit)} — target ≤ ${TARGETS.editMs} ms: ${verdict(figures.targetsMet.edit)}`,
    `  closing (${figures.payRecordsWritten} pay records written): ${figures.closeMs} ms — target ≤ ${TARGETS.closeMs} ms: ${verdict(figures.targetsMet.close)}`,
    '',
  ].join('\n');
}

runOnEngines(parseOptions, TARGETS, benchEngine, report);

// The live-update target (an edit reaching a second planner's open worksheet) runs once the figures
// above are printed, on servers of its own: api/bench/planningRealtime.ts.
process.once('beforeExit', () => {
  if (process.exitCode) return;
  void import('./planningRealtime.js')
    .then((live) => live.main(process.argv.slice(2)))
    .catch((error: unknown) => {
      note(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exitCode = 1;
    });
});
