import type { components } from '../contract-types.js';
import { currentCurrencies } from '../currencies/seed.js';
import { MinorUnits } from './minorUnits.js';

type Money = components['schemas']['Money'];

/**
 * Amounts written for people, on the server: PDFs, letters, the insights agent, exports. The
 * number of decimal places always comes from ISO 4217 (the shipped table the currencies table is
 * seeded from), never from `Intl`, whose CLDR data disagrees on some twenty currencies (HUF, COP,
 * IDR: ISO 2, CLDR 0). `Intl` only writes the digits it is given, with the currency's sign.
 */

let shipped: MinorUnits | undefined;

/** ISO 4217 minor units of every current currency, from the shipped table, read once. */
export function isoMinorUnits(): MinorUnits {
  shipped ??= new MinorUnits(new Map(currentCurrencies().map((currency) => [currency.code, currency.minor_unit ?? 0])));
  return shipped;
}

/** The decimal places of a currency by ISO 4217 (2 for a code it does not list). */
export const decimalsOf = (currency: string): number => isoMinorUnits().of(currency);

/** An amount in minor units as major units (for ratios, charts, sliders and spreadsheets). */
export const majorOf = (money: Money): number => money.amount / 10 ** decimalsOf(money.currency);

/** Major units back to minor units, rounded once. */
export const minorOf = (major: number, currency: string): number => Math.round(major * 10 ** decimalsOf(currency));

/**
 * How many decimals an amount is written with: `whole` (a salary: "$165,000"), `minor` (all the
 * currency's decimals, for an amount that needs its cents), or `exact` (whole units unless the
 * amount has a fraction, then all the currency's decimals: a letter stating a new salary exactly).
 */
export type Precision = 'whole' | 'minor' | 'exact';

const formats = new Map<string, Intl.NumberFormat | null>();

/** Making a format costs far more than using one, and a cycle's close writes thousands of letters. */
function currencyFormat(currency: string, min: number, max: number): Intl.NumberFormat | null {
  const key = `${currency}:${min}:${max}`;
  let format = formats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: min, maximumFractionDigits: max });
    } catch {
      format = null;
    }
    formats.set(key, format);
  }
  return format;
}

const plain = (value: number, min: number, max: number): string => value.toLocaleString('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });

/** A figure already in major units (a market percentile), with the currency's sign: "$118,642". */
export function formatMajor(value: number, currency: string, precision: Exclude<Precision, 'exact'> = 'whole'): string {
  const digits = precision === 'whole' ? 0 : decimalsOf(currency);
  return currencyFormat(currency, digits, digits)?.format(value) ?? `${plain(value, digits, digits)} ${currency}`;
}

/** An amount in minor units as people read it: "$165,000", "HUF 1,000,000", "BHD 1,250.500". */
export function formatMoney(money: Money, precision: Precision = 'whole'): string {
  const decimals = decimalsOf(money.currency);
  const hasFraction = money.amount % 10 ** decimals !== 0;
  return formatMajor(majorOf(money), money.currency, precision === 'minor' || (precision === 'exact' && hasFraction) ? 'minor' : 'whole');
}

/** "$12.15": a price per share, with the digits it has (kept to millionths), at least the currency's. */
export function formatPerShare(perShare: number, currency: string): string {
  const min = decimalsOf(currency);
  return currencyFormat(currency, min, Math.max(min, 6))?.format(perShare) ?? `${plain(perShare, min, Math.max(min, 6))} ${currency}`;
}

/** A figure in major units rounded to the currency's precision, for a spreadsheet or CSV cell (no float tails). */
export const atPrecision = (value: number, currency: string): number => {
  const scale = 10 ** decimalsOf(currency);
  return Math.round(value * scale) / scale;
};

/** A currency's name by ISO 4217 ("Hungarian Forint"); the code itself for one it does not list. */
export function currencyName(code: string): string {
  names ??= new Map(currentCurrencies().map((currency) => [currency.code, currency.name]));
  return names.get(code) ?? code;
}
let names: Map<string, string> | undefined;
