import type { NamedOption } from './types.js';

/** How companies grant equity: the vocabulary of equity practices. Grant timing is GRANT_TIMING. */

export const GRANT_TYPES: readonly NamedOption[] = [
  { id: 'stock_options', displayString: 'Stock options', description: 'The right to buy shares at a fixed strike price (ISOs and NSOs).' },
  { id: 'rsu', displayString: 'Restricted stock units', description: 'Shares delivered as they vest, with no purchase price.' },
  { id: 'rsa', displayString: 'Restricted stock awards', description: 'Shares owned from the grant, subject to vesting and repurchase.' },
];

export const VESTING_SCHEDULES: readonly NamedOption[] = [
  { id: 'four_year_even', displayString: '4 years, even', description: 'A quarter of the grant each year for four years.' },
  { id: 'four_year_back_weighted', displayString: '4 years, back-weighted', description: 'More of the grant vests in the later years (for example 10/20/30/40).' },
  { id: 'three_year_even', displayString: '3 years, even', description: 'A third of the grant each year for three years.' },
  { id: 'one_year', displayString: '1 year', description: 'Grants made every year that vest within the year.' },
  { id: 'five_year_even', displayString: '5 years, even', description: 'A fifth of the grant each year for five years.' },
];

export const VESTING_CLIFFS: readonly (NamedOption & { months: number })[] = [
  { id: 'no_cliff', displayString: 'No cliff', description: 'Vesting starts with the first period.', months: 0 },
  { id: 'six_month_cliff', displayString: '6-month cliff', description: 'Nothing vests for six months, then six months vest at once.', months: 6 },
  { id: 'one_year_cliff', displayString: '1-year cliff', description: 'Nothing vests for a year, then a year vests at once.', months: 12 },
];

export const VESTING_FREQUENCIES: readonly NamedOption[] = [
  { id: 'monthly', displayString: 'Monthly', description: 'After any cliff, a slice vests every month.' },
  { id: 'quarterly', displayString: 'Quarterly', description: 'After any cliff, a slice vests every quarter.' },
  { id: 'annually', displayString: 'Annually', description: 'After any cliff, a slice vests once a year.' },
];
