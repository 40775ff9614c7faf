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

export async function insertCurrencies(db: Knex, rows: CurrencyRow[]): Promise<void> {
  await db.batchInsert('currencies', rows, 200);
}

export async function listCurrencies(db: Knex): Promise<CurrencyRow[]> {
  return db<CurrencyRow>('currencies').select('*').orderBy('code');
}

export async function findCurrency(db: Knex, code: string): Promise<CurrencyRow | undefined> {
  return db<CurrencyRow>('currencies').where({ code }).first();
}
