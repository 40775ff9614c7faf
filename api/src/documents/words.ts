import { formatMoney } from '../money/format.js';
import type { DocumentBlock } from './content.js';

/** Amounts in documents are written by the money module (ISO 4217 decimals, whole units for pay). */
export { formatPerShare as pricePerShare, minorOf } from '../money/format.js';

/** "$165,000": whole units, as a year's pay reads in a letter or a statement. */
export const wholeMoney = (money: { amount: number; currency: string }): string => formatMoney(money, 'whole');

/** Plain text as paragraphs: a blank line starts the next one. */
export function paragraphs(text: string): DocumentBlock[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((part) => part.split(/\r?\n/).map((line) => line.trim()).filter(Boolean))
    .filter((lines) => lines.length > 0)
    .map((lines) => ({ kind: 'paragraph', lines }));
}
