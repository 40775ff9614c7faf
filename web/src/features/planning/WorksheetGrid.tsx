import type { ReactNode } from 'react';
import type { Column } from '../../ui/DataTable';
import { DataGrid, type SheetChangeInfo, type SheetEditing } from '../../ui/DataGrid';
import type { WorksheetEmployee } from './common';
import { isEditField } from './worksheetColumns';
import type { CellEdit, EditField } from './worksheetModel';

/** One cell the planner changed: whose, which field, the text and the text before, and the row version they were looking at. */
export interface CellChange {
  employeeId: string;
  field: EditField;
  text: string;
  /** The cell's text before the change (what an undo puts back). */
  before: string;
  readVersion: number;
}

/** A batch's kind; a bulk action says in its own words what it left alone. */
export type ChangeInfo = SheetChangeInfo & { skippedNote?: string };

interface GridProps {
  label: string;
  rows: readonly WorksheetEmployee[];
  columns: readonly Column<WorksheetEmployee>[];
  /** Edits in flight or refused, by row and field: the cell shows the person's text. */
  editOf: (employeeId: string, field: EditField) => CellEdit | undefined;
  onChange: (changes: CellChange[], info: ChangeInfo) => void;
  onUndo: () => void;
  onRedo: () => void;
  /** Opens the person (their peers, history and comments). */
  onOpen: (row: WorksheetEmployee) => void;
  /** Told how many rows the cell selection spans (the toolbar's fill down needs two). */
  onSelection: (rows: number) => void;
  /** The toolbar's fill down: each new number fills the selection down once. */
  fillRequest: number;
  /** What can be done with the rows selected by their checkboxes. */
  bulkActions?: (selected: WorksheetEmployee[], clear: () => void) => ReactNode;
}

/**
 * The planner's grid: the shared data grid (virtualised, the name pinned, density and columns kept
 * per person) with its sheet editing, the changes handed over as the worksheet's own cells.
 */
export function WorksheetGrid({ label, rows, columns, editOf, onChange, onUndo, onRedo, onOpen, onSelection, fillRequest, bulkActions }: GridProps) {
  const sheet: SheetEditing<WorksheetEmployee> = {
    pending: (row, key) => {
      const edit = isEditField(key) ? editOf(row.employeeId, key) : undefined;
      return edit && { text: edit.text, status: edit.status, message: edit.message, refused: edit.status === 'error' || edit.status === 'conflict' };
    },
    // The row as the person saw it carries the version their change was made at.
    onChange: (changes, info) => onChange(changes.flatMap((change) => (isEditField(change.key) ? [{ employeeId: change.row.employeeId, field: change.key, text: change.text, before: change.before, readVersion: change.row.version }] : [])), info),
    onUndo,
    onRedo,
    onSelection,
    fillRequest,
  };
  return (
    <DataGrid
      id="planningWorksheet"
      label={label}
      regionLabel={`${label}, scrolling`}
      columns={columns}
      rows={rows}
      rowKey={(row) => row.employeeId}
      rowName={(row) => row.name}
      rowAttributes={(row) => ({
        'data-employee-id': row.employeeId,
        'data-version': String(row.version),
        'data-eligible': String(row.eligibility.status === 'eligible'),
        ...(row.flags.length ? { 'data-flag': row.flags.some((flag) => flag.severity === 'error') ? 'error' : 'warning' } : {}),
      })}
      onOpen={onOpen}
      bulkActions={bulkActions}
      sheet={sheet}
    />
  );
}
