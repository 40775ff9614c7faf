import {
  type ColumnFiltersState,
  type RowData,
  type SortingState,
  columnFilteringFeature,
  columnSizingFeature,
  createFilteredRowModel,
  createSortedRowModel,
  filterFn_includesString,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_basic,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { MIN_WIDTH, defaultWidth } from './DataGridHead';
import type { Column, Sort } from './DataTable';
import { applyOrder } from './gridModel';
import type { useGridLayout } from './useGridLayout';

const features = tableFeatures({
  columnFilteringFeature,
  filteredRowModel: createFilteredRowModel(),
  filterFns: { includesString: filterFn_includesString },
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, basic: sortFn_basic },
  columnSizingFeature,
});

interface Options<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Sorted by the server: then rows are not sorted here. */
  sort?: Sort;
  /** The column order kept elsewhere (e.g. the team's column settings). */
  order?: { keys: readonly string[]; onChange: (keys: string[]) => void };
  /** The person's saved layout of this grid. */
  saved: ReturnType<typeof useGridLayout>;
}

/**
 * The data grid's columns as the person arranged them (order and widths, saved with their
 * preferences) and the rows as TanStack Table sorts and filters them here.
 */
export function useGridColumns<Row extends RowData>({ columns, rows, rowKey, sort, order, saved }: Options<Row>) {
  // Column order: the caller's, or the person's saved one.
  const keys = useMemo(() => columns.map((column) => column.key), [columns]);
  const [localOrder, setLocalOrder] = useState<string[] | null>(null);
  const orderKeys = applyOrder(keys, localOrder ?? (order ? [...order.keys] : saved.layout.order));
  const byKey = useMemo(() => new Map(columns.map((column) => [column.key, column])), [columns]);
  const shown = orderKeys.map((key) => byKey.get(key)).filter((column): column is Column<Row> => column !== undefined);
  useEffect(() => setLocalOrder(null), [order?.keys, saved.layout.order]);

  // Widths: the person's, else each column's default.
  const [sizing, setSizing] = useState<Record<string, number>>({});
  const widthOf = (column: Column<Row>) => sizing[column.key] ?? saved.layout.widths?.[column.key] ?? defaultWidth(column);

  const [sorting, setSorting] = useState<SortingState>([]);
  const [columnFilters, setColumnFilters] = useState<ColumnFiltersState>([]);
  const [showFilters, setShowFilters] = useState(false);
  const columnDefs = useMemo(
    () =>
      columns.map((column) => ({
        id: column.key,
        accessorFn: (row: Row) => {
          const value = column.value?.(row);
          return value === null || value === undefined ? '' : value;
        },
        enableSorting: column.sortable !== false && column.value !== undefined,
        enableColumnFilter: column.value !== undefined,
        sortFn: column.numeric ? ('basic' as const) : ('alphanumeric' as const),
        filterFn: 'includesString' as const,
        sortUndefined: 'last' as const,
      })),
    [columns],
  );
  const data = useMemo(() => [...rows], [rows]);
  const table = useTable({
    features,
    columns: columnDefs,
    data,
    getRowId: (row: Row) => rowKey(row),
    manualSorting: Boolean(sort),
    state: { sorting, columnFilters },
    onSortingChange: setSorting,
    onColumnFiltersChange: setColumnFilters,
  });
  const visible = table.getRowModel().rows.map((row) => row.original);

  function saveOrder(next: string[]) {
    setLocalOrder(next);
    if (order) order.onChange(next);
    else void saved.saveLayout({ order: next });
  }
  function saveWidth(key: string, width: number) {
    const widths = { ...saved.layout.widths, [key]: Math.round(Math.min(Math.max(width, MIN_WIDTH), 1200)) };
    setSizing((current) => ({ ...current, [key]: widths[key] as number }));
    void saved.saveLayout({ widths });
  }

  return { shown, orderKeys, widthOf, setSizing, saveOrder, saveWidth, table, visible, showFilters, setShowFilters };
}
