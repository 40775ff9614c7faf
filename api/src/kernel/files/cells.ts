/**
 * Cell parsers shared by every file import (people data, bands, surveys, approval chains). Each
 * returns the value or a message for the person who wrote the file (`{ error }`); an empty cell never
 * reaches them. Amounts are parsed by the money module (`money/parse.ts`), the one place that reads
 * amounts people wrote.
 */
export type { Parsed } from '../../money/parse.js';
import type { Parsed } from '../../money/parse.js';

const ok = <T>(value: T): Parsed<T> => ({ value });
const fail = (error: string): Parsed<never> => ({ error });

const ISO_DATE = /^(\d{4})[-/](\d{2})[-/](\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** YYYY-MM-DD (also YYYY/MM/DD, or a timestamp's date); day-first and month-first forms are ambiguous and refused. */
export function parseDate(text: string): Parsed<string> {
  const match = ISO_DATE.exec(text);
  if (!match) return fail(`"${text}" is not a date (write it as YYYY-MM-DD)`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 1900 || year > 2200) {
    return fail(`"${text}" is not a real date`);
  }
  return ok(`${match[1]}-${match[2]}-${match[3]}`);
}

/** A percentage as basis points: "15", "15%", "12.5 %" → 1500, 1500, 1250. */
export function parsePercent(text: string): Parsed<number> {
  const match = /^(\d+)(?:\.(\d{1,2})0*)?\s*%?$/.exec(text.replace(/\s+(?=%)/, ''));
  if (!match) return fail(`"${text}" is not a percentage (write 15 or 15%)`);
  const basisPoints = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (basisPoints > 1_000_000) return fail(`"${text}" is more than 10,000%`);
  return ok(basisPoints);
}

/** A whole number within bounds ("10,000" and "10000.0" read as 10000). */
export function parseWholeNumber(text: string, min: number, max: number): Parsed<number> {
  const cleaned = text.replace(/[\s,'\u00a0]/g, '').replace(/\.0+$/, '');
  if (!/^-?\d+$/.test(cleaned)) return fail(`"${text}" is not a whole number`);
  const value = Number(cleaned);
  if (!Number.isSafeInteger(value) || value < min || value > max) return fail(`"${text}" is not between ${min} and ${max}`);
  return ok(value);
}

/** One of a fixed set of values, written any common way ("Full-time", "FULL TIME", "full_time"). */
export function parseChoice<T extends string>(text: string, synonyms: Record<string, T>, describe: string): Parsed<T> {
  const key = text.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const value = synonyms[key];
  return value ? ok(value) : fail(`"${text}" is not ${describe}`);
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
// Groupings and placeholders that ICU names but that are no country.
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);
/** Every alpha-2 code ICU knows → its current code (UK → GB), and English names → codes. */
const COUNTRY_BY_CODE = new Map<string, string>();
const COUNTRY_BY_NAME = new Map<string, string>();
for (let first = 65; first <= 90; first += 1) {
  for (let second = 65; second <= 90; second += 1) {
    const code = String.fromCharCode(first, second);
    if (NOT_COUNTRIES.has(code)) continue;
    let canonical: string | undefined;
    let name: string | undefined;
    try {
      canonical = new Intl.Locale(`en-${code}`).region;
      name = canonical ? regionNames.of(canonical) : undefined;
    } catch {
      canonical = undefined;
    }
    if (!canonical || !name || name === canonical || NOT_COUNTRIES.has(canonical)) continue;
    COUNTRY_BY_CODE.set(code, canonical);
    if (!COUNTRY_BY_NAME.has(name.toLowerCase())) COUNTRY_BY_NAME.set(name.toLowerCase(), canonical);
  }
}
for (const [alias, code] of [['usa', 'US'], ['united states of america', 'US'], ['great britain', 'GB'], ['england', 'GB'], ['scotland', 'GB'], ['wales', 'GB'], ['deutschland', 'DE'], ['holland', 'NL'], ['south korea', 'KR'], ['czech republic', 'CZ']] as const) {
  COUNTRY_BY_NAME.set(alias, code);
}

/** An ISO 3166 alpha-2 code, from the code itself or the country's English name. */
export function parseCountry(text: string): Parsed<string> {
  const byCode = COUNTRY_BY_CODE.get(text.toUpperCase());
  if (byCode) return ok(byCode);
  const byName = COUNTRY_BY_NAME.get(text.toLowerCase());
  return byName ? ok(byName) : fail(`"${text}" is not a country (write its ISO code, e.g. DE, or its English name)`);
}

// Deliberately plain: one @, no spaces, a dot in the domain. Deliverability is the mail server's business.
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Today's date in UTC, as YYYY-MM-DD. */
export const today = (): string => new Date().toISOString().slice(0, 10);

// The CSV writer (downloads/csv.ts) puts an apostrophe before a cell a spreadsheet would run as a
// formula; reading our own export back takes it off again.
const ESCAPED_FORMULA = /^'(?=[=+\-@\t\r＝＋－＠])/;

/** A cell as the person meant it: trimmed, and without the apostrophe our own CSV export put before a formula-like cell. */
export const tidyCell = (text: string): string => text.trim().replace(ESCAPED_FORMULA, '');
