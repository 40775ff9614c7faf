import type { components } from '../../../../openapi.d.ts';
import { formatMoney, minorUnitOf } from '../../ui/format';

export type Schemas = components['schemas'];
export type Statement = Schemas['TotalRewardsStatement'];
export type Amount = Schemas['TotalRewardsAmount'];
export type Money = Schemas['Money'];
export type SectionName = Schemas['CommunicateSectionName'];
export type FutureModeling = Schemas['StatementFutureModeling'];

/** Which of a statement's two currencies the person reads it in. */
export type CurrencySide = 'local' | 'company';

/** One amount in the chosen currency (the server converted it exactly; null: no reference rate). */
export const sideOf = (amount: Amount | null | undefined, side: CurrencySide): Money | null => (amount ? amount[side] : null);

export const showAmount = (amount: Amount | null | undefined, side: CurrencySide, options: { compact?: boolean } = {}): string => {
  const money = sideOf(amount, side);
  return money ? formatMoney(money, options) : 'No exchange rate';
};

/** Where each section lives in the page and in the URL (`/totalrewards/statement/equity`). */
export const SECTION_SLUGS: Record<SectionName, string> = {
  overview: 'overview',
  timeline: 'timeline',
  compensation: 'compensation',
  salary: 'salary',
  bonus: 'bonus',
  variablePay: 'variable-pay',
  equity: 'equity',
  futureGrants: 'future-grants',
  futureModeling: 'future-modeling',
  benefits: 'benefits',
  aboutUs: 'about-us',
  learningHub: 'learning-hub',
};

export const SECTION_NAV_LABELS: Record<SectionName, string> = {
  overview: 'Overview',
  timeline: 'Timeline',
  compensation: 'Compensation',
  salary: 'Salary',
  bonus: 'Bonus',
  variablePay: 'Variable pay',
  equity: 'Equity',
  futureGrants: 'Future grants',
  futureModeling: 'Simulator',
  benefits: 'Benefits',
  aboutUs: 'About us',
  learningHub: 'Learning hub',
};

export const GRANT_NAMES: Record<Schemas['StatementGrantType'], string> = { option: 'Stock options', rsu: 'RSUs', rsa: 'Restricted stock', common_stock: 'Common stock' };

/** Plain text as paragraphs: a blank line starts the next one. */
export const paragraphsOf = (text: string): string[] =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((part) => part.trim())
    .filter(Boolean);

// ── the comp simulator ─────────────────────────────────────────────────────────────────────

/** What a share is modelled at: a multiple of the statement's price, or the person's own price. */
export type ModelPrice = { kind: 'multiple'; multiple: number } | { kind: 'custom'; perShare: number };

export const pricePerShare = (model: FutureModeling, price: ModelPrice): number => (price.kind === 'multiple' ? model.price.perShare * price.multiple : price.perShare);

/** One share of a grant at a price: less the exercise price for options, never below zero. */
const perShare = (grant: FutureModeling['grants'][number], price: number): number => Math.max(0, price - (grant.strikePerShare ?? 0));

/** Whole units of the price's currency, as the simulator says them. */
const whole = (value: number): number => Math.round(value);

export interface SimulatedYear {
  /** "Year 1" … "Year 4". */
  label: string;
  /** The year's last day. */
  to: string;
  cash: number;
  equity: number;
  benefits: number;
}

export interface Simulation {
  price: number;
  /** Every granted share at the price (vested or not). */
  allEquity: number;
  /** What vests from today to four years out, at the price. */
  vestingEquity: number;
  years: SimulatedYear[];
}

/**
 * The simulator's figures, in the company currency (the share price's): each of the next four years
 * is a year of cash and benefits (as today) and the shares that vest in it at the modelled price.
 * Vested shares at each anniversary come from the server (the vesting rule's own figures); only the
 * multiplication happens here. No tax is modelled.
 */
export function simulate(model: FutureModeling, price: ModelPrice): Simulation {
  const modelled = pricePerShare(model, price);
  const cash = model.annualCash?.company ? model.annualCash.company.amount / 10 ** minorUnitOf(model.annualCash.company.currency) : 0;
  const benefits = model.annualBenefits?.company ? model.annualBenefits.company.amount / 10 ** minorUnitOf(model.annualBenefits.company.currency) : 0;
  const years: SimulatedYear[] = [];
  for (let year = 1; year < model.checkpoints.length; year += 1) {
    const equity = model.grants.reduce((sum, grant) => sum + ((grant.vestedAt[year] ?? 0) - (grant.vestedAt[year - 1] ?? 0)) * perShare(grant, modelled), 0);
    years.push({ label: `Year ${year}`, to: model.checkpoints[year] ?? '', cash: whole(cash), equity: whole(equity), benefits: whole(benefits) });
  }
  return {
    price: modelled,
    allEquity: whole(model.grants.reduce((sum, grant) => sum + grant.shares * perShare(grant, modelled), 0)),
    vestingEquity: whole(years.reduce((sum, year) => sum + year.equity, 0)),
    years,
  };
}

/** "3×", "2.5×". */
export const multipleLabel = (multiple: number): string => `${Number.isInteger(multiple) ? multiple : multiple.toFixed(1)}×`;
