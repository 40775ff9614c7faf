// Measures an HRIS import of 50,000 employees through the import job, against a fresh server on SQLite.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { replaceUserRoles } from '../../api/src/access/store.js';
import { hashToken, newTokenSecret, tokenPrefix } from '../../api/src/access/tokens.js';
import { insertUser } from '../../api/src/access/usersStore.js';
import { insertCompany } from '../../api/src/companies/service.js';
import { loadConfig } from '../../api/src/config.js';
import type { components } from '../../api/src/contract-types.js';
import { newId } from '../../api/src/db/ids.js';
import { startServer } from '../../api/src/server.js';

type PeopleImport = components['schemas']['PeopleImport'];

const ROWS = Number(process.env.BENCH_HRIS_ROWS ?? 50_000);
const MANAGERS = 500;
const json = process.argv.includes('--json');

const FAMILIES = ['Software Engineering', 'Product Management', 'Design', 'Sales', 'Marketing', 'Finance', 'People', 'Customer Success'];
const LEVELS = ['P1', 'P2', 'P3', 'P4', 'P5', 'M3', 'M4', 'M5'];
const PLACES = [
  ['US', 'San Francisco Bay Area', 'USD'],
  ['US', 'New York City', 'USD'],
  ['US', 'Austin', 'USD'],
  ['GB', 'London', 'GBP'],
  ['DE', 'Berlin', 'EUR'],
  ['CA', 'Toronto', 'CAD'],
] as const;

/** A deterministic HRIS export: 500 managers, everyone else reporting to one of them, with pay and a bonus target. */
function hrisCsv(count: number): string {
  const id = (i: number) => `E${String(i).padStart(6, '0')}`;
  const lines = ['Employee ID,First Name,Last Name,Work Email,Job Title,Department,Manager ID,Country,Location,Currency,Start Date,Job Family,Level,Base Salary,Target Bonus %'];
  for (let i = 0; i < count; i += 1) {
    const [country, location, currency] = PLACES[i % PLACES.length] ?? PLACES[0];
    const family = FAMILIES[i % FAMILIES.length] ?? '';
    const level = LEVELS[(i * 7) % LEVELS.length] ?? 'P3';
    const manager = i === 0 ? '' : i < MANAGERS ? id(0) : id(i % MANAGERS);
    const start = `20${String(10 + (i % 15)).padStart(2, '0')}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    const base = 60_000 + ((i * 7919) % 140_000);
    lines.push(`${id(i)},Given${i},Family${i},person${i}@bench.test,${family} ${level},${family},${manager},${country},${location},${currency},${start},${family},${level},"${base.toLocaleString('en-US')}",${5 + (i % 4) * 5}%`);
  }
  return `${lines.join('\n')}\n`;
}

async function api<T>(base: string, token: string, route: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${base}${route}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) } });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${route} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Uploads, imports and waits for the import to end; seconds for each step. */
async function importOnce(base: string, token: string, csv: string): Promise<{ uploadSeconds: number; importSeconds: number; run: PeopleImport }> {
  const started = process.hrtime.bigint();
  const file = await api<{ data: { id: string; rowCount: number } }>(base, token, '/api/people-imports/files?kind=employees&filename=hris.csv', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: csv });
  const uploaded = process.hrtime.bigint();
  const queued = await api<{ data: PeopleImport }>(base, token, `/api/people-imports/files/${file.data.id}/runs`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  let run = queued.data;
  while (run.status === 'queued' || run.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = (await api<{ data: PeopleImport }>(base, token, `/api/people-imports/runs/${run.id}`)).data;
  }
  const done = process.hrtime.bigint();
  if (run.status !== 'applied') throw new Error(`the import ended ${run.status}: ${run.message ?? ''} ${JSON.stringify(run.errors.slice(0, 5))}`);
  return { uploadSeconds: Number(uploaded - started) / 1e9, importSeconds: Number(done - uploaded) / 1e9, run };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'paybench-bench-hris-'));
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const config = loadConfig({ ...inherited, PAYBENCH_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', PAYBENCH_SEED_DEMO: 'false', PAYBENCH_DEMO_MARKET_RECORDS: '1000', PAYBENCH_JOB_POLL_MS: '200' });
  const server = await startServer(config);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  try {
    const db = server.deps.db;
    const company = await insertCompany(db, { name: 'Bench HRIS' });
    const adminId = newId();
    await insertUser(db, { id: adminId, email: 'admin@bench-hris.test', company_id: company.id, first_name: 'Bench', last_name: 'Admin', email_verified: true });
    await replaceUserRoles(db, { companyId: company.id }, adminId, [company.roleIds.get('admin') ?? '']);
    const token = newTokenSecret();
    await db('api_tokens').insert({ id: newId(), company_id: company.id, user_id: adminId, name: 'bench', token_hash: hashToken(token), token_prefix: tokenPrefix(token), created_at: new Date().toISOString() });

    const csv = hrisCsv(ROWS);
    const baseline = process.memoryUsage().rss;
    const first = await importOnce(server.url, token, csv);
    const again = await importOnce(server.url, token, csv);
    clearInterval(sampler);
    const result = {
      rows: ROWS,
      fileBytes: Buffer.byteLength(csv),
      engine: config.engine,
      first: { uploadSeconds: first.uploadSeconds, importSeconds: first.importSeconds, seconds: first.uploadSeconds + first.importSeconds, plan: first.run.plan },
      again: { uploadSeconds: again.uploadSeconds, importSeconds: again.importSeconds, seconds: again.uploadSeconds + again.importSeconds, plan: again.run.plan },
      peakRssMb: Math.round(peakRss / 1e6),
      baselineRssMb: Math.round(baseline / 1e6),
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1e3),
    };
    if (json) {
      process.stdout.write(`${JSON.stringify({ ...result, first: { ...result.first, plan: { ...result.first.plan, changes: undefined } }, again: { ...result.again, plan: { ...result.again.plan, changes: undefined } } })}\n`);
      return;
    }
    const plan = (p: PeopleImport['plan']) => (p ? `${p.create} created, ${p.update} updated, ${p.unchanged} unchanged; ${p.compensationRecords.add} compensation records added` : '');
    process.stdout.write(`HRIS import, ${ROWS} employees (CSV ${(result.fileBytes / 1e6).toFixed(1)} MB), ${config.engine}, through the import job\n`);
    process.stdout.write(`  first import   ${result.first.seconds.toFixed(1)} s  (upload ${first.uploadSeconds.toFixed(1)} s, job ${first.importSeconds.toFixed(1)} s: ${plan(first.run.plan)})\n`);
    process.stdout.write(`  same file      ${result.again.seconds.toFixed(1)} s  (upload ${again.uploadSeconds.toFixed(1)} s, job ${again.importSeconds.toFixed(1)} s: ${plan(again.run.plan)})\n`);
    process.stdout.write(`  peak memory    ${result.peakRssMb} MB resident (server and benchmark in one process; ${result.baselineRssMb} MB before the import)\n`);
  } finally {
    clearInterval(sampler);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
