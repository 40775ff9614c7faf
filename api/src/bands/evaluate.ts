import { companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { findLevel } from '../reference/catalog/index.js';
import { Converter, today } from '../money/converter.js';
import { type BandEmployeeRow, activeEmployeesForBands, activeIdsWithinReach, baseSalariesInForce } from './peopleReads.js';
import { employeeReach } from '../people/visibility.js';
import { applyDifferential, compaRatio, deltaFrom, positionIn, progressionOf, rangePenetration, roundHalfUp, spreadOf } from './formulas.js';
import { parseSource } from './present.js';
import { bandLocator } from './placement.js';
import { jobMatchingOf } from './settings.js';
import { callerZoneReach, requireSet } from './sets.js';
import { type BandFiguresRow, listBandFigures, listGradeBands, listJobs } from './store.js';
import { inReach } from './zoneAccess.js';
import { ensureZones } from './zones.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type Evaluation = Schemas['BandEvaluation'];
type EmployeeEntry = Evaluation['employees'][number];
type OutOfBand = Evaluation['outOfBand'];
type Team = OutOfBand['teams'][number];
export type TeamGrouping = OutOfBand['groupBy'];

const rankOf = (levelId: string): number => findLevel(levelId)?.levelRank ?? 0;

/** Per band: the next level up present in its family × track × zone. */
function nextLevels(bands: readonly BandFiguresRow[]): Map<string, BandFiguresRow | null> {
  const ladders = new Map<string, BandFiguresRow[]>();
  for (const band of bands) {
    const key = `${band.job_family_id}|${band.track}|${band.pay_zone_id}`;
    const ladder = ladders.get(key) ?? [];
    ladder.push(band);
    ladders.set(key, ladder);
  }
  const next = new Map<string, BandFiguresRow | null>();
  for (const ladder of ladders.values()) {
    ladder.sort((a, b) => rankOf(a.level_id) - rankOf(b.level_id));
    ladder.forEach((band, index) => next.set(band.id, ladder.slice(index + 1).find((above) => rankOf(above.level_id) > rankOf(band.level_id)) ?? null));
  }
  return next;
}

/**
 * The benchmark a band was built from and how many sources it blends: as recorded at the build (kept
 * through hand edits and imports); for a band built before benchmarks were recorded, its market source
 * (scale: minor units per major unit of the band's currency).
 */
function benchmarkOf(band: BandFiguresRow, scale: number): { amount: number | null; count: number } {
  if (band.benchmark_amount !== null && band.benchmark_amount !== undefined) return { amount: Number(band.benchmark_amount), count: Number(band.benchmark_count) };
  const source = parseSource(band.source);
  if (source?.kind === 'market') return { amount: roundHalfUp(applyDifferential(source.marketValue, source.differentialBp) * scale), count: 1 };
  return { amount: null, count: 0 };
}

/** A band's recorded benchmark, how many it blends, and the midpoint's distance from it. */
function benchmarkFigures(
  band: { mid_amount: number | string; benchmark_amount: number | string | null; benchmark_count: number | string | null },
  currency: string,
): Pick<Evaluation['bands'][number], 'benchmark' | 'benchmarkCount' | 'deltaFromBenchmark'> {
  const amount = band.benchmark_amount === null ? null : Number(band.benchmark_amount);
  return {
    benchmark: amount === null ? null : { amount, currency },
    benchmarkCount: amount === null ? 0 : Number(band.benchmark_count ?? 0),
    deltaFromBenchmark: deltaFrom(Number(band.mid_amount), amount),
  };
}

interface TeamOf {
  key: string | null;
  name: string;
}

/** Each employee's team by department, or by manager (named by the manager's record). */
function teamFinder(groupBy: TeamGrouping, employees: readonly BandEmployeeRow[]): (employee: BandEmployeeRow) => TeamOf {
  if (groupBy === 'department') {
    return (employee) => {
      const department = employee.department?.trim();
      return department ? { key: department, name: department } : { key: null, name: 'No department' };
    };
  }
  const names = new Map(employees.map((employee) => [employee.id, fullName(employee)]));
  return (employee) => (employee.manager_id ? { key: employee.manager_id, name: names.get(employee.manager_id) ?? 'A manager no longer active' } : { key: null, name: 'No manager' });
}

const fullName = (employee: BandEmployeeRow): string => [employee.first_name, employee.last_name].filter(Boolean).join(' ');

/** Teams with their people out of band: most out of band first, then by name; within a team, furthest from the midpoint first. */
function outOfBandByTeam(groupBy: TeamGrouping, members: Map<string, { team: TeamOf; priced: number; out: Team['employees'] }>): OutOfBand {
  const teams: Team[] = [...members.values()].map(({ team, priced, out }) => ({
    key: team.key,
    name: team.name,
    pricedCount: priced,
    belowCount: out.filter((entry) => entry.position === 'below').length,
    aboveCount: out.filter((entry) => entry.position === 'above').length,
    employees: [...out].sort((a, b) => Math.abs(b.compaRatio - 1) - Math.abs(a.compaRatio - 1) || a.name.localeCompare(b.name)),
  }));
  teams.sort((a, b) => b.employees.length - a.employees.length || (a.key === null ? 1 : 0) - (b.key === null ? 1 : 0) || a.name.localeCompare(b.name));
  return { groupBy, teams };
}

/**
 * Who is in which band of the set, and where their base salary sits in it: their company job's band in
 * their zone, else (a job with a grade) the grade's band there (`source: grade`). Counts cover the
 * whole company, or a zone-limited holder's zones; names follow the caller's team reach, pay also
 * their employeeCompensation reach; the people out of band are also listed by team.
 */
export async function evaluateBandSet(ctx: Pick<ServiceContext, 'db' | 'caller'>, setId: string, groupBy: TeamGrouping = 'department'): Promise<Evaluation> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const set = await requireSet(db, scope, setId);
  const asOf = today();
  const [allBands, allGradeBands, jobs, matching, zones, employees, payReach, teamReach, converter] = await Promise.all([
    listBandFigures(db, scope, setId),
    listGradeBands(db, scope, setId),
    listJobs(db, scope),
    jobMatchingOf(db, scope),
    ensureZones(db, scope),
    activeEmployeesForBands(db, scope),
    employeeReach(db, scope, caller, 'employeeCompensation'),
    employeeReach(db, scope, caller, 'team'),
    Converter.open(db, asOf, { scope }), // employees' pay is the company's own money
  ]);
  // A holder of `bands` scoped to zones sees their zones' bands and the employees in them only.
  const zoneReach = await callerZoneReach(db, scope, caller);
  const bands = inReach(allBands, zoneReach);
  const gradeBands = inReach(allGradeBands, zoneReach);
  const seesAnyPay = payReach.kind !== 'none';
  // Pay is read beside the reach look-ups rather than after them.
  const [salaries, visible, payVisible] = await Promise.all([
    seesAnyPay ? baseSalariesInForce(db, scope, new Set(employees.map((employee) => employee.id)), asOf) : new Map<string, { amount: number; currency: string }>(),
    activeIdsWithinReach(db, scope, teamReach),
    activeIdsWithinReach(db, scope, payReach),
  ]);

  const locate = bandLocator({ jobs, matching, zones, bands, gradeBands });
  const counts = new Map<string, number>();
  const entries: EmployeeEntry[] = [];
  const teamOf = teamFinder(groupBy, employees);
  const teams = new Map<string, { team: TeamOf; priced: number; out: Team['employees'] }>();
  const unplaced = { noFamilyOrLevel: 0, noJobKey: 0, noCompanyJob: 0, noBand: 0 };
  for (const employee of employees) {
    const placement = locate(employee);
    const zoneId = placement.zoneId;
    if (zoneReach && !zoneReach.has(zoneId)) continue;
    if (!placement.band) {
      unplaced[placement.unplaced] += 1;
      continue;
    }
    const band = placement.band;
    counts.set(band.id, (counts.get(band.id) ?? 0) + 1);
    if (visible && !visible.has(employee.id)) continue;
    const entry: EmployeeEntry = { employeeId: employee.id, name: fullName(employee), bandId: band.id, payZoneId: zoneId, source: placement.source };
    if (seesAnyPay && (!payVisible || payVisible.has(employee.id))) {
      const salary = salaries.get(employee.id);
      // Most people are paid in their band's currency: no conversion to wait for.
      const base = !salary ? null : salary.currency === band.currency ? salary : await converter.convert(salary, band.currency);
      if (!salary) entry.unpricedReason = 'No base salary';
      else if (!base) entry.unpricedReason = `No reference exchange rate from ${salary.currency} to ${band.currency}`;
      else {
        const [min, mid, max] = [Number(band.min_amount), Number(band.mid_amount), Number(band.max_amount)];
        entry.base = base;
        entry.compaRatio = compaRatio(base.amount, mid);
        entry.rangePenetration = rangePenetration(base.amount, min, max);
        entry.position = positionIn(base.amount, min, max);
        const team = teamOf(employee);
        const teamKey = team.key ?? '';
        const members = teams.get(teamKey) ?? { team, priced: 0, out: [] };
        members.priced += 1;
        if (entry.position !== 'inside') members.out.push({ employeeId: employee.id, name: entry.name, bandId: band.id, position: entry.position, compaRatio: entry.compaRatio });
        teams.set(teamKey, members);
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
      const benchmark = benchmarkOf(band, 10 ** converter.minorUnit(band.currency));
      return {
        bandId: band.id,
        companyJobId: band.company_job_id,
        payZoneId: band.pay_zone_id,
        levelId: band.level_id,
        employeeCount: counts.get(band.id) ?? 0,
        spread: spreadOf(Number(band.min_amount), Number(band.max_amount)),
        nextLevelId: above?.level_id ?? null,
        midpointProgression: above ? progressionOf(Number(band.mid_amount), Number(above.mid_amount)) : null,
        ...benchmarkFigures({ ...band, benchmark_amount: benchmark.amount, benchmark_count: benchmark.count }, band.currency),
      };
    }),
    gradeBands: gradeBands.map((band) => ({
      gradeBandId: band.id,
      gradeId: band.grade_id,
      payZoneId: band.pay_zone_id,
      employeeCount: counts.get(band.id) ?? 0,
      spread: spreadOf(Number(band.min_amount), Number(band.max_amount)),
      ...benchmarkFigures(band, band.currency),
    })),
    employees: entries,
    unplaced,
    outOfBand: outOfBandByTeam(groupBy, teams),
    exchangeRates: converter.ratesUsed(),
    rateSource: converter.rateSource(),
  };
}
