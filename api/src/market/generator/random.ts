/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) so a market is the same on every machine
 * and every run for the same seed; Math.random would not be.
 */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Standard normal. */
  normal(): number;
  /** exp(N(log(median), sigma)): right-skewed like pay. */
  logNormal(median: number, sigma: number): number;
  chance(probability: number): boolean;
  /** An index drawn from cumulative weights (ascending, last = total). */
  pick(cumulative: Float64Array): number;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRandom(seed: number): Random {
  const init = splitmix32(seed);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  let spare: number | null = null;

  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };

  const normal = (): number => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    // Box–Muller; 1 - next() keeps the logarithm's argument above zero.
    const radius = Math.sqrt(-2 * Math.log(1 - next()));
    const angle = 2 * Math.PI * next();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };

  return {
    next,
    normal,
    logNormal: (median, sigma) => median * Math.exp(sigma * normal()),
    chance: (probability) => next() < probability,
    pick: (cumulative) => {
      const target = next() * cumulative[cumulative.length - 1]!;
      let low = 0;
      let high = cumulative.length - 1;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (cumulative[middle]! > target) high = middle;
        else low = middle + 1;
      }
      return low;
    },
  };
}

/** Cumulative sums of weights, the form Random.pick draws from. */
export function cumulative(weights: readonly number[]): Float64Array {
  const sums = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((weight, i) => {
    total += Math.max(0, weight);
    sums[i] = total;
  });
  if (total <= 0) throw new Error('Weights must not all be zero');
  return sums;
}
