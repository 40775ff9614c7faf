/**
 * npm run bench:hris [-- --engine sqlite|postgres] [-- --rows N] [-- --json]
 *
 * Imports 50,000 employees through the HRIS import job against a fresh server on each engine (the
 * server in a process of its own), twice: the first creates everyone, the second finds everything
 * unchanged. Meanwhile /api/health is asked every 50 ms, whether or not the last answer came back,
 * so a stalled server shows as the wait of every request sent during the stall.
 */
import type { components } from '../../api/src/contract-types.js';
import {
  BENCH_FAMILIES as FAMILIES,
  BENCH_LEVELS as LEVELS,
  BENCH_PLACES as PLACES,
  type BenchServer,
  type Engine,
  type Latency,
  call,
  createBenchCompany,
  describeLatency,
  enginesOf,
  note,
  numberOption,
  pollHealth,
  startBenchServer,
} from '../../api/bench/server.js';

type PeopleImport = components['schemas']['PeopleImport'];

const argv = process.argv.slice(2);
const ROWS = numberOption(argv, '--rows', Number(process.env.BENCH_HRIS_ROWS ?? 50_000));
const MANAGERS = 500;
const HEALTH_EVERY_MS = 50;
const TARGET_HEALTH_P99_MS = 200;
const json = argv.includes('--json');

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

interface ImportFigures {
  uploadSeconds: number;
  importSeconds: number;
  seconds: number;
  plan: PeopleImport['plan'];
  health: Latency & { errors: number };
}

/** Uploads, imports and waits for the import to end, asking for the health meanwhile. */
async function importOnce(server: BenchServer, token: string, csv: string): Promise<ImportFigures> {
  const health = pollHealth(server.url, HEALTH_EVERY_MS);
  const started = performance.now();
  const file = await call<{ data: { id: string; rowCount: number } }>(`${server.url}/api/people-imports/files?kind=employees&filename=hris.csv`, { method: 'POST', token, body: csv, contentType: 'text/csv' });
  const uploaded = performance.now();
  let run = (await call<{ data: PeopleImport }>(`${server.url}/api/people-imports/files/${file.data.id}/runs`, { method: 'POST', token, json: {} })).data;
  while (run.status === 'queued' || run.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = (await call<{ data: PeopleImport }>(`${server.url}/api/people-imports/runs/${run.id}`, { token })).data;
  }
  const done = performance.now();
  const polled = await health.stop();
  if (run.status !== 'applied') throw new Error(`the import ended ${run.status}: ${run.message ?? ''} ${JSON.stringify(run.errors.slice(0, 5))}`);
  const uploadSeconds = (uploaded - started) / 1000;
  const importSeconds = (done - uploaded) / 1000;
  return { uploadSeconds, importSeconds, seconds: uploadSeconds + importSeconds, plan: run.plan, health: { ...polled.latency, errors: polled.errors } };
}

interface EngineFigures {
  engine: Engine;
  rows: number;
  fileBytes: number;
  first: ImportFigures;
  again: ImportFigures;
  serverPeakRssMb: number | null;
  healthTargetMet: boolean;
}

async function benchEngine(engine: Engine, csv: string): Promise<EngineFigures> {
  note(`${engine}: starting a server…`);
  const server = await startBenchServer(engine, { PAYBENCH_DEMO_MARKET_RECORDS: '1000' });
  try {
    const company = await createBenchCompany(server.db, 'Bench HRIS');
    note(`${engine}: importing ${ROWS} employees…`);
    const first = await importOnce(server, company.token, csv);
    note(`${engine}: importing the same file again…`);
    const again = await importOnce(server, company.token, csv);
    return {
      engine,
      rows: ROWS,
      fileBytes: Buffer.byteLength(csv),
      first,
      again,
      serverPeakRssMb: server.peakRssMb(),
      healthTargetMet: Math.max(first.health.p99Ms, again.health.p99Ms) <= TARGET_HEALTH_P99_MS && first.health.errors + again.health.errors === 0,
    };
  } finally {
    await server.stop();
  }
}

function report(result: EngineFigures): string {
  const plan = (p: PeopleImport['plan']) => (p ? `${p.create} created, ${p.update} updated, ${p.unchanged} unchanged; ${p.compensationRecords.add} compensation records added` : '');
  const health = (h: ImportFigures['health']) => `${describeLatency(h)} over ${h.count} requests${h.errors ? `, ${h.errors} errors` : ''}`;
  return [
    `HRIS import, ${ROWS} employees (CSV ${(result.fileBytes / 1e6).toFixed(1)} MB), ${result.engine}, through the import job`,
    `  first import   ${result.first.seconds.toFixed(1)} s  (upload ${result.first.uploadSeconds.toFixed(1)} s, job ${result.first.importSeconds.toFixed(1)} s: ${plan(result.first.plan)})`,
    `                 /api/health meanwhile: ${health(result.first.health)}`,
    `  same file      ${result.again.seconds.toFixed(1)} s  (upload ${result.again.uploadSeconds.toFixed(1)} s, job ${result.again.importSeconds.toFixed(1)} s: ${plan(result.again.plan)})`,
    `                 /api/health meanwhile: ${health(result.again.health)}`,
    `  health p99 target ≤ ${TARGET_HEALTH_P99_MS} ms: ${result.healthTargetMet ? 'ok' : 'OVER TARGET'}`,
    `  peak memory    ${result.serverPeakRssMb ?? '?'} MB resident (the server process)`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const csv = hrisCsv(ROWS);
  const results: EngineFigures[] = [];
  for (const engine of enginesOf(argv)) {
    const result = await benchEngine(engine, csv);
    results.push(result);
    if (!json) process.stdout.write(report(result));
  }
  if (json) {
    const withoutChanges = (figures: ImportFigures) => ({ ...figures, plan: figures.plan ? { ...figures.plan, changes: undefined } : null });
    process.stdout.write(`${JSON.stringify({ targetHealthP99Ms: TARGET_HEALTH_P99_MS, engines: results.map((r) => ({ ...r, first: withoutChanges(r.first), again: withoutChanges(r.again) })) })}\n`);
  }
}

main().catch((error: unknown) => {
  note(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
