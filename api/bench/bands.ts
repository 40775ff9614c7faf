/**
 * npm run bench:bands [-- --engine sqlite|postgres] [-- --employees N] [-- --runs N] [-- --json]
 *
 * On each engine: a real server with a company that has every catalog family × level as a company
 * job (the catalog has 29 × 16 = 464 of them; a company job is one family × level, so 500 distinct
 * ones do not exist), 5 pay zones and 10,000 employees with base pay in four currencies. Times
 * building a band set from the market release alone (POST …/build, every job × zone); then, with
 * two surveys (the BLS national survey and an imported survey in euros) and three market-data
 * associations per job (its market cell, its family's BLS occupation, the imported survey's job),
 * building from the composite benchmarks (aged, converted, blended); and evaluating that set against
 * the employees (GET …/evaluation: compa-ratio, penetration, position), one request at a time.
 */
import os from 'node:os';
import type { components } from '../src/contract-types.js';
import { newId } from '../src/db/ids.js';
import { JOB_FAMILIES, LEVELS } from '../src/reference/catalog/index.js';
import { type BenchServer, type Engine, type Latency, call, createBenchCompany, describeLatency, enginesOf, latency, note, numberOption, runOnEngines, send, startBenchServer, verdict } from './server.js';

type BuildResult = components['schemas']['BandBuildResult'];
type Evaluation = components['schemas']['BandEvaluation'];
type BandImport = components['schemas']['BandImport'];

const TARGETS = { buildMs: 2_000, evaluateMs: 500 };

interface Options {
  employees: number;
  runs: number;
  json: boolean;
  engines: Engine[];
}

function parseOptions(argv: string[]): Options {
  return {
    employees: numberOption(argv, '--employees', 10_000),
    runs: numberOption(argv, '--runs', 10),
    json: argv.includes('--json'),
    engines: enginesOf(argv),
  };
}

/** Five zones: the catch-all anchor (the US outside the tier-2 metros) and four with their differentials. */
const ZONES = [
  { name: 'US tier 2', differentialBp: -1000, rules: [{ country: 'US', metros: ['Austin', 'Denver', 'Chicago'] }] },
  { name: 'United Kingdom', differentialBp: -2500, rules: [{ country: 'GB' }] },
  { name: 'Germany', differentialBp: -3000, rules: [{ country: 'DE' }] },
  { name: 'Canada', differentialBp: -2000, rules: [{ country: 'CA' }] },
];

const PLACES = [
  ['US', 'us_sf_bay_area', 'USD', 1],
  ['US', 'us_austin', 'USD', 0.9],
  ['GB', 'gb_london', 'GBP', 0.6],
  ['DE', 'de_berlin', 'EUR', 0.65],
  ['CA', 'ca_toronto', 'CAD', 1.05],
] as const;

/** Employees and their base pay, written straight into the server's database (as an import would leave them). */
async function insertEmployees(server: BenchServer, companyId: string, count: number): Promise<void> {
  const now = new Date().toISOString();
  const employees: Record<string, unknown>[] = [];
  const pay: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = newId();
    const family = JOB_FAMILIES[(i * 7) % JOB_FAMILIES.length];
    const level = LEVELS[(i * 11) % LEVELS.length];
    const [country, location, currency, factor] = PLACES[i % PLACES.length] ?? PLACES[0];
    employees.push({
      id,
      company_id: companyId,
      employee_number: `B${i}`,
      email: `person${i}@bench-bands.test`,
      first_name: `Person${i}`,
      last_name: 'Bench',
      title: `${family?.name ?? ''} ${level?.displayString ?? ''}`,
      job_family_id: family?.id ?? null,
      level_id: level?.id ?? null,
      track: level?.track ?? null,
      country_code: country,
      location_id: location,
      currency,
      start_date: '2022-01-01',
      employment_type: 'full_time',
      status: 'active',
      demographics: '{}',
      version: 1,
      created_at: now,
      updated_at: now,
    });
    pay.push({
      id: newId(),
      company_id: companyId,
      employee_id: id,
      type: 'base_salary',
      amount: Math.round((60_000 + ((i * 7919) % 160_000)) * factor) * 100,
      currency,
      effective_date: '2024-01-01',
      reason: 'hire',
      source: 'manual',
      created_at: now,
    });
  }
  for (let at = 0; at < employees.length; at += 500) await server.db('employees').insert(employees.slice(at, at + 500));
  for (let at = 0; at < pay.length; at += 500) await server.db('compensation_records').insert(pay.slice(at, at + 500));
}

interface EngineFigures {
  engine: Engine;
  jobs: number;
  zones: number;
  bands: number;
  withheld: number;
  grades: number;
  gradeBands: number;
  surveys: number;
  associations: number;
  compositeBands: number;
  fromComposites: number;
  compositeWithheld: number;
  employees: number;
  evaluatedEmployees: number;
  build: Latency;
  compositeBuild: Latency;
  evaluate: Latency;
  /** The server's CPU time per evaluation (null where it cannot be read). */
  evaluateCpu: Latency | null;
  /** The machine's load average (1, 5, 15 minutes) when the evaluations ended. */
  loadAverage: number[];
  targetsMet: { build: boolean; compositeBuild: boolean; evaluate: boolean };
}

/** An imported survey in euros, effective half a year before the bands: one job per family × level. */
function surveyCsv(): string {
  const lines = ['Job code,Job title,Job family,Level,P10,P25,P50,P75,P90,Incumbents'];
  JOB_FAMILIES.forEach((family, f) => {
    LEVELS.forEach((level, l) => {
      const median = 45_000 + f * 1_500 + level.levelRank * 9_000;
      const at = (factor: number) => (median * factor).toFixed(2);
      lines.push([`${family.id}-${level.id}`, `${family.name} ${level.displayString}`, family.name, level.displayString, at(0.75), at(0.87), at(1), at(1.15), at(1.32), String(20 + l)].join(','));
    });
  });
  return `${lines.join('\n')}\n`;
}

/** Runs `tasks` with at most `width` at a time. */
async function inParallel(tasks: (() => Promise<unknown>)[], width: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const task = tasks[next];
        next += 1;
        await task?.();
      }
    }),
  );
}

/** Two surveys and three associations per company job (market cell, BLS occupation, imported survey job). */
async function associateEveryJob(base: string, token: string, engine: Engine): Promise<{ surveys: number; associations: number }> {
  const bls = await call<{ data: { id: string } }>(`${base}/surveys/bls`, { method: 'POST', token });
  const file = await call<{ data: { id: string } }>(`${base}/files?kind=survey&filename=bench-survey.csv`, { method: 'POST', token, body: surveyCsv(), contentType: 'text/csv' });
  const started = await call<{ data: BandImport }>(`${base}/survey-imports`, {
    method: 'POST',
    token,
    json: { fileId: file.data.id, survey: { name: 'Bench survey 2026', provider: 'Bench', effectiveDate: '2026-07-01', currency: 'EUR' } },
  });
  let imported = started.data;
  while (imported.status === 'queued' || imported.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    imported = (await call<{ data: BandImport }>(`${base}/imports/${imported.id}`, { token })).data;
  }
  if (imported.status !== 'applied' || !imported.surveyId) throw new Error(`the survey import ended ${imported.status}: ${imported.message ?? JSON.stringify(imported.errors.slice(0, 3))}`);
  const surveyId = imported.surveyId;
  const jobs = (await call<{ data: { id: string; jobFamilyId: string; levelId: string }[] }>(`${base}/jobs`, { token })).data;
  const tasks: (() => Promise<unknown>)[] = [];
  for (const job of jobs) {
    const family = JOB_FAMILIES.find((candidate) => candidate.id === job.jobFamilyId);
    const soc = family?.socCodes[0]?.code;
    const url = `${base}/jobs/${job.id}/associations`;
    tasks.push(() => call(url, { method: 'POST', token, json: { market: { jobFamilyId: job.jobFamilyId, levelId: job.levelId, locationId: '840' }, weight: 2 } }));
    if (soc) tasks.push(() => call(url, { method: 'POST', token, json: { survey: { surveyId: bls.data.id, surveyJobCode: soc }, weight: 1 } }));
    tasks.push(() => call(url, { method: 'POST', token, json: { survey: { surveyId, surveyJobCode: `${job.jobFamilyId}-${job.levelId}` }, weight: 1 } }));
  }
  note(`${engine}: ${tasks.length} market-data associations…`);
  await inParallel(tasks, 4);
  return { surveys: 2, associations: tasks.length };
}

async function benchEngine(engine: Engine, options: Options): Promise<EngineFigures> {
  note(`${engine}: starting a server…`);
  const server = await startBenchServer(engine);
  try {
    const company = await createBenchCompany(server.db, 'Bench Bands');
    const base = `${server.url}/api/bands`;
    const token = company.token;
    await call(`${server.url}/api/internal/companies/${company.id}/release-flags/bands`, { method: 'PUT', token: company.supportToken, json: { enabled: true } });
    note(`${engine}: ${options.employees} employees, ${JOB_FAMILIES.length * LEVELS.length} company jobs, ${ZONES.length + 1} zones…`);
    await insertEmployees(server, company.id, options.employees);
    await call(`${base}/pay-zones`, { token });
    for (const zone of ZONES) await call(`${base}/pay-zones`, { method: 'POST', token, json: zone });
    // One comp grade per level, so every build also makes each grade's band from its jobs' mean.
    const gradeOf = new Map<string, string>();
    for (const level of LEVELS) gradeOf.set(level.id, (await call<{ data: { id: string } }>(`${base}/grades`, { method: 'POST', token, json: { key: `G-${level.id}` } })).data.id);
    for (const family of JOB_FAMILIES) {
      for (const level of LEVELS) await call(`${base}/jobs`, { method: 'POST', token, json: { jobFamilyId: family.id, levelId: level.id, gradeId: gradeOf.get(level.id) } });
    }

    note(`${engine}: building ${options.runs} times…`);
    const buildSamples: number[] = [];
    let last: BuildResult | undefined;
    for (let run = 0; run < options.runs + 1; run += 1) {
      const set = await call<{ data: { id: string } }>(`${base}/band-sets`, { method: 'POST', token, json: { name: `Bench ${run}` } });
      const reply = await send(`${base}/band-sets/${set.data.id}/build`, { method: 'POST', token, json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 }, rounding: 1000 } });
      if (reply.status !== 200) throw new Error(`build answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      if (run > 0) buildSamples.push(reply.ms); // the first warms the server up
      last = (JSON.parse(reply.body) as { data: BuildResult }).data;
    }
    if (!last) throw new Error('no build');
    const marketOnly = last;

    note(`${engine}: two surveys and three associations per job…`);
    const { surveys, associations } = await associateEveryJob(base, token, engine);
    note(`${engine}: building from composites ${options.runs} times…`);
    const compositeSamples: number[] = [];
    for (let run = 0; run < options.runs + 1; run += 1) {
      const set = await call<{ data: { id: string } }>(`${base}/band-sets`, { method: 'POST', token, json: { name: `Composite ${run}`, effectiveDate: '2027-01-01' } });
      const reply = await send(`${base}/band-sets/${set.data.id}/build`, { method: 'POST', token, json: { targetPercentile: 50, width: { kind: 'plusMinus', percent: 20 }, rounding: 1000, agingRateBp: 300 } });
      if (reply.status !== 200) throw new Error(`build answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      if (run > 0) compositeSamples.push(reply.ms);
      last = (JSON.parse(reply.body) as { data: BuildResult }).data;
    }

    note(`${engine}: evaluating ${options.runs} times…`);
    const evaluateSamples: number[] = [];
    const evaluateCpuSamples: number[] = [];
    let evaluation: Evaluation | undefined;
    for (let run = 0; run < options.runs + 1; run += 1) {
      const cpuBefore = server.cpuMs();
      const reply = await send(`${base}/band-sets/${last.bandSet.id}/evaluation`, { token });
      const cpuAfter = server.cpuMs();
      if (reply.status !== 200) throw new Error(`evaluation answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      if (run > 0) evaluateSamples.push(reply.ms);
      // The server's CPU time for the request: on a loaded machine the steadier measure (one request at a time).
      if (run > 0 && cpuBefore !== null && cpuAfter !== null) evaluateCpuSamples.push(cpuAfter - cpuBefore);
      evaluation = (JSON.parse(reply.body) as { data: Evaluation }).data;
    }
    const build = latency(buildSamples);
    const compositeBuild = latency(compositeSamples);
    const evaluate = latency(evaluateSamples);
    const evaluateCpu = evaluateCpuSamples.length ? latency(evaluateCpuSamples) : null;
    return {
      engine,
      jobs: JOB_FAMILIES.length * LEVELS.length,
      zones: ZONES.length + 1,
      bands: marketOnly.built,
      withheld: marketOnly.withheld.length,
      grades: LEVELS.length,
      gradeBands: last.gradeBandsBuilt,
      surveys,
      associations,
      compositeBands: last.built,
      fromComposites: last.fromComposites,
      compositeWithheld: last.withheld.length,
      employees: options.employees,
      evaluatedEmployees: evaluation?.employees.filter((employee) => employee.compaRatio !== undefined).length ?? 0,
      build,
      compositeBuild,
      evaluate,
      evaluateCpu,
      loadAverage: os.loadavg().map((value) => Math.round(value * 10) / 10),
      targetsMet: { build: build.p50Ms <= TARGETS.buildMs, compositeBuild: compositeBuild.p50Ms <= TARGETS.buildMs, evaluate: evaluate.p50Ms <= TARGETS.evaluateMs },
    };
  } finally {
    await server.stop();
  }
}

function report(figures: EngineFigures): string {
  return [
    `Salary bands — ${figures.engine}`,
    `  build from the market release alone: ${figures.jobs} company jobs × ${figures.zones} zones → ${figures.bands} bands (${figures.withheld} jobs withheld by the market)`,
    `    ${describeLatency(figures.build)}; target p50 ≤ ${TARGETS.buildMs} ms: ${verdict(figures.targetsMet.build)}`,
    `  Build a band set for 500 company jobs × 5 zones from market data and 2 surveys: ${figures.jobs} jobs (every catalog family × level) × ${figures.zones} zones,`,
    `    ${figures.surveys} surveys and ${figures.associations} associations → ${figures.compositeBands} bands (${figures.fromComposites} jobs from composites, ${figures.compositeWithheld} with no source)`,
    `    and ${figures.gradeBands} grade bands (${figures.grades} comp grades, one per level, each the mean of its priced jobs), which place the withheld jobs' people`,
    `    ${describeLatency(figures.compositeBuild)}; target p50 ≤ ${TARGETS.buildMs} ms: ${verdict(figures.targetsMet.compositeBuild)}`,
    `  evaluate against ${figures.employees.toLocaleString('en-US')} employees (${figures.evaluatedEmployees.toLocaleString('en-US')} placed with compa-ratio and penetration)`,
    `    ${describeLatency(figures.evaluate)}; target p50 ≤ ${TARGETS.evaluateMs} ms: ${verdict(figures.targetsMet.evaluate)}`,
    `    server CPU time per evaluation: ${figures.evaluateCpu ? `p50 ${figures.evaluateCpu.p50Ms} ms, max ${figures.evaluateCpu.maxMs} ms` : 'not measured here'}; load average ${figures.loadAverage.join(' / ')}`,
    '',
  ].join('\n');
}

runOnEngines(parseOptions, TARGETS, benchEngine, report);
