import { EVERYWHERE, request, type CompanySpec, type RecordSpec } from '../handMarket.js';
import { RECORD_MOVE_MOST } from '../disclosure/recordKeys.js';
import { relativeFloor, thinFloor } from '../disclosure/cellDraws.js';
import { percentileInc } from '../percentile.js';
import { NO_PAY_MASS_CHECKS, type PrivacyRule } from '../privacy.js';
import type { BenchmarkCell } from '../query.js';
import { AUSTIN_CELL } from './reconstruction.js';
import { cellOf, mean, planted, record, relative, start, TARGET, valueAt, within, type AttackContext, type AttackOutcome } from './setup.js';

/**
 * The attacks of participants who know more than the public: colluders who know every record but
 * the target's, and the largest company's pay read off a cell it dominates (or that only the p% rule
 * stops).
 */

// ─── Colluders who know everyone but the target ──────────────────────────────────────────────────

const COLLUDER_METROS = ['us_austin', 'us_denver', 'us_seattle', 'us_chicago', 'us_new_york', 'us_los_angeles', 'us_atlanta', 'us_dallas'];

/**
 * Four colluding participants know all their own employees' pay and every other record but the
 * target's (a stronger attacker than the threat model: the target's colleague is known too). The
 * target works in Boston; each cell is Boston and one more metro, where the colluders have people at
 * other pay, so every cell holds the target with different neighbours and different draws. The
 * attacker knows the design, not the key. For every whole hundred of pay they compute the exact
 * figures each cell would have; the estimate is the middle of the pay whose published figures are
 * each within what the design allows (figuresFit). Reported beside it (the note): the pay whose exact
 * figures are closest to the published ones (least squares over every figure of every cell), and how
 * often a guess that ignores the target (the mean of the cells' medians) lands within 5%, which is
 * what chance gives. Without moves both estimates give exactly the target's pay.
 */
export function colludersAttack(context: AttackContext): AttackOutcome {
  const outcome = start('colluders', 'Colluders who know every record but the target (more than four participants know), over eight cells around the target');
  const companies: CompanySpec[] = [{}, {}, {}, {}, {}];
  const boston: RecordSpec[] = [
    ...[70_000, 95_000, 150_000, 180_000].map((base, i) => ({ company: i, base, location: 'us_boston' })),
    { company: 4, base: TARGET, location: 'us_boston' },
    { company: 4, base: 210_000, location: 'us_boston' },
  ];
  const metroRecords = (metro: string, m: number): RecordSpec[] =>
    [60_000, 85_000, 105_000, 140_000, 165_000, 190_000, 75_000, 200_000].map((base, i) => ({ company: i % 4, base: base + 1_500 * m, location: metro }));
  const records = [...boston, ...COLLUDER_METROS.flatMap(metroRecords)];
  const fits = { recovered: 0, guessed: 0, closest: Infinity };
  const cells = COLLUDER_METROS.map((metro, m) => ({ metro, known: [...boston.filter((r) => r.base !== TARGET), ...metroRecords(metro, m)].map((r) => r.base) }));
  for (const key of context.keys) {
    const release = planted(companies, records, key, 'colluders');
    for (const disclosure of [false, true]) {
      const published = cells.map((cell) => cellOf(release, request({ marketFilters: [{ ...EVERYWHERE, locations: ['us_boston', cell.metro] }] }), { disclosure, privacy: context.rule }));
      const left: number[] = [];
      let best = { pay: 0, misfit: Infinity };
      for (let pay = 40_000; pay <= 300_000; pay += 100) {
        const consistent = cells.every((cell, i) => figuresFit(published[i]!, [...cell.known, pay], disclosure ? context.rule : null));
        if (consistent) left.push(pay);
        const off = cells.reduce((sum, cell, i) => sum + misfit(published[i]!, [...cell.known, pay]), 0);
        if (off < best.misfit) best = { pay, misfit: off };
      }
      // The middle of what is consistent is the estimate; the best fit and a guess that ignores the target are reported beside it.
      record(outcome, disclosure, left.length === 0 ? null : (left[0]! + left[left.length - 1]!) / 2, TARGET);
      if (!disclosure) continue;
      const medians = published.map((cell) => valueAt(cell, 50) ?? 0);
      if (within(best.pay, TARGET)) fits.recovered++;
      if (within(mean(medians) ?? 0, TARGET)) fits.guessed++;
      fits.closest = Math.min(fits.closest, relative(best.pay, TARGET));
    }
  }
  const trials = context.keys.length;
  outcome.note = `best least-squares fit within 5% in ${fits.recovered} of ${trials} (closest ${(100 * fits.closest).toFixed(1)}%), against ${fits.guessed} of ${trials} for the mean of the cells' published medians, a guess that ignores the target`;
  return outcome;
}

/** How far a cell's published percentiles are from the exact ones of these records: the sum of squared relative differences. */
function misfit(cell: BenchmarkCell, pay: number[]): number {
  if (!cell.percentiles) return 0;
  const sorted = [...pay].sort((a, b) => a - b);
  return cell.percentiles.reduce((sum, { percentile, value }) => {
    const exact = percentileInc(sorted, sorted.length, percentile);
    return sum + ((value - exact) / exact) ** 2;
  }, 0);
}

/**
 * Whether a cell's published percentiles could come from these records: exactly, or (with moves) as
 * the design allows. The attacker knows the design, not the key: every record's moved amount lies
 * within RECORD_MOVE_MOST of its pay, so the k-th smallest moved amount lies between the k-th smallest
 * of the lowest and of the highest amounts the records could have moved to, and a percentile between
 * the same blends of those; a thin cell's figure may then have been moved on (disclosure/figures.ts, keptOff),
 * and every figure by three relative floors and the rounding.
 */
function figuresFit(cell: BenchmarkCell, pay: number[], rule: PrivacyRule | null): boolean {
  if (!cell.percentiles) return false;
  const sorted = [...pay].sort((a, b) => a - b);
  const n = sorted.length;
  if (rule === null) return cell.percentiles.every(({ percentile, value }) => Math.abs(value - percentileInc(sorted, n, percentile)) < 1);
  const lowest = sorted.map((a) => a * (1 - RECORD_MOVE_MOST) - 1);
  const highest = sorted.map((a) => a * (1 + RECORD_MOVE_MOST) + 1);
  // The colluders are the four largest companies; what stands outside them sets the floors.
  const slack = 3 * relativeFloor(2) + 0.005;
  return cell.percentiles.every(({ percentile, value }) => {
    // Moved on by up to twice the larger of an eighth of the exact span around it and its thin floor.
    const exact = percentileInc(sorted, n, percentile);
    const lower = Math.floor(((n - 1) * percentile) / 100);
    const span = sorted[Math.min(n - 1, lower + 2)]! - sorted[Math.max(0, lower - 1)]!;
    const kept = 2 * Math.max(span / 8, exact * thinFloor(2));
    const low = (percentileInc(lowest, n, percentile) - kept) * (1 - slack);
    const high = (percentileInc(highest, n, percentile) + kept) * (1 + slack);
    return value >= low && value <= high;
  });
}

// ─── Dominance and the p% rule ───────────────────────────────────────────────────────────────────

/**
 * A cell one company dominates by pay, not by head count: it holds a quarter of the records (the
 * most the head-count rule allows) and most of the pay, so the figures above p75 are its records.
 * And a cell that only the p% rule stops: no company dominates, but the two records outside the four
 * largest companies are paid so little that the second to fourth largest, knowing their own pay,
 * bound the largest company's. In both the colluders (every company but the largest) read the
 * largest company's pay off the published p90. The target is that company's mean pay.
 */
export const DOMINANCE_PLANTS: { name: string; records: RecordSpec[]; companies: number; target: number }[] = [
  {
    name: 'one company dominates the pay',
    companies: 5,
    records: [
      ...[490_000, 500_000, 510_000].map((base) => ({ company: 0, base, location: 'us_austin' })),
      ...[100_000, 105_000, 110_000, 115_000, 120_000, 125_000, 130_000, 108_000, 118_000].map((base, i) => ({ company: 1 + (i % 4), base, location: 'us_austin' })),
    ],
    target: 500_000,
  },
  {
    name: 'only the p% rule stops it',
    companies: 6,
    records: [
      ...[198_000, 200_000, 202_000].map((base) => ({ company: 0, base, location: 'us_austin' })),
      ...[140_000, 145_000, 150_000, 152_000, 155_000, 148_000, 142_000, 158_000, 160_000].map((base, i) => ({ company: 1 + (i % 3), base, location: 'us_austin' })),
      { company: 4, base: 20_000, location: 'us_austin' },
      { company: 5, base: 21_000, location: 'us_austin' },
    ],
    target: 200_000,
  },
];

/**
 * Dominance and the p% rule: with every protection off (no moves, no pay-mass checks) the published
 * p90 of each planted cell is the dominant company's pay (the control); with the release's rule the
 * cell is withheld and the attacker reads nothing.
 */
export function dominanceAttack(context: AttackContext): AttackOutcome {
  const outcome = start('dominance', "Dominance and the p% rule: a cell one company dominates by pay, and one whose smallest contributors are too small to hide the largest; the largest company's pay read off p90");
  for (const key of context.keys) {
    for (const plant of DOMINANCE_PLANTS) {
      const release = planted(Array.from({ length: plant.companies }, () => ({})), plant.records, key, `dominance-${plant.name}`);
      for (const disclosure of [false, true]) {
        const rule = disclosure ? context.rule : { ...context.rule, ...NO_PAY_MASS_CHECKS };
        record(outcome, disclosure, valueAt(cellOf(release, AUSTIN_CELL(), { disclosure, privacy: rule }), 90), plant.target);
      }
    }
  }
  return outcome;
}
