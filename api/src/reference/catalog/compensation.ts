import type { CompensationType, EquityChoice, EquityViewOption } from './types.js';

/** The comp type whose equity options are fixed (annualized dollar value as intended at grant). */
export const TOTAL_EQUITY_ID = 'total_equity';
/** The comp type priced with the unvested timeframes instead of the normal ones. */
export const UNVESTED_EQUITY_ID = 'unvested_equity';

export const CASH_COMPENSATION_TYPES: readonly CompensationType[] = [
  {
    id: 'base',
    title: 'Base salary',
    description: 'Annual base salary before bonuses, commissions and equity.',
    category: 'cash',
    isRecommended: true,
    isDisabled: false,
  },
  {
    id: 'variable',
    title: 'Variable pay',
    description: 'Annual target commission or other variable pay tied to sales or individual targets.',
    category: 'cash',
    isRecommended: false,
    isDisabled: false,
  },
  {
    id: 'annual_bonus',
    title: 'Annual bonus',
    description: 'Annual target bonus tied to company or individual performance.',
    category: 'cash',
    isRecommended: false,
    isDisabled: false,
  },
  {
    id: 'total_cash',
    title: 'Total cash',
    description: 'Base salary plus target variable pay plus target annual bonus.',
    category: 'cash',
    isRecommended: true,
    isDisabled: false,
  },
  {
    id: 'signing_bonus',
    title: 'Signing bonus',
    description: 'One-time cash paid on joining. Not yet collected from participants.',
    category: 'cash',
    isRecommended: false,
    isDisabled: true,
  },
];

export const EQUITY_COMPENSATION_TYPES: readonly CompensationType[] = [
  {
    id: TOTAL_EQUITY_ID,
    title: 'Total equity',
    description: 'Annualized value of all outstanding grants (each grant divided over its four-year vesting).',
    category: 'equity',
    isRecommended: true,
    isDisabled: false,
  },
  {
    id: 'new_hire_equity',
    title: 'New-hire grant',
    description: 'Equity granted on joining the company.',
    category: 'equity',
    isRecommended: true,
    isDisabled: false,
  },
  {
    id: 'refresher_equity',
    title: 'Refresher grant',
    description: 'Annual or periodic equity granted to retain employees after their first year.',
    category: 'equity',
    isRecommended: false,
    isDisabled: false,
  },
  {
    id: 'promotion_equity',
    title: 'Promotion grant',
    description: 'Equity granted on promotion to a higher level.',
    category: 'equity',
    isRecommended: false,
    isDisabled: false,
  },
  {
    id: 'performance_equity',
    title: 'Performance grant',
    description: 'Equity granted in recognition of exceptional performance.',
    category: 'equity',
    isRecommended: false,
    isDisabled: false,
  },
  {
    id: UNVESTED_EQUITY_ID,
    title: 'Unvested equity',
    description: 'Value of the equity an employee holds that has not vested yet.',
    category: 'equity',
    isRecommended: false,
    isDisabled: false,
  },
];

export const COMPENSATION_TYPES: readonly CompensationType[] = [...CASH_COMPENSATION_TYPES, ...EQUITY_COMPENSATION_TYPES];

export const INTENDED_VS_ACTUAL_OPTIONS: readonly EquityChoice[] = [
  { value: 'intended', label: 'Intended value', description: 'Value at the share price on the grant date.' },
  { value: 'actual', label: 'Actual value', description: "Value at the company's current share price or valuation." },
];

export const EQUITY_TIMEFRAME_OPTIONS: readonly EquityChoice[] = [
  { value: 'annualized', label: 'Annualized', description: 'Grant value divided over its four-year vesting schedule.' },
  { value: 'total_grant', label: 'Total grant', description: 'Full value of the grant over its vesting schedule.' },
];

export const UNVESTED_EQUITY_TIMEFRAME_OPTIONS: readonly EquityChoice[] = [
  { value: 'total_unvested', label: 'All unvested', description: 'Everything still to vest, across all grants.' },
  { value: 'next_12_months', label: 'Next 12 months', description: 'Equity scheduled to vest over the next 12 months.' },
];

const PRIVATE_OWNERSHIP_GROUP_IDS = ['venture_backed', 'private_equity_backed', 'founder_owned'];
const GRANT_TYPE_IDS = ['new_hire_equity', 'refresher_equity', 'promotion_equity', 'performance_equity', UNVESTED_EQUITY_ID];

export const EQUITY_VIEW_OPTIONS: readonly EquityViewOption[] = [
  {
    label: 'Dollar value',
    value: 'value',
    type: 'cash',
    allowedCompanyOwnershipGroupIds: [...PRIVATE_OWNERSHIP_GROUP_IDS, 'public'],
    compensationTypes: GRANT_TYPE_IDS,
    description: 'Equity in currency, at the chosen intended or actual value.',
    isPremium: false,
  },
  {
    label: 'Percent of company',
    value: 'percent_of_company',
    type: 'percent',
    // Ownership percentages only mean something where the cap table is private.
    allowedCompanyOwnershipGroupIds: PRIVATE_OWNERSHIP_GROUP_IDS,
    compensationTypes: GRANT_TYPE_IDS,
    description: "Equity as a percentage of the company's fully diluted valuation at grant.",
    isPremium: true,
  },
];
