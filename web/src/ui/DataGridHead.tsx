import type { RowData } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { type PointerEvent, type ReactNode, useState } from 'react';
import type { Column, Sort } from './DataTable';
import { dropColumn } from './gridModel';

/** The smallest width a column can be dragged to. */
export const MIN_WIDTH = 56;

/** A column's default width in pixels: its `size`, a pixel `width`, or by kind. */
export function defaultWidth<Row>(column: Column<Row>): number {
  if (column.size) return column.size;
  const pixels = column.width && /^(\d+)px$/.exec(column.width);
  if (pixels) return Number(pixels[1]);
  return column.numeric ? 120 : 160;
}

export const headerText = <Row,>(column: Column<Row>): string => column.label ?? (typeof column.header === 'string' ? column.header : column.key);

/** What the header needs of a TanStack column (sorting and filtering the rows loaded here). */
export interface HeaderColumnState {
  getCanSort(): boolean;
  getIsSorted(): false | 'asc' | 'desc';
  toggleSorting(desc?: boolean): void;
  getCanFilter(): boolean;
  getFilterValue(): unknown;
  setFilterValue(value: unknown): void;
}

interface HeadRowProps<Row extends RowData> {
  shown: readonly Column<Row>[];
  /** Columns before the data's (the selection checkbox). */
  lead: number;
  /** The checkbox header, when rows can be selected. */
  leading?: ReactNode;
  template: string;
  orderKeys: readonly string[];
  pinnedCount: number;
  sort?: Sort;
  showFilters: boolean;
  /** TanStack's column, for sorting and filtering rows loaded here. */
  tableColumn: (key: string) => HeaderColumnState | undefined;
  isActive: (col: number) => boolean;
  onActivate: (col: number) => void;
  widthOf: (column: Column<Row>) => number;
  onWidth: (column: Column<Row>, width: number, done: boolean) => void;
  onOrder: (keys: string[]) => void;
  cellStyle: (index: number) => { left?: number } | undefined;
  pinClass: (index: number) => string;
}

/** The sticky header row: sort buttons, the column filters, and drag to resize or reorder. */
export function DataGridHeadRow<Row extends RowData>(props: HeadRowProps<Row>) {
  const { shown, lead, sort, showFilters, pinnedCount } = props;
  const [dragging, setDragging] = useState<string | null>(null);

  // Resizing by dragging a header's edge.
  function startResize(event: PointerEvent<HTMLElement>, column: Column<Row>) {
    event.preventDefault();
    event.stopPropagation();
    const startX = event.clientX;
    const start = props.widthOf(column);
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    let width = start;
    const move = (moved: globalThis.PointerEvent) => {
      width = Math.max(MIN_WIDTH, start + moved.clientX - startX);
      props.onWidth(column, width, false);
    };
    const end = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
      if (width !== start) props.onWidth(column, width, true);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  }

  return (
    <div role="rowgroup" className="dgrid-head">
      <div role="row" aria-rowindex={1} style={{ gridTemplateColumns: props.template }}>
        {props.leading}
        {shown.map((column, index) => {
          const col = index + lead;
          const tanColumn = props.tableColumn(column.key);
          const serverSorted = sort && column.sortable !== false;
          const clientSorted = !sort && tanColumn?.getCanSort();
          const direction = serverSorted ? (sort.key === column.key ? sort.order : false) : clientSorted ? tanColumn?.getIsSorted() : false;
          const ariaSort = serverSorted || clientSorted ? (direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none') : undefined;
          const movable = index >= pinnedCount;
          return (
            <div
              key={column.key}
              role="columnheader"
              aria-colindex={col + 1}
              aria-sort={ariaSort}
              data-pos={`0:${col}`}
              data-col={column.key}
              tabIndex={props.isActive(col) ? 0 : -1}
              className={`${column.numeric ? 'num' : ''}${props.pinClass(index)}${dragging === column.key ? ' dragging' : ''}`}
              style={props.cellStyle(index)}
              draggable={movable}
              onPointerDown={() => props.onActivate(col)}
              onDragStart={(event) => {
                setDragging(column.key);
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', column.key);
              }}
              onDragEnd={() => setDragging(null)}
              onDragOver={(event) => {
                if (dragging && movable) event.preventDefault();
              }}
              onDrop={(event) => {
                event.preventDefault();
                if (dragging) props.onOrder(dropColumn([...props.orderKeys], dragging, column.key, pinnedCount));
                setDragging(null);
              }}
            >
              <span className="dgrid-head-label">
                {serverSorted || clientSorted ? (
                  <button type="button" className="sort-button" onClick={() => (serverSorted ? sort.onSort(column.key) : tanColumn?.toggleSorting(tanColumn.getIsSorted() === 'asc'))}>
                    {column.header}
                    {direction === 'desc' ? <ArrowDown size={14} aria-hidden="true" /> : direction === 'asc' ? <ArrowUp size={14} aria-hidden="true" /> : <ArrowUpDown size={14} aria-hidden="true" className="sort-idle" />}
                  </button>
                ) : (
                  column.header
                )}
              </span>
              {showFilters && tanColumn?.getCanFilter() && (
                <input
                  className="dgrid-filter"
                  type="search"
                  aria-label={`Filter ${headerText(column)}`}
                  value={String(tanColumn.getFilterValue() ?? '')}
                  onChange={(event) => tanColumn.setFilterValue(event.target.value || undefined)}
                />
              )}
              <span className="dgrid-resize" aria-hidden="true" onPointerDown={(event) => startResize(event, column)} onDoubleClick={() => props.onWidth(column, defaultWidth(column), true)} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
