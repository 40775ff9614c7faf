import { readFileSync } from 'node:fs';
import { CsvError, parse } from 'csv-parse/sync';
import { RejectedInput } from './output.js';

export interface CsvRecord {
  line: number;
  values: Record<string, string>;
}

/** Text a spreadsheet would run as a formula: =, +, -, @, a tab or a carriage return first (or full-width ＝＋－＠). */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A cell as it was before it was written safely: the apostrophe put before a formula character goes. */
const unneutralised = (cell: string): string => (cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell);

const named = (file: string): string => (file === '-' ? 'The input' : file);

/**
 * The file as text. A file with NUL bytes or bytes that are not UTF-8 (a spreadsheet, an archive,
 * an image) is refused rather than read as a CSV of nonsense.
 */
function readInput(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file === '-' ? 0 : file);
  } catch (error) {
    throw new RejectedInput(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = '\0';
  }
  if (text.includes('\0')) throw new RejectedInput(`${named(file)} is not a CSV file: it holds binary data, not UTF-8 text. Save it as CSV (UTF-8) and try again; nothing was written.`);
  return text;
}

/**
 * Reads a CSV file with a header row; every record keeps the line it started on, so problems the
 * server finds can be reported against the file the person edits.
 */
export function readCsv(file: string, columns: { required: string[]; optional: string[] }): CsvRecord[] {
  const text = readInput(file);
  if (!text.replace(/^\uFEFF/, '').trim()) throw new RejectedInput(`${named(file)} is empty: it needs a header row (${columns.required.join(',')}) and at least one row; nothing was written.`);
  let parsed: { record: Record<string, string>; info: { lines: number; raw?: string } }[];
  try {
    parsed = parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: true, info: true, raw: true }) as typeof parsed;
  } catch (error) {
    if (error instanceof CsvError) throw new RejectedInput(`${file} is not a readable CSV file.`, [`line ${String((error as CsvError & { lines?: number }).lines ?? '?')}: ${error.message}`]);
    throw error;
  }
  const header = parsed[0] ? Object.keys(parsed[0].record) : [];
  const known = new Set([...columns.required, ...columns.optional]);
  const problems = [
    ...columns.required.filter((name) => parsed.length && !header.includes(name)).map((name) => `line 1: ${name}: the column is missing`),
    ...header.filter((name) => !known.has(name)).map((name) => `line 1: ${name}: is not a column of this file (use ${[...known].join(', ')})`),
  ];
  if (problems.length) throw new RejectedInput(`${file} does not have the expected columns.`, problems);
  if (!parsed.length) throw new RejectedInput(`${named(file)} has a header row but no rows; nothing was written.`);
  return parsed.map(({ record, info }) => {
    // `info.lines` is the line the record ends on; a quoted field spanning lines starts earlier.
    // The raw text may carry skipped blank lines before it and its line break after it.
    const text = (info.raw ?? '').replace(/^(?:\r\n|\n|\r)+/, '').replace(/(?:\r\n|\n|\r)$/, '');
    const values = Object.fromEntries(Object.entries(record).map(([column, cell]) => [column, unneutralised(cell)]));
    return { line: info.lines - (text.split(/\r\n|\n|\r/).length - 1), values };
  });
}

/**
 * One line of a CSV the CLI writes. Text that looks like a formula gets a leading apostrophe (OWASP's
 * rule against CSV injection, as in every CSV the server writes); numbers are written as they are.
 * RFC 4180 quoting, only where a cell needs it.
 */
export function csvLine(cells: readonly (string | number | null)[]): string {
  return cells
    .map((value) => {
      if (typeof value === 'number') return String(value);
      const text = value ?? '';
      const cell = FORMULA_START.test(text) ? `'${text}` : text;
      return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
    })
    .join(',');
}
