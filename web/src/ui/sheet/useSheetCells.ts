import { type ClipboardEvent, type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import type { Column } from '../DataTable';
import { headerText } from '../DataGridHead';
import type { CellPosition } from '../gridModel';
import { type CellRange, type CellText, clampPoint, clipboardBlock, fillDownTargets, inRange, pasteTargets, rangeBetween, rangeCells, toHtmlTable, toTsv } from './sheetEditing';
import type { EditMove } from './CellInput';

/** One cell changed in the grid: the row as the person saw it, the column, the new text and the text before. */
export interface SheetChange<Row> {
  row: Row;
  key: string;
  text: string;
  before: string;
}

/** What kind of change a batch of cells is (one undoable step). */
export interface SheetChangeInfo {
  /** "Paste", "Fill down", "Clearing", or for one typed cell "Typing in Merit for Ada Anchor". */
  action: string;
  /** A batch of cells (a paste, a fill, clearing a selection) rather than one typed cell. */
  batch: boolean;
  /** Cells a paste or a fill reached that cannot be changed (read-only columns or rows). */
  skipped: number;
}

/** A cell's entry not yet stored (saving, or refused): the grid shows the person's text, and why when refused. */
export interface CellPending {
  text: string;
  /** A class suffix for the cell (`edit-<status>`), e.g. `saving`, `error`, `conflict`. */
  status: string;
  message?: string;
  refused: boolean;
}

/**
 * Spreadsheet editing in the data grid: columns with an `edit` take typing (Enter, F2 or a key
 * starts, Enter/Tab save and move, Escape drops), a block pasted from Excel or Google Sheets,
 * Ctrl+D fill down, Delete, and Ctrl+Z / Ctrl+Y for the screen's undo and redo. The screen checks
 * and saves the changes its own way.
 */
export interface SheetEditing<Row> {
  pending?: (row: Row, key: string) => CellPending | undefined;
  onChange: (changes: SheetChange<Row>[], info: SheetChangeInfo) => void;
  onUndo?: () => void;
  onRedo?: () => void;
  /** A fill-down asked from outside (a toolbar button): each new number fills the selection down once. */
  fillRequest?: number;
  /** Told how many rows the cell selection spans. */
  onSelection?: (rows: number) => void;
}

interface Editing<Row> {
  row: Row;
  key: string;
  text: string;
  at: CellPosition;
}

interface Options<Row> {
  sheet: SheetEditing<Row> | undefined;
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  /** Grid columns before the data's (a selection checkbox). */
  lead: number;
  /** The active cell, in grid positions (the header is row 0). */
  active: CellPosition;
  /** Moves the active cell and focuses it (scrolling it into view). */
  go: (to: CellPosition) => void;
  rowName: (row: Row) => string;
}

const MOVES: Record<Exclude<EditMove, null>, CellPosition> = { down: { row: 1, col: 0 }, up: { row: -1, col: 0 }, right: { row: 0, col: 1 }, left: { row: 0, col: -1 } };
const MOVE_KEYS = new Set(['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageDown', 'PageUp']);

/** The data grid's cell selection and editing; inert without `sheet`. */
export function useSheetCells<Row>({ sheet, rows, columns, lead, active, go, rowName }: Options<Row>) {
  const [anchor, setAnchor] = useState<CellPosition | null>(null);
  const [editing, setEditing] = useState<Editing<Row> | null>(null);
  const wasActive = useRef(false);

  // Ranges are in data coordinates: row 0 is the first data row, column 0 the first data column.
  const toData = (at: CellPosition) => clampPoint({ row: at.row - 1, col: at.col - lead }, rows.length, columns.length);
  const onData = active.row > 0 && active.col >= lead && rows.length > 0;
  const range: CellRange | null = sheet && onData ? rangeBetween(toData(anchor ?? active), toData(active)) : null;
  const multiple = range !== null && (range.top !== range.bottom || range.left !== range.right);

  const rowsSpanned = range ? range.bottom - range.top + 1 : 1;
  useEffect(() => sheet?.onSelection?.(rowsSpanned), [rowsSpanned]);

  const canEdit = (row: Row | undefined, column: Column<Row> | undefined): column is Column<Row> & { edit: NonNullable<Column<Row>['edit']> } =>
    Boolean(sheet && row !== undefined && column?.edit?.editable(row));
  const textOf = (row: Row, column: Column<Row>): string => sheet?.pending?.(row, column.key)?.text ?? column.edit?.text(row) ?? '';
  function copyTextOf(row: Row, column: Column<Row>): string {
    if (column.edit && (column.edit.editable(row) || !column.copyText)) return textOf(row, column);
    if (column.copyText) return column.copyText(row);
    const value = column.value?.(row);
    if (value !== null && value !== undefined) return String(value);
    const shown = column.cell(row);
    return typeof shown === 'string' || typeof shown === 'number' ? String(shown) : '';
  }

  function startEditing(at: CellPosition, initial?: string): boolean {
    const row = rows[at.row - 1];
    const column = columns[at.col - lead];
    if (!row || !canEdit(row, column)) return false;
    setAnchor(null);
    setEditing({ row, key: column.key, text: initial ?? textOf(row, column), at });
    return true;
  }

  function commit(text: string, move: EditMove) {
    const held = editing;
    setEditing(null);
    if (!held || !sheet) return;
    const column = columns.find((entry) => entry.key === held.key);
    if (column) {
      const before = textOf(held.row, column);
      if (text !== before) sheet.onChange([{ row: held.row, key: held.key, text, before }], { action: `Typing in ${headerText(column)} for ${rowName(held.row)}`, batch: false, skipped: 0 });
    }
    // Leaving the cell by a click saves it where it is; a key saves and moves.
    if (move) go({ row: Math.min(Math.max(held.at.row + MOVES[move].row, 1), rows.length), col: Math.min(Math.max(held.at.col + MOVES[move].col, lead), lead + columns.length - 1) });
  }

  function cancel() {
    const held = editing;
    setEditing(null);
    if (held) go(held.at);
  }

  /** Texts for cells by data position: the editable ones become changes, the others are counted as skipped. */
  function changesAt(targets: readonly CellText[], action: string) {
    if (!sheet) return;
    const changes: SheetChange<Row>[] = [];
    let skipped = 0;
    for (const target of targets) {
      const row = rows[target.row];
      const column = columns[target.col];
      if (!row || !canEdit(row, column)) {
        skipped += 1;
        continue;
      }
      const before = textOf(row, column);
      if (before !== target.text) changes.push({ row, key: column.key, text: target.text, before });
    }
    if (changes.length || skipped) sheet.onChange(changes, { action, batch: true, skipped });
  }

  const textAt = (row: number, col: number) => {
    const person = rows[row];
    const column = columns[col];
    return person !== undefined && column ? textOf(person, column) : '';
  };

  function fillDown() {
    if (range && range.bottom > range.top) changesAt(fillDownTargets(range, textAt), 'Fill down');
  }

  function clearRange() {
    if (!range) return;
    const targets: CellText[] = [];
    for (let row = range.top; row <= range.bottom; row += 1) for (let col = range.left; col <= range.right; col += 1) if (canEdit(rows[row], columns[col])) targets.push({ row, col, text: '' });
    // Clearing leaves what cannot be changed alone, without saying so.
    if (targets.length) changesAt(targets, 'Clearing');
  }

  const fillDone = useRef(sheet?.fillRequest ?? 0);
  useEffect(() => {
    const request = sheet?.fillRequest ?? 0;
    if (request !== fillDone.current) {
      fillDone.current = request;
      fillDown();
    }
  }, [sheet?.fillRequest]);

  /** The grid's keys for editing; true when handled (the grid then does nothing more with it). */
  function onKey(event: KeyboardEvent<HTMLElement>): boolean {
    if (!sheet || editing || !onData) return false;
    const control = event.ctrlKey || event.metaKey;
    const letter = event.key.toLowerCase();
    if (control && !event.altKey) {
      if (letter === 'v') return true; // the browser's paste event brings the clipboard's text
      // The copy event (onCopy) is sent even with no text selected, and fills the clipboard at once; the clipboard API where it is not.
      if (letter === 'c') {
        if (!document.execCommand('copy')) void copyOut();
      }
      else if (letter === 'd') fillDown();
      else if (letter === 'y' || (letter === 'z' && event.shiftKey)) sheet.onRedo?.();
      else if (letter === 'z') sheet.onUndo?.();
      else if (letter === 'a') {
        setAnchor({ row: 1, col: lead });
        go({ row: rows.length, col: lead + columns.length - 1 });
      } else return false;
      event.preventDefault();
      return true;
    }
    if (MOVE_KEYS.has(event.key)) {
      // Shift with a move stretches the selection from where it started; a plain move drops it.
      if (event.shiftKey) setAnchor((current) => current ?? active);
      else setAnchor(null);
      return false;
    }
    const edits = () => startEditing(active);
    const handled: Record<string, () => boolean> = {
      Enter: edits,
      F2: edits,
      Delete: () => (clearRange(), true),
      Backspace: () => (clearRange(), true),
      Escape: () => (anchor ? (setAnchor(null), true) : false),
    };
    const action = handled[event.key];
    if (action) {
      if (!action()) return false;
      event.preventDefault();
      return true;
    }
    // Typing starts an edit with what was typed, as in a spreadsheet.
    if (event.key.length === 1 && !event.altKey && startEditing(active, event.key)) {
      event.preventDefault();
      return true;
    }
    return false;
  }

  function onPaste(event: ClipboardEvent<HTMLElement>) {
    if (!sheet || editing || !range) return;
    const block = clipboardBlock(event.clipboardData.getData('text/plain'), event.clipboardData.getData('text/html'));
    if (!block.length) return;
    event.preventDefault();
    changesAt(pasteTargets(block, range, { rows: rows.length, cols: columns.length }), 'Paste');
  }

  const selectedCells = (within: CellRange) =>
    rangeCells(within, (row, col) => {
      const person = rows[row];
      const column = columns[col];
      return person !== undefined && column ? copyTextOf(person, column) : '';
    });

  /** Ctrl+C: the selected cells as a spreadsheet takes them (with no text selected the browser sends no copy event). */
  async function copyOut() {
    if (!range || !navigator.clipboard) return;
    const cells = selectedCells(range);
    const text = toTsv(cells);
    if (typeof ClipboardItem === 'undefined') return navigator.clipboard.writeText(text);
    const item = new ClipboardItem({ 'text/plain': new Blob([text], { type: 'text/plain' }), 'text/html': new Blob([toHtmlTable(cells)], { type: 'text/html' }) });
    await navigator.clipboard.write([item]).catch(() => navigator.clipboard.writeText(text));
  }

  function onCopy(event: ClipboardEvent<HTMLElement>) {
    if (!sheet || editing || !range) return;
    const cells = selectedCells(range);
    event.preventDefault();
    event.clipboardData.setData('text/plain', toTsv(cells));
    event.clipboardData.setData('text/html', toHtmlTable(cells));
  }

  /** A pointer on a cell: with Shift it stretches the selection; a click on the cell already active edits it. */
  function onPointerDown(event: PointerEvent<HTMLElement>, at: CellPosition) {
    if (!sheet) return;
    wasActive.current = !editing && at.row === active.row && at.col === active.col;
    // Not prevented: the press moves focus, so a cell being edited is left (and saved) first.
    if (event.shiftKey && at.row > 0) setAnchor((current) => current ?? active);
    else setAnchor(null);
  }
  function onClick(at: CellPosition) {
    if (sheet && wasActive.current && !multiple) startEditing(at);
    wasActive.current = false;
  }

  /** What a data cell shows of the editing: whether it can be edited, its pending entry, whether it is selected or being edited. */
  function cellState(row: Row, at: CellPosition, column: Column<Row>) {
    const data = { row: at.row - 1, col: at.col - lead };
    return {
      editable: canEdit(row, column),
      pending: sheet?.pending?.(row, column.key),
      selected: multiple && range !== null && inRange(range, data.row, data.col),
      editing: editing !== null && editing.at.row === at.row && editing.at.col === at.col && editing.key === column.key ? editing : null,
    };
  }

  return { on: Boolean(sheet), editing, onKey, onPaste, onCopy, onPointerDown, onClick, startEditing, commit, cancel, cellState };
}
