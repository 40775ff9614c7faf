/**
 * Cell parsers shared by the employee and grant imports. Each returns the value or a message for
 * the person who wrote the file (`{ error }`); an empty cell never reaches them.
 */
export type Parsed<T> = { value: T } | { error: string };

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

const CURRENCY_SIGNS = /^[A-Z]{3}\s*|\s*[A-Z]{3}$|[$€£¥₹₩₪₺₽₴₦₱฿₫]/g;

/**
 * The digits of an amount with its decimal point as '.', reading thousands separators the way the
 * file wrote them: "120,000.50" and "120.000,50" alike; one separator followed by three digits
 * ("72.000") reads as thousands with a comma and is refused as ambiguous with a dot, unless the
 * currency has three decimals.
 */
function plainDecimal(text: string, minorUnits: number): string | undefined {
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    const [group, decimal] = lastDot > lastComma ? [',', '.'] : ['.', ','];
    const [whole = '', fraction = ''] = text.split(decimal);
    const grouped = new RegExp(`^\\d{1,3}(\\${group}\\d{3})*$`);
    if (text.split(decimal).length !== 2 || !grouped.test(whole) || !/^\d+$/.test(fraction)) return undefined;
    return `${whole.split(group).join('')}.${fraction}`;
  }
  const separator = lastComma >= 0 ? ',' : lastDot >= 0 ? '.' : undefined;
  if (!separator) return /^\d+$/.test(text) ? text : undefined;
  const parts = text.split(separator);
  if (parts.length > 2) return /^\d{1,3}$/.test(parts[0] ?? '') && parts.slice(1).every((part) => /^\d{3}$/.test(part)) ? parts.join('') : undefined;
  const [whole = '', after = ''] = parts;
  if (!/^\d+$/.test(whole) || !/^\d+$/.test(after)) return undefined;
  if (after.length !== 3 || whole.length > 3 || (separator === '.' && minorUnits >= 3)) return `${whole}.${after}`;
  return separator === ',' ? `${whole}${after}` : 'ambiguous';
}

/**
 * An amount in a currency's minor units, exactly: "120000", "120,000.00", "$120,000", "72.000,50 EUR".
 * More decimals than the currency has are refused rather than rounded away.
 */
export function parseAmount(text: string, currency: string, minorUnits: number): Parsed<number> {
  const cleaned = text.replace(CURRENCY_SIGNS, '').replace(/[\s'\u00a0\u202f]/g, '');
  if (cleaned.startsWith('-')) return fail(`"${text}" is negative`);
  const decimal = plainDecimal(cleaned, minorUnits);
  if (decimal === 'ambiguous') return fail(`"${text}" is ambiguous (thousands or decimals?): write it without a thousands separator`);
  const match = decimal === undefined ? null : /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) return fail(`"${text}" is not an amount`);
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > minorUnits) return fail(`"${text}" has more decimals than ${currency} allows (${minorUnits})`);
  const minor = Number(whole + fraction.padEnd(minorUnits, '0'));
  if (!Number.isSafeInteger(minor)) return fail(`"${text}" is too large`);
  return ok(minor);
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

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Today's date in UTC, as YYYY-MM-DD. */
export const today = (): string => new Date().toISOString().slice(0, 10);
