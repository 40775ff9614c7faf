import { CsvError, parse } from 'csv-parse/sync';
import { emit } from '../platform/events.js';
import type { components } from '../contract-types.js';
import { type FieldError, badRequest } from '../kernel/errors.js';
import type { ForexRateRow } from '../money/rateStore.js';
import { ECB_SOURCE, correctRate, ratesBetween } from './store.js';
import { forgetForexMapping } from './perDollar.js';
import type { ServiceContext } from '../kernel/operations.js';

type ReferenceRatesImport = components['schemas']['ReferenceRatesImport'];

/** Enough problems to fix a file by; the rest are counted. */
const MAX_REPORTED = 100;
const CHUNK = 400;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const RATE = /^\d{1,12}(?:\.\d{1,12})?$/;

export interface ParsedReferenceRates {
  currencies: string[];
  dates: string[];
  rates: ForexRateRow[];
}

function realDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/**
 * Reads a table in the ECB euro foreign exchange reference format: `Date` and one column per
 * currency (units per euro), `N/A` or nothing where there was no rate. The ECB's own file ends every
 * line with a comma, which makes a last column without a name: allowed while it stays empty.
 */
export function parseReferenceRates(text: string): { parsed: ParsedReferenceRates; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const problem = (line: number, column: string, message: string) => errors.push({ field: `lines.${line}.${column}`, message });
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as typeof records;
  } catch (error) {
    const line = error instanceof CsvError ? Number((error as CsvError & { lines?: number }).lines ?? 1) : 1;
    problem(line, 'file', `is not readable CSV: ${error instanceof Error ? error.message : String(error)}`);
    return { parsed: { currencies: [], dates: [], rates: [] }, errors };
  }
  const [header, ...rows] = records;
  const names = header?.record ?? [];
  if (names[0] !== 'Date') problem(header?.info.lines ?? 1, names[0] || 'Date', 'the first column must be Date');
  const columns: { index: number; code: string }[] = [];
  const unnamed: number[] = [];
  names.slice(1).forEach((name, offset) => {
    const index = offset + 1;
    if (name === '') unnamed.push(index);
    else if (!/^[A-Z]{3}$/.test(name)) problem(1, name, 'is not a currency code (three capital letters)');
    else if (name === 'EUR') problem(1, name, 'is the base of the table: every rate is units of a currency per euro');
    else if (columns.some((column) => column.code === name)) problem(1, name, 'appears twice');
    else columns.push({ index, code: name });
  });
  if (!columns.length && names[0] === 'Date') problem(1, 'Date', 'the file has no currency columns');
  if (!rows.length) problem(1, 'Date', 'the file has no dated rows');

  const seen = new Map<string, number>();
  const rates: ForexRateRow[] = [];
  for (const { record, info } of rows) {
    // info.lines is the line a record ends on; records here never span lines.
    const line = info.lines;
    const date = record[0] ?? '';
    if (record.length > names.length) problem(line, 'row', `has ${record.length} cells where the header has ${names.length}`);
    if (!realDate(date)) problem(line, 'Date', `"${date}" is not a date (YYYY-MM-DD)`);
    else if (seen.has(date)) problem(line, 'Date', `${date} is already on line ${seen.get(date)}`);
    else seen.set(date, line);
    for (const index of unnamed) if ((record[index] ?? '') !== '') problem(line, `column ${index + 1}`, 'has a value but no currency in the header');
    for (const { index, code } of columns) {
      const cell = record[index] ?? '';
      if (cell === '' || cell === 'N/A') continue;
      const rate = Number(cell);
      if (!RATE.test(cell) || !(rate > 0)) problem(line, code, `"${cell}" is not a rate (a positive decimal, or N/A)`);
      else if (realDate(date)) rates.push({ currency: code, rate_date: date, base: 'EUR', rate, source: ECB_SOURCE });
    }
  }
  return { parsed: { currencies: columns.map((column) => column.code), dates: [...seen.keys()].sort(), rates }, errors };
}

/**
 * Checks the whole file, then adds the days the database lacks and corrects rates it holds with
 * another value, in one transaction: a file with any problem writes nothing.
 */
export async function importReferenceRates(ctx: Pick<ServiceContext, 'db' | 'caller'>, text: string, dryRun: boolean): Promise<ReferenceRatesImport> {
  const { db, caller } = ctx;
  const { parsed, errors } = parseReferenceRates(text);
  if (errors.length) {
    const reported = errors.slice(0, MAX_REPORTED);
    if (errors.length > MAX_REPORTED) reported.push({ field: 'file', message: `and ${errors.length - MAX_REPORTED} more problems` });
    throw badRequest(`The rates file has ${errors.length} problem${errors.length === 1 ? '' : 's'}; nothing was written.`, reported);
  }
  const firstDate = parsed.dates[0] ?? null;
  const lastDate = parsed.dates.at(-1) ?? null;
  const held = firstDate && lastDate ? await ratesBetween(db, parsed.currencies, firstDate, lastDate) : new Map<string, number>();
  const added: ForexRateRow[] = [];
  const corrected: ForexRateRow[] = [];
  for (const row of parsed.rates) {
    const existing = held.get(`${row.currency}|${row.rate_date}`);
    if (existing === undefined) added.push(row);
    else if (existing !== row.rate) corrected.push(row);
  }
  if (!dryRun && (added.length || corrected.length)) {
    await db.transaction(async (trx) => {
      for (let start = 0; start < added.length; start += CHUNK) await trx('forex_rates').insert(added.slice(start, start + CHUNK));
      for (const row of corrected) await correctRate(trx, row);
      await emit(trx, { companyId: null, actorUserId: caller.userId, name: 'reference_rates.imported', payload: { firstDate, lastDate, added: added.length, corrected: corrected.length } });
    });
    // Market answers convert with the new rates from the next request on.
    forgetForexMapping(db);
  }
  return {
    dryRun,
    days: parsed.dates.length,
    firstDate,
    lastDate,
    currencies: parsed.currencies,
    rates: parsed.rates.length,
    added: added.length,
    corrected: corrected.length,
    unchanged: parsed.rates.length - added.length - corrected.length,
  };
}
