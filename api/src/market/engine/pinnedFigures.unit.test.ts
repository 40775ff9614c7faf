import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { BROAD_REQUEST, NARROW_REQUEST, TYPICAL_REQUEST } from '../../../bench/requests.js';
import { randomShapes } from '../../../bench/shapes.js';
import { generateMarket } from '../generator/generate.js';
import { GENERATION_FOREX } from '../generator/profiles.js';
import { queryRelease, type QueryOptions } from './query.js';
import { buildRelease, type MarketRelease } from './release.js';
import type { BenchmarkRequest } from './request.js';

/*
 * Speed work on the engine must not move a published figure: for one disclosure key and release,
 * every figure, interval and count is bit-identical to what the engine published before. The digest
 * below is SHA-256 of the cells of these 51 requests (the bench's typical, narrow and broad requests
 * and 48 random filter shapes: stage, industry and ownership subsets, metros, level and family
 * blends, contractors), as computed by the engine before its runs of one currency were merged and
 * its read paths were chosen anew. A change that means to move figures (the privacy method itself)
 * recomputes it and says so: recomputed when dominance and the p% rule began withholding cells and
 * counts began to be published as multiples of five, and again when head counts began to carry
 * their records' count weights (whose bits in the record keys change every cell's key sum and draws).
 */
const PINNED_DIGEST = '0e04d98f63e12a3d4078a813c165d94d91845fdd899595f80f868f6ee6966180';

describe('published figures, pinned across engine changes', () => {
  let release: MarketRelease;
  let requests: BenchmarkRequest[];
  beforeAll(() => {
    release = buildRelease(generateMarket({ seed: 35_43, employees: 40_000 }), { id: 'pinned', disclosureKey: new Uint8Array(32).fill(43) });
    requests = [TYPICAL_REQUEST, NARROW_REQUEST, BROAD_REQUEST, ...randomShapes(43, 48).map((shape) => shape.request)];
  });

  const digestOf = (options: QueryOptions): string => {
    const digest = createHash('sha256');
    for (const request of requests) digest.update(JSON.stringify(queryRelease(release, request, { forex: GENERATION_FOREX, ...options }).cells));
    return digest.digest('hex');
  };

  it('are what the engine published before, read however the engine chooses', () => {
    expect(digestOf({})).toBe(PINNED_DIGEST);
  });

  it('are the same through every read path', () => {
    expect(digestOf({ wholeSlices: false })).toBe(PINNED_DIGEST);
    expect(digestOf({ readPath: 'sorted' })).toBe(PINNED_DIGEST);
    expect(digestOf({ readPath: 'matched' })).toBe(PINNED_DIGEST);
  });

  it('cover blends, several metros, company subsets and contractors', () => {
    const shapes = new Set(randomShapes(43, 48).map((shape) => shape.shape));
    expect([...shapes].sort()).toEqual(['companies and metros', 'contractors', 'family blends', 'industries', 'level blends', 'metros', 'ownership', 'stages']);
    const published = requests.flatMap((request) => queryRelease(release, request, { forex: GENERATION_FOREX }).cells).filter((cell) => cell.status === 'published');
    // Enough published cells that the digest pins figures, not only withheld cells.
    expect(published.length).toBeGreaterThan(1000);
  });
});
