import { JOB_FAMILIES, type JobFamily } from '../catalog/index.js';
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

/** What a family's base pay is calibrated to: the wage distribution of its occupations. */
export interface FamilyWageTarget {
  familyId: string;
  median: number;
  p25: number;
  p75: number;
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

interface LogNormalPart {
  weight: number;
  mu: number;
  sigma: number;
}

/**
 * Each occupation as a log-normal fitted to its median and quartiles, mixed by the family's shares.
 * A top-coded quartile is a lower bound, so its spread is a lower bound too.
 */
export function familyWageTarget(family: JobFamily, occupations: ReadonlyMap<string, BlsOccupation>): FamilyWageTarget {
  const parts: LogNormalPart[] = family.socCodes.map(({ code, share }) => {
    const occupation = occupations.get(code);
    if (!occupation?.median) throw new Error(`BLS has no median wage for ${code} (${family.id})`);
    const median = occupation.median.value;
    const p25 = occupation.p25?.value ?? median * 0.78;
    const p75 = occupation.p75?.value ?? median * 1.28;
    return { weight: share, mu: Math.log(median), sigma: Math.max(0.05, (Math.log(p75) - Math.log(p25)) / IQR_IN_SIGMAS) };
  });
  const median = mixtureQuantile(parts, 0.5);
  const p25 = mixtureQuantile(parts, 0.25);
  const p75 = mixtureQuantile(parts, 0.75);
  return { familyId: family.id, median, p25, p75, sigma: (Math.log(p75) - Math.log(p25)) / IQR_IN_SIGMAS };
}

export function familyWageTargets(occupations: ReadonlyMap<string, BlsOccupation> = readBlsOccupations()): Map<string, FamilyWageTarget> {
  return new Map(JOB_FAMILIES.map((family) => [family.id, familyWageTarget(family, occupations)]));
}

/** The q-quantile of a log-normal mixture, by bisection on the log scale. */
function mixtureQuantile(parts: LogNormalPart[], q: number): number {
  const total = parts.reduce((sum, part) => sum + part.weight, 0);
  const cdf = (x: number): number => parts.reduce((sum, p) => sum + p.weight * normalCdf((x - p.mu) / p.sigma), 0) / total;
  let low = Math.min(...parts.map((p) => p.mu - 6 * p.sigma));
  let high = Math.max(...parts.map((p) => p.mu + 6 * p.sigma));
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
