import type { components } from '../contract-types.js';
import type { SourceRow, SourceTable } from '../hris/table.js';
import type { Parsed } from '../hris/values.js';

export type BandImportRowError = components['schemas']['BandImportRowError'];

/** At most this many problems are kept on an import; the count is always whole. */
export const KEPT_PROBLEMS = 1_000;

/** Every problem of a file, with the line and the column the person must fix. */
export class RowProblems {
  private readonly all: BandImportRowError[] = [];

  add(line: number, column: string | null, message: string): void {
    this.all.push({ line, column, message });
  }

  get count(): number {
    return this.all.length;
  }

  /** The first problems in file order. */
  first(limit = KEPT_PROBLEMS): BandImportRowError[] {
    return [...this.all].sort((a, b) => a.line - b.line).slice(0, limit);
  }
}

// The CSV writer (downloads/csv.ts) puts an apostrophe before a cell a spreadsheet would run as a
// formula; reading our own export back takes it off again.
const ESCAPED_FORMULA = /^'(?=[=+\-@\t\r＝＋－＠])/;

/** A row read through a field → column mapping: `undefined` for a field with no column, '' for an empty cell. */
export class FileRow<Field extends string> {
  constructor(
    readonly source: SourceRow,
    private readonly index: ReadonlyMap<Field, { at: number; column: string }>,
    private readonly problems: RowProblems,
  ) {}

  get line(): number {
    return this.source.line;
  }

  columnOf(field: Field): string | null {
    return this.index.get(field)?.column ?? null;
  }

  cell(field: Field): string | undefined {
    const where = this.index.get(field);
    if (!where) return undefined;
    return (this.source.values[where.at] ?? '').trim().replace(ESCAPED_FORMULA, '');
  }

  problem(field: Field | null, message: string): void {
    this.problems.add(this.line, field === null ? null : this.columnOf(field), message);
  }

  /** The parsed cell; undefined when the column is not mapped, null when the cell is empty or wrong (and then reported). */
  parse<T>(field: Field, parser: (text: string) => Parsed<T>): T | null | undefined {
    const text = this.cell(field);
    if (text === undefined) return undefined;
    if (text === '') return null;
    const parsed = parser(text);
    if ('error' in parsed) {
      this.problem(field, parsed.error);
      return null;
    }
    return parsed.value;
  }

  /** Text of at most `max` characters; null when empty or unmapped. */
  text(field: Field, max: number): string | null {
    const text = this.cell(field);
    if (!text) return null;
    if (text.length > max) {
      this.problem(field, `is longer than ${max} characters`);
      return null;
    }
    return text;
  }
}

/** The table's rows read through the mapping (field → column header). */
export function fileRows<Field extends string>(table: SourceTable, mapping: Partial<Record<Field, string>>, problems: RowProblems): FileRow<Field>[] {
  const index = new Map<Field, { at: number; column: string }>();
  for (const [field, column] of Object.entries(mapping) as [Field, string | undefined][]) {
    const at = column === undefined ? -1 : table.columns.indexOf(column);
    if (column !== undefined && at >= 0) index.set(field, { at, column });
  }
  return table.rows.map((row) => new FileRow(row, index, problems));
}
