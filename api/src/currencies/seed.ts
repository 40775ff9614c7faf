import type { Knex } from 'knex';
import { readReferenceCsv } from '../reference/files.js';
import { type CurrencyRow, countCurrencies, insertCurrencies } from './store.js';

/** Current ISO 4217 currencies: rows with no withdrawal date, one per code, entities gathered. */
export function currentCurrencies(): CurrencyRow[] {
  const byCode = new Map<string, CurrencyRow & { entityList: string[] }>();
  for (const row of readReferenceCsv('codes-all.csv')) {
    const code = row.AlphabeticCode ?? '';
    if (!code || row.WithdrawalDate) continue;
    const existing = byCode.get(code);
    if (existing) {
      if (row.Entity && !existing.entityList.includes(row.Entity)) existing.entityList.push(row.Entity);
      continue;
    }
    const minor = row.MinorUnit ?? '';
    byCode.set(code, {
      code,
      numeric_code: (row.NumericCode ?? '').padStart(3, '0'),
      name: row.Currency ?? code,
      minor_unit: /^\d+$/.test(minor) ? Number(minor) : null,
      entities: '',
      entityList: row.Entity ? [row.Entity] : [],
    });
  }
  return [...byCode.values()]
    .map(({ entityList, ...row }) => ({ ...row, entities: JSON.stringify(entityList) }))
    .sort((a, b) => a.code.localeCompare(b.code));
}

export async function seedCurrencies(db: Knex): Promise<number> {
  if ((await countCurrencies(db)) > 0) return 0;
  const rows = currentCurrencies();
  await insertCurrencies(db, rows);
  return rows.length;
}
