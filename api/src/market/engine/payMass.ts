import { RECORD_MOVE_MOST } from './disclosure/recordKeys.js';
import { placeOf, type SortedRun } from './percentile.js';
import { payMassReason, type PrivacyRule } from './privacy.js';

/**
 * The pay-mass checks of a cell (docs/market-privacy.md, dominance and the p% rule): each company's
 * pay summed over the cell's records, the four largest sums and the total. A second pass over the
 * cell's records, done only for cells the head-count rule publishes, and skipped when the cell's
 * total and its best-paid records already prove that no company can dominate (the bound below): a
 * bound never passes a cell the full pass would withhold, so the verdict is the same on every read path.
 */

/** Per company: its pay in the cell being judged; zeroed again after each cell. */
let mass = new Float64Array(0);
let touched = new Uint32Array(0);
const largest: [number, number, number, number] = [0, 0, 0, 0];

function reserve(companies: number): void {
  if (mass.length >= companies) return;
  mass = new Float64Array(companies);
  touched = new Uint32Array(companies);
}

/** What the head counts of a cell say: its records, the records of its largest and of its four largest companies; and its pay. */
export interface CellCounts {
  employees: number;
  largest: number;
  topFour: number;
  /**
   * The cell's values summed as the runs read them (each run's stored values summed, × scale ÷
   * divisor): from the release's per-run sums for whole slices, summed in the scan for gathered cells.
   */
  pay: number;
}

/**
 * Whether the cell's sorted runs pass the pay-mass checks. `who` is the column's company and location
 * per place (company = who >>> 8); the runs' values are read converted, as percentiles read them.
 */
export function runsPassPayMass(rule: PrivacyRule, runs: readonly SortedRun[], who: Uint32Array, counts: CellCounts, companies: number): boolean {
  if (boundPasses(rule, runs, counts)) return true;
  reserve(companies);
  let seen = 0;
  let total = 0;
  for (const run of runs) {
    const factor = run.scale / run.divisor;
    // Exact pay, not moved: the verdict is the same whether figures are moved or not.
    const exact = run.exact ?? run.values;
    for (let i = run.from; i < run.to; i++) {
      const place = placeOf(run, i);
      const value = (run.exact ? exact[place]! : exact[i]!) * factor;
      const c = who[place]! >>> 8;
      if (mass[c] === 0) touched[seen++] = c;
      mass[c]! += value;
      total += value;
    }
  }
  return judge(rule, seen, total);
}

/**
 * The same for values gathered out of order with a per-company factor (equity at actual value,
 * percent of company): values[0 .. length) already converted, places[i] each one's place in the column.
 */
export function gatheredPassPayMass(
  rule: PrivacyRule,
  gathered: { values: Float64Array; places: Int32Array; length: number },
  column: { who: Uint32Array; values: Int32Array; exact: Int32Array },
  companies: number,
): boolean {
  const { values, places, length } = gathered;
  reserve(companies);
  let seen = 0;
  let total = 0;
  for (let i = 0; i < length; i++) {
    const place = places[i]!;
    const moved = column.values[place]!;
    // Exact pay: the gathered value carries the moved amount times its factors.
    const value = moved > 0 ? (values[i]! * column.exact[place]!) / moved : 0;
    const c = column.who[place]! >>> 8;
    if (mass[c] === 0) touched[seen++] = c;
    mass[c]! += value;
    total += value;
  }
  return judge(rule, seen, total);
}

/** Reads the four largest sums, clears the tally and applies the rule. */
function judge(rule: PrivacyRule, seen: number, total: number): boolean {
  largest.fill(0);
  for (let k = 0; k < seen; k++) {
    const c = touched[k]!;
    const value = mass[c]!;
    mass[c] = 0;
    if (value <= largest[3]) continue;
    let at = 3;
    while (at > 0 && value > largest[at - 1]!) {
      largest[at] = largest[at - 1]!;
      at--;
    }
    largest[at] = value;
  }
  return payMassReason(rule, { total, largest }) === null;
}

/**
 * Whether the cell passes whatever its companies are paid, from its pay alone: the largest company
 * holds at most `largest` records, so at most the pay of the cell's `largest` best-paid records; any
 * two at most that of its min(2 × largest, topFour) best paid; any four at most that of its topFour
 * best paid, so what lies outside the four largest by pay is at least the rest of the total. The
 * total comes with the counts (summed when the release was built, or while the cell was gathered) and
 * the best paid are read off the ends of the sorted runs: no pass over the cell, no company looked
 * up, and dense cells of many companies pass here.
 */
function boundPasses(rule: PrivacyRule, runs: readonly SortedRun[], counts: CellCounts): boolean {
  const total = counts.pay;
  let unit = 0;
  for (const run of runs) unit = Math.max(unit, run.scale / run.divisor);
  if (runs.length > heads.length) return false;
  const twoAtMost = Math.min(2 * counts.largest, counts.topFour);
  bestPaid(runs, counts.topFour, counts.largest, twoAtMost);
  // The runs hold moved pay: exact pay is within RECORD_MOVE_MOST of it, give or take two stored
  // units (the side bit), so the bound takes the best paid at their highest and the total at its lowest.
  const up = 1 / (1 - RECORD_MOVE_MOST);
  const down = 1 / (1 + RECORD_MOVE_MOST);
  const slack = 2 * unit;
  const least = Math.max(0, (total - slack * counts.employees) * down);
  const one = (bestOne + slack * counts.largest) * up;
  const two = (bestTwo + slack * twoAtMost) * up;
  const four = (bestFour + slack * counts.topFour) * up;
  if (!(least > 0)) return false;
  if (one > rule.maxLargestPayShare * least) return false;
  if (two > rule.maxTopTwoPayShare * least) return false;
  if (rule.pPercent > 0 && least - four < rule.pPercent * one) return false;
  return true;
}

let bestOne = 0;
let bestTwo = 0;
let bestFour = 0;
const heads = new Int32Array(64);

/** The pay of the `four` best-paid records, and of the `one` and `two` best paid among them (one ≤ two ≤ four), across the runs. */
function bestPaid(runs: readonly SortedRun[], four: number, one: number, two: number): void {
  bestOne = 0;
  bestTwo = 0;
  bestFour = 0;
  if (runs.length === 1) {
    const run = runs[0]!;
    const factor = run.scale / run.divisor;
    const from = Math.max(run.from, run.to - four);
    for (let i = run.to - 1, k = 0; i >= from; i--, k++) {
      const value = run.values[i]! * factor;
      if (k < one) bestOne += value;
      if (k < two) bestTwo += value;
      bestFour += value;
    }
    return;
  }
  // Few runs (one per currency): take the best head each time.
  for (let r = 0; r < runs.length; r++) heads[r] = runs[r]!.to - 1;
  for (let k = 0; k < four; k++) {
    let best = -1;
    let value = -Infinity;
    for (let r = 0; r < runs.length; r++) {
      const run = runs[r]!;
      const at = heads[r]!;
      if (at < run.from) continue;
      const v = run.values[at]! * (run.scale / run.divisor);
      if (v > value) {
        value = v;
        best = r;
      }
    }
    if (best < 0) return;
    heads[best]!--;
    if (k < one) bestOne += value;
    if (k < two) bestTwo += value;
    bestFour += value;
  }
}
