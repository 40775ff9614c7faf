// The one chart theme: the spec's compensation colour groups, and the number formats every chart's
// axes, tooltips and text alternatives use. No recharts here, so screens may import it eagerly; the
// drawing itself is in Charts.tsx, loaded with the screens that draw.

import { formatMajor } from '../format';

/** The compensation colour groups of the spec (§3). */
export type CompGroup =
  | 'base'
  | 'commonStock'
  | 'option'
  | 'performance'
  | 'newHireEquity'
  | 'rsa'
  | 'rsu'
  | 'variable'
  | 'annualBonus'
  | 'bonus'
  | 'benefits'
  | 'total_cash'
  | 'other'
  | 'equityPerformanceShares'
  | 'equityPromotionShares'
  | 'equityRefresherShares';

/** Future modelling's groups (spec §3). */
export type FutureGroup = 'future.cash' | 'future.equity' | 'future.other';

export type ColourGroup = CompGroup | FutureGroup;

interface GroupInfo {
  label: string;
  /** The CSS custom property in ui/tokens.css (light and dark). */
  token: string;
  family: 'cash' | 'equity' | 'other';
}

export const COLOUR_GROUPS: Record<ColourGroup, GroupInfo> = {
  base: { label: 'Base salary', token: '--comp-base', family: 'cash' },
  total_cash: { label: 'Total cash', token: '--comp-total-cash', family: 'cash' },
  variable: { label: 'Variable pay', token: '--comp-variable', family: 'cash' },
  bonus: { label: 'Bonus', token: '--comp-bonus', family: 'cash' },
  annualBonus: { label: 'Annual bonus', token: '--comp-annual-bonus', family: 'cash' },
  performance: { label: 'Performance pay', token: '--comp-performance', family: 'cash' },
  benefits: { label: 'Benefits', token: '--comp-benefits', family: 'other' },
  other: { label: 'Other', token: '--comp-other', family: 'other' },
  option: { label: 'Stock options', token: '--comp-option', family: 'equity' },
  rsu: { label: 'RSUs', token: '--comp-rsu', family: 'equity' },
  rsa: { label: 'Restricted stock', token: '--comp-rsa', family: 'equity' },
  commonStock: { label: 'Common stock', token: '--comp-common-stock', family: 'equity' },
  newHireEquity: { label: 'New-hire equity', token: '--comp-new-hire-equity', family: 'equity' },
  equityPerformanceShares: { label: 'Performance equity', token: '--comp-equity-performance-shares', family: 'equity' },
  equityPromotionShares: { label: 'Promotion equity', token: '--comp-equity-promotion-shares', family: 'equity' },
  equityRefresherShares: { label: 'Refresher equity', token: '--comp-equity-refresher-shares', family: 'equity' },
  'future.cash': { label: 'Cash', token: '--comp-future-cash', family: 'cash' },
  'future.equity': { label: 'Equity', token: '--comp-future-equity', family: 'equity' },
  'future.other': { label: 'Other', token: '--comp-future-other', family: 'other' },
};

/** A group's colour as a CSS value; SVG fills and strokes take it as they are, so dark mode follows. */
export const colourOf = (group: ColourGroup): string => `var(${COLOUR_GROUPS[group].token})`;

/** Counts and ratios that are not pay (headcount, tenure): the accent. */
export const NEUTRAL = 'var(--chart-neutral)';

/**
 * Which group a kind of pay belongs to, for every id the product uses: the market's compensation
 * types, pay-record types and equity-grant types. Totals of equity have no group of their own in
 * the spec; they take future modelling's "equity", which stands for equity as a whole.
 */
const GROUP_OF: Record<string, ColourGroup> = {
  // market compensation types
  base: 'base',
  variable: 'variable',
  annual_bonus: 'annualBonus',
  total_cash: 'total_cash',
  signing_bonus: 'bonus',
  total_equity: 'future.equity',
  unvested_equity: 'future.equity',
  new_hire_equity: 'newHireEquity',
  refresher_equity: 'equityRefresherShares',
  promotion_equity: 'equityPromotionShares',
  performance_equity: 'equityPerformanceShares',
  // pay records
  base_salary: 'base',
  bonus_target: 'annualBonus',
  variable_pay: 'variable',
  commission: 'performance',
  benefits: 'benefits',
  // equity grants
  option: 'option',
  rsu: 'rsu',
  rsa: 'rsa',
  common_stock: 'commonStock',
};

export const groupOf = (kind: string): ColourGroup => GROUP_OF[kind] ?? 'other';

/**
 * Shades of one group for a series of the same kind (percentiles, several grants): the group's
 * colour, lighter towards the start. Opacity keeps it the same hue in light and dark.
 */
export function shadeOpacity(index: number, count: number): number {
  if (count <= 1) return 1;
  return 0.4 + (0.6 * index) / (count - 1);
}

// ── number formats ───────────────────────────────────────────────────────────────────────────

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let format = formatters.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(undefined, options);
    } catch {
      format = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
    }
    formatters.set(key, format);
  }
  return format;
}

export type Unit = { kind: 'money'; currency: string } | { kind: 'count' } | { kind: 'number'; digits?: number } | { kind: 'ratio' } | { kind: 'percent' };

/** A value in full, as tooltips and the text alternative say it (in the browser's locale). */
export function formatFull(value: number, unit: Unit): string {
  switch (unit.kind) {
    case 'money':
      return formatMajor(value, unit.currency);
    case 'count':
      return numberFormat('count', { maximumFractionDigits: 0 }).format(value);
    case 'number':
      return numberFormat(`number:${unit.digits ?? 1}`, { maximumFractionDigits: unit.digits ?? 1 }).format(value);
    case 'ratio':
      return numberFormat('ratio', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
    case 'percent':
      return numberFormat('percent', { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);
  }
}

/** A value short enough for an axis tick ($120K, 1.2M). */
export function formatTick(value: number, unit: Unit): string {
  switch (unit.kind) {
    case 'money':
      return formatMajor(value, unit.currency, 'compact');
    case 'count':
    case 'number':
      return numberFormat('compact', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
    default:
      return formatFull(value, unit);
  }
}
