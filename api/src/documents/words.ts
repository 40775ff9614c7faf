import type { DocumentBlock } from './content.js';

/** Amounts arrive in minor units; the letter shows whole units, so this only needs the currency's digits. */
const digitsOf = (currency: string): number => {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
};

/** An amount in minor units as major units (what a slider or a multiple works in). */
export const majorOf = (amount: number, currency: string): number => amount / 10 ** digitsOf(currency);

/** Major units back to minor units, rounded once. */
export const minorOf = (major: number, currency: string): number => Math.round(major * 10 ** digitsOf(currency));

/** "$165,000": whole units, as a year's pay reads in a letter or a statement. */
export function wholeMoney(money: { amount: number; currency: string }): string {
  const major = majorOf(money.amount, money.currency);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: money.currency, maximumFractionDigits: 0 }).format(major);
  } catch {
    return `${major.toFixed(0)} ${money.currency}`;
  }
}

/** "$12.15": a price per share, with the digits it has (up to six). */
export const pricePerShare = (perShare: number, currency: string): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(perShare);

/** Plain text as paragraphs: a blank line starts the next one. */
export function paragraphs(text: string): DocumentBlock[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((part) => part.split(/\r?\n/).map((line) => line.trim()).filter(Boolean))
    .filter((lines) => lines.length > 0)
    .map((lines) => ({ kind: 'paragraph', lines }));
}
