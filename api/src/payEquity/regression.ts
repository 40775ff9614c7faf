import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import { round2 } from './engine.js';

/*
 * The adjusted gap and its causes. Ordinary least squares of ln(pay) on an intercept, a woman
 * indicator and the controls the company chooses (categorical controls as indicators against
 * their most frequent value, numeric ones as they are). The woman coefficient b is the adjusted
 * gap: women earn exp(b) − 1 relative to men with the same controls, stated as a gap
 * (1 − exp(b)) × 100 like the raw gap. Its 95 % interval is b ± 1.96 × se(b) with
 * se² = s² [(XᵀX)⁻¹]_bb, s² = RSS ÷ (n − rank). The linear algebra (XᵀX's pseudo-inverse by
 * singular value decomposition, so controls that repeat each other do not fail the solve) is
 * ml-matrix's.
 *
 * Blinder–Oaxaca, twofold with the pooled coefficients of this same regression: because the
 * intercept and the woman indicator are in it, the residuals average zero for women and for men, so
 * the raw gap in logs ȳ_men − ȳ_women = (x̄_men − x̄_women)·β_controls − b exactly: the first term
 * is explained by the controls (endowments), −b is unexplained.
 */

export type FactorValue = string | number | null;

export interface RegressionPerson {
  employeeId: string;
  sex: 'female' | 'male';
  /** Annual pay, > 0. */
  pay: number;
  /** The controls' values, by control name: strings are categorical, numbers numeric. */
  factors: Record<string, FactorValue>;
}

export interface PersonFit {
  employeeId: string;
  sex: 'female' | 'male';
  pay: number;
  /** exp(x·β) without the woman term: what the controls predict, the same for a woman and a man. */
  predicted: number;
  /** ln(pay) − x·β (with the woman term). */
  residual: number;
  /** The raise that brings a woman paid under her prediction (by more than the threshold) to it; 0 otherwise. */
  raise: number;
}

export interface AdjustedGap {
  n: number;
  controls: string[];
  /** Columns of the design (intercept, woman, indicators, numerics) and the rank reached. */
  columns: number;
  rank: number;
  rSquared: number | null;
  /** The woman coefficient in log points, its standard error and 95 % interval. */
  coefficient: number;
  standardError: number;
  interval: [number, number];
  /** (1 − exp(b)) × 100 and its interval, percent of men's pay, rounded to 0.01. */
  adjustedGap: number;
  adjustedGapInterval: [number, number];
  decomposition: { raw: number; explained: number; unexplained: number; rawGap: number; explainedShare: number | null };
  costToClose: { total: number; people: number };
  people: PersonFit[];
  /** Coefficients by column name. */
  coefficients: Record<string, number>;
}

interface Column {
  name: string;
  value: (person: RegressionPerson) => number;
}

/** The design's columns: intercept, woman, then each categorical control's values but its most frequent, then numeric controls. */
function columnsOf(people: readonly RegressionPerson[], controls: readonly string[]): Column[] {
  const columns: Column[] = [
    { name: 'intercept', value: () => 1 },
    { name: 'woman', value: (person) => (person.sex === 'female' ? 1 : 0) },
  ];
  for (const control of controls) {
    const numeric = people.every((person) => typeof person.factors[control] === 'number');
    if (numeric) {
      columns.push({ name: control, value: (person) => person.factors[control] as number });
      continue;
    }
    const frequency = new Map<string, number>();
    for (const person of people) {
      const key = String(person.factors[control] ?? '(none)');
      frequency.set(key, (frequency.get(key) ?? 0) + 1);
    }
    const values = [...frequency.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([key]) => key);
    for (const key of values.slice(1)) columns.push({ name: `${control}=${key}`, value: (person) => (String(person.factors[control] ?? '(none)') === key ? 1 : 0) });
  }
  return columns;
}

const Z95 = 1.959963984540054;

export function adjustedGap(people: readonly RegressionPerson[], options: { controls: readonly string[]; threshold?: number }): AdjustedGap | null {
  const women = people.filter((person) => person.sex === 'female').length;
  const men = people.length - women;
  if (women === 0 || men === 0) return null;
  const columns = columnsOf(people, options.controls);
  const p = columns.length;
  const n = people.length;
  // XᵀX and Xᵀy, accumulated row by row (the design itself is never kept).
  const xtx = new Float64Array(p * p);
  const xty = new Float64Array(p);
  const row = new Float64Array(p);
  const ys = new Float64Array(n);
  let ySum = 0;
  people.forEach((person, index) => {
    for (let j = 0; j < p; j += 1) row[j] = columns[j]!.value(person);
    const y = Math.log(person.pay);
    ys[index] = y;
    ySum += y;
    for (let j = 0; j < p; j += 1) {
      const rj = row[j]!;
      if (rj === 0) continue;
      xty[j]! += rj * y;
      for (let k = j; k < p; k += 1) xtx[j * p + k]! += rj * row[k]!;
    }
  });
  const gram = new Matrix(p, p);
  for (let j = 0; j < p; j += 1) for (let k = j; k < p; k += 1) {
    gram.set(j, k, xtx[j * p + k]!);
    gram.set(k, j, xtx[j * p + k]!);
  }
  const svd = new SingularValueDecomposition(gram, { autoTranspose: true });
  const inverse = svd.inverse();
  const beta = inverse.mmul(Matrix.columnVector(Array.from(xty))).to1DArray();
  const rank = svd.rank;
  // Residuals, fitted values and the decomposition's means.
  let rss = 0;
  const meanMen = new Float64Array(p);
  const meanWomen = new Float64Array(p);
  let yMen = 0;
  let yWomen = 0;
  const fitsWithoutWoman: number[] = [];
  const residuals: number[] = [];
  people.forEach((person, index) => {
    let fit = 0;
    for (let j = 0; j < p; j += 1) {
      row[j] = columns[j]!.value(person);
      fit += row[j]! * beta[j]!;
    }
    const residual = ys[index]! - fit;
    rss += residual * residual;
    residuals.push(residual);
    fitsWithoutWoman.push(fit - row[1]! * beta[1]!);
    const target = person.sex === 'female' ? meanWomen : meanMen;
    for (let j = 0; j < p; j += 1) target[j]! += row[j]!;
    if (person.sex === 'female') yWomen += ys[index]!;
    else yMen += ys[index]!;
  });
  const yMean = ySum / n;
  let tss = 0;
  for (const y of ys) tss += (y - yMean) ** 2;
  const dof = n - rank;
  const s2 = dof > 0 ? rss / dof : 0;
  const b = beta[1]!;
  const se = Math.sqrt(Math.max(0, s2 * inverse.get(1, 1)));
  const interval: [number, number] = [b - Z95 * se, b + Z95 * se];
  const gapOf = (logPoints: number): number => round2((1 - Math.exp(logPoints)) * 100);
  let explained = 0;
  for (let j = 2; j < p; j += 1) explained += (meanMen[j]! / men - meanWomen[j]! / women) * beta[j]!;
  const raw = yMen / men - yWomen / women;
  const threshold = (options.threshold ?? 0) / 100;
  let total = 0;
  let raised = 0;
  const fits: PersonFit[] = people.map((person, index) => {
    const predicted = Math.exp(fitsWithoutWoman[index]!);
    const raise = person.sex === 'female' && person.pay < predicted * (1 - threshold) ? predicted - person.pay : 0;
    if (raise > 0) {
      total += raise;
      raised += 1;
    }
    return { employeeId: person.employeeId, sex: person.sex, pay: person.pay, predicted, residual: residuals[index]!, raise };
  });
  return {
    n,
    controls: [...options.controls],
    columns: p,
    rank,
    rSquared: tss > 0 ? 1 - rss / tss : null,
    coefficient: b,
    standardError: se,
    interval,
    adjustedGap: gapOf(b),
    // A higher coefficient is a smaller gap: the interval's ends swap.
    adjustedGapInterval: [gapOf(interval[1]), gapOf(interval[0])],
    decomposition: { raw, explained, unexplained: raw - explained, rawGap: gapOf(-raw), explainedShare: raw !== 0 ? round2((explained / raw) * 100) : null },
    costToClose: { total, people: raised },
    people: fits,
    coefficients: Object.fromEntries(columns.map((column, j) => [column.name, beta[j]!])),
  };
}
