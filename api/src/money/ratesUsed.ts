import type { components } from '../contract-types.js';
import { COMPANY_OVERRIDE_SOURCE } from './rateStore.js';

type ForexRate = components['schemas']['ForexRate'];
export type RatesUsed = components['schemas']['RatesUsed'];

/** A rate older than this many days is flagged wherever it is named. */
export const STALE_RATE_DAYS = 30;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "9 May 2025": a rate's date as a person reads it, the same in every file and on every screen. */
export function rateDateText(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return `${date} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

/** The first day that is no longer "older than 30 days" on `now`. */
export function staleBefore(now: Date): string {
  return new Date(now.getTime() - STALE_RATE_DAYS * 24 * 3600 * 1000).toISOString().slice(0, 10);
}

/** "rate of 9 May 2025 — older than 30 days", or "rates of 1 December 2026 and 9 May 2025 — older than 30 days". */
function datesText(dates: string[], cutoff: string): string {
  const sorted = [...new Set(dates)].sort().reverse();
  const named = sorted.map((day) => `${rateDateText(day)}${day < cutoff ? ` — older than ${STALE_RATE_DAYS} days` : ''}`);
  return `rate${dates.length > 1 ? 's' : ''} of ${named.join(' and ')}`;
}

/**
 * Names the rates a figure was converted with as stored — whose they are and their dates — and
 * flags any older than 30 days. `companyRates`: the company's own rates were consulted first (its
 * own money); otherwise the figures are the market's, priced at the reference rates.
 */
export function ratesUsedOf(input: { rates: ForexRate[]; companyRates: boolean; now: Date }): RatesUsed {
  const cutoff = staleBefore(input.now);
  const own = input.rates.filter((rate) => rate.source === COMPANY_OVERRIDE_SOURCE);
  const reference = input.rates.filter((rate) => rate.source !== COMPANY_OVERRIDE_SOURCE);
  const stale = input.rates.some((rate) => rate.date < cutoff);
  const source = own.length && reference.length ? 'company_and_reference' : own.length ? 'company' : reference.length ? 'reference' : 'none';
  const ownText = `your company's ${datesText(own.map((rate) => rate.date), cutoff)}`;
  const referenceText = `the ECB reference ${datesText(reference.map((rate) => rate.date), cutoff)}`;
  const label = {
    none: 'No amount needed converting.',
    company: `Converted at ${ownText}.`,
    company_and_reference: `Converted at ${ownText}; where it has set no rate, at ${referenceText}.`,
    reference: input.companyRates
      ? `Converted at ${referenceText}; your company has set no rate of its own for these currencies.`
      : `Converted at ${referenceText} (market figures always use the reference rates).`,
  }[source];
  return { source, label, stale, rates: input.rates };
}
