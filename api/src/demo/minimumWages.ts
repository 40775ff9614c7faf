/**
 * The legal minimum wage of each country the demo company employs people in, as an hourly rate from
 * a date, with where it is published. A full-time year is 40 hours × 52 weeks (2,080 hours), the most
 * any of these countries' full-time weeks comes to, so the annual figure is never understated.
 */
export interface MinimumWage {
  /** ISO 3166-1 alpha-2. */
  country: string;
  currency: string;
  /** Minor units an hour. */
  hourly: number;
  effectiveFrom: string;
  source: string;
}

export const FULL_TIME_HOURS_A_YEAR = 2080;

export const MINIMUM_WAGES: readonly MinimumWage[] = [
  { country: 'US', currency: 'USD', hourly: 725, effectiveFrom: '2009-07-24', source: 'Fair Labor Standards Act §6(a)(1), federal minimum wage — U.S. Department of Labor, dol.gov/agencies/whd/minimum-wage' },
  { country: 'GB', currency: 'GBP', hourly: 1221, effectiveFrom: '2025-04-01', source: 'National Living Wage (21 and over) — GOV.UK, gov.uk/national-minimum-wage-rates' },
  { country: 'CA', currency: 'CAD', hourly: 1775, effectiveFrom: '2025-04-01', source: 'Federal minimum wage, Canada Labour Code — Government of Canada, canada.ca/en/employment-social-development/programs/employment-standards/federal-minimum-wage.html' },
];

/** The country's full-time annual minimum in force on the day, in minor units of its currency; null for a country not in the table. */
export function annualMinimum(country: string, day: string): { amount: number; currency: string } | null {
  const rows = MINIMUM_WAGES.filter((row) => row.country === country && row.effectiveFrom <= day).sort((a, b) => b.effectiveFrom.localeCompare(a.effectiveFrom));
  const row = rows[0] ?? MINIMUM_WAGES.find((candidate) => candidate.country === country);
  return row ? { amount: row.hourly * FULL_TIME_HOURS_A_YEAR, currency: row.currency } : null;
}
