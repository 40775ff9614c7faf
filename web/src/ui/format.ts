import type { components } from '../../../openapi.d.ts';

type Money = components['schemas']['Money'];

/**
 * The web's money module: every amount on a screen or in an input is written and read here. The
 * decimal places of a currency are ISO 4217's, learnt from the server's currency table
 * (`GET /api/currencies`, kept by the service worker for offline use), never the browser's `Intl`,
 * whose CLDR data disagrees on some twenty currencies (HUF, COP, IDR: ISO 2, CLDR 0). `Intl` only
 * writes the digits it is told to.
 */
const isoDecimals = new Map<string, number>();
let loading: Promise<void> | undefined;

async function fetchCurrencies(): Promise<void> {
  const reply = await fetch('/api/currencies', { headers: { Accept: 'application/json' } });
  if (!reply.ok) throw new Error(`The currency table answered ${reply.status}`);
  const body = (await reply.json()) as { data: components['schemas']['Currency'][] };
  for (const currency of body.data) isoDecimals.set(currency.code, currency.minorUnit ?? 0);
}

/**
 * Loads the currency table once; the app renders after it (main.tsx), so no amount is ever written
 * with a guessed precision. A failed load is tried again by the next call.
 */
export function loadCurrencies(): Promise<void> {
  loading ??= fetchCurrencies().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Minor units of a currency by ISO 4217 (2 for USD, 0 for JPY, 2 for HUF); 2 for a code the table does not list. */
export function minorUnitOf(currency: string): number {
  return isoDecimals.get(currency) ?? 2;
}

export const majorOf = (money: Money): number => money.amount / 10 ** minorUnitOf(money.currency);

/** Major units (what a person types) as minor units, rounded once; null for what is not a number. */
export function toMinor(major: number | string, currency: string): number | null {
  // Thousands separators and a leading currency sign are what people type: "1,000,000", "$5,000.50".
  const text = typeof major === 'number' ? String(major) : major.replace(/[,\s\u00a0\u202f]/g, '').replace(/^[^\d.-]+/, '');
  const value = Number(text);
  return text !== '' && Number.isFinite(value) ? Math.round(value * 10 ** minorUnitOf(currency)) : null;
}

/** An amount as an input's text, in major units with the digits it has ("1000000", "1250.5"). */
export const toMajorText = (money: Money | null | undefined): string => (money ? String(majorOf(money)) : '');

const formats = new Map<string, Intl.NumberFormat | null>();

function currencyFormat(currency: string, options: { min: number; max: number; compact?: boolean }): Intl.NumberFormat | null {
  const key = `${currency}:${options.min}:${options.max}:${options.compact ? 'c' : ''}`;
  let format = formats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(undefined, {
        style: 'currency',
        currency,
        notation: options.compact ? 'compact' : 'standard',
        minimumFractionDigits: options.min,
        maximumFractionDigits: options.max,
      });
    } catch {
      format = null;
    }
    formats.set(key, format);
  }
  return format;
}

/**
 * A figure in major units with the currency's sign. `whole` (the default: a salary reads
 * "$143,944"), `minor` (the currency's ISO decimals, for an amount that needs its cents: an hourly
 * rate), or `compact` ("$1.2M", charts and cards).
 */
export function formatMajor(value: number, currency: string, precision: 'whole' | 'minor' | 'compact' = 'whole'): string {
  const digits = precision === 'minor' ? minorUnitOf(currency) : 0;
  const format = currencyFormat(currency, precision === 'compact' ? { min: 0, max: 1, compact: true } : { min: digits, max: digits });
  return format?.format(value) ?? `${value.toFixed(digits)} ${currency}`;
}

export function formatMoney(money: Money | null | undefined, options: { compact?: boolean; cents?: boolean } = {}): string {
  if (!money) return '—';
  return formatMajor(majorOf(money), money.currency, options.compact ? 'compact' : options.cents ? 'minor' : 'whole');
}

/** A price per share, to as many decimals as it has (share prices are kept to millionths), at least the currency's. */
export function formatPrice(value: number, currency: string, maxDigits = 6): string {
  const min = Math.min(minorUnitOf(currency), maxDigits);
  return currencyFormat(currency, { min, max: Math.max(min, maxDigits) })?.format(value) ?? `${value} ${currency}`;
}

export const formatNumber = (value: number | null | undefined, digits = 0): string =>
  value === null || value === undefined ? '—' : new Intl.NumberFormat(undefined, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const [year, month, day] = value.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** A share or relative move as a percentage: 0.015 → "1.5%", 0.0017 → "0.17%" (two decimals under 1%). */
export const formatShare = (value: number): string =>
  new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: Math.abs(value) < 0.01 && value !== 0 ? 2 : 1 }).format(value);
