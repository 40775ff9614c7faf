import type { components } from '../../../openapi.d.ts';

type Money = components['schemas']['Money'];

const minorDigits = new Map<string, number>();

/** Minor units of a currency, as the browser knows them (2 for USD, 0 for JPY). */
export function minorUnitOf(currency: string): number {
  let digits = minorDigits.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    minorDigits.set(currency, digits);
  }
  return digits;
}

export const majorOf = (money: Money): number => money.amount / 10 ** minorUnitOf(money.currency);

export function formatMoney(money: Money | null | undefined, options: { compact?: boolean } = {}): string {
  if (!money) return '—';
  try {
    return new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: money.currency,
      notation: options.compact ? 'compact' : 'standard',
      maximumFractionDigits: options.compact ? 1 : 0,
    }).format(majorOf(money));
  } catch {
    return `${majorOf(money).toFixed(0)} ${money.currency}`;
  }
}

/** A price per share, to as many decimals as it has (share prices are kept to millionths). */
export function formatPrice(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 6 }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
}

export const formatNumber = (value: number | null | undefined, digits = 0): string =>
  value === null || value === undefined ? '—' : new Intl.NumberFormat(undefined, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const [year, month, day] = value.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}
