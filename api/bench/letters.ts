/**
 * npm run bench:letters [-- --engine sqlite|postgres] [-- --employees N] [-- --json]
 *
 * On each engine: a real server with a company of 1,000 employees (a CEO, managers of 100 each, base
 * pay in USD) and a merit cycle with a flat 3% recommendation for everyone eligible, approved and
 * closed. Then:
 * - the reward letters the close renders in the background (one per changed pay, each an immutable
 *   document version): from the close to the render job's end, as letters per second;
 * - the bulk export: every letter drawn to PDF and zipped by the `documentBulkPdf` job, from the
 *   request to the job's end, and the archive's size;
 * - one employee's total-rewards statement (their own, over the API), p50/p95 of 50 reads.
 */
import http from 'node:http';
import type { Knex } from 'knex';
import { replaceUserRoles } from '../src/access/store.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../src/access/tokens.js';
import { insertUser } from '../src/access/usersStore.js';
import type { components } from '../src/contract-types.js';
import { newId } from '../src/db/ids.js';
import { type Engine, type Latency, createBenchCompany, describeLatency, describeLoad, enginesOf, latency, machineLoad, note, numberOption, runOnEngines, startBenchServer, verdict } from './server.js';

type Schemas = components['schemas'];
type Cycle = Schemas['MeritCycle'];
type Worksheet = Schemas['Worksheet'];
type Job = Schemas['BackgroundJob'];

const TARGETS = { zipMs: 60_000, statementMs: 100 };

interface Options {
  employees: number;
  json: boolean;
  engines: Engine[];
}

const parseOptions = (argv: string[]): Options => ({ employees: numberOption(argv, '--employees', 1_000), json: argv.includes('--json'), engines: enginesOf(argv) });

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

function send(url: string, init: { method?: string; token?: string; json?: unknown; ifMatch?: number } = {}): Promise<Reply> {
  const started = performance.now();
  const body = init.json !== undefined ? JSON.stringify(init.json) : undefined;
  const headers: Record<string, string> = {};
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.ifMatch !== undefined) headers['If-Match'] = `"${init.ifMatch}"`;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? 'GET', headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1'), headers: response.headers, ms: performance.now() - started }));
      response.on('error', reject);
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

async function call<T>(url: string, init: Parameters<typeof send>[1] = {}): Promise<T> {
  const reply = await send(url, init);
  if (reply.status < 200 || reply.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url} answered ${reply.status}: ${reply.body.slice(0, 500)}`);
  return JSON.parse(reply.body) as T;
}

/** A CEO, managers reporting to them, and everyone else spread over the managers; a USD base for all. Returns the first report's id. */
async function insertOrg(db: Knex, companyId: string, count: number): Promise<string> {
  const now = new Date().toISOString();
  const employees: Record<string, unknown>[] = [];
  const pay: Record<string, unknown>[] = [];
  const reportsEach = 100;
  const ceo = newId();
  const managers = Array.from({ length: Math.max(1, Math.ceil((count - 1) / (reportsEach + 1))) }, () => newId());
  const person = (id: string, index: number, managerId: string | null) => {
    employees.push({
      id,
      company_id: companyId,
      employee_number: `L${index}`,
      email: `person${index}@bench-letters.test`,
      first_name: `Person${index}`,
      last_name: 'Bench',
      title: 'Engineer',
      job_family_id: 'software_engineering',
      level_id: 'p3',
      track: 'tr_p',
      manager_id: managerId,
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
    pay.push({ id: newId(), company_id: companyId, employee_id: id, type: 'base_salary', amount: (60_000 + ((index * 7919) % 160_000)) * 100, currency: 'USD', effective_date: '2024-01-01', reason: 'hire', source: 'manual', created_at: now });
  };
  person(ceo, 0, null);
  managers.forEach((id, index) => person(id, index + 1, ceo));
  const first = newId();
  for (let index = managers.length + 1; index < count; index += 1) person(index === managers.length + 1 ? first : newId(), index, managers[(index - managers.length - 1) % managers.length] ?? ceo);
  for (let at = 0; at < employees.length; at += 500) await db('employees').insert(employees.slice(at, at + 500));
  for (let at = 0; at < pay.length; at += 500) await db('compensation_records').insert(pay.slice(at, at + 500));
  return first;
}

/** A sign-in with the employee role linked to an employee record: their own statement. */
async function employeeToken(db: Knex, companyId: string, employeeId: string): Promise<string> {
  const userId = newId();
  await insertUser(db, { id: userId, email: 'employee@bench-letters.test', company_id: companyId, first_name: 'Bench', last_name: 'Employee', email_verified: true });
  const role = (await db('roles').where({ company_id: companyId, key: 'employee' }).first('id')) as { id: string };
  await replaceUserRoles(db, { companyId }, userId, [role.id]);
  await db('employees').where({ id: employeeId }).update({ user_id: userId });
  const token = newTokenSecret();
  await db('api_tokens').insert({ id: newId(), company_id: companyId, user_id: userId, name: 'bench', token_hash: hashToken(token), token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });
  return token;
}

async function jobDone(url: string, token: string, jobId: string): Promise<Job> {
  for (;;) {
    const job = (await call<{ data: Job }>(`${url}/api/background-jobs/${jobId}`, { token })).data;
    if (job.status === 'succeeded') return job;
    if (job.status === 'failed' || job.status === 'cancelled') throw new Error(`job ${job.type} ${job.status}: ${job.message ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface EngineFigures {
  engine: Engine;
  employees: number;
  letters: number;
  renderMs: number;
  lettersPerSecond: number;
  zipMs: number;
  zipBytes: number;
  statement: Latency;
  /** The machine's load while the statement was read: wall-clock latency on a shared machine needs it beside. */
  statementLoad: { loadAverage1m: number; cores: number };
  targetsMet: { zip: boolean; statement: boolean };
}

async function benchEngine(engine: Engine, options: Options): Promise<EngineFigures> {
  note(`${engine}: starting a server…`);
  const server = await startBenchServer(engine);
  try {
    const company = await createBenchCompany(server.db, 'Bench Letters');
    const { token } = company;
    for (const flag of ['compensation_planning', 'total_rewards']) {
      await call(`${server.url}/api/internal/companies/${company.id}/release-flags/${flag}`, { method: 'PUT', token: company.supportToken, json: { enabled: true } });
    }
    note(`${engine}: ${options.employees} employees…`);
    const someone = await insertOrg(server.db, company.id, options.employees);
    const ownToken = await employeeToken(server.db, company.id, someone);

    note(`${engine}: a cycle with a flat 3% for everyone, launched, approved and closed…`);
    const base = `${server.url}/api/v2/meritCycles`;
    let cycle = (await call<{ data: Cycle }>(base, { method: 'POST', token, json: { name: 'Bench letters', effectiveDate: '2026-04-01', periodStart: '2025-01-01', periodEnd: '2025-12-31' } })).data;
    cycle = (await call<{ data: Cycle }>(`${base}/${cycle.id}/recommendationLogic`, { method: 'PUT', token, ifMatch: cycle.version, json: { kind: 'flat', flat: { minBp: 100, targetBp: 300, maxBp: 600 }, guidelines: { mode: 'advisory', commentRequired: false } } })).data;
    cycle = (await call<{ data: Cycle }>(`${base}/${cycle.id}/transitions`, { method: 'POST', token, ifMatch: cycle.version, json: { action: 'launch' } })).data;
    const cycleUrl = `${base}/${cycle.id}`;
    for (const sheet of (await call<{ data: Worksheet[] }>(`${cycleUrl}/worksheets`, { token })).data) {
      if (!sheet.counts.eligible) continue;
      let state = (await call<{ data: Worksheet }>(`${cycleUrl}/worksheets/${sheet.id}/submit`, { method: 'POST', token, json: {}, ifMatch: sheet.version })).data;
      while (state.state === 'in_review') state = (await call<{ data: Worksheet }>(`${cycleUrl}/worksheets/${sheet.id}/approve`, { method: 'POST', token, json: {}, ifMatch: state.version })).data;
    }
    cycle = (await call<{ data: Cycle }>(cycleUrl, { token })).data;
    await call(`${cycleUrl}/transitions`, { method: 'POST', token, ifMatch: cycle.version, json: { action: 'close' } });

    note(`${engine}: waiting for the letters the close renders…`);
    let render: Job | undefined;
    while (!render) {
      const jobs = (await call<{ data: Job[] }>(`${server.url}/api/me/background-jobs`, { method: 'POST', token, json: {} })).data;
      const found = jobs.find((job) => job.type === 'rewardLettersRender');
      if (found) render = await jobDone(server.url, token, found.id);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const renderMs = Date.parse(render.finishedAt ?? '') - Date.parse(render.createdAt);
    const letters = (await call<{ data: Schemas['RewardLetterCycle'] }>(`${cycleUrl}/rewardLetters`, { token })).data;

    note(`${engine}: ${letters.letterCount} letters to PDF, zipped…`);
    const started = performance.now();
    const exportJob = (await call<{ data: Job }>(`${cycleUrl}/rewardLetters/exports`, { method: 'POST', token })).data;
    const zipped = await jobDone(server.url, token, exportJob.id);
    const zipMs = Math.round(performance.now() - started);
    const file = await send(`${server.url}/api/downloads/${zipped.downloadId ?? ''}`, { token });
    if (file.status !== 200) throw new Error(`the archive answered ${file.status}`);

    note(`${engine}: one employee's own statement, 50 times…`);
    const samples: number[] = [];
    for (let run = 0; run < 51; run += 1) {
      const reply = await send(`${server.url}/api/total-rewards/statement`, { token: ownToken });
      if (reply.status !== 200) throw new Error(`the statement answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      if (run > 0) samples.push(reply.ms);
    }
    const statement = latency(samples);
    const statementLoad = machineLoad();
    return {
      engine,
      employees: options.employees,
      letters: letters.letterCount,
      renderMs,
      lettersPerSecond: Math.round((letters.letterCount * 1000) / Math.max(1, renderMs)),
      zipMs,
      zipBytes: Buffer.byteLength(file.body, 'latin1'),
      statement,
      statementLoad,
      targetsMet: { zip: zipMs <= TARGETS.zipMs, statement: statement.p50Ms <= TARGETS.statementMs },
    };
  } finally {
    await server.stop();
  }
}

function report(figures: EngineFigures): string {
  return [
    `Reward letters — ${figures.engine}`,
    `  ${figures.employees} employees, ${figures.letters} letters`,
    `  rendering on close (template → immutable document versions): ${figures.renderMs} ms, ${figures.lettersPerSecond} letters/s`,
    `  every letter to PDF and zipped (bulk export job, ${(figures.zipBytes / 1024 / 1024).toFixed(1)} MB): ${figures.zipMs} ms — target ≤ ${TARGETS.zipMs} ms: ${verdict(figures.targetsMet.zip)}`,
    `  one employee's own statement (API): ${describeLatency(figures.statement)} — target ≤ ${TARGETS.statementMs} ms: ${verdict(figures.targetsMet.statement)} (${describeLoad(figures.statementLoad)})`,
    '',
  ].join('\n');
}

runOnEngines(parseOptions, TARGETS, benchEngine, report);
