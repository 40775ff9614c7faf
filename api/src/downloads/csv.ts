import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/** A cell of a CSV file the product writes: text, a number, or empty. */
export type CsvCell = string | number | null | undefined;
export type CsvRow = readonly CsvCell[];

/**
 * The one way the product writes CSV (exports, reports, downloads): a header line, then the rows.
 *
 * A text cell that a spreadsheet would run as a formula — one starting with `=`, `+`, `-`, `@`, a
 * tab or a carriage return (or the full-width `＝＋－＠`) — is written with a leading apostrophe
 * (OWASP's rule against CSV injection), so a name like `=HYPERLINK(…)` stays text. Numbers are
 * written as they are: -1200 passed as a number stays `-1200`.
 *
 * The file is UTF-8 and starts with a byte-order mark (EF BB BF), so a spreadsheet opening it
 * double-clicked reads it as UTF-8 ("San Francisco–Oakland", "Zürich") rather than in the system's
 * legacy code page. Readers of the product's own CSV (the people-data and bands imports, the CLI's
 * users import) skip the mark.
 */
export function csvFile(header: readonly string[], rows: Iterable<CsvRow> | AsyncIterable<CsvRow>): Readable {
  const source = Readable.from(rows);
  const csv = stringify({ header: true, columns: [...header], escape_formulas: true, bom: true });
  // pipe() does not pass errors on: a row source that fails must fail the file, not leave it open.
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
