import type { PointerEvent } from 'react';
import { headerText } from './DataGridHead';
import type { Column } from './DataTable';
import type { CellPosition } from './gridModel';
import { CellInput } from './sheet/CellInput';
import type { useSheetCells } from './sheet/useSheetCells';

interface CellProps<Row> {
  column: Column<Row>;
  row: Row;
  /** The row's name (for the editor's label). */
  name: string;
  at: CellPosition;
  /** The first data column opens its row. */
  opens?: (row: Row) => void;
  focusable: boolean;
  pinClass: string;
  style?: { left?: number };
  cells: ReturnType<typeof useSheetCells<Row>>;
  onPointerDown: (event: PointerEvent<HTMLElement>) => void;
}

/** One data cell: its value, or with sheet editing its pending entry or the editor, and its ARIA state. */
export function DataGridCell<Row>({ column, row, name, at, opens, focusable, pinClass, style, cells, onPointerDown }: CellProps<Row>) {
  const sheetCell = cells.on ? cells.cellState(row, at, column) : null;
  const pending = sheetCell?.pending;
  const content = sheetCell?.editing ? (
    <CellInput label={`${headerText(column)} for ${name}`} initial={sheetCell.editing.text} onCommit={cells.commit} onCancel={cells.cancel} />
  ) : pending ? (
    <span className="dgrid-pending">{pending.text || '—'}</span>
  ) : (
    column.cell(row)
  );
  const role = column.rowHeader ? 'rowheader' : 'gridcell';
  const sheetClasses = sheetCell ? [sheetCell.editable && 'editable', pending && `edit-${pending.status}`, sheetCell.selected && 'selected'].filter(Boolean).join(' ') : '';
  return (
    <div
      role={role}
      aria-colindex={at.col + 1}
      aria-readonly={sheetCell && role === 'gridcell' ? !sheetCell.editable : undefined}
      aria-selected={sheetCell && role === 'gridcell' ? sheetCell.selected : undefined}
      aria-invalid={pending?.refused || undefined}
      data-pos={`${at.row}:${at.col}`}
      data-col={column.key}
      tabIndex={focusable ? 0 : -1}
      title={pending?.message ?? column.title?.(row)}
      className={`${column.numeric ? 'num' : ''}${column.className ? ` ${column.className}` : ''}${pinClass}${sheetClasses ? ` ${sheetClasses}` : ''}`}
      style={style}
      onPointerDown={onPointerDown}
      onClick={sheetCell ? () => cells.onClick(at) : undefined}
      onDoubleClick={sheetCell?.editable ? () => cells.startEditing(at) : undefined}
    >
      {opens && !sheetCell?.editing ? (
        <button type="button" className="data-grid-link" onClick={() => opens(row)}>
          {content}
        </button>
      ) : (
        content
      )}
    </div>
  );
}
