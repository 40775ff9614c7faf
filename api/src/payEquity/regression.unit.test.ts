import { describe, expect, it } from 'vitest';
import { type RegressionPerson, adjustedGap } from './regression.js';

const person = (employeeId: string, sex: 'female' | 'male', logPay: number, factors: RegressionPerson['factors']): RegressionPerson => ({ employeeId, sex, pay: Math.exp(logPay), factors });

describe('the adjusted gap on a hand-solved two-factor case', () => {
  /*
   * ln(pay), two people per cell:        junior        senior
   *   men                                 4.0  4.2      5.0  5.2     (cell means 4.1, 5.1)
   *   women                               3.9  4.1      4.7  4.9     (cell means 4.0, 4.8)
   * A balanced design: the woman coefficient is the mean of the within-level differences
   * (−0.1 + −0.3) / 2 = −0.2; the senior coefficient (1.0 + 0.8) / 2 = 0.9; the intercept from the
   * grand mean 4.5 = a + (0 + 0.9 − 0.2 + 0.7) / 4 → a = 4.15.
   * Fitted cell means 4.15, 5.05, 3.95, 4.85: cell residuals ∓0.05, people ±0.1 around them,
   * RSS = 4 × (2 × 0.05² + 2 × 0.1²) = 4 × 0.025 = 0.1; s² = 0.1 / (8 − 3) = 0.02.
   * The woman indicator is orthogonal to seniority: se² = s² / Σ(w − w̄)² = 0.02 / (8 × ¼) = 0.01, se = 0.1.
   * 95 %: −0.2 ± 1.96 × 0.1 = [−0.396, −0.004]. Gap (1 − e^−0.2) = 18.13 %; interval (1 − e^−0.004, 1 − e^−0.396) = 0.40 % to 32.70 %.
   * Decomposition: ȳ_men 4.6, ȳ_women 4.4, raw 0.2; both half senior → explained 0, unexplained 0.2 (= −b).
   */
  const people = [
    person('m1', 'male', 4.0, { level: 'junior' }), person('m2', 'male', 4.2, { level: 'junior' }),
    person('m3', 'male', 5.0, { level: 'senior' }), person('m4', 'male', 5.2, { level: 'senior' }),
    person('w1', 'female', 3.9, { level: 'junior' }), person('w2', 'female', 4.1, { level: 'junior' }),
    person('w3', 'female', 4.7, { level: 'senior' }), person('w4', 'female', 4.9, { level: 'senior' }),
  ];
  const fit = adjustedGap(people, { controls: ['level'] })!;

  it('solves the coefficients, the standard error and the interval', () => {
    expect(fit.coefficient).toBeCloseTo(-0.2, 10);
    expect(fit.coefficients.intercept).toBeCloseTo(4.15, 10);
    // Junior and senior are equally frequent: the reference is the first by name, junior.
    expect(fit.coefficients['level=senior']).toBeCloseTo(0.9, 10);
    expect(fit.standardError).toBeCloseTo(0.1, 10);
    expect(fit.interval[0]).toBeCloseTo(-0.396, 3);
    expect(fit.interval[1]).toBeCloseTo(-0.004, 3);
    expect(fit.adjustedGap).toBe(18.13);
    expect(fit.adjustedGapInterval).toEqual([0.4, 32.7]);
  });

  it('decomposes the raw gap into explained 0 and unexplained 0.2 log points', () => {
    expect(fit.decomposition.raw).toBeCloseTo(0.2, 10);
    expect(fit.decomposition.explained).toBeCloseTo(0, 10);
    expect(fit.decomposition.unexplained).toBeCloseTo(0.2, 10);
  });

  it('predicts pay without the woman term and prices the raises to reach it', () => {
    // w1: predicted e^4.15 (a junior without the woman term), paid e^3.9 → raise e^4.15 − e^3.9.
    const w1 = fit.people.find((entry) => entry.employeeId === 'w1')!;
    expect(w1.predicted).toBeCloseTo(Math.exp(4.15), 8);
    expect(w1.raise).toBeCloseTo(Math.exp(4.15) - Math.exp(3.9), 8);
    expect(w1.residual).toBeCloseTo(3.9 - 3.95, 10);
    // Every woman is under her prediction (3.9 < 4.15, 4.1 < 4.15, 4.7 < 5.05, 4.9 < 5.05): four raises.
    const expected = Math.exp(4.15) - Math.exp(3.9) + Math.exp(4.15) - Math.exp(4.1) + Math.exp(5.05) - Math.exp(4.7) + Math.exp(5.05) - Math.exp(4.9);
    expect(fit.costToClose.people).toBe(4);
    expect(fit.costToClose.total).toBeCloseTo(expected, 8);
    expect(fit.people.filter((entry) => entry.sex === 'male').every((entry) => entry.raise === 0)).toBe(true);
  });
});

/** A plain normal-equations solve by Gauss–Jordan elimination with partial pivoting: independent of ml-matrix. */
function normalEquations(x: number[][], y: number[]): number[] {
  const p = x[0]!.length;
  const a = Array.from({ length: p }, (_, i) => [...Array.from({ length: p }, (_, j) => x.reduce((sum, row) => sum + row[i]! * row[j]!, 0)), x.reduce((sum, row, r) => sum + row[i]! * y[r]!, 0)]);
  for (let col = 0; col < p; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < p; r += 1) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < p; r += 1) {
      if (r === col) continue;
      const factor = a[r]![col]! / a[col]![col]!;
      for (let c = col; c <= p; c += 1) a[r]![c]! -= factor * a[col]![c]!;
    }
  }
  return a.map((row, i) => row[p]! / row[i]!);
}

describe('against an independent normal-equations solve', () => {
  it('agrees on 400 unbalanced people with a categorical and a numeric control', () => {
    // A deterministic generator: levels unevenly shared by sex, tenure in years, noise.
    let seed = 7;
    const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    const people: RegressionPerson[] = [];
    for (let i = 0; i < 400; i += 1) {
      const sex = next() < 0.45 ? 'female' : 'male';
      const level = ['p1', 'p2', 'p3'][Math.min(2, Math.floor(next() * (sex === 'female' ? 2.6 : 3)))]!;
      const tenure = Math.round(next() * 100) / 10;
      const logPay = 11 + (level === 'p2' ? 0.2 : level === 'p3' ? 0.45 : 0) + 0.01 * tenure - (sex === 'female' ? 0.04 : 0) + (next() - 0.5) * 0.1;
      people.push(person(`e${i}`, sex, logPay, { level, tenure }));
    }
    const fit = adjustedGap(people, { controls: ['level', 'tenure'] })!;
    const names = Object.keys(fit.coefficients);
    const x = people.map((entry) => names.map((name) => {
      if (name === 'intercept') return 1;
      if (name === 'woman') return entry.sex === 'female' ? 1 : 0;
      if (name === 'tenure') return entry.factors.tenure as number;
      return `level=${String(entry.factors.level)}` === name ? 1 : 0;
    }));
    const solved = normalEquations(x, people.map((entry) => Math.log(entry.pay)));
    names.forEach((name, j) => expect(fit.coefficients[name]).toBeCloseTo(solved[j]!, 9));
    // The decomposition's two parts add up to the raw gap, the unexplained part being −b.
    expect(fit.decomposition.explained + fit.decomposition.unexplained).toBeCloseTo(fit.decomposition.raw, 12);
    expect(fit.decomposition.unexplained).toBeCloseTo(-fit.coefficient, 9);
    expect(fit.coefficient).toBeGreaterThan(-0.06);
    expect(fit.coefficient).toBeLessThan(-0.02);
  });
});
