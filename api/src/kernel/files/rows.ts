import type { Parsed } from './cells.js';
import { tidyCell } from './cells.js';
import type { Mapping } from './mapping.js';
import type { SourceRow, SourceTable } from './table.js';

/** At most this many problems (and changes) are kept on an import; the counts are always whole. */
export const KEPT = 1_000;

/** Every problem of a file, with its line, kept whole and handed back in file order. */
export class LineProblems<Problem extends { line: number }> {
  private readonly all: Problem[] = [];

  add(problem: Problem): void {
    this.all.push(problem);
  }

  get count(): number {
    return this.all.length;
  }

  /** The first problems in file order. */
  first(limit = KEPT): Problem[] {
    return [...this.all].sort((a, b) => a.line - b.line).slice(0, limit);
  }
}

/** A problem of one cell as a row reports it: the line, the file's column and the field it fills. */
export interface CellProblem<Field extends string> {
  line: number;
  column: string | null;
  field: Field | null;
  message: string;
}

export interface RowReading<Field extends string> {
  /** Hears every problem a row reports. */
  report: (problem: CellProblem<Field>) => void;
  /** Cells trimmed and with our own export's formula apostrophe taken off (files we wrote may come back). */
  tidy?: boolean;
}

/** A row read through a field → column mapping: `undefined` for a field with no column, '' for an empty cell. */
export class TableRow<Field extends string> {
  constructor(
    readonly source: SourceRow,
    private readonly index: ReadonlyMap<Field, number>,
    private readonly mapping: Mapping<Field>,
    private readonly reading: RowReading<Field>,
  ) {}

  get line(): number {
    return this.source.line;
  }

  has(field: Field): boolean {
    return this.index.has(field);
  }

  columnOf(field: Field): string | null {
    return this.mapping[field] ?? null;
  }

  cell(field: Field): string | undefined {
    const at = this.index.get(field);
    if (at === undefined) return undefined;
    const text = this.source.values[at] ?? '';
    return this.reading.tidy ? tidyCell(text) : text;
  }

  /** Reports a problem of the field's cell (or, with null, of the whole row). */
  problem(field: Field | null, message: string): void {
    this.reading.report({ line: this.line, column: field === null ? null : this.columnOf(field), field, message });
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

  /** Text of at most `max` characters; undefined when the column is not mapped, null when empty. */
  text(field: Field, max = 255, { trim = false }: { trim?: boolean } = {}): string | null | undefined {
    const cell = this.cell(field);
    if (cell === undefined) return undefined;
    const text = trim ? cell.trim() : cell;
    if (text === '') return null;
    if (text.length > max) {
      this.problem(field, `is longer than ${max} characters`);
      return null;
    }
    return text;
  }
}

/** The table's rows read through the mapping (field → column header). */
export function tableRows<Field extends string>(table: SourceTable, mapping: Mapping<Field>, reading: RowReading<Field>): TableRow<Field>[] {
  const index = new Map<Field, number>();
  for (const [field, column] of Object.entries(mapping) as [Field, string | undefined][]) {
    const at = column === undefined ? -1 : table.columns.indexOf(column);
    if (at >= 0) index.set(field, at);
  }
  return table.rows.map((row) => new TableRow(row, index, mapping, reading));
}
