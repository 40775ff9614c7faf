import type { components } from '../contract-types.js';
import type { FieldName } from './fields.js';
import type { ColumnMapping } from './mapping.js';
import { KEPT, LineProblems, type TableRow, tableRows } from '../kernel/files/rows.js';
import type { SourceTable } from '../kernel/files/table.js';

export type RowError = components['schemas']['PeopleImportRowError'];
export type PeopleImportPlan = components['schemas']['PeopleImportPlan'];
type Change = PeopleImportPlan['changes'][number];

/** Every problem of a file, row by row, with the line and the column the person must fix. */
export class RowErrors extends LineProblems<RowError> {}

/** A row read through the mapping: `undefined` for a field with no column, '' for an empty cell. */
export type MappedRow = TableRow<FieldName>;

export function mappedRows(table: SourceTable, mapping: ColumnMapping, errors: RowErrors): MappedRow[] {
  return tableRows(table, mapping, { report: (problem) => errors.add(problem) });
}

/** Counts and the first changes, in file order; `records` is how many people or grants the rows are (rows of a pay history are one person). */
export function planOf(dryRun: boolean, rows: number, changes: Change[], compensationRecords: { add: number; update: number }, records = rows): PeopleImportPlan {
  const create = changes.filter((change) => change.action === 'create').length;
  const update = changes.length - create;
  const sorted = [...changes].sort((a, b) => a.line - b.line);
  return {
    dryRun,
    rows,
    create,
    update,
    unchanged: records - changes.length,
    compensationRecords,
    changes: sorted.slice(0, KEPT),
    changesTruncated: sorted.length > KEPT,
  };
}
