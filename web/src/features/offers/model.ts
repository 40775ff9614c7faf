import { formatMajor, formatPrice } from '../../ui/format';
// The arithmetic of an offer letter, apart from how the contract spells it: amounts are in major
// units of the package's currency (dollars, not cents), shares are counts. The letter, the builder's
// preview and the comparison of alternatives all draw from these, so they always agree.

export type GrantType = 'option' | 'rsu';

/** An equity grant as the letter explains it. */
export interface GrantView {
  type: GrantType;
  shares: number;
  /** What an option costs to buy per share (options only). */
  strikePrice: number | null;
  /** Months before anything vests; at the cliff, the months so far vest at once. */
  cliffMonths: number;
  /** Months until everything has vested (48 for four years). */
  vestingMonths: number;
  /** How often what has been earned vests after the cliff. */
  frequency: VestingFrequency;
  /** The currency of the strike and of share prices (the company's). */
  currency: string;
}

export type VestingFrequency = 'monthly' | 'quarterly' | 'annually';

const MONTHS_PER_STEP: Record<VestingFrequency, number> = { monthly: 1, quarterly: 3, annually: 12 };

/** "month by month", "quarter by quarter", "year by year". */
export const stepText = (frequency: VestingFrequency): string => ({ monthly: 'month by month', quarterly: 'quarter by quarter', annually: 'year by year' })[frequency];

/** A package as the letter shows it: yearly cash and an equity grant. */
export interface PackageView {
  key: string;
  label: string;
  currency: string;
  base: number;
  /** The bonus at target, a year. */
  bonusTarget: number;
  variable: number;
  signOn: number;
  grant: GrantView | null;
}

/** Whether the grant's value can be added to the package's cash (both in one currency). */
export const equityAddsUp = (pkg: PackageView): boolean => pkg.grant !== null && pkg.grant.currency === pkg.currency;

export const YEARS = [1, 2, 3, 4] as const;

/**
 * The share of a grant vested after `months`: nothing before the cliff, the months so far at the
 * cliff, then at every step (month, quarter or year) to the end.
 */
export function vestedShare(months: number, grant: Pick<GrantView, 'cliffMonths' | 'vestingMonths' | 'frequency'>): number {
  if (months < 0) return 0;
  if (grant.vestingMonths <= 0) return 1;
  if (months < grant.cliffMonths) return 0;
  const step = MONTHS_PER_STEP[grant.frequency];
  const vestedMonths = Math.max(grant.cliffMonths, Math.floor(months / step) * step);
  return Math.min(1, vestedMonths / grant.vestingMonths);
}

/** Shares that vest in each of the first four years. */
export function sharesVestingByYear(grant: GrantView): number[] {
  return YEARS.map((year) => grant.shares * (vestedShare(year * 12, grant) - vestedShare((year - 1) * 12, grant)));
}

/**
 * What one share of the grant is worth at a price per share: an RSU is worth the price; an option
 * the price less its strike — never less than nothing, since nobody buys a share for more than it is worth.
 */
export function valuePerShare(grant: Pick<GrantView, 'type' | 'strikePrice'>, pricePerShare: number): number {
  if (grant.type === 'option') return Math.max(0, pricePerShare - (grant.strikePrice ?? 0));
  return Math.max(0, pricePerShare);
}

/** Whether the price leaves the options worth nothing (at or below the strike). */
export const underwater = (grant: Pick<GrantView, 'type' | 'strikePrice'>, pricePerShare: number): boolean =>
  grant.type === 'option' && pricePerShare <= (grant.strikePrice ?? 0);

/** The grant's value vesting in each of the first four years at a price per share. */
export function equityByYear(grant: GrantView | null, pricePerShare: number): number[] {
  if (!grant) return YEARS.map(() => 0);
  const perShare = valuePerShare(grant, pricePerShare);
  return sharesVestingByYear(grant).map((shares) => shares * perShare);
}

/** The grant's value over the first four years at a price per share. */
export const equityOverFourYears = (grant: GrantView | null, pricePerShare: number): number => equityByYear(grant, pricePerShare).reduce((sum, value) => sum + value, 0);

export interface YearOfPay {
  year: string;
  base: number;
  bonusTarget: number;
  variable: number;
  signOn: number;
  equity: number;
  total: number;
}

/** The package year by year: cash every year, the sign-on bonus in the first, equity as it vests. */
export function packageByYear(pkg: PackageView, pricePerShare: number): YearOfPay[] {
  const equity = equityByYear(equityAddsUp(pkg) ? pkg.grant : null, pricePerShare);
  return YEARS.map((year, index) => {
    const signOn = year === 1 ? pkg.signOn : 0;
    const vested = equity[index] ?? 0;
    return { year: `Year ${year}`, base: pkg.base, bonusTarget: pkg.bonusTarget, variable: pkg.variable, signOn, equity: vested, total: pkg.base + pkg.bonusTarget + pkg.variable + signOn + vested };
  });
}

/** The package's worth over four years at a price per share. */
export const fourYearTotal = (pkg: PackageView, pricePerShare: number): number => packageByYear(pkg, pricePerShare).reduce((sum, year) => sum + year.total, 0);

/** The first year's cash: base, bonus at target, variable and the sign-on bonus. */
export const firstYearCash = (pkg: PackageView): number => pkg.base + pkg.bonusTarget + pkg.variable + pkg.signOn;

/** A figure in major units: whole units (a salary, a package), or the currency's own decimals when asked. */
export const money = (value: number, currency: string, digits = 0): string => formatMajor(value, currency, digits === 0 ? 'whole' : 'minor');

/** A price per share: the currency's decimals shown, more (up to four) only where the price has them. */
export const sharePrice = (value: number, currency: string): string => formatPrice(value, currency, 4);

export const shareCount = (value: number): string => new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 }).format(value);

/** A multiple as people say it: 1×, 2.5×. */
export const multipleText = (value: number): string => `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(value)}×`;

/** "1 year", "18 months". */
export function durationText(months: number): string {
  if (months % 12 === 0) {
    const years = months / 12;
    return years === 1 ? '1 year' : `${years} years`;
  }
  return months === 1 ? '1 month' : `${months} months`;
}
