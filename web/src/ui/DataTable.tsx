import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ArrowUpDown, Columns3 } from 'lucide-react';
import { Fragment, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { NARROW, useMediaQuery } from './hooks';
import './DataTable.css';

/** One column: its header, what a row shows in it, and how it is laid out. */
export interface Column<Row> {
  key: string;
  /** The header's content (e.g. a visually hidden "Actions"). */
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  /** The cell names its row: a row header (`<th scope="row">`). */
  rowHeader?: boolean;
  /** Said before the value where rows become cards on phones (a card's term, or CSS's `data-label`). */
  label?: string;
  className?: string;
  /** The width of its track in the virtualised grid (CSS grid), e.g. `150px`. */
  width?: string;
  /** With `sort`, whether this column can be sorted by (default: yes). */
  sortable?: boolean;
  /** In the data grid: the value sorted, filtered and copied (without it the column is neither sorted nor filtered there). */
  value?: (row: Row) => string | number | null | undefined;
  /** In the data grid: the default width in pixels (the person can resize it). */
  size?: number;
  /** In the data grid: the cell's full text on hover, for values cut short. */
  title?: (row: Row) => string | undefined;
  /** In the data grid with sheet editing: the cell's text as typed, and the rows it can be changed in. */
  edit?: { text: (row: Row) => string; editable: (row: Row) => boolean };
  /** In the data grid with sheet editing: the cell's text when copied out, where it is not its `value`. */
  copyText?: (row: Row) => string;
}

export type SortOrder = 'asc' | 'desc';

/** The current order and how to change it; headers of sortable columns become buttons with `aria-sort`. */
export interface Sort {
  key: string;
  order: SortOrder;
  onSort: (key: string) => void;
}

/** Attributes a row carries for tests and styles, e.g. `data-employee-id`. */
export type RowAttributes = Partial<Record<`data-${string}`, string>>;

/** A long list, virtualised: only the rows in view are in the page, and more load near the end. */
export interface VirtualRows<Row> {
  /** Rows in all, loaded or not (the grid's `aria-rowcount`). */
  total: number;
  /** Called (on every render) while the rows in view reach the last 30 loaded; the caller decides whether to load more. */
  onEndReached?: () => void;
  /** Opening a row: its first cell is a button, and a card is one button. */
  onOpen: (row: Row) => void;
  /** The name of the scrolling region around the grid. */
  regionLabel: string;
  /** Under 640 px the rows become cards: the first column leads, the next five are listed. */
  cards?: {
    regionLabel: string;
    /** The name of a card's button, e.g. "Open Ada Lovelace". */
    label: (row: Row) => string;
    className?: string;
  };
}

interface DataTableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** The table's caption; hidden from sight (still read out) with `captionHidden`. */
  caption?: ReactNode;
  captionHidden?: boolean;
  /** The table's accessible name where it has no caption. */
  label?: string;
  /** The scrolling wrapper's class (default `table-scroll`). */
  className?: string;
  /** The table's own class. */
  tableClassName?: string;
  /** Makes the scrolling wrapper a named, focusable region, so keyboard users can scroll it. */
  regionLabel?: string;
  rowAttributes?: (row: Row) => RowAttributes;
  sort?: Sort;
  /** ARIA roles spelled out on every element: for tables whose rows CSS turns into cards. */
  explicitRoles?: boolean;
  /** Under 640 px each row becomes a card: its row header leads, every other cell follows under its column's name. */
  cardsOnPhone?: boolean;
  /** Virtualised rows in a grid (and cards on phones) instead of a plain table. */
  virtual?: VirtualRows<Row>;
}

function ariaSort<Row>(sort: Sort | undefined, column: Column<Row>): 'ascending' | 'descending' | 'none' | undefined {
  if (!sort || column.sortable === false) return undefined;
  if (sort.key !== column.key) return 'none';
  return sort.order === 'desc' ? 'descending' : 'ascending';
}

function HeaderContent<Row>({ column, sort }: { column: Column<Row>; sort?: Sort }) {
  if (!sort || column.sortable === false) return <>{column.header}</>;
  const active = sort.key === column.key;
  return (
    <button type="button" className="sort-button" onClick={() => sort.onSort(column.key)}>
      {column.header}
      {active ? sort.order === 'desc' ? <ArrowDown size={14} aria-hidden="true" /> : <ArrowUp size={14} aria-hidden="true" /> : <ArrowUpDown size={14} aria-hidden="true" className="sort-idle" />}
    </button>
  );
}

function cellClass<Row>(column: Column<Row>, numeric: string): string | undefined {
  return [column.numeric ? numeric : '', column.className ?? ''].filter(Boolean).join(' ') || undefined;
}

/**
 * A table of rows: a plain, semantic `<table>` (scrolling sideways on small screens), or with
 * `virtual`, a virtualised grid for thousands of rows that becomes a card list on phones. Sortable
 * headers are buttons that say their order (`aria-sort`).
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  return props.virtual ? <VirtualTable {...props} virtual={props.virtual} /> : <PlainTable {...props} />;
}

function PlainTable<Row>({ columns, rows, rowKey, caption, captionHidden, label, className = 'table-scroll', tableClassName, regionLabel, rowAttributes, sort, explicitRoles = false, cardsOnPhone = false }: DataTableProps<Row>) {
  // CSS that lays a table out as cards takes its table semantics away; the roles give them back.
  const role = <R extends string>(value: R) => (explicitRoles || cardsOnPhone ? value : undefined);
  const region = regionLabel ? { tabIndex: 0, role: 'region', 'aria-label': regionLabel } : {};
  return (
    <div className={cardsOnPhone ? `${className} table-cards` : className} {...region}>
      <table className={tableClassName} aria-label={label} role={role('table')}>
        {caption !== undefined && <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>}
        <thead role={role('rowgroup')}>
          <tr role={role('row')}>
            {columns.map((column) => (
              <th key={column.key} scope="col" role={role('columnheader')} className={cellClass(column, 'number')} aria-sort={ariaSort(sort, column)}>
                <HeaderContent column={column} sort={sort} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody role={role('rowgroup')}>
          {rows.map((row) => (
            <tr key={rowKey(row)} role={role('row')} {...rowAttributes?.(row)}>
              {columns.map((column) =>
                column.rowHeader ? (
                  <th key={column.key} scope="row" role={role('rowheader')} className={cellClass(column, 'number')}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.key} role={role('cell')} className={cellClass(column, 'number')} data-label={column.label ?? (typeof column.header === 'string' ? column.header : undefined)}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const END_THRESHOLD = 30;
const ROW_HEIGHT = 45;
const CARD_HEIGHT = 176;
const CARD_FIELDS = 5;

function VirtualTable<Row>({ columns, rows, rowKey, label, rowAttributes, sort, virtual }: DataTableProps<Row> & { virtual: VirtualRows<Row> }) {
  const { total, onEndReached, onOpen, regionLabel, cards } = virtual;
  const phone = useMediaQuery(NARROW);
  const narrow = Boolean(cards) && phone;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => (narrow ? CARD_HEIGHT : ROW_HEIGHT), overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= rows.length - END_THRESHOLD) onEndReached?.();
  });
  useEffect(() => virtualizer.measure(), [narrow, virtualizer]);

  if (narrow && cards) {
    const [lead, ...rest] = columns;
    return (
      <div ref={scroller} className="data-grid-scroll" tabIndex={0} role="region" aria-label={cards.regionLabel}>
        <ul className="data-cards" aria-label={label} style={{ height: virtualizer.getTotalSize(), listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((item) => {
            const row = rows[item.index] as Row;
            return (
              <li
                key={rowKey(row)}
                className={cards.className ? `data-card ${cards.className}` : 'data-card'}
                data-index={item.index}
                ref={virtualizer.measureElement}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <button type="button" onClick={() => onOpen(row)} aria-label={cards.label(row)}>
                  <span className="name">{lead ? lead.cell(row) : rowKey(row)}</span>
                  <dl>
                    {rest.slice(0, CARD_FIELDS).map((column) => (
                      <Fragment key={column.key}>
                        <dt>{column.label ?? column.header}</dt>
                        <dd>{column.cell(row)}</dd>
                      </Fragment>
                    ))}
                  </dl>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    );
  }

  const template = columns.map((column) => column.width ?? '150px').join(' ');
  return (
    <div ref={scroller} className="data-grid-scroll" tabIndex={0} role="region" aria-label={regionLabel}>
      <div className="data-grid" role="table" aria-label={label} aria-rowcount={total + 1}>
        <div role="rowgroup">
          <div role="row" className="head" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
            {columns.map((column) => (
              <div key={column.key} role="columnheader" aria-sort={ariaSort(sort, column)} className={cellClass(column, 'num')}>
                <HeaderContent column={column} sort={sort} />
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup" className="body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index] as Row;
            return (
              <div
                key={rowKey(row)}
                role="row"
                aria-rowindex={item.index + 2}
                {...rowAttributes?.(row)}
                style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: item.size }}
              >
                {columns.map((column, index) => (
                  <div key={column.key} role="cell" className={cellClass(column, 'num')}>
                    {index === 0 ? (
                      <button type="button" className="data-grid-link" onClick={() => onOpen(row)}>
                        {column.cell(row)}
                      </button>
                    ) : (
                      column.cell(row)
                    )}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** Which columns a table shows: a button that opens a checkbox per column; `children` follow (e.g. a link to more settings). */
export function ColumnPicker<Key extends string>({
  columns,
  shown,
  onToggle,
  busy = false,
  children,
}: {
  columns: readonly { key: Key; label: string }[];
  shown: readonly Key[];
  onToggle: (key: Key) => void;
  busy?: boolean;
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  return (
    <div className="column-picker-host">
      <button type="button" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
        <Columns3 size={18} aria-hidden="true" />
        Columns
      </button>
      {open && (
        <div id={panel} className="column-picker">
          <fieldset disabled={busy}>
            <legend>Columns to show</legend>
            {columns.map((column) => (
              <label key={column.key} className="check">
                <input type="checkbox" checked={shown.includes(column.key)} onChange={() => onToggle(column.key)} />
                {column.label}
              </label>
            ))}
          </fieldset>
          {children}
        </div>
      )}
    </div>
  );
}
