import { createHmac } from 'node:crypto';
import { EVERYWHERE, request, type CompanySpec, type RecordSpec } from '../handMarket.js';
import type { BenchmarkCell } from '../query.js';
import type { BenchmarkRequest } from '../request.js';
import { MEDIAN_TARGET, SPARSE } from './differencing.js';
import { cellOf, planted, record, start, valueAt, type AttackContext, type AttackOutcome } from './setup.js';

/**
 * The attacks on one cell's figures themselves: reading records off the seven percentiles, and
 * searching the key space for the disclosure key and then the target's pay.
 */

// ─── Reconstruction from the seven percentiles ───────────────────────────────────────────────────

/**
 * A cell of 11 records (five companies of two and one of one): p10, p40, p50, p60 and p90 sit at its
 * records 1, 4, 5, 6 and 9 exactly (PERCENTILE.INC at ranks (n − 1) × p), so an attacker reads five
 * people's pay off the seven figures.
 */
export function reconstructionAttack(context: AttackContext): AttackOutcome {
  const outcome = start('reconstruction', 'Reconstruction from the seven percentiles: five of eleven records read off p10, p40, p50, p60 and p90');
  const pay = [...SPARSE, MEDIAN_TARGET].sort((a, b) => a - b);
  const records: RecordSpec[] = pay.map((base, i) => ({ company: i < 10 ? i % 5 : 5, base, location: 'us_austin' }));
  const ranks: [number, number][] = [
    [10, 1],
    [40, 4],
    [50, 5],
    [60, 6],
    [90, 9],
  ];
  for (const key of context.keys) {
    const release = planted([{}, {}, {}, {}, {}, {}], records, key, 'reconstruction');
    for (const disclosure of [false, true]) {
      const cell = cellOf(release, request({ marketFilters: [{ ...EVERYWHERE, locations: ['us_austin'] }] }), { disclosure, privacy: context.rule });
      for (const [percentile, rank] of ranks) record(outcome, disclosure, valueAt(cell, percentile), pay[rank]!);
    }
  }
  return outcome;
}

// ─── Key search ──────────────────────────────────────────────────────────────────────────────────

/** The reduced key space of the positive control: 2^8 keys, each derived from an 8-bit secret. */
const REDUCED_BITS = 8;
const reducedKey = (secret: number): Uint8Array => new Uint8Array(createHmac('sha256', 'reduced key space').update(String(secret)).digest());

const KNOWN: RecordSpec[] = SPARSE.map((base, i) => ({ company: i % 5, base, location: 'us_austin' }));
export const AUSTIN_CELL = (): BenchmarkRequest => request({ marketFilters: [{ ...EVERYWHERE, locations: ['us_austin'] }] });
const figuresOf = (cell: BenchmarkCell): string => JSON.stringify(cell.percentiles);

/**
 * Key search against whatever secret remains. The attacker knows one cell completely (ten of their
 * own people) and every record but the target's of another; they try every key of the space on the
 * known cell, keep the keys that reproduce its published figures, and with each try every whole
 * hundred of pay for the target until the published figures come out. Positive control: a release
 * keyed from an 8-bit secret (the search finds the key, then the target exactly). Protected: the
 * release's 256-bit key, against which the same search finds no key.
 */
export function keySearchAttack(context: AttackContext): AttackOutcome {
  const outcome = start('key_search', `Key search: every key of a ${REDUCED_BITS}-bit space tried on a fully known cell, then the target's pay searched under the key found`);
  const companies: CompanySpec[] = [{}, {}, {}, {}, {}, {}];
  const withTarget = (pay: number): RecordSpec[] => [...KNOWN, { company: 5, base: pay, location: 'us_austin' }];
  const options = { privacy: context.rule };
  for (const [trial, key] of context.keys.entries()) {
    const weak = reducedKey((trial * 37 + 11) % 2 ** REDUCED_BITS);
    for (const [protectedRun, releaseKey] of [
      [false, weak],
      [true, key],
    ] as const) {
      const publishedKnown = figuresOf(cellOf(planted(companies, KNOWN, releaseKey, 'known'), AUSTIN_CELL(), options));
      const publishedTarget = figuresOf(cellOf(planted(companies, withTarget(MEDIAN_TARGET), releaseKey, 'target'), AUSTIN_CELL(), options));
      let estimate: number | null = null;
      for (let secret = 0; secret < 2 ** REDUCED_BITS && estimate === null; secret++) {
        const candidate = reducedKey(secret);
        if (figuresOf(cellOf(planted(companies, KNOWN, candidate, 'try'), AUSTIN_CELL(), options)) !== publishedKnown) continue;
        for (let pay = 100_500; pay < 160_000; pay += 500) {
          if (figuresOf(cellOf(planted(companies, withTarget(pay), candidate, 'try'), AUSTIN_CELL(), options)) === publishedTarget) {
            estimate = pay;
            break;
          }
        }
      }
      record(outcome, protectedRun, estimate, MEDIAN_TARGET);
    }
  }
  return outcome;
}
