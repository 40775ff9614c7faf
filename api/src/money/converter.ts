import type { Knex } from 'knex';
import type { components } from '../contract-types.js';
import { convert } from '../forex/service.js';
import { type Rational, divide, fromNumber, multiply, pow10, round } from '../forex/rational.js';
import { type MinorUnits, minorUnits } from './minorUnits.js';

type ForexRate = components['schemas']['ForexRate'];
export type Money = components['schemas']['Money'];

const EURO = 'EUR';

/**
 * Converts amounts into one currency with the forex service's reference rates: the service picks
 * the rates for each pair once (and names them); each amount is then converted with the same exact
 * arithmetic the service uses (rational, rounded once, half-even), so a sum converted here equals
 * what `POST /api/forex/convert` answers for it.
 */
export class Converter {
  // Promises, so amounts converted concurrently share one look-up per pair.
  private readonly pairs = new Map<string, Promise<Rational | null>>();
  private readonly used = new Map<string, ForexRate>();

  private constructor(
    private readonly db: Knex,
    readonly onOrBefore: string,
    private readonly units: MinorUnits,
  ) {}

  static async open(db: Knex, onOrBefore: string): Promise<Converter> {
    return new Converter(db, onOrBefore, await minorUnits(db));
  }

  minorUnit(currency: string): number {
    return this.units.of(currency);
  }

  /** The rate from → to, or null when the reference rates do not cover the pair. */
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
      const answer = await convert(this.db, { amount: { amount: 0, currency: from }, to, date: this.onOrBefore });
      const perEuro = (code: string): Rational | undefined => {
        if (code === EURO) return { n: 1n, d: 1n };
        const row = answer.rates.find((candidate) => candidate.currency === code);
        return row ? fromNumber(row.rate) : undefined;
      };
      for (const used of answer.rates) this.used.set(`${used.base}:${used.currency}:${used.date}`, used);
      const fromPerEuro = perEuro(from);
      const toPerEuro = perEuro(to);
      return fromPerEuro && toPerEuro ? divide(toPerEuro, fromPerEuro) : null;
    } catch {
      return null; // no reference rate for this currency: the caller reports it unconverted
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

  /** Every reference rate used so far, oldest currency code first. */
  ratesUsed(): ForexRate[] {
    return [...this.used.values()].sort((a, b) => a.currency.localeCompare(b.currency) || a.date.localeCompare(b.date));
  }

  /** Major units, for ratios and charts. */
  major(amount: Money): number {
    return amount.amount / 10 ** this.minorUnit(amount.currency);
  }
}

export const today = (): string => new Date().toISOString().slice(0, 10);
