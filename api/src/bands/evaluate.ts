import type { Knex } from 'knex';
import { type Caller, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { findLevel } from '../market/catalog/index.js';
import { Converter, today } from '../money/converter.js';
import { activeEmployeesForBands, activeIdsWithinReach, baseSalariesInForce } from '../people/reads/bands.js';
import { employeeReach } from '../people/visibility.js';
import { applyDifferential, compaRatio, deltaFrom, positionIn, progressionOf, rangePenetration, roundHalfUp, spreadOf } from './formulas.js';
import { parseSource } from './present.js';
import { cellKey } from './jobs.js';
import { requireSet } from './sets.js';
import { type BandJobRow, listBands, listJobs } from './store.js';
import { ensureZones, zoneMatcher } from './zones.js';

type Schemas = components['schemas'];
type Evaluation = Schemas['BandEvaluation'];
type EmployeeEntry = Evaluation['employees'][number];

const rankOf = (levelId: string): number => findLevel(levelId)?.levelRank ?? 0;

/** Per band: the next level up present in its family × track × zone. */
function nextLevels(bands: readonly BandJobRow[]): Map<string, BandJobRow | null> {
  const ladders = new Map<string, BandJobRow[]>();
  for (const band of bands) {
    const key = `${band.job_family_id}|${band.track}|${band.pay_zone_id}`;
    const ladder = ladders.get(key) ?? [];
    ladder.push(band);
    ladders.set(key, ladder);
  }
  const next = new Map<string, BandJobRow | null>();
  for (const ladder of ladders.values()) {
    ladder.sort((a, b) => rankOf(a.level_id) - rankOf(b.level_id));
    ladder.forEach((band, index) => next.set(band.id, ladder.slice(index + 1).find((above) => rankOf(above.level_id) > rankOf(band.level_id)) ?? null));
  }
  return next;
}

/**
 * The benchmark a band was built from and how many sources it blends: as recorded at the build (kept
 * through hand edits and imports); for a band built before benchmarks were recorded, its market source.
 */
function benchmarkOf(band: BandJobRow, scale: number): { amount: number | null; count: number } {
  if (band.benchmark_amount !== null && band.benchmark_amount !== undefined) return { amount: Number(band.benchmark_amount), count: Number(band.benchmark_count) };
  const source = parseSource(band.source);
  if (source?.kind === 'market') return { amount: roundHalfUp(applyDifferential(source.marketValue, source.differentialBp) * scale), count: 1 };
  return { amount: null, count: 0 };
}

/**
 * Who is in which band of the set, and where their base salary sits in it. Counts cover the whole
 * company; names follow the caller's team reach, pay also their employeeCompensation reach.
 */
export async function evaluateBandSet(db: Knex, caller: Caller, setId: string): Promise<Evaluation> {
  const scope = companyScope(caller);
  const set = await requireSet(db, scope, setId);
  const asOf = today();
  const [bands, jobs, zones, employees] = await Promise.all([listBands(db, scope, setId), listJobs(db, scope), ensureZones(db, scope), activeEmployeesForBands(db, scope)]);
  const [teamReach, payReach] = await Promise.all([employeeReach(db, scope, caller, 'team'), employeeReach(db, scope, caller, 'employeeCompensation')]);
  const [visible, payVisible] = await Promise.all([activeIdsWithinReach(db, scope, teamReach), activeIdsWithinReach(db, scope, payReach)]);
  const seesAnyPay = payReach.kind !== 'none';
  const salaries = seesAnyPay ? await baseSalariesInForce(db, scope, new Set(employees.map((employee) => employee.id)), asOf) : new Map<string, { amount: number; currency: string }>();
  const converter = await Converter.open(db, asOf);
  const scale = 10 ** converter.minorUnit(set.currency);

  const jobByCell = new Map(jobs.map((job) => [cellKey(job.job_family_id, job.level_id), job.id]));
  const bandByJobZone = new Map(bands.map((band) => [`${band.company_job_id}|${band.pay_zone_id}`, band]));
  const zoneOf = zoneMatcher(zones);
  const counts = new Map<string, number>();
  const entries: EmployeeEntry[] = [];
  const unplaced = { noFamilyOrLevel: 0, noCompanyJob: 0, noBand: 0 };
  for (const employee of employees) {
    if (!employee.job_family_id || !employee.level_id) {
      unplaced.noFamilyOrLevel += 1;
      continue;
    }
    const jobId = jobByCell.get(cellKey(employee.job_family_id, employee.level_id));
    if (!jobId) {
      unplaced.noCompanyJob += 1;
      continue;
    }
    const zoneId = zoneOf(employee);
    const band = bandByJobZone.get(`${jobId}|${zoneId}`);
    if (!band) {
      unplaced.noBand += 1;
      continue;
    }
    counts.set(band.id, (counts.get(band.id) ?? 0) + 1);
    if (visible && !visible.has(employee.id)) continue;
    const entry: EmployeeEntry = { employeeId: employee.id, name: [employee.first_name, employee.last_name].filter(Boolean).join(' '), bandId: band.id, payZoneId: zoneId };
    if (seesAnyPay && (!payVisible || payVisible.has(employee.id))) {
      const salary = salaries.get(employee.id);
      const base = salary ? await converter.convert(salary, set.currency) : null;
      if (!salary) entry.unpricedReason = 'No base salary';
      else if (!base) entry.unpricedReason = `No reference exchange rate from ${salary.currency} to ${set.currency}`;
      else {
        const [min, mid, max] = [Number(band.min_amount), Number(band.mid_amount), Number(band.max_amount)];
        entry.base = base;
        entry.compaRatio = compaRatio(base.amount, mid);
        entry.rangePenetration = rangePenetration(base.amount, min, max);
        entry.position = positionIn(base.amount, min, max);
      }
    }
    entries.push(entry);
  }

  const next = nextLevels(bands);
  return {
    bandSetId: set.id,
    currency: set.currency,
    asOf,
    bands: bands.map((band) => {
      const above = next.get(band.id) ?? null;
      const benchmark = benchmarkOf(band, scale);
      return {
        bandId: band.id,
        companyJobId: band.company_job_id,
        payZoneId: band.pay_zone_id,
        levelId: band.level_id,
        employeeCount: counts.get(band.id) ?? 0,
        spread: spreadOf(Number(band.min_amount), Number(band.max_amount)),
        nextLevelId: above?.level_id ?? null,
        midpointProgression: above ? progressionOf(Number(band.mid_amount), Number(above.mid_amount)) : null,
        benchmark: benchmark.amount === null ? null : { amount: benchmark.amount, currency: set.currency },
        benchmarkCount: benchmark.count,
        deltaFromBenchmark: deltaFrom(Number(band.mid_amount), benchmark.amount),
      };
    }),
    employees: entries,
    unplaced,
    exchangeRates: converter.ratesUsed(),
  };
}
