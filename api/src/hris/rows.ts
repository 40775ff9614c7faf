import type { components } from '../contract-types.js';
import type { FieldName } from './fields.js';
import type { ColumnMapping } from './mapping.js';
import type { Parsed } from './values.js';
import type { SourceRow, SourceTable } from './table.js';

export type RowError = components['schemas']['PeopleImportRowError'];
export type PeopleImportPlan = components['schemas']['PeopleImportPlan'];
type Change = PeopleImportPlan['changes'][number];

/** At most this many problems and changes are kept on an import; the counts are always whole. */
export const KEPT = 1_000;

/** Every problem of a file, row by row, with the line and the column the person must fix. */
export class RowErrors {
  private readonly all: RowError[] = [];

  add(line: number, column: string | null, field: FieldName | null, message: string): void {
    this.all.push({ line, column, field, message });
  }

  get count(): number {
    return this.all.length;
  }

  /** The first problems in file order. */
  first(limit = KEPT): RowError[] {
    return [...this.all].sort((a, b) => a.line - b.line).slice(0, limit);
  }
}

/** A row read through the mapping: `undefined` for a field with no column, '' for an empty cell. */
export class MappedRow {
  constructor(
    readonly source: SourceRow,
    private readonly index: Map<FieldName, number>,
    private readonly mapping: ColumnMapping,
    private readonly errors: RowErrors,
  ) {}

  get line(): number {
    return this.source.line;
  }

  has(field: FieldName): boolean {
    return this.index.has(field);
  }

  cell(field: FieldName): string | undefined {
    const at = this.index.get(field);
    return at === undefined ? undefined : (this.source.values[at] ?? '');
  }

  problem(field: FieldName, message: string): void {
    this.errors.add(this.line, this.mapping[field] ?? null, field, message);
  }

  /** The parsed cell; undefined when the column is not mapped, null when the cell is empty or wrong (and then reported). */
  parse<T>(field: FieldName, parser: (text: string) => Parsed<T>): T | null | undefined {
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

  /** Text of at most `max` characters; null when empty. */
  text(field: FieldName, max = 255, { trim = false }: { trim?: boolean } = {}): string | null | undefined {
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

export function mappedRows(table: SourceTable, mapping: ColumnMapping, errors: RowErrors): MappedRow[] {
  const index = new Map<FieldName, number>();
  for (const [field, column] of Object.entries(mapping) as [FieldName, string][]) {
    const at = table.columns.indexOf(column);
    if (at >= 0) index.set(field, at);
  }
  return table.rows.map((row) => new MappedRow(row, index, mapping, errors));
}

/** Counts and the first changes, in file order. */
export function planOf(dryRun: boolean, rows: number, changes: Change[], compensationRecords: { add: number; update: number }): PeopleImportPlan {
  const create = changes.filter((change) => change.action === 'create').length;
  const update = changes.length - create;
  const sorted = [...changes].sort((a, b) => a.line - b.line);
  return {
    dryRun,
    rows,
    create,
    update,
    unchanged: rows - changes.length,
    compensationRecords,
    changes: sorted.slice(0, KEPT),
    changesTruncated: sorted.length > KEPT,
  };
}
