import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { rateFor } from './rates.js';
import { type Rational, multiply, pow10, round } from './rational.js';
import { type MinorUnits, minorUnits } from './minorUnits.js';
import { type RatesUsed, ratesUsedOf } from './ratesUsed.js';

type ForexRate = components['schemas']['ForexRate'];
export type Money = components['schemas']['Money'];

/**
 * Converts amounts into one currency: the company's own exchange rate for a pair where it has set
 * one (a converter opened with the company's scope, for the company's own money), else the ECB
 * reference rates (always so for market figures, which are priced at the reference rates). The
 * forex service picks the rate for each pair once (and names it); each amount is then converted
 * with the same exact arithmetic the service uses (rational, rounded once, half-even), so a sum
 * converted here equals what `POST /api/forex/convert` answers for it.
 */
export class Converter {
  // Promises, so amounts converted concurrently share one look-up per pair.
  private readonly pairs = new Map<string, Promise<Rational | null>>();
  private readonly used = new Map<string, ForexRate>();

  private constructor(
    private readonly db: Knex,
    readonly onOrBefore: string,
    private readonly units: MinorUnits,
    /** Whose own rates apply; none: the reference rates only. */
    readonly scope: CompanyScope | undefined,
  ) {}

  /** A converter of the company's own money when `options.scope` is given, else of market figures (reference rates). */
  static async open(db: Knex, onOrBefore: string, options: { scope?: CompanyScope } = {}): Promise<Converter> {
    return new Converter(db, onOrBefore, await minorUnits(db), options.scope);
  }

  private marketSide: Converter | undefined;

  /** A converter on the same day at the reference rates alone, for comparing with the market. */
  market(): Converter {
    if (!this.scope) return this;
    this.marketSide ??= new Converter(this.db, this.onOrBefore, this.units, undefined);
    return this.marketSide;
  }

  /** The same rates afresh, so the rates one figure used can be named apart from others'. */
  fresh(): Converter {
    return new Converter(this.db, this.onOrBefore, this.units, this.scope);
  }

  minorUnit(currency: string): number {
    return this.units.of(currency);
  }

  /** The rate from → to, or null when neither the company nor the reference rates cover the pair. */
  private rate(from: string, to: string): Promise<Rational | null> {
    if (from === to) return Promise.resolve({ n: 1n, d: 1n });
    const key = `${from}>${to}`;
    let rate = this.pairs.get(key);
    if (!rate) {
      rate = this.lookUp(from, to);
      this.pairs.set(key, rate);
    }
    return rate;
  }

  private async lookUp(from: string, to: string): Promise<Rational | null> {
    try {
      const found = await rateFor(this.db, this.scope, from, to, this.onOrBefore);
      for (const used of found.rates) this.used.set(`${used.source}:${used.base}:${used.currency}:${used.date}`, used);
      return found.rate;
    } catch {
      return null; // no rate for this currency: the caller reports it unconverted
    }
  }

  /** The amount in `to`, or null when there is no rate. */
  async convert(amount: Money, to: string): Promise<Money | null> {
    if (amount.currency === to) return amount;
    const rate = await this.rate(amount.currency, to);
    if (!rate) return null;
    const scaled = multiply(multiply({ n: BigInt(amount.amount), d: 1n }, rate), { n: pow10(this.minorUnit(to)), d: pow10(this.minorUnit(amount.currency)) });
    return { amount: Number(round(scaled, 'halfEven')), currency: to };
  }

  /** The exact rate (for prices kept in millionths). */
  async exactRate(from: string, to: string): Promise<Rational | null> {
    return this.rate(from, to);
  }

  /** Every rate used so far (the company's and the reference rates), by currency code then date. */
  ratesUsed(): ForexRate[] {
    return [...this.used.values()].sort((a, b) => a.currency.localeCompare(b.currency) || a.date.localeCompare(b.date) || a.source.localeCompare(b.source));
  }

  /** Which rates converted what this converter converted, named with their dates, and flagged when old. */
  rateSource(now = new Date()): RatesUsed {
    return ratesUsedOf({ rates: this.ratesUsed(), companyRates: this.scope !== undefined, now });
  }

  /** Major units, for ratios and charts. */
  major(amount: Money): number {
    return amount.amount / 10 ** this.minorUnit(amount.currency);
  }
}

export const today = (): string => new Date().toISOString().slice(0, 10);
