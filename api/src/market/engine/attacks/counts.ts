import { request, type CompanySpec, type RecordSpec } from '../handMarket.js';
import { assignPersons, type KnownPersons, type PersonIdentityFields } from '../personKeys.js';
import type { QueryOptions } from '../query.js';
import type { MarketRelease } from '../release.js';
import { cellOf, mean, planted, record, start, TARGET, TARGET_COMPANY, TRACKED, TRACKERS, trackerEstimates, trackerMarket, type AttackContext, type AttackOutcome } from './setup.js';

/**
 * The attacks on published head counts, and on a target its company re-imports under new employee
 * ids: counts differenced over the tracker pairs, counts averaged over 255 trackers, and tracker
 * pairs averaged over 120 releases.
 */

// ─── Counts ──────────────────────────────────────────────────────────────────────────────────────

/**
 * Differencing counts: the withheld group between two published cells (here one person at a company
 * of their own) is the difference of their employee counts and of their company counts, for each of
 * the nine tracker pairs. A pair is recovered when its published difference is exactly the true one
 * (1); published counts are multiples of five, so none is. The note says how often the average of the
 * nine pairs rounds to the true difference, which keyed rounding does not prevent (it is unbiased).
 */
export function countsAttack(context: AttackContext): AttackOutcome {
  const outcome = start('counts', 'Differencing head counts and company counts: the nine tracker pairs, each pair exact or not, and their average');
  const { companies, records } = trackerMarket();
  let exactAverages = 0;
  let averages = 0;
  for (const key of context.keys) {
    const release = planted(companies, records, key, 'counts');
    for (const disclosure of [false, true]) {
      const differences = { employees: [] as number[], companies: [] as number[] };
      for (const tracker of TRACKERS) {
        const padded = cellOf(release, request({ marketFilters: [tracker.padded] }), { disclosure, privacy: context.rule });
        const alone = cellOf(release, request({ marketFilters: [tracker.alone] }), { disclosure, privacy: context.rule });
        for (const count of ['employees', 'companies'] as const) {
          const a = padded.sample[count];
          const b = alone.sample[count];
          const difference = a === null || b === null ? null : a - b;
          if (difference !== null) differences[count].push(difference);
          if (!disclosure) {
            outcome.targets++;
            if (difference === 1) outcome.controlRecovered++;
          } else if (difference === 1) outcome.recovered++;
        }
      }
      if (!disclosure) continue;
      for (const count of ['employees', 'companies'] as const) {
        const average = mean(differences[count]);
        averages++;
        if (average !== null && Math.round(average) === 1) exactAverages++;
      }
    }
  }
  outcome.note = `${outcome.recovered} of ${outcome.targets} single pairs give the exact difference (of 1); the average of nine pairs rounds to it in ${exactAverages} of ${averages} (head counts and company counts)`;
  return outcome;
}

// ─── Counts averaged over many trackers ──────────────────────────────────────────────────────────

/** Metros of the tracker populations: any non-empty set of them is a tracker, 255 in all. */
const AVERAGING_METROS = ['us_austin', 'us_denver', 'us_chicago', 'us_seattle', 'us_atlanta', 'us_miami', 'us_phoenix', 'us_portland'];

/**
 * A group of `size` people at Boston (one company, below the threshold on its own) and, in each of
 * eight other metros, five companies of two people each: every non-empty set S of those metros is a
 * tracker, S alone and S with Boston both published, 255 differenced pairs of distinct record sets.
 */
function averagingMarket(size: number): { companies: CompanySpec[]; records: RecordSpec[] } {
  const companies: CompanySpec[] = [TARGET_COMPANY];
  const records: RecordSpec[] = Array.from({ length: size }, (_, i) => ({ company: 0, base: TARGET + 1_000 * i, location: 'us_boston' }));
  AVERAGING_METROS.forEach((location, m) => {
    const first = companies.length;
    for (let c = 0; c < 5; c++) companies.push(TARGET_COMPANY);
    for (let j = 0; j < 10; j++) records.push({ company: first + (j % 5), base: 60_000 + 15_000 * j + 700 * m, location });
  });
  return { companies, records };
}

/** The average over every tracker set of the published head count of S ∪ Boston minus that of S. */
function averagedDifference(release: MarketRelease, options: QueryOptions): number | null {
  const differences: number[] = [];
  for (let set = 1; set < 1 << AVERAGING_METROS.length; set++) {
    const metros = AVERAGING_METROS.filter((_, m) => (set & (1 << m)) !== 0);
    const alone = cellOf(release, request({ marketFilters: [{ ...TRACKED, locations: metros }] }), options).sample.employees;
    const padded = cellOf(release, request({ marketFilters: [{ ...TRACKED, locations: ['us_boston', ...metros] }] }), options).sample.employees;
    if (alone !== null && padded !== null) differences.push(padded - alone);
  }
  return mean(differences);
}

/**
 * Averaging differenced head counts: keyed rounding is unbiased, so the mean of many differenced
 * pairs (here 255 trackers) converges on the group's exact size. The gating targets are one person:
 * recovered when the average rounds to 1. The note gives the same attack on counts rounded without
 * the records' count weights (which it recovers) and on a group of five, the difference of five of
 * two cells on multiples of five (not gating: 5 plus five weights lands on 5 now and then by chance).
 */
export function countAveragingAttack(context: AttackContext): AttackOutcome {
  const outcome = start('count_averaging', 'Head counts differenced over 255 trackers (every set of eight metros) and averaged: one person, and a group of five');
  const single = averagingMarket(1);
  const five = averagingMarket(5);
  let unweighted = 0;
  let fiveExact = 0;
  let fiveUnweighted = 0;
  let closestEstimate: number | null = null;
  for (const key of context.keys) {
    const release = planted(single.companies, single.records, key, 'count averaging');
    const control = averagedDifference(release, { disclosure: false, privacy: context.rule });
    outcome.targets++;
    if (control !== null && Math.round(control) === 1) outcome.controlRecovered++;
    const bare = averagedDifference(release, { countWeights: false, privacy: context.rule });
    if (bare !== null && Math.round(bare) === 1) unweighted++;
    const averaged = averagedDifference(release, { privacy: context.rule });
    if (averaged !== null) {
      if (Math.round(averaged) === 1) outcome.recovered++;
      const distance = Math.abs(averaged - 1);
      closestEstimate = closestEstimate === null ? distance : Math.min(closestEstimate, distance);
    }
    const group = planted(five.companies, five.records, key, 'count averaging of five');
    const fiveBare = averagedDifference(group, { countWeights: false, privacy: context.rule });
    if (fiveBare !== null && Math.round(fiveBare) === 5) fiveUnweighted++;
    const fiveAveraged = averagedDifference(group, { privacy: context.rule });
    if (fiveAveraged !== null && Math.round(fiveAveraged) === 5) fiveExact++;
  }
  const keys = context.keys.length;
  // How far the best average lands from the exact 1 is in people, not a share of pay: said in the note, not as `closest`.
  const nearest = closestEstimate === null ? '' : ` (closest ${closestEstimate.toFixed(2)} people off)`;
  outcome.note = `averages of 255 pairs rounding to the exact 1: ${outcome.recovered} of ${keys} with count weights${nearest}, ${unweighted} of ${keys} without them; a group of five: ${fiveExact} of ${keys} with them, ${fiveUnweighted} of ${keys} without`;
  return outcome;
}

// ─── Re-imported under new employee ids ──────────────────────────────────────────────────────────

const REIMPORTS = 120;
/** Pairs added to each tracker (far below and far above the target): cells of over a hundred records, not thin, so a figure is its record's moved pay. */
const REIMPORT_JOINERS = 50;
const REIMPORTING_COMPANY = 'company-reimporting';

/**
 * The target's company re-imports its people under new employee ids before every release (an HRIS
 * migration, or on purpose), 120 releases in all, its trackers grown past thin cells; the attacker averages the nine tracker pairs of
 * every release. The target's person tag is what the collector gives (personKeys.ts): with the
 * identities the company keeps across builds (its e-mail, its name and start date), or, the control,
 * of the new employee id alone, which is a new tag, so a new move, every release.
 */
export function reimportAttack(context: AttackContext): AttackOutcome {
  const outcome = start('reimport', 'Averaging the tracker pairs over 120 releases, the target re-imported under a new employee id before each');
  for (const key of context.keys) {
    for (const identities of [false, true]) {
      const known: KnownPersons = new Map();
      const estimates: number[] = [];
      // A release is a function of its records and key alone (its id draws nothing), so a release whose
      // target kept the tag of an earlier one gives that one's estimates: built once, counted every time.
      const byTag = new Map<string, number[]>();
      for (let version = 0; version < REIMPORTS; version++) {
        const employee: PersonIdentityFields = identities
          ? { id: `employee-${version}`, email: 'target@reimporting.example', firstName: 'Ada', lastName: 'Target', startDate: '2021-03-01' }
          : { id: `employee-${version}`, email: null, firstName: '', lastName: '', startDate: null };
        const assigned = assignPersons(key, REIMPORTING_COMPANY, { employees: [employee], known });
        for (const { identity, person } of assigned.added) known.set(identity, person);
        const person = assigned.persons.get(employee.id)!;
        let pairs = byTag.get(String(person));
        if (!pairs) {
          const { companies, records } = trackerMarket(REIMPORT_JOINERS);
          const tagged = records.map((r, i) => (i === 0 ? { ...r, person } : r));
          pairs = trackerEstimates(planted(companies, tagged, key, `reimport-${version}`), { privacy: context.rule });
          byTag.set(String(person), pairs);
        }
        estimates.push(...pairs);
      }
      record(outcome, identities, mean(estimates), TARGET);
    }
  }
  return outcome;
}
