import type { Knex } from 'knex';
import { streamReferenceCsv } from '../reference/files.js';
import type { ForexRateRow } from '../money/rateStore.js';
import { ECB_SOURCE, insertRates, latestRateDate } from './store.js';

/** Every published cell of the ECB history (units per 1 EUR), newer than `after` when given. */
export async function ecbRates(after: string | null): Promise<ForexRateRow[]> {
  const rows: ForexRateRow[] = [];
  for await (const record of streamReferenceCsv('eurofxref-hist.csv')) {
    const date = record.Date ?? '';
    if (!date) continue;
    // The ECB lists its newest day first: from the first day the database holds, everything is older.
    if (after && date <= after) break;
    for (const [currency, cell] of Object.entries(record)) {
      if (currency === 'Date' || !/^[A-Z]{3}$/.test(currency) || !cell || cell === 'N/A') continue;
      const rate = Number(cell);
      if (Number.isFinite(rate) && rate > 0) rows.push({ currency, rate_date: date, base: 'EUR', rate, source: ECB_SOURCE });
    }
  }
  return rows;
}

/** Loads the shipped ECB history; on later starts only days newer than the database already holds. */
export async function seedForexRates(db: Knex): Promise<number> {
  const rows = await ecbRates(await latestRateDate(db));
  await insertRates(db, rows);
  return rows.length;
}
