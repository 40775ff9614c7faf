import type { components } from '../contract-types.js';
import { LineProblems, type TableRow, tableRows } from '../kernel/files/rows.js';
import type { SourceTable } from '../kernel/files/table.js';

export type BandImportRowError = components['schemas']['BandImportRowError'];

/** Every problem of a bands or survey file, with the line and the column the person must fix. */
export class RowProblems extends LineProblems<BandImportRowError> {}

/** A row of a bands or survey file read through its mapping (kernel/files/rows.ts). */
export type FileRow<Field extends string> = TableRow<Field>;

/** The table's rows read through the mapping; cells are tidied, since our own exports come back as imports. */
export function fileRows<Field extends string>(table: SourceTable, mapping: Partial<Record<Field, string>>, problems: RowProblems): FileRow<Field>[] {
  return tableRows(table, mapping, { tidy: true, report: ({ line, column, message }) => problems.add({ line, column, message }) });
}
