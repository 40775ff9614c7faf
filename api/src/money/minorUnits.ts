import type { Knex } from 'knex';
import { listCurrencies } from '../currencies/store.js';
import { badRequest } from '../kernel/errors.js';

/**
 * ISO 4217 decimal places, the one rule for every amount: the currency's minor unit; none (0)
 * where ISO 4217 gives none (gold, SDRs); 2, the usual, for a code ISO 4217 no longer lists
 * (every write checks its code, so only older rows can carry one).
 */
export class MinorUnits {
  constructor(private readonly byCode: ReadonlyMap<string, number>) {}

  of(code: string): number {
    return this.byCode.get(code) ?? 2;
  }

  /** Whether the code is a current ISO 4217 currency. */
  has(code: string): boolean {
    return this.byCode.has(code);
  }
}

const built = new WeakMap<object, MinorUnits>();

/** The minor units of every currency, from the currency table read once per database. */
export async function minorUnits(db: Knex): Promise<MinorUnits> {
  const currencies = await listCurrencies(db);
  let units = built.get(currencies);
  if (!units) {
    units = new MinorUnits(new Map(currencies.map((currency) => [currency.code, currency.minor_unit === null ? 0 : Number(currency.minor_unit)])));
    built.set(currencies, units);
  }
  return units;
}

/** The decimal places of a current ISO 4217 currency; undefined for any other code. */
export async function minorUnitOf(db: Knex, code: string): Promise<number | undefined> {
  const units = await minorUnits(db);
  return units.has(code) ? units.of(code) : undefined;
}

/** The decimal places of a current ISO 4217 currency; 400 naming the field for any other code. */
export async function requireMinorUnit(db: Knex, code: string, field: string): Promise<number> {
  const minor = await minorUnitOf(db, code);
  if (minor === undefined) throw badRequest(`Unknown currency code ${code}`, [{ field, message: `${code} is not a current ISO 4217 currency` }]);
  return minor;
}
