import { findJobFamily, findLevel, findLocation } from '../../reference/catalog/index.js';
import { contractorPlace, placeOfLocation, type ParticipantMarket } from '../engine/participants.js';
import type { ContributedRecord, Contribution } from './contribution.js';

/**
 * Plausibility checks of what participants contribute to a release (docs/market-privacy.md,
 * "Plausibility checks"). A contribution that fails one is held back from the build (quarantined)
 * and shown to internal admins with the reasons; verification says who a participant is, these
 * checks say whether its pay looks like a real payroll. Every threshold below is stated with why,
 * and realistic payrolls (every generated company of the demo market, the demo company's people,
 * a payroll of round salaries) pass them all (plausibility.unit.test.ts).
 *
 * A cell is what the market publishes a figure of: job family × level × place, employees and
 * contractors apart. Amounts are base pay in whole units of the place's currency, as contributed.
 */

/**
 * Evenly spaced ladders. Sorted, a real cell's pay has irregular gaps: for pay spread smoothly,
 * neighbouring gaps are roughly independent exponentials: a gap lies within 10% of the one before it
 * 5% of the time (1/1.9 − 1/2.1), three gaps within 10% of a first one (a run of five records) about 1
 * in 5,300. Rounded salaries make equal gaps likelier, but a dense rounded cell also repeats amounts,
 * which breaks a run. A ladder — made-up pay a fixed step apart, which pins whoever sits between its
 * rungs — is nothing but runs. Held back: at least half of a participant's records (and at least
 * `minRecords` of them) in runs of at least `minRun` records whose gaps are all within `tolerance`
 * of the run's first gap (or `roundingUnits`, the rounding of an amount converted to the place's
 * currency).
 */
export const LADDER = { minRun: 5, tolerance: 0.1, roundingUnits: 2, minRecords: 10, share: 0.5 } as const;

/**
 * Duplicated amounts. Real payrolls repeat an amount for a cohort hired together, not for most of
 * the company: held back when at least half of a participant's records (and at least `minRecords`)
 * share their exact amount with at least `block − 1` others of the same cell. A company that pays
 * one salary per role by formula is held back the first time and released by an internal admin.
 */
export const DUPLICATES = { block: 3, minRecords: 10, share: 0.5 } as const;

/**
 * Copied payrolls. Two companies never share most of their exact amounts cell by cell (amounts are
 * aged to the build day from the day each was set): held back, both, when at least `share` of the
 * smaller one's records (and at least `minRecords`) are matched one for one by the other's.
 */
export const COPIES = { minRecords: 20, share: 0.8 } as const;

/**
 * Pay far outside every other participant's range for the same cell: more than `factor` times the
 * highest that at least `minOtherCompanies` other companies (with `minOtherRecords` records between
 * them) pay, or less than their lowest divided by `factor`. The errors it is for are far larger
 * (monthly pay read as yearly is 12 times off, cents as units 100 times) and so is a push on the
 * market; real outliers are not: among the demo market's 250 companies, each against the others,
 * the furthest record is 2.3 times outside the others' range (a factor of 2 would hold back two of
 * them). Generated companies of a release count as others.
 */
export const FAR_OUT = { factor: 3, minOtherCompanies: 3, minOtherRecords: 10 } as const;

/**
 * A sudden head-count jump against the participant's previous contribution: at least `factor` times
 * as many records and at least `minIncrease` more. Companies rarely double between two releases; a
 * real acquisition or a first import of a missing department is released by an internal admin.
 */
export const HEADCOUNT_JUMP = { factor: 2, minIncrease: 50 } as const;

export type PlausibilityCheck = 'ladder' | 'duplicated_amounts' | 'copied_amounts' | 'far_outside_range' | 'headcount_jump';

export interface PlausibilityFinding {
  check: PlausibilityCheck;
  /** For internal admins: what was found, with the figures. */
  message: string;
  /** The cell it was found in (its most telling one), as `family|level|place`. */
  cell: string | null;
  /** The participant whose records it copies. */
  other: number | null;
}

export type ScreeningOutcome = 'passed' | 'quarantined' | 'released';

export interface ParticipantVerdict {
  /** The participant's number in the contribution as collected. */
  participant: number;
  records: number;
  previousRecords: number | null;
  findings: PlausibilityFinding[];
  outcome: ScreeningOutcome;
}

export interface ScreeningOptions {
  /** Records of each participant's previous contribution, by participant; null when it has none. */
  previousRecords?: readonly (number | null)[];
  /** Participants an internal admin released into this build: in whatever the checks find. */
  released?: readonly boolean[];
  /** Off only in tests, to show what the checks stop. */
  enabled?: boolean;
}

export interface Screening {
  /** What goes into the release: the participants not held back, numbered again from 0 in their order. */
  contribution: Contribution;
  verdicts: ParticipantVerdict[];
}

interface PayRecord {
  owner: number;
  cell: string;
  base: number;
}

const cellOf = (record: Pick<ContributedRecord, 'jobFamilyId' | 'levelId' | 'locationId' | 'employmentType'>): string =>
  `${record.jobFamilyId}|${record.levelId}|${record.employmentType === 'contractor' ? contractorPlace(record.locationId) : record.locationId}`;

/** A cell as an admin reads it: "Software Engineering, P3, San Francisco Bay Area". */
export function cellLabel(cell: string): string {
  const [family, level, location] = cell.split('|');
  const { placeId, contractor } = placeOfLocation(location ?? '');
  const place = findLocation(placeId)?.paybenchLocationName ?? placeId;
  return `${findJobFamily(family ?? '')?.name ?? family}, ${findLevel(level ?? '')?.extendedTitle ?? level}, ${place}${contractor ? ' (contractors)' : ''}`;
}

const formatted = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Each owner's amounts by cell, sorted. */
function cellsByOwner(records: readonly PayRecord[]): Map<number, Map<string, number[]>> {
  const owners = new Map<number, Map<string, number[]>>();
  for (const { owner, cell, base } of records) {
    let cells = owners.get(owner);
    if (!cells) owners.set(owner, (cells = new Map()));
    const list = cells.get(cell);
    if (list) list.push(base);
    else cells.set(cell, [base]);
  }
  for (const cells of owners.values()) for (const list of cells.values()) list.sort((a, b) => a - b);
  return owners;
}

const evenGap = (gap: number, first: number): boolean => gap > 0 && Math.abs(gap - first) <= Math.max(LADDER.tolerance * first, LADDER.roundingUnits);

/** The records of a sorted cell that sit in evenly spaced runs of at least LADDER.minRun, and the longest run. */
function ladderRuns(sorted: readonly number[]): { inRuns: number; longest: number; step: number } {
  const covered = new Uint8Array(sorted.length);
  let longest = 0;
  let step = 0;
  let start = 0;
  while (start < sorted.length - 1) {
    const first = sorted[start + 1]! - sorted[start]!;
    let end = start + 1;
    if (first > 0) while (end + 1 < sorted.length && evenGap(sorted[end + 1]! - sorted[end]!, first)) end += 1;
    const length = first > 0 ? end - start + 1 : 1;
    if (length >= LADDER.minRun) {
      covered.fill(1, start, end + 1);
      if (length > longest) [longest, step] = [length, first];
    }
    // The last record of a run may start the next one.
    start = Math.max(end, start + 1);
  }
  return { inRuns: covered.reduce((a, b) => a + b, 0), longest, step };
}

function ladderFinding(cells: Map<string, number[]>, total: number): PlausibilityFinding | null {
  let inRuns = 0;
  let worst = { longest: 0, step: 0, cell: '' };
  for (const [cell, sorted] of cells) {
    const runs = ladderRuns(sorted);
    inRuns += runs.inRuns;
    if (runs.longest > worst.longest) worst = { longest: runs.longest, step: runs.step, cell };
  }
  if (total < LADDER.minRecords || inRuns < LADDER.share * total) return null;
  return {
    check: 'ladder',
    message: `${inRuns} of ${total} records sit in evenly spaced runs of ${LADDER.minRun} or more; the longest is ${worst.longest} records ${formatted(worst.step)} apart in ${cellLabel(worst.cell)}`,
    cell: worst.cell,
    other: null,
  };
}

function duplicatesFinding(cells: Map<string, number[]>, total: number): PlausibilityFinding | null {
  let inBlocks = 0;
  let worst = { count: 0, amount: 0, cell: '' };
  for (const [cell, sorted] of cells) {
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j < sorted.length && sorted[j] === sorted[i]) j += 1;
      const count = j - i;
      if (count >= DUPLICATES.block) inBlocks += count;
      if (count > worst.count) worst = { count, amount: sorted[i]!, cell };
      i = j;
    }
  }
  if (total < DUPLICATES.minRecords || inBlocks < DUPLICATES.share * total) return null;
  return {
    check: 'duplicated_amounts',
    message: `${inBlocks} of ${total} records share their exact amount with at least ${DUPLICATES.block - 1} others of the same job, level and place; the largest group is ${worst.count} records at ${formatted(worst.amount)} in ${cellLabel(worst.cell)}`,
    cell: worst.cell,
    other: null,
  };
}

/** Pairs of participants most of whose records (cell and exact amount) the other holds too. */
function copyFindings(owners: Map<number, Map<string, number[]>>, totals: Map<number, number>): Map<number, PlausibilityFinding[]> {
  const holders = new Map<string, Map<number, number>>();
  for (const [owner, cells] of owners) {
    if ((totals.get(owner) ?? 0) < COPIES.minRecords) continue;
    for (const [cell, sorted] of cells) {
      for (const amount of sorted) {
        const key = `${cell}|${amount}`;
        let counts = holders.get(key);
        if (!counts) holders.set(key, (counts = new Map()));
        counts.set(owner, (counts.get(owner) ?? 0) + 1);
      }
    }
  }
  const matched = new Map<string, number>();
  for (const counts of holders.values()) {
    if (counts.size < 2) continue;
    const list = [...counts];
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const key = `${Math.min(list[a]![0], list[b]![0])}:${Math.max(list[a]![0], list[b]![0])}`;
        matched.set(key, (matched.get(key) ?? 0) + Math.min(list[a]![1], list[b]![1]));
      }
    }
  }
  const findings = new Map<number, PlausibilityFinding[]>();
  for (const [key, shared] of matched) {
    const [a, b] = key.split(':').map(Number) as [number, number];
    const smaller = Math.min(totals.get(a) ?? 0, totals.get(b) ?? 0);
    if (shared < COPIES.share * smaller) continue;
    for (const [self, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const list = findings.get(self) ?? [];
      list.push({ check: 'copied_amounts', message: `${shared} of its ${totals.get(self)} records have exactly the job, level, place and amount of records of another participant (${totals.get(other)} records)`, cell: null, other });
      findings.set(self, list);
    }
  }
  return findings;
}

/** Per cell, every owner's lowest and highest amount and record count (generated companies too). */
function rangesByCell(records: readonly PayRecord[]): Map<string, Map<number, { min: number; max: number; n: number }>> {
  const ranges = new Map<string, Map<number, { min: number; max: number; n: number }>>();
  for (const { owner, cell, base } of records) {
    let owners = ranges.get(cell);
    if (!owners) ranges.set(cell, (owners = new Map()));
    const range = owners.get(owner);
    if (!range) owners.set(owner, { min: base, max: base, n: 1 });
    else {
      range.min = Math.min(range.min, base);
      range.max = Math.max(range.max, base);
      range.n += 1;
    }
  }
  return ranges;
}

function farOutFinding(owner: number, cells: Map<string, number[]>, ranges: ReturnType<typeof rangesByCell>): PlausibilityFinding | null {
  let far = 0;
  let worst: { ratio: number; amount: number; cell: string; low: number; high: number; companies: number } | null = null;
  for (const [cell, sorted] of cells) {
    let low = Infinity;
    let high = -Infinity;
    let companies = 0;
    let records = 0;
    for (const [other, range] of ranges.get(cell) ?? []) {
      if (other === owner) continue;
      low = Math.min(low, range.min);
      high = Math.max(high, range.max);
      companies += 1;
      records += range.n;
    }
    if (companies < FAR_OUT.minOtherCompanies || records < FAR_OUT.minOtherRecords) continue;
    for (const amount of sorted) {
      const ratio = Math.max(amount / high, low / amount);
      if (ratio <= FAR_OUT.factor) continue;
      far += 1;
      if (!worst || ratio > worst.ratio) worst = { ratio, amount, cell, low, high, companies };
    }
  }
  if (!worst) return null;
  return {
    check: 'far_outside_range',
    message: `${far} record${far === 1 ? '' : 's'} more than ${FAR_OUT.factor} times outside every other participant's pay for the same job, level and place; the furthest is ${formatted(worst.amount)} in ${cellLabel(worst.cell)}, where ${worst.companies} other companies pay ${formatted(worst.low)} to ${formatted(worst.high)}`,
    cell: worst.cell,
    other: null,
  };
}

function headcountFinding(records: number, previous: number | null): PlausibilityFinding | null {
  if (previous === null || records < HEADCOUNT_JUMP.factor * previous || records - previous < HEADCOUNT_JUMP.minIncrease) return null;
  return { check: 'headcount_jump', message: `${records} records against ${previous} in its previous contribution`, cell: null, other: null };
}

/** Generated companies of the release, as owners after every participant, for the far-out ranges of the cells participants are in. */
function referenceRecords(reference: ParticipantMarket, participants: number, cells: ReadonlySet<string>): PayRecord[] {
  const { employees, dimensions } = reference;
  const out: PayRecord[] = [];
  // Only the places participants are in are read: no string is made for a record of any other place.
  const places = new Set([...cells].map((cell) => cell.slice(cell.lastIndexOf('|') + 1)));
  const wanted = Uint8Array.from(dimensions.locations, (id) => (places.has(id) ? 1 : 0));
  for (let i = 0; i < employees.count; i++) {
    if (!wanted[employees.location[i]!]) continue;
    const cell = `${dimensions.families[employees.family[i]!]}|${dimensions.levels[employees.level[i]!]}|${dimensions.locations[employees.location[i]!]}`;
    const base = employees.amounts.base[i]!;
    if (base > 0 && cells.has(cell)) out.push({ owner: participants + employees.company[i]!, cell, base });
  }
  return out;
}

/**
 * Every check, per participant of a contribution: what each found. `reference` is the generated
 * market the contribution joins, whose companies count as others for the far-out check.
 */
export function assessContribution(contribution: Contribution, options: { reference?: ParticipantMarket; previousRecords?: readonly (number | null)[] } = {}): { participant: number; records: number; previousRecords: number | null; findings: PlausibilityFinding[] }[] {
  const own: PayRecord[] = contribution.records.map((r) => ({ owner: r.participant, cell: cellOf(r), base: r.base }));
  const owners = cellsByOwner(own);
  const totals = new Map([...owners].map(([owner, cells]) => [owner, [...cells.values()].reduce((n, list) => n + list.length, 0)]));
  const cells = new Set(own.map((r) => r.cell));
  const reference = options.reference ? referenceRecords(options.reference, contribution.participants.length, cells) : [];
  const ranges = rangesByCell([...own, ...reference]);
  const copies = copyFindings(owners, totals);
  return contribution.participants.map(({ participant }) => {
    const mine = owners.get(participant) ?? new Map<string, number[]>();
    const records = totals.get(participant) ?? 0;
    const previousRecords = options.previousRecords?.[participant] ?? null;
    const findings = [ladderFinding(mine, records), duplicatesFinding(mine, records), ...(copies.get(participant) ?? []), farOutFinding(participant, mine, ranges), headcountFinding(records, previousRecords)].filter(
      (f): f is PlausibilityFinding => f !== null,
    );
    return { participant, records, previousRecords, findings };
  });
}

/**
 * Runs the checks and holds back every participant a check fails, unless an internal admin released
 * it into this build. What is held back leaves no record in the release; the others are numbered
 * again from 0 in their order, as a contribution must be.
 */
export function screenContribution(contribution: Contribution, options: ScreeningOptions & { reference?: ParticipantMarket } = {}): Screening {
  const assessed = assessContribution(contribution, options);
  const verdicts: ParticipantVerdict[] = assessed.map((a) => ({
    ...a,
    outcome: options.enabled === false || a.findings.length === 0 ? 'passed' : options.released?.[a.participant] ? 'released' : 'quarantined',
  }));
  const held = new Set(verdicts.filter((v) => v.outcome === 'quarantined').map((v) => v.participant));
  if (held.size === 0) return { contribution, verdicts };
  const renumbered = new Map<number, number>();
  const participants = [...contribution.participants]
    .sort((a, b) => a.participant - b.participant)
    .filter((p) => !held.has(p.participant))
    .map((p, k) => {
      renumbered.set(p.participant, k);
      return { ...p, participant: k };
    });
  const records = contribution.records.filter((r) => !held.has(r.participant)).map((r) => ({ ...r, participant: renumbered.get(r.participant)! }));
  return { contribution: { participants, records }, verdicts };
}
