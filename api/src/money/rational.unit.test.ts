import { describe, expect, it } from 'vitest';
import { divide, fromDecimal, fromNumber, multiply, round } from './rational.js';

describe('exact money arithmetic', () => {
  it('reads a published rate as the exact decimal it prints as', () => {
    expect(fromNumber(1.1252)).toEqual({ n: 11252n, d: 10000n });
    expect(fromNumber(18606.59)).toEqual({ n: 1860659n, d: 100n });
    expect(fromNumber(1e-7)).toEqual({ n: 1n, d: 10000000n });
  });

  it('rounds halves to even, away from zero, and truncates on request', () => {
    const half = (n: bigint) => ({ n, d: 2n });
    expect(round(half(5n), 'halfEven')).toBe(2n); // 2.5 → 2
    expect(round(half(7n), 'halfEven')).toBe(4n); // 3.5 → 4
    expect(round(half(5n), 'halfUp')).toBe(3n);
    expect(round(half(-5n), 'halfUp')).toBe(-3n);
    expect(round({ n: 29n, d: 10n }, 'down')).toBe(2n);
    expect(round({ n: 21n, d: 10n }, 'up')).toBe(3n);
    expect(round({ n: -21n, d: 10n }, 'up')).toBe(-3n);
  });

  it('cross rates stay exact where doubles would drift', () => {
    // 0.1 + 0.2 style drift: 0.8477 / 1.1252 computed as a fraction, not a double.
    const cross = divide(fromNumber(0.8477), fromNumber(1.1252));
    const cents = round(multiply({ n: 1000000n, d: 1n }, cross), 'halfEven');
    expect(cents).toBe(753377n); // 1,000,000 × 0.8477 / 1.1252 = 753,377.17…
  });
});

describe('decimals written as text', () => {
  it('are read exactly, without passing through a double', () => {
    expect(fromDecimal('1.0850')).toEqual({ n: 10850n, d: 10000n });
    expect(fromDecimal('123456789012.123456789012')).toEqual({ n: 123456789012123456789012n, d: 10n ** 12n });
    expect(fromDecimal('7')).toEqual({ n: 7n, d: 1n });
    expect(fromDecimal('1e3')).toBeUndefined();
    expect(fromDecimal('-1.5')).toBeUndefined();
  });
});
