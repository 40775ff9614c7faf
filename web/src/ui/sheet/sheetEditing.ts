/**
 * Spreadsheet editing, without a screen: cell ranges, what the clipboard holds (tab-separated text
 * from Excel or Google Sheets, or an HTML table) and what is copied out, where a pasted block or a
 * fill down lands, and the undo / redo history of a session's edits. The worksheet and the band
 * editor draw their own cells and save their own way; what they share is here, and tested alone.
 */

/** A cell by its row and column index in what the grid shows. */
export interface CellPoint {
  row: number;
  col: number;
}

/** A rectangle of cells, inclusive on every side. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** The rectangle between the cell a selection started at and the one it reaches. */
export function rangeBetween(anchor: CellPoint, focus: CellPoint): CellRange {
  return { top: Math.min(anchor.row, focus.row), left: Math.min(anchor.col, focus.col), bottom: Math.max(anchor.row, focus.row), right: Math.max(anchor.col, focus.col) };
}

export const inRange = (range: CellRange, row: number, col: number): boolean => row >= range.top && row <= range.bottom && col >= range.left && col <= range.right;

export const rangeSize = (range: CellRange): { rows: number; cols: number } => ({ rows: range.bottom - range.top + 1, cols: range.right - range.left + 1 });

/** A point moved by a step and kept inside a grid of `rows` × `cols`. */
export function clampPoint(point: CellPoint, rows: number, cols: number): CellPoint {
  return { row: Math.max(0, Math.min(rows - 1, point.row)), col: Math.max(0, Math.min(cols - 1, point.col)) };
}

// ── the clipboard ───────────────────────────────────────────────────────────────────────────

/**
 * Tab-separated text as Excel and Google Sheets put it on the clipboard: rows end with a line break
 * (the last one optional), cells are split by tabs, and a cell holding a tab, a line break or a
 * quote is quoted with its quotes doubled.
 */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let at = 0;
  let quoted = false;
  let started = false; // something was read on the current row
  while (at < text.length) {
    const char = text[at] as string;
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        cell += '"';
        at += 2;
        continue;
      }
      if (char === '"') {
        quoted = false;
        at += 1;
        continue;
      }
      cell += char;
      at += 1;
      continue;
    }
    if (char === '"' && cell === '') {
      quoted = true;
      started = true;
      at += 1;
      continue;
    }
    if (char === '\t') {
      row.push(cell);
      cell = '';
      started = true;
      at += 1;
      continue;
    }
    if (char === '\r' || char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      started = false;
      at += char === '\r' && text[at + 1] === '\n' ? 2 : 1;
      continue;
    }
    cell += char;
    started = true;
    at += 1;
  }
  if (started || cell !== '') {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * The first table of an HTML clipboard (what a browser copies from a web page or Google Sheets
 * when there is no plain text): its rows' cells as text, tags dropped, `<br>` as a line break.
 * Null when the HTML has no table.
 */
export function parseHtmlTable(html: string): string[][] | null {
  const table = /<table[\s\S]*?<\/table>/i.exec(html)?.[0];
  if (!table) return null;
  const rows: string[][] = [];
  for (const rowMatch of table.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/gi)) {
    const cells: string[] = [];
    for (const cellMatch of (rowMatch[1] ?? '').matchAll(/<t([dh])([^>]*)>([\s\S]*?)<\/t\1>/gi)) {
      const text = decodeEntities(
        (cellMatch[3] ?? '')
          .replace(/<br\s*\/?>/gi, '\u2028')
          .replace(/<[^>]+>/g, '')
          .replace(/[ \t\r\n]+/g, ' ')
          .replace(/ ?\u2028 ?/g, '\n'),
      ).trim();
      const span = Number(/colspan\s*=\s*["']?(\d+)/i.exec(cellMatch[2] ?? '')?.[1] ?? 1);
      cells.push(text);
      for (let extra = 1; extra < Math.min(span, 1000); extra += 1) cells.push('');
    }
    rows.push(cells);
  }
  return rows.length ? rows : null;
}

/** What a paste brings: the plain text when there is some, else the HTML's table. */
export function clipboardBlock(plain: string, html: string): string[][] {
  if (plain !== '') return parseTsv(plain);
  return (html && parseHtmlTable(html)) || [];
}

const needsQuotes = /[\t\r\n"]/;

/** Cells as tab-separated text a spreadsheet pastes back into the same cells. */
export function toTsv(cells: readonly (readonly string[])[]): string {
  return cells.map((row) => row.map((cell) => (needsQuotes.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join('\t')).join('\n');
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The same cells as an HTML table (what word processors and mail paste as a table). */
export function toHtmlTable(cells: readonly (readonly string[])[]): string {
  return `<table>${cells.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('')}</table>`;
}

// ── where a paste or a fill lands ───────────────────────────────────────────────────────────

/** One cell a paste or a fill writes: where, and the text for it. */
export interface CellText {
  row: number;
  col: number;
  text: string;
}

/**
 * Where a pasted block goes, as a spreadsheet does it: from the selection's top-left cell, the
 * block's size; when the selection is a whole number of blocks high and wide, the block repeats to
 * fill it (one value pasted into a selected column fills the column). Cells past the grid's edge
 * are dropped.
 */
export function pasteTargets(block: readonly (readonly string[])[], selection: CellRange, size: { rows: number; cols: number }): CellText[] {
  const height = block.length;
  const width = Math.max(0, ...block.map((row) => row.length));
  if (!height || !width) return [];
  const selected = rangeSize(selection);
  const rows = selected.rows > height && selected.rows % height === 0 ? selected.rows : height;
  const cols = selected.cols > width && selected.cols % width === 0 ? selected.cols : width;
  const out: CellText[] = [];
  for (let r = 0; r < rows; r += 1) {
    const row = selection.top + r;
    if (row >= size.rows) break;
    const source = block[r % height] ?? [];
    for (let c = 0; c < cols; c += 1) {
      const col = selection.left + c;
      if (col >= size.cols) break;
      const text = source[c % width];
      // A short row (fewer tabs than the widest) leaves its missing cells alone.
      if (text === undefined) continue;
      out.push({ row, col, text: text.trim() });
    }
  }
  return out;
}

/** Fill down: each column of the selection takes its top cell's text in every row below it. */
export function fillDownTargets(selection: CellRange, textAt: (row: number, col: number) => string): CellText[] {
  const out: CellText[] = [];
  for (let col = selection.left; col <= selection.right; col += 1) {
    const text = textAt(selection.top, col);
    for (let row = selection.top + 1; row <= selection.bottom; row += 1) out.push({ row, col, text });
  }
  return out;
}

/** The selection's cells as rows of text (for copying out). */
export function rangeCells(selection: CellRange, textAt: (row: number, col: number) => string): string[][] {
  const out: string[][] = [];
  for (let row = selection.top; row <= selection.bottom; row += 1) {
    const cells: string[] = [];
    for (let col = selection.left; col <= selection.right; col += 1) cells.push(textAt(row, col));
    out.push(cells);
  }
  return out;
}

/**
 * Targets checked one by one: `check` answers null for a cell it takes, or why not (the cell is
 * read-only, or its text is not a valid value). A bad cell does not stop the others.
 */
export function sortTargets<Cell>(targets: readonly Cell[], check: (cell: Cell) => string | null): { accepted: Cell[]; rejected: { cell: Cell; problem: string }[] } {
  const accepted: Cell[] = [];
  const rejected: { cell: Cell; problem: string }[] = [];
  for (const cell of targets) {
    const problem = check(cell);
    if (problem === null) accepted.push(cell);
    else rejected.push({ cell, problem });
  }
  return { accepted, rejected };
}

// ── undo and redo ───────────────────────────────────────────────────────────────────────────

/** One cell changed by an edit: its key (row and column as the screen names them), before and after. */
export interface CellWrite {
  row: string;
  col: string;
  before: string;
  after: string;
}

/** One undoable change: a typed cell, a whole paste, a fill down. `meta` is the screen's own (e.g. the versions read). */
export interface HistoryEntry<Meta = undefined> {
  label: string;
  cells: CellWrite[];
  meta?: Meta;
}

/** The session's edits: what can be undone (latest last) and what was undone and can be redone. */
export interface EditHistory<Meta = undefined> {
  done: readonly HistoryEntry<Meta>[];
  undone: readonly HistoryEntry<Meta>[];
}

/** How many changes a session can undo. */
export const HISTORY_LIMIT = 200;

export const emptyHistory = <Meta = undefined>(): EditHistory<Meta> => ({ done: [], undone: [] });

/** A new change: it can be undone, and what was undone before it can no longer be redone. Writes that change nothing are left out. */
export function recordEdit<Meta>(history: EditHistory<Meta>, entry: HistoryEntry<Meta>, limit = HISTORY_LIMIT): EditHistory<Meta> {
  const cells = entry.cells.filter((cell) => cell.before !== cell.after);
  if (!cells.length) return history;
  const done = [...history.done, { ...entry, cells }];
  return { done: done.length > limit ? done.slice(done.length - limit) : done, undone: [] };
}

/** A write to make: a cell and its new text. */
export interface KeyedWrite {
  row: string;
  col: string;
  text: string;
}

/** Undoing the latest change: the writes that put its cells back (the last written first), and the history after. */
export function undoEdit<Meta>(history: EditHistory<Meta>): { history: EditHistory<Meta>; entry: HistoryEntry<Meta>; writes: KeyedWrite[] } | null {
  const entry = history.done[history.done.length - 1];
  if (!entry) return null;
  const writes = [...entry.cells].reverse().map((cell) => ({ row: cell.row, col: cell.col, text: cell.before }));
  return { history: { done: history.done.slice(0, -1), undone: [...history.undone, entry] }, entry, writes };
}

/** Redoing the latest undone change: its writes again, in their order, and the history after. */
export function redoEdit<Meta>(history: EditHistory<Meta>): { history: EditHistory<Meta>; entry: HistoryEntry<Meta>; writes: KeyedWrite[] } | null {
  const entry = history.undone[history.undone.length - 1];
  if (!entry) return null;
  const writes = entry.cells.map((cell) => ({ row: cell.row, col: cell.col, text: cell.after }));
  return { history: { done: [...history.done, entry], undone: history.undone.slice(0, -1) }, entry, writes };
}

export const cellKey = (row: string, col: string): string => `${row}|${col}`;

/** Cell texts after some writes (a cell written to '' keeps '' as its text). */
export function applyWrites(cells: ReadonlyMap<string, string>, writes: readonly KeyedWrite[]): Map<string, string> {
  const next = new Map(cells);
  for (const write of writes) next.set(cellKey(write.row, write.col), write.text);
  return next;
}
