/**
 * The data grid's keyboard and selection rules, apart from React so they can be checked on their own.
 * Positions count the header as row 0 and the first data row as row 1 (as `aria-rowindex` minus one).
 */

export interface CellPosition {
  row: number;
  col: number;
}

export interface GridShape {
  /** Data rows (the header row comes on top of them). */
  rows: number;
  cols: number;
  /** Data rows that fit the visible part of the grid (Page Up / Page Down move by this many). */
  page: number;
}

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/**
 * Where the active cell goes for a key of the ARIA grid pattern, or null if the key does not move it:
 * arrows by one, Home/End to the row's ends (with Ctrl, the grid's first/last cell), Page Up/Down
 * by a screenful of rows, never above the header nor past the last row.
 */
export function moveCell(from: CellPosition, press: KeyPress, shape: GridShape): CellPosition | null {
  const lastRow = shape.rows;
  const lastCol = Math.max(shape.cols - 1, 0);
  const jump = press.ctrlKey || press.metaKey;
  const at = (row: number, col: number): CellPosition => ({ row: clamp(row, 0, lastRow), col: clamp(col, 0, lastCol) });
  switch (press.key) {
    case 'ArrowUp':
      return at(from.row - 1, from.col);
    case 'ArrowDown':
      return at(from.row + 1, from.col);
    case 'ArrowLeft':
      return at(from.row, from.col - 1);
    case 'ArrowRight':
      return at(from.row, from.col + 1);
    case 'Home':
      return jump ? at(0, 0) : at(from.row, 0);
    case 'End':
      return jump ? at(lastRow, lastCol) : at(from.row, lastCol);
    case 'PageUp':
      // Not onto the header: a page up from the data stops at the first row.
      return at(from.row === 0 ? 0 : Math.max(1, from.row - Math.max(shape.page, 1)), from.col);
    case 'PageDown':
      return at(from.row + Math.max(shape.page, 1), from.col);
    default:
      return null;
  }
}

/** How a click or key chose a row: alone, added or taken away (Ctrl/⌘), or the range from the anchor (Shift). */
export type SelectMode = 'only' | 'toggle' | 'range';

export interface Selection {
  ids: ReadonlySet<string>;
  /** Where the last plain or Ctrl choice was: the other end of a Shift range. */
  anchor: string | null;
}

export const emptySelection: Selection = { ids: new Set(), anchor: null };

export function selectMode(event: { shiftKey?: boolean; ctrlKey?: boolean; metaKey?: boolean }): SelectMode {
  if (event.shiftKey) return 'range';
  if (event.ctrlKey || event.metaKey) return 'toggle';
  return 'only';
}

/**
 * The selection after choosing the row `id` in the rows as shown (`order`). A range spans the
 * anchor to the row, both included, in the order shown, and adds to what was chosen with Ctrl;
 * `only` makes the row the one selection (or clears it when it was the only one).
 */
export function selectRow(current: Selection, id: string, mode: SelectMode, order: readonly string[]): Selection {
  if (mode === 'range' && current.anchor !== null) {
    const from = order.indexOf(current.anchor);
    const to = order.indexOf(id);
    if (from !== -1 && to !== -1) {
      const [low, high] = from < to ? [from, to] : [to, from];
      const ids = new Set(current.ids);
      for (const key of order.slice(low, high + 1)) ids.add(key);
      return { ids, anchor: current.anchor };
    }
  }
  if (mode === 'toggle' || mode === 'range') {
    const ids = new Set(current.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: id };
  }
  if (current.ids.size === 1 && current.ids.has(id)) return { ids: new Set(), anchor: id };
  return { ids: new Set([id]), anchor: id };
}

/** Every row shown selected, or none when they all were. */
export function selectAll(current: Selection, order: readonly string[]): Selection {
  const all = order.length > 0 && order.every((id) => current.ids.has(id));
  return { ids: all ? new Set() : new Set(order), anchor: current.anchor };
}

/** Only the ids still among the rows (a filter or a reload may have taken some away). */
export function keepShown(current: Selection, order: readonly string[]): Selection {
  const shown = new Set(order);
  const ids = [...current.ids].filter((id) => shown.has(id));
  return ids.length === current.ids.size ? current : { ids: new Set(ids), anchor: current.anchor !== null && shown.has(current.anchor) ? current.anchor : null };
}

/** A column moved one place left (-1) or right (+1), the pinned ones staying first. */
export function moveColumn(order: readonly string[], key: string, by: -1 | 1, pinned = 0): string[] {
  const index = order.indexOf(key);
  const target = index + by;
  if (index < pinned || target < pinned || target >= order.length) return [...order];
  const next = [...order];
  next.splice(index, 1);
  next.splice(target, 0, key);
  return next;
}

/** A column dropped on another: it takes that one's place; pinned columns neither move nor are displaced. */
export function dropColumn(order: readonly string[], key: string, onto: string, pinned = 0): string[] {
  const from = order.indexOf(key);
  const to = order.indexOf(onto);
  if (from === -1 || to === -1 || from === to || from < pinned || to < pinned) return [...order];
  const next = [...order];
  next.splice(from, 1);
  next.splice(to, 0, key);
  return next;
}

/** The saved order applied to the columns there are now: unknown keys dropped, new columns at the end. */
export function applyOrder(keys: readonly string[], saved: readonly string[] | undefined): string[] {
  if (!saved?.length) return [...keys];
  const present = new Set(keys);
  const known = saved.filter((key) => present.has(key));
  const placed = new Set(known);
  return [...known, ...keys.filter((key) => !placed.has(key))];
}

/** Rows as tab-separated text (what a spreadsheet pastes), a header line first. */
export function toTsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const clean = (value: string) => value.replace(/[\t\r\n]+/g, ' ');
  return [header, ...rows].map((line) => line.map(clean).join('\t')).join('\n');
}

/** A cell a spreadsheet would run as a formula (=, +, @, or - not starting a number). */
const formulaLike = (value: string) => /^[=+@]/.test(value) || /^-(?![\d.])/.test(value);

/** Rows as CSV (RFC 4180 quoting), a header line first; cells a spreadsheet would run as formulas are kept as text. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const quote = (raw: string) => {
    const value = formulaLike(raw) ? `'${raw}` : raw;
    return /[",\r\n]/.test(value) || value !== raw ? `"${value.replace(/"/g, '""')}"` : value;
  };
  return [header, ...rows].map((line) => line.map(quote).join(',')).join('\r\n');
}
