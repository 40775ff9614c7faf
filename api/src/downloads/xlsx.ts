import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { decimalsOf } from '../money/format.js';

/** A cell of an XLSX file the product writes: text, a number, or empty. */
export type XlsxCell = string | number | null;

/**
 * How a column's numbers are shown. `money`: an amount in major units, in the currency named by
 * the row's `currencyColumn` (its ISO 4217 decimals and code: `#,##0.00 "USD"`, `#,##0 "JPY"`);
 * a row without a currency gets the plain grouped format. `percent`: a figure already in percent
 * (12.5 for 12.5 %). `fraction`: a share between 0 and 1 shown as a percentage. `integer`: a count.
 */
export type XlsxFormat = { kind: 'money'; currencyColumn: number } | { kind: 'percent' } | { kind: 'fraction' } | { kind: 'integer' } | { kind: 'decimal'; digits: number };

export interface XlsxOptions {
  sheetName?: string;
  /** Column index → format; columns not named are written as they come. */
  formats?: ReadonlyMap<number, XlsxFormat>;
}

const digitsFormat = (digits: number): string => (digits > 0 ? `#,##0.${'0'.repeat(digits)}` : '#,##0');

function numberFormat(format: XlsxFormat, row: readonly XlsxCell[]): string {
  switch (format.kind) {
    case 'money': {
      const currency = row[format.currencyColumn];
      if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return '#,##0.00';
      return `${digitsFormat(decimalsOf(currency))} "${currency}"`;
    }
    case 'percent':
      return '0.00"%"';
    case 'fraction':
      return '0.0%';
    case 'integer':
      return '#,##0';
    case 'decimal':
      return digitsFormat(format.digits);
  }
}

/** A column wide enough for its header, and for a figure or a name (the file is streamed: its rows are not known ahead). */
const widthOf = (header: string, format: XlsxFormat | undefined): number => Math.min(48, Math.max(header.length + 2, format ? 14 : 12));

/**
 * The one way the product writes XLSX (exports, reports): exceljs's streaming writer, rows committed
 * as they come and never kept. The header row is bold and frozen, each column has a width, and
 * numbers carry real number formats (amounts with their currency's ISO 4217 decimals and code), so
 * the file reads in a spreadsheet as it does on screen while every cell keeps its exact value.
 */
export function xlsxContent(rows: AsyncIterable<readonly XlsxCell[]>, header: readonly string[], options: XlsxOptions | string = {}): { content: Readable; done: Promise<void> } {
  const { sheetName = 'Sheet1', formats = new Map<number, XlsxFormat>() } = typeof options === 'string' ? { sheetName: options } : options;
  const content = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: content, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = header.map((title, index) => ({ key: String(index), width: widthOf(title, formats.get(index)) }));
  const done = (async () => {
    const top = sheet.addRow([...header]);
    top.font = { bold: true };
    top.commit();
    for await (const values of rows) {
      const row = sheet.addRow([...values]);
      for (const [index, format] of formats) {
        if (typeof values[index] === 'number') row.getCell(index + 1).numFmt = numberFormat(format, values);
      }
      row.commit();
    }
    sheet.commit();
    await workbook.commit();
  })();
  done.catch((error: unknown) => content.destroy(error instanceof Error ? error : new Error(String(error))));
  return { content, done };
}
