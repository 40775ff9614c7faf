import { JOB_FAMILIES, type JobFamily } from '../../reference/catalog/index.js';
import { readReferenceCsv } from '../../reference/files.js';

export const BLS_WAGE_FILE = 'national_M2023_dl.csv';
/** BLS publishes no wage above this; a '#' cell means "at least this much". */
export const BLS_TOP_CODE = 239_200;
const HOURS_PER_YEAR = 2080;

export interface BlsWage {
  /** Annual wage; censored when the file top-codes it. */
  value: number;
  censored: boolean;
}

export interface BlsOccupation {
  code: string;
  title: string;
  employment: number;
  p10: BlsWage | null;
  p25: BlsWage | null;
  median: BlsWage | null;
  p75: BlsWage | null;
  p90: BlsWage | null;
}

/** The percentiles BLS publishes, which a family's generated US base pay is mapped onto. */
export const BLS_PERCENTILES = [10, 25, 50, 75, 90] as const;

/** What a family's base pay is calibrated to: the wage distribution of its occupations. */
export interface FamilyWageTarget {
  familyId: string;
  p10: number;
  p25: number;
  median: number;
  p75: number;
  p90: number;
  /** Log-scale spread implied by the interquartile range. */
  sigma: number;
}

/** Parses one cell: quoted thousands separators, '*' for no estimate, '#' for top-coded. */
export function parseBlsWage(cell: string | undefined): BlsWage | null {
  const text = (cell ?? '').trim();
  if (text === '' || text === '*' || text === '**') return null;
  if (text === '#') return { value: BLS_TOP_CODE, censored: true };
  const value = Number(text.replaceAll(',', ''));
  return Number.isFinite(value) ? { value, censored: false } : null;
}

function annualWage(row: Record<string, string>, annual: string, hourly: string): BlsWage | null {
  const wage = parseBlsWage(row[annual]);
  if (wage) return wage;
  const perHour = parseBlsWage(row[hourly]);
  return perHour ? { value: perHour.value * HOURS_PER_YEAR, censored: perHour.censored } : null;
}

/** Detailed occupations of the national cross-industry file, by SOC code. */
export function readBlsOccupations(rows: Record<string, string>[] = readReferenceCsv(BLS_WAGE_FILE)): Map<string, BlsOccupation> {
  const occupations = new Map<string, BlsOccupation>();
  for (const row of rows) {
    if (row.O_GROUP !== 'detailed' || row.AREA_TYPE !== '1') continue;
    const code = row.OCC_CODE ?? '';
    occupations.set(code, {
      code,
      title: row.OCC_TITLE ?? code,
      employment: parseBlsWage(row.TOT_EMP)?.value ?? 0,
      p10: annualWage(row, 'A_PCT10', 'H_PCT10'),
      p25: annualWage(row, 'A_PCT25', 'H_PCT25'),
      median: annualWage(row, 'A_MEDIAN', 'H_MEDIAN'),
      p75: annualWage(row, 'A_PCT75', 'H_PCT75'),
      p90: annualWage(row, 'A_PCT90', 'H_PCT90'),
    });
  }
  return occupations;
}

// 2 × the standard normal's 75th percentile: an interquartile range in sigmas.
const IQR_IN_SIGMAS = 1.3489795;
/** Standard normal quantiles of the published percentiles. */
const Z = { 10: -1.2815516, 25: -0.6744898, 50: 0, 75: 0.6744898, 90: 1.2815516 } as const;

/**
 * One occupation's wage distribution through its five published percentiles: log wage is piecewise
 * linear in the normal score between them (a log-normal where they agree with one), continued
 * with the end pieces' slopes beyond p10 and p90.
 */
interface OccupationCurve {
  weight: number;
  /** Log wages at z = Z[10], Z[25], 0, Z[75], Z[90]. */
  logWages: number[];
}

const ZS = BLS_PERCENTILES.map((p) => Z[p]);

/**
 * A top-coded or missing percentile is read from the log-normal through the median and quartiles
 * (BLS top-codes at 239,200 a year, so a lawyer's p90 is only "at least" that); never below what
 * BLS printed.
 */
function occupationCurve(code: string, share: number, occupation: BlsOccupation | undefined, familyId: string): OccupationCurve {
  if (!occupation?.median) throw new Error(`BLS has no median wage for ${code} (${familyId})`);
  const median = occupation.median.value;
  const p25 = occupation.p25?.value ?? median * 0.78;
  const p75 = occupation.p75?.value ?? median * 1.28;
  const sigma = Math.max(0.05, (Math.log(p75) - Math.log(p25)) / IQR_IN_SIGMAS);
  const fitted = (z: number) => median * Math.exp(sigma * z);
  const wage = (published: BlsWage | null, z: number): number => {
    if (!published) return fitted(z);
    return published.censored ? Math.max(published.value, fitted(z)) : published.value;
  };
  const wages = [wage(occupation.p10, Z[10]), wage(occupation.p25, Z[25]), median, wage(occupation.p75, Z[75]), wage(occupation.p90, Z[90])];
  // Keep the curve rising even where a fitted value would cross a printed one.
  for (let k = 1; k < wages.length; k++) wages[k] = Math.max(wages[k]!, wages[k - 1]! * 1.001);
  return { weight: share, logWages: wages.map(Math.log) };
}

/** The normal score at which the curve reaches a log wage. */
function scoreAt(curve: OccupationCurve, logWage: number): number {
  const w = curve.logWages;
  const last = w.length - 1;
  let k = 0;
  while (k < last - 1 && logWage > w[k + 1]!) k++;
  const slope = (ZS[k + 1]! - ZS[k]!) / (w[k + 1]! - w[k]!);
  return ZS[k]! + (logWage - w[k]!) * slope;
}

/**
 * Each occupation through its published percentiles, mixed by the family's shares: the family's
 * p10, quartiles, median and p90. A single occupation's are BLS's own.
 */
export function familyWageTarget(family: JobFamily, occupations: ReadonlyMap<string, BlsOccupation>): FamilyWageTarget {
  const curves = family.socCodes.map(({ code, share }) => occupationCurve(code, share, occupations.get(code), family.id));
  const [p10, p25, median, p75, p90] = BLS_PERCENTILES.map((p) => mixtureQuantile(curves, p / 100));
  return { familyId: family.id, p10: p10!, p25: p25!, median: median!, p75: p75!, p90: p90!, sigma: (Math.log(p75!) - Math.log(p25!)) / IQR_IN_SIGMAS };
}

export function familyWageTargets(occupations: ReadonlyMap<string, BlsOccupation> = readBlsOccupations()): Map<string, FamilyWageTarget> {
  return new Map(JOB_FAMILIES.map((family) => [family.id, familyWageTarget(family, occupations)]));
}

/** The q-quantile of a mixture of occupation curves, by bisection on the log scale. */
function mixtureQuantile(curves: OccupationCurve[], q: number): number {
  const total = curves.reduce((sum, curve) => sum + curve.weight, 0);
  const cdf = (x: number): number => curves.reduce((sum, c) => sum + c.weight * normalCdf(scoreAt(c, x)), 0) / total;
  let low = Math.min(...curves.map((c) => c.logWages[0]!)) - 3;
  let high = Math.max(...curves.map((c) => c.logWages[c.logWages.length - 1]!)) + 3;
  for (let i = 0; i < 100; i++) {
    const middle = (low + high) / 2;
    if (cdf(middle) < q) low = middle;
    else high = middle;
  }
  return Math.exp((low + high) / 2);
}

/** Standard normal CDF via erf (Abramowitz & Stegun 7.1.26, error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
