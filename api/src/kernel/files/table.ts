import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { badRequest } from '../errors.js';
import { Pacer } from '../pace.js';

export type FileFormat = 'csv' | 'xlsx';

/** One row below the header: its line in the file (CSV) or row of the sheet (XLSX), and its cells as text. */
export interface SourceRow {
  line: number;
  values: string[];
}

/** A file read into its header and rows, the one shape every source (upload or connector) gives the import. */
export interface SourceTable {
  columns: string[];
  rows: SourceRow[];
  /** Rows below the header that hold anything (also when they were only counted, not kept). */
  rowCount: number;
}

export interface ReadOptions {
  /** Hears how many rows are read, every few thousand. */
  onProgress?: (rowsRead: number) => Promise<void>;
  /** False: count the rows without keeping them (checking an upload's header and size). */
  keepRows?: boolean;
}

/** The file cannot be read as a table at all (not CSV, a broken spreadsheet, no header row). */
export class UnreadableFile extends Error {}

export const CONTENT_TYPES: Record<FileFormat, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** XLSX files are zip archives; anything else is taken as CSV text. */
export function formatOf(contentType: string | undefined, name: string | undefined, firstBytes: Buffer): FileFormat {
  if (firstBytes.length >= 4 && firstBytes.readUInt32LE(0) === 0x04034b50) return 'xlsx';
  if (contentType?.includes('spreadsheetml') || name?.toLowerCase().endsWith('.xlsx')) return 'xlsx';
  return 'csv';
}

/** Header cells made unique and never empty, so a mapping can name every column. */
function columnNames(header: string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((raw, index) => {
    const base = raw.trim() || `Column ${index + 1}`;
    const count = (seen.get(base.toLowerCase()) ?? 0) + 1;
    seen.set(base.toLowerCase(), count);
    return count === 1 ? base : `${base} (${count})`;
  });
}

const isBlank = (values: string[]): boolean => values.every((value) => value === '');

const PROGRESS_EVERY = 5_000;
/** The parsers get the file in slices this small (an upload arrives as one buffer), so their work can be paced. */
const SLICE_BYTES = 4 * 1024;

/** The content in small slices (an upload arrives as one buffer). */
async function* slices(content: Readable): AsyncGenerator<Buffer> {
  for await (const chunk of content as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let start = 0; start < bytes.length; start += SLICE_BYTES) yield bytes.subarray(start, start + SLICE_BYTES);
  }
}

/** The same, handing the event loop back between slices whenever the slice of time is used up (for parsers fed as streams). */
async function* paced(content: Readable): AsyncGenerator<Buffer> {
  const pacer = new Pacer();
  for await (const slice of slices(content)) {
    if (pacer.due) await pacer.pause();
    yield slice;
  }
}

interface CsvEntry {
  record: string[];
  info: { lines: number };
  raw: string;
}

async function readCsv(content: Readable, { onProgress, keepRows = true }: ReadOptions): Promise<SourceTable> {
  // Driven by hand, a slice at a time: the parser emits a slice's records as it is written, and the
  // loop hands the event loop back between slices, so a big file never holds it for long.
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, raw: true, trim: true });
  const parsed: CsvEntry[] = [];
  parser.on('data', (entry: CsvEntry) => parsed.push(entry));
  const ended = finished(parser);
  ended.catch(() => undefined); // awaited below; a failure is also seen through `parser.destroyed`
  let columns: string[] | undefined;
  const rows: SourceRow[] = [];
  let count = 0;
  const take = async (): Promise<void> => {
    for (const entry of parsed.splice(0)) {
      // `info.lines` is where the record ends; a quoted cell spanning lines starts it earlier.
      const text = entry.raw.replace(/^(?:\r\n|\n|\r)+/, '').replace(/(?:\r\n|\n|\r)$/, '');
      const line = entry.info.lines - (text.split(/\r\n|\n|\r/).length - 1);
      if (!columns) {
        columns = columnNames(entry.record);
        continue;
      }
      const values = columns.map((_, index) => entry.record[index] ?? '');
      if (isBlank(values)) continue;
      count += 1;
      if (keepRows) rows.push({ line, values });
      if (onProgress && count % PROGRESS_EVERY === 0) await onProgress(count);
    }
  };
  const pacer = new Pacer();
  try {
    for await (const slice of slices(content)) {
      if (parser.destroyed) break;
      parser.write(slice);
      await take();
      if (pacer.due) await pacer.pause();
    }
    if (!parser.destroyed) parser.end();
    await ended;
    await take();
  } catch (error) {
    if (error instanceof CsvError) {
      const at = (error as CsvError & { lines?: number }).lines;
      throw new UnreadableFile(`The file is not readable as CSV${at ? ` (line ${at})` : ''}: ${error.message}`);
    }
    throw error;
  }
  if (!columns) throw new UnreadableFile('The file is empty: it needs a header row naming its columns.');
  return { columns, rows, rowCount: count };
}

/** Numbers without binary noise (0.1 + 0.2), dates as YYYY-MM-DD, percentages as "15%". */
function cellText(value: ExcelJS.CellValue, numFmt: string | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') {
    if (numFmt?.includes('%')) return `${Number((value * 100).toPrecision(15))}%`;
    return String(Number(value.toPrecision(15)));
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('').trim();
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue, numFmt);
  if ('hyperlink' in value) return String(value.text ?? '').trim();
  if ('error' in value) return String(value.error);
  return '';
}

/** The first worksheet, read as a stream: rows are turned into text as they arrive. */
async function readXlsx(content: Readable, { onProgress, keepRows = true }: ReadOptions): Promise<SourceTable> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(paced(content), { objectMode: false }), { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit' });
  let columns: string[] | undefined;
  const rows: SourceRow[] = [];
  let count = 0;
  let sheets = 0;
  const pacer = new Pacer();
  try {
    for await (const sheet of reader) {
      sheets += 1;
      for await (const row of sheet) {
        if (sheets > 1) continue; // only the first sheet is the table; the rest are read past
        const cells: string[] = [];
        row.eachCell({ includeEmpty: false }, (cell, column) => {
          cells[column - 1] = cellText(cell.value, cell.numFmt);
        });
        const filled = Array.from({ length: Math.max(cells.length, columns?.length ?? 0) }, (_, index) => cells[index] ?? '');
        if (!columns) {
          if (isBlank(filled)) continue;
          columns = columnNames(filled);
          continue;
        }
        const values = columns.map((_, index) => filled[index] ?? '');
        if (isBlank(values)) continue;
        count += 1;
        if (keepRows) rows.push({ line: row.number, values });
        if (onProgress && count % PROGRESS_EVERY === 0) await onProgress(count);
        if (pacer.due) await pacer.pause();
      }
    }
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    throw new UnreadableFile(`The file is not a readable XLSX workbook: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!columns) throw new UnreadableFile('The first sheet is empty: it needs a header row naming its columns.');
  return { columns, rows, rowCount: count };
}

/** Reads a whole CSV or XLSX file: its header row and the rows below it, each with its line. */
export function readTable(content: Readable, format: FileFormat, options: ReadOptions = {}): Promise<SourceTable> {
  return format === 'xlsx' ? readXlsx(content, options) : readCsv(content, options);
}

/** Reads a file a request sent; one that is no table at all is refused with a 400 saying why. */
export async function readSentTable(content: Readable, format: FileFormat, options: ReadOptions = {}): Promise<SourceTable> {
  try {
    return await readTable(content, format, options);
  } catch (error) {
    if (error instanceof UnreadableFile) throw badRequest(error.message, [{ field: 'body', message: error.message }]);
    throw error;
  }
}
