import type { Knex } from 'knex';

export interface CurrencyRow {
  code: string;
  numeric_code: string;
  name: string;
  minor_unit: number | null;
  entities: string;
}

export async function countCurrencies(db: Knex): Promise<number> {
  const row = (await db('currencies').count<{ count: number | string }[]>({ count: '*' }).first()) ?? { count: 0 };
  return Number(row.count);
}

// ISO 4217 is reference data written once, by seeding: read once per database and kept, since
// every conversion and every amount's minor unit asks for it. Keyed by the database's configuration,
// which a request's transaction shares with the pool it came from. Seeding clears what is kept.
const kept = new WeakMap<object, Promise<CurrencyRow[]>>();
const keyOf = (db: Knex): object => db.client.config as object;

export async function insertCurrencies(db: Knex, rows: CurrencyRow[]): Promise<void> {
  await db.batchInsert('currencies', rows, 200);
  kept.delete(keyOf(db));
}

/** Every currency, by code. */
export async function listCurrencies(db: Knex): Promise<CurrencyRow[]> {
  const key = keyOf(db);
  let list = kept.get(key);
  if (!list) {
    const loading = Promise.resolve(db<CurrencyRow>('currencies').select('*').orderBy('code').then((rows) => rows));
    kept.set(key, loading);
    // An empty table (before seeding) or a failed read is not kept.
    const forget = (): void => void (kept.get(key) === loading && kept.delete(key));
    loading.then((rows) => rows.length === 0 && forget(), forget);
    list = loading;
  }
  return list;
}

export async function findCurrency(db: Knex, code: string): Promise<CurrencyRow | undefined> {
  return (await listCurrencies(db)).find((currency) => currency.code === code);
}
