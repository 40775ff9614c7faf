/**
 * Amounts people wrote (an HRIS file, a band import, a survey), read into minor units exactly by
 * the currency's ISO 4217 decimals: the one parser of amounts on the server (formatting: format.ts).
 */
export type Parsed<T> = { value: T } | { error: string };

const ok = <T>(value: T): Parsed<T> => ({ value });
const fail = (error: string): Parsed<never> => ({ error });

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
