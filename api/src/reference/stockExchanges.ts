import type { components } from '../contract-types.js';
import { readReferenceCsv } from './files.js';

export type StockExchange = components['schemas']['StockExchange'];

/** The shipped subset of ISO 10383 (see api/reference-data/SOURCES.md). */
export const STOCK_EXCHANGES_FILE = 'stock-exchanges.csv';

function fromRecord(record: Record<string, string>, line: number): StockExchange {
  const cell = (column: string): string => {
    const value = record[column];
    if (!value) throw new Error(`${STOCK_EXCHANGES_FILE}, row ${line}: ${column} is empty`);
    return value;
  };
  const kind = cell('OPRT/SGMT');
  if (kind !== 'OPRT' && kind !== 'SGMT') throw new Error(`${STOCK_EXCHANGES_FILE}, row ${line}: OPRT/SGMT is "${kind}"`);
  return {
    mic: cell('MIC'),
    operatingMic: cell('OPERATING MIC'),
    kind: kind === 'OPRT' ? 'operating' : 'segment',
    name: cell('NAME'),
    country: cell('ISO COUNTRY CODE (ISO 3166)'),
  };
}

let loaded: readonly StockExchange[] | undefined;

/** Every shipped stock exchange, ordered by name; read from the file once. */
export function stockExchanges(): readonly StockExchange[] {
  loaded ??= readReferenceCsv(STOCK_EXCHANGES_FILE)
    .map((record, index) => fromRecord(record, index + 1))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return loaded;
}

/** The exchanges of one country (ISO 3166-1 alpha-2), or all of them. */
export function listStockExchanges(country?: string): StockExchange[] {
  return stockExchanges().filter((exchange) => country === undefined || exchange.country === country);
}

/** The exchange with this MIC, if it is one the product knows. */
export function findStockExchange(mic: string): StockExchange | undefined {
  return stockExchanges().find((exchange) => exchange.mic === mic);
}
