import type { RowData } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, type PointerEvent, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { DataGridCards } from './DataGridCards';
import { DataGridBar } from './DataGridBar';
import { DataGridCell } from './DataGridCell';
import { DataGridHeadRow, headerText } from './DataGridHead';
import type { Column, RowAttributes, Sort } from './DataTable';
import { type CellPosition, type Selection, emptySelection, keepShown, moveCell, moveColumn, selectAll, selectMode, selectRow, toTsv } from './gridModel';
import { NARROW, useMediaQuery } from './hooks';
import { useGridColumns } from './useGridColumns';
import { SkeletonTable } from './Skeleton';
import { type Density, useGridLayout } from './useGridLayout';
import { type SheetEditing, useSheetCells } from './sheet/useSheetCells';
import './DataGrid.css';

export type { CellPending, SheetChange, SheetChangeInfo, SheetEditing } from './sheet/useSheetCells';

export interface DataGridProps<Row> {
  /** The name the person's column order and widths are saved under (e.g. `offers`). */
  id: string;
  /** The grid's accessible name. */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowAttributes?: (row: Row) => RowAttributes;
  /** Sorted by the server: the order and how to change it. Without it, columns with a `value` sort here. */
  sort?: Sort;
  /** Rows in all, loaded or not (`aria-rowcount`); the loaded rows by default. */
  total?: number;
  /** Called while the rows in view reach the last 30 loaded; the caller decides whether to load more. */
  onEndReached?: () => void;
  /** Opening a row: its first column is a button, Enter on a row opens it, and a phone card is one button. */
  onOpen?: (row: Row) => void;
  /** How many leading columns stay in view when scrolling sideways (default 1). */
  pinned?: number;
  /** A filter box per column (columns with a `value`), filtering the rows loaded here. */
  filters?: boolean;
  /** Rows can be selected (checkboxes, Shift and Ctrl, Space, Ctrl+A); what can be done with them. */
  bulkActions?: (selected: Row[], clear: () => void) => ReactNode;
  /** A row's name for its checkbox and card (e.g. the person's name). */
  rowName?: (row: Row) => string;
  /** The column order comes from elsewhere (e.g. the team's column settings), and a move is saved there. */
  order?: { keys: readonly string[]; onChange: (keys: string[]) => void };
  /** Phones: the name of the card list's region (default: "<label> cards") and a card's class. */
  cards?: { regionLabel?: string; className?: string };
  /** The name of the scrolling region (default: the label). */
  regionLabel?: string;
  /** Said when there are rows but none pass the column filters. */
  emptyFiltered?: string;
  /** Controls before the density switch (e.g. a column picker). */
  tools?: ReactNode;
  /** Spreadsheet editing of the columns with an `edit`: typing, paste, fill down, undo (the screen saves). */
  sheet?: SheetEditing<Row>;
}

const END_THRESHOLD = 30;
const ROW_HEIGHT: Record<Density, number> = { compact: 32, comfortable: 44 };
const CARD_HEIGHT = 176;
const CHECK_WIDTH = 40;


/**
 * The data grid for every large table: rows virtualised (tens of thousands stay quick), a sticky
 * header, the first column(s) pinned, columns resized (drag the edge, or Alt+←/→) and reordered
 * (drag a header, or Alt+Shift+←/→) and saved per person, compact or comfortable rows, sort and
 * filter per column, the ARIA grid keyboard (arrows, Home/End, Ctrl+Home/End, Page Up/Down, Enter,
 * Escape, Space and Shift/Ctrl to select, Ctrl+A, Ctrl+C copies the selection as TSV for a
 * spreadsheet) and, on phones, one card per row. With `sheet`, columns with an `edit` are edited as
 * in a spreadsheet (see useSheetCells): cells, not rows, are selected, and copy takes the cells.
 */
export function DataGrid<Row extends RowData>(props: DataGridProps<Row>) {
  const { id, label, columns, rows, rowKey, rowAttributes, sort, onEndReached, onOpen, pinned = 1, filters = false, bulkActions, rowName, order, cards, tools, sheet } = props;
  const phone = useMediaQuery(NARROW);
  const saved = useGridLayout(id);
  const density = saved.density;
  const selectable = Boolean(bulkActions);

  const { shown, orderKeys, widthOf, setSizing, saveOrder, saveWidth, table, visible, showFilters, setShowFilters } = useGridColumns({ columns, rows, rowKey, sort, order, saved });
  const ids = useMemo(() => visible.map(rowKey), [visible, rowKey]);

  // Selection, kept to the rows shown.
  const [selection, setSelection] = useState<Selection>(emptySelection);
  const kept = keepShown(selection, ids);
  if (kept !== selection) setSelection(kept);
  const selectedRows = visible.filter((row) => selection.ids.has(rowKey(row)));
  const clear = () => setSelection(emptySelection);

  // Geometry.
  const scroller = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const rowHeight = phone ? CARD_HEIGHT : ROW_HEIGHT[density];
  const virtualizer = useVirtualizer({ count: visible.length, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 12, getItemKey: (index) => ids[index] ?? index });
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (visible.length > 0 && lastIndex >= visible.length - END_THRESHOLD) onEndReached?.();
  });

  const lead = selectable ? 1 : 0;
  const colCount = shown.length + lead;
  const template = [...(selectable ? [`${CHECK_WIDTH}px`] : []), ...shown.map((column) => `${widthOf(column)}px`)].join(' ');
  const offsets: number[] = [];
  {
    let left = selectable ? CHECK_WIDTH : 0;
    for (const column of shown) {
      offsets.push(left);
      left += widthOf(column);
    }
  }
  const pinnedCount = Math.min(pinned, shown.length);

  // The active cell (one tab stop); keyboard moves focus it.
  const [active, setActive] = useState<CellPosition>({ row: visible.length ? 1 : 0, col: 0 });
  const focusNext = useRef(false);
  const activeRow = Math.min(active.row, visible.length);
  const activeCol = Math.min(active.col, colCount - 1);
  const cells = useSheetCells({ sheet, rows: visible, columns: shown, lead, active: { row: activeRow, col: activeCol }, go, rowName: (row) => rowName?.(row) ?? rowKey(row) });
  // A far move (Ctrl+End, Page Down) draws its row only after the scroll: focus waits for it.
  useEffect(() => {
    if (!focusNext.current || cells.editing) return;
    const cell = grid.current?.querySelector<HTMLElement>(`[data-pos="${activeRow}:${activeCol}"]`);
    if (!cell) return;
    focusNext.current = false;
    cell.focus();
  });
  // Controls inside cells are reached through the grid's keys, not one Tab each.
  useLayoutEffect(() => {
    grid.current?.querySelectorAll<HTMLElement>('[data-pos] a, [data-pos] button, [data-pos] input, [data-pos] select').forEach((element) => {
      if (!element.closest('.dgrid-filter')) element.tabIndex = -1;
    });
  });

  function go(to: CellPosition) {
    setActive(to);
    // A cell already drawn takes focus now, so the next key lands on it; a far one waits for its row.
    const near = grid.current?.querySelector<HTMLElement>(`[data-pos="${to.row}:${to.col}"]`);
    if (near && cells.editing === null) near.focus();
    focusNext.current = !near || cells.editing !== null;
    if (to.row > 0) virtualizer.scrollToIndex(to.row - 1);
    else scroller.current?.scrollTo({ top: 0 });
  }

  function columnAt(col: number): Column<Row> | undefined {
    return col < lead ? undefined : shown[col - lead];
  }

  function choose(row: Row, mode: ReturnType<typeof selectMode>) {
    setSelection((current) => selectRow(current, rowKey(row), mode, ids));
  }

  function copy() {
    const chosen = selectedRows.length ? selectedRows : visible.slice(activeRow - 1, activeRow);
    if (!chosen.length) return;
    const text = toTsv(
      shown.map(headerText),
      chosen.map((row) => shown.map((column) => String(column.value?.(row) ?? cellElementText(rowKey(row), column.key) ?? ''))),
    );
    void navigator.clipboard?.writeText(text);
  }
  function cellElementText(key: string, column: string): string | undefined {
    return grid.current?.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(key)}"] [data-col="${CSS.escape(column)}"]`)?.innerText;
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const target = event.target as HTMLElement;
    if (target.closest('.dgrid-filter')) {
      if (event.key === 'Escape') {
        event.preventDefault();
        go({ row: 0, col: activeCol });
      }
      return;
    }
    const position: CellPosition = { row: activeRow, col: activeCol };
    const column = columnAt(position.col);
    const row = position.row > 0 ? visible[position.row - 1] : undefined;
    // Header: Alt+←/→ resizes the column, Alt+Shift+←/→ moves it.
    if (position.row === 0 && column && event.altKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      const by = event.key === 'ArrowLeft' ? -1 : 1;
      if (event.shiftKey) {
        const next = moveColumn(orderKeys, column.key, by, pinnedCount);
        if (next.join() !== orderKeys.join()) {
          saveOrder(next);
          go({ row: 0, col: next.indexOf(column.key) + lead });
        }
      } else saveWidth(column.key, widthOf(column) + by * 16);
      return;
    }
    if (position.row > 0 && cells.onKey(event)) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a' && selectable) {
      event.preventDefault();
      setSelection((current) => selectAll(current, ids));
      return;
    }
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'c') {
      event.preventDefault();
      copy();
      return;
    }
    if (event.key === 'Escape') {
      if (selection.ids.size) {
        event.preventDefault();
        clear();
      }
      return;
    }
    if (event.key === ' ' && selectable && row) {
      event.preventDefault();
      choose(row, event.shiftKey ? 'range' : 'toggle');
      return;
    }
    if (event.key === 'Enter') {
      event.preventDefault();
      if (position.row === 0) {
        target.closest('[data-pos]')?.querySelector<HTMLElement>('button')?.click();
      } else if (row && onOpen && !(selectable && position.col === 0)) {
        onOpen(row);
      } else {
        const control = target.closest('[data-pos]')?.querySelector<HTMLElement>('a, button, input');
        control?.click();
      }
      return;
    }
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / rowHeight) - 1);
    const next = moveCell(position, event, { rows: visible.length, cols: colCount, page });
    if (!next) return;
    event.preventDefault();
    // In a sheet, Shift with arrows selects cells; rows are selected from their checkboxes' column.
    if (selectable && event.shiftKey && next.row > 0 && position.row > 0 && (!cells.on || position.col < lead) && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      const from = visible[position.row - 1];
      const to = visible[next.row - 1];
      if (from && to) {
        setSelection((current) => {
          const anchored = current.anchor === null ? { ids: new Set([...current.ids, rowKey(from)]), anchor: rowKey(from) } : current;
          return selectRow(anchored, rowKey(to), 'range', ids);
        });
      }
    }
    go(next);
  }

  // A pointer on a cell makes it active; with Shift or Ctrl it also selects.
  function onCellPointer(event: PointerEvent<HTMLElement>, position: CellPosition, row: Row | undefined) {
    cells.onPointerDown(event, position);
    setActive(position);
    if (!row || !selectable) return;
    const interactive = (event.target as HTMLElement).closest('a, button, input, label');
    if (interactive) return;
    // In a sheet, Shift+click stretches the cell selection, not the rows'.
    if (cells.on && event.shiftKey) return;
    if (event.shiftKey || event.ctrlKey || event.metaKey) {
      event.preventDefault();
      choose(row, selectMode(event));
    }
  }

  const allSelected = ids.length > 0 && ids.every((key) => selection.ids.has(key));
  const someSelected = selection.ids.size > 0 && !allSelected;
  const selectAllBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAllBox.current) selectAllBox.current.indeterminate = someSelected;
  });

  const bar = (
    <DataGridBar
      selection={selectable ? { count: selection.ids.size, actions: selection.ids.size > 0 ? bulkActions?.(selectedRows, clear) : null, clear } : undefined}
      tools={tools}
      filters={filters && !phone ? { shown: showFilters, toggle: () => setShowFilters(!showFilters) } : undefined}
      density={phone ? undefined : { value: density, onChange: (next) => void saved.saveDensity(next) }}
    />
  );

  if (phone) {
    return (
      <DataGridCards
        label={label}
        regionLabel={cards?.regionLabel ?? `${label} cards`}
        className={cards?.className}
        shown={shown}
        rows={visible}
        rowKey={rowKey}
        rowName={rowName}
        rowAttributes={rowAttributes}
        onOpen={onOpen}
        scroller={scroller}
        virtualizer={virtualizer}
        bar={selectable ? bar : undefined}
      />
    );
  }

  // Drawn once the person's layout is known: a reload must not draw at one density and width, then redraw at theirs.
  if (!saved.loaded) return <SkeletonTable rows={Math.min(Math.max(visible.length, 3), 8)} columns={Math.min(colCount, 6)} label={`Loading ${label}`} />;

  const stickyStyle = (index: number) => (index < pinnedCount ? { left: offsets[index] } : undefined);
  const pinClass = (index: number) => (index < pinnedCount ? (index === pinnedCount - 1 ? ' pinned pinned-last' : ' pinned') : '');

  return (
    <div className="dgrid-host" data-density={density}>
      {bar}
      <div ref={scroller} className="dgrid-scroll" role="region" aria-label={props.regionLabel ?? label}>
        <div
          ref={grid}
          className={cells.on ? 'dgrid dgrid-sheet' : 'dgrid'}
          role="grid"
          aria-label={label}
          aria-rowcount={(props.total ?? visible.length) + 1}
          aria-colcount={colCount}
          aria-multiselectable={selectable || cells.on || undefined}
          aria-describedby={`${id}-keys`}
          onKeyDown={onKeyDown}
          onPaste={cells.onPaste}
          onCopy={cells.onCopy}
          style={{ width: offsets.length ? (offsets.at(-1) as number) + widthOf(shown.at(-1) as Column<Row>) : undefined }}
        >
          <DataGridHeadRow
            shown={shown}
            lead={lead}
            leading={
              selectable && (
                <div role="columnheader" aria-colindex={1} className="dgrid-check pinned" style={{ left: 0 }} data-pos={`0:0`} tabIndex={activeRow === 0 && activeCol === 0 ? 0 : -1} onPointerDown={() => setActive({ row: 0, col: 0 })}>
                  <input ref={selectAllBox} type="checkbox" aria-label="Select all rows" checked={allSelected} onChange={() => setSelection((current) => selectAll(current, ids))} />
                </div>
              )
            }
            template={template}
            orderKeys={orderKeys}
            pinnedCount={pinnedCount}
            sort={sort}
            showFilters={showFilters}
            tableColumn={(key) => table.getColumn(key)}
            isActive={(col) => activeRow === 0 && activeCol === col}
            onActivate={(col) => setActive({ row: 0, col })}
            widthOf={widthOf}
            onWidth={(column, width, done) => (done ? saveWidth(column.key, width) : setSizing((current) => ({ ...current, [column.key]: width })))}
            onOrder={saveOrder}
            cellStyle={stickyStyle}
            pinClass={pinClass}
          />
          <div role="rowgroup" className="dgrid-body" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = visible[item.index] as Row;
              const key = rowKey(row);
              const rowIndex = item.index + 1;
              const isSelected = selection.ids.has(key);
              return (
                <div
                  key={key}
                  role="row"
                  aria-rowindex={rowIndex + 1}
                  aria-selected={selectable ? isSelected : undefined}
                  data-row-key={key}
                  className={isSelected ? 'selected' : undefined}
                  {...rowAttributes?.(row)}
                  style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: item.size }}
                >
                  {selectable && (
                    <div role="gridcell" aria-colindex={1} className="dgrid-check pinned" style={{ left: 0 }} data-pos={`${rowIndex}:0`} tabIndex={activeRow === rowIndex && activeCol === 0 ? 0 : -1} onPointerDown={() => setActive({ row: rowIndex, col: 0 })}>
                      <input
                        type="checkbox"
                        aria-label={`Select ${rowName?.(row) ?? key}`}
                        checked={isSelected}
                        onChange={() => undefined}
                        onClick={(event) => choose(row, event.shiftKey ? 'range' : 'toggle')}
                      />
                    </div>
                  )}
                  {shown.map((column, index) => {
                    const at = { row: rowIndex, col: index + lead };
                    return (
                      <DataGridCell
                        key={column.key}
                        column={column}
                        row={row}
                        name={rowName?.(row) ?? key}
                        at={at}
                        opens={index === 0 ? onOpen : undefined}
                        focusable={activeRow === at.row && activeCol === at.col}
                        pinClass={pinClass(index)}
                        style={stickyStyle(index)}
                        cells={cells}
                        onPointerDown={(event) => onCellPointer(event, at, row)}
                      />
                    );
                  })}
                </div>
              );
            })}
          </div>
        </div>
        {visible.length === 0 && rows.length > 0 && <p className="dgrid-none">{props.emptyFiltered ?? 'No rows match the filters.'}</p>}
      </div>
      <p className="dgrid-hint visually-hidden" id={`${id}-keys`}>
        {cells.on
          ? `Arrow keys move between cells; Enter or typing edits a cell, Enter or Tab saves it and Escape cancels; Shift with arrows selects cells; Ctrl+V pastes cells copied from a spreadsheet; Ctrl+Z undoes and Ctrl+Y redoes.${selectable ? ' In the first column, Space selects a row for the actions above the grid.' : ''}`
          : 'Arrow keys move between cells; Enter opens; Space selects; Alt with arrows resizes or moves a column.'}
      </p>
    </div>
  );
}
