import type { components } from '../../openapi.js';
import { type Connection, call, createApi } from './client.js';

type Money = components['schemas']['Money'];

/**
 * Amounts in the CLI's tables. The decimal places of a currency are ISO 4217's, as the server
 * lists them (`GET /api/currencies`), never `Intl`'s, which disagrees on some twenty currencies
 * (HUF, COP, IDR: ISO 2, CLDR 0). `--json` prints the API's answers untouched.
 */
export class Currencies {
  private constructor(private readonly byCode: ReadonlyMap<string, { decimals: number; name: string }>) {}

  /** The server's currency table, read once per command. */
  static async load(connection: Connection): Promise<Currencies> {
    const listed = (await call(connection, createApi(connection).GET('/api/currencies'))).data;
    return new Currencies(new Map(listed.map((currency) => [currency.code, { decimals: currency.minorUnit ?? 0, name: currency.name }])));
  }

  /** ISO 4217 decimals (2 for a code the table does not list). */
  decimals(code: string): number {
    return this.byCode.get(code)?.decimals ?? 2;
  }

  name(code: string): string {
    return this.byCode.get(code)?.name ?? code;
  }

  /** "1,587.95 USD": major units, exact, from minor units. */
  exact(money: Money): string {
    const digits = this.decimals(money.currency);
    return `${grouped(money.amount / 10 ** digits, digits)} ${money.currency}`;
  }

  /** "130,000 USD": whole units (a salary), from minor units. */
  whole(money: Money): string {
    return `${grouped(money.amount / 10 ** this.decimals(money.currency), 0)} ${money.currency}`;
  }

  /** A figure already in major units (a market percentile), rounded to whole units: "118,642". */
  static wholeMajor(value: number): string {
    return grouped(value, 0);
  }

  /** A figure in major units at the currency's precision, for a CSV cell: 118642.06 (no float tail, no grouping). */
  atPrecision(value: number, currency: string): string {
    return value.toFixed(this.decimals(currency));
  }
}

const grouped = (value: number, digits: number): string => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
