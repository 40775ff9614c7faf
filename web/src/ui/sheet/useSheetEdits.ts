import { useEffect, useRef, useState } from 'react';
import { type CellWrite, type EditHistory, emptyHistory, recordEdit, redoEdit, undoEdit } from './sheetEditing';

/** A cell's text not stored yet: waiting, being saved, or refused (a bad value, or a row someone else changed since it was read). */
export interface HeldCell {
  text: string;
  status: 'queued' | 'saving' | 'conflict' | 'error';
  message?: string;
  /** The row version the person was looking at when they wrote it. */
  readVersion: number;
  /** The server's error code when it refused (e.g. `comment_required`). */
  code?: string;
  /** A comment the screen asked for, sent with the value. */
  comment?: string;
}

/** One cell a change writes: its row and column as the screen keys them, the text, the text before, the row version read. */
export interface SheetWrite<Col extends string = string> {
  row: string;
  col: Col;
  text: string;
  before: string;
  readVersion: number;
}

/** What a change was, for its notice and its name in the undo history. */
export interface SheetChangeNote {
  /** "Paste", "Fill down", "Set merit %", or where one cell was typed. */
  action: string;
  /** A paste, a fill or a bulk action rather than one typed cell. */
  batch: boolean;
  /** Cells the change reached and left as they are. */
  skipped?: number;
  /** Why, in the screen's words (else `skippedNote` of the options). */
  skippedNote?: string;
}

/** A row's save as the screen answers it: stored (at `version`, when it still exists), or refused and why. */
export type RowSaveOutcome = { ok: true; version?: number } | { ok: false; conflict: boolean; message: string; code?: string };

export interface SheetEditsOptions<Col extends string> {
  /** Why a text is not a value the cell takes, or null when it is. */
  check: (row: string, col: Col, text: string) => string | null;
  /** The cell held now (the screen keeps held cells where its cells read them). */
  held: (row: string, col: Col) => HeldCell | undefined;
  /** Holds cells (or lets them go: null). */
  hold: (cells: readonly { row: string; col: Col; cell: HeldCell | null }[]) => void;
  /** Saves cells of one row with If-Match at `version`. */
  saveRow: (input: { row: string; cells: readonly { col: Col; cell: HeldCell }[]; version: number }) => Promise<RowSaveOutcome>;
  /** One save per cell, or one per row with all the cells a change wrote in it. */
  savePer: 'cell' | 'row';
  /** The row's version as held now (an undo of a row the change did not note goes at it). */
  versionOf: (row: string) => number | undefined;
  /** Run when a change's saves are done (e.g. read the set again). */
  afterSaves?: () => Promise<unknown>;
  /** Told of a save refused, after its cells show it (e.g. to ask for a comment). */
  onRefused?: (input: { row: string; cells: readonly { col: Col; cell: HeldCell }[] }) => void;
  /** What a cell is called in notices: one and many. */
  noun: readonly [string, string];
  /** The notice's words for cells a batch left as they are, when it gives none. */
  skippedNote: (count: number) => string;
  /** Writing at all (false when the view is read-only). */
  enabled?: boolean;
  /** A new value starts a fresh history (e.g. another worksheet). */
  session?: unknown;
}

/** What an undoable change keeps beside its cells: the row versions read (its saves, undos and redos go at them), and the cells it refused. */
interface ChangeMeta<Col extends string> {
  versions: Record<string, number>;
  rejected: { row: string; col: Col; text: string; message: string; readVersion: number }[];
}

const isRefused = (cell: HeldCell | undefined): boolean => cell?.status === 'conflict' || cell?.status === 'error';

/**
 * Spreadsheet edits of a grid whose rows are saved one at a time under If-Match, shared by the
 * merit worksheet and the band grids: each change (a typed cell, a paste, a fill, a bulk action) is
 * checked cell by cell — a bad value is refused in place and the rest go on — saved in order at the
 * version the person read (past this tab's own saves since, never past anyone else's, so a row
 * someone else changed is refused as a conflict and shown, not overwritten), and is one step of the
 * undo / redo history, whose writes go at the same versions.
 */
export function useSheetEdits<Col extends string>(options: SheetEditsOptions<Col>) {
  const { enabled = true } = options;
  const [history, setHistory] = useState<EditHistory<ChangeMeta<Col>>>(emptyHistory);
  const [notice, setNotice] = useState('');
  useEffect(() => {
    setHistory(emptyHistory());
    setNotice('');
  }, [options.session]);
  const queue = useRef<Promise<void>>(Promise.resolve());
  // Versions this tab's own saves produced: `${row}|${from}` → to, so a queued write follows them.
  const ownMoves = useRef(new Map<string, number>());
  const latest = useRef(options);
  latest.current = options;

  /** The version to send for a write read at `readVersion`: past this tab's own saves since. */
  function versionFor(row: string, readVersion: number): number {
    let version = readVersion;
    for (let next = ownMoves.current.get(`${row}|${version}`); next !== undefined; next = ownMoves.current.get(`${row}|${version}`)) version = next;
    return version;
  }

  async function saveCells(row: string, cells: readonly { col: Col; cell: HeldCell }[]) {
    const { hold, saveRow, onRefused } = latest.current;
    const readVersion = cells[0]?.cell.readVersion ?? 0;
    const version = versionFor(row, readVersion);
    hold(cells.map(({ col, cell }) => ({ row, col, cell: { ...cell, status: 'saving' } })));
    const outcome = await saveRow({ row, cells, version });
    if (outcome.ok) {
      if (outcome.version !== undefined) ownMoves.current.set(`${row}|${version}`, outcome.version);
      hold(cells.map(({ col }) => ({ row, col, cell: null })));
      return;
    }
    const refused = cells.map(({ col, cell }) => ({ col, cell: { ...cell, status: outcome.conflict ? ('conflict' as const) : ('error' as const), message: outcome.message, ...(outcome.code ? { code: outcome.code } : {}) } }));
    hold(refused.map(({ col, cell }) => ({ row, col, cell })));
    onRefused?.({ row, cells: refused });
  }

  /** Queues cells of one row to save (a screen's "save again" too); with `savePer: 'cell'` each cell is its own save. */
  function enqueue(row: string, cells: readonly { col: Col; cell: HeldCell }[]) {
    latest.current.hold(cells.map(({ col, cell }) => ({ row, col, cell: { ...cell, status: 'queued' } })));
    const groups = latest.current.savePer === 'row' ? [cells] : cells.map((entry) => [entry]);
    for (const group of groups) queue.current = queue.current.then(() => saveCells(row, group)).catch(() => undefined);
  }

  /** Writes grouped by row in their order, each at the version its change read; then `afterSaves`. */
  function saveWrites(writes: readonly { row: string; col: Col; text: string }[], versions: Record<string, number>) {
    const rows = new Map<string, { col: Col; cell: HeldCell }[]>();
    for (const write of writes) {
      const readVersion = versions[write.row] ?? latest.current.versionOf(write.row) ?? 0;
      rows.set(write.row, [...(rows.get(write.row) ?? []), { col: write.col, cell: { text: write.text, status: 'queued', readVersion } }]);
    }
    for (const [row, cells] of rows) enqueue(row, cells);
    const after = latest.current.afterSaves;
    if (after && rows.size) queue.current = queue.current.then(() => after()).then(() => undefined, () => undefined);
  }

  /** A change from the grid: each cell checked with the screen's parsing, the good ones saved, the whole one step to undo. */
  function change(writes: readonly SheetWrite<Col>[], note: SheetChangeNote) {
    if (!enabled) return;
    const { check, hold, noun, skippedNote } = latest.current;
    const cells: CellWrite[] = [];
    const meta: ChangeMeta<Col> = { versions: {}, rejected: [] };
    const good: { row: string; col: Col; text: string }[] = [];
    for (const write of writes) {
      const problem = check(write.row, write.col, write.text);
      if (problem !== null) {
        meta.rejected.push({ row: write.row, col: write.col, text: write.text, message: problem, readVersion: write.readVersion });
        continue;
      }
      cells.push({ row: write.row, col: write.col, before: write.before, after: write.text });
      meta.versions[write.row] ??= write.readVersion;
      good.push(write);
    }
    hold(meta.rejected.map((bad) => ({ row: bad.row, col: bad.col, cell: { text: bad.text, status: 'error', message: bad.message, readVersion: bad.readVersion } })));
    saveWrites(good, meta.versions);
    const count = `${cells.length} ${cells.length === 1 ? noun[0] : noun[1]}`;
    // One typed cell is named by where it was typed; a batch by its size.
    setHistory((current) => recordEdit(current, { label: note.batch ? `${note.action} of ${count}` : note.action, cells, meta }));
    if (!note.batch) return setNotice(meta.rejected[0]?.message ?? '');
    const parts = [`${note.action}: ${count} changed.`];
    if (meta.rejected.length) parts.push(`${meta.rejected.length} not taken (shown in red): ${meta.rejected[0]?.message ?? ''}`);
    if (note.skipped) parts.push(note.skippedNote ?? skippedNote(note.skipped));
    setNotice(parts.join(' '));
  }

  /** Undo or redo one change: its cells written back at the versions read, so a row someone else changed since is refused, not overwritten. */
  function replay(direction: 'undo' | 'redo') {
    if (!enabled) return;
    const move = direction === 'undo' ? undoEdit(history) : redoEdit(history);
    if (!move) return;
    setHistory(move.history);
    const { held, hold } = latest.current;
    const meta = move.entry.meta ?? { versions: {}, rejected: [] };
    const writes: { row: string; col: Col; text: string }[] = [];
    const dropped: { row: string; col: Col; cell: null }[] = [];
    for (const write of move.writes) {
      const col = write.col as Col;
      // A cell whose save was refused never changed what is stored: undoing it drops the person's entry.
      if (direction === 'undo' && isRefused(held(write.row, col))) dropped.push({ row: write.row, col, cell: null });
      else writes.push({ row: write.row, col, text: write.text });
    }
    for (const bad of meta.rejected) {
      const cell = held(bad.row, bad.col);
      if (direction === 'undo' && cell?.status === 'error' && cell.text === bad.text) dropped.push({ row: bad.row, col: bad.col, cell: null });
    }
    hold(dropped);
    if (direction === 'redo') hold(meta.rejected.map((bad) => ({ row: bad.row, col: bad.col, cell: { text: bad.text, status: 'error', message: bad.message, readVersion: bad.readVersion } })));
    saveWrites(writes, meta.versions);
    setNotice(`${direction === 'undo' ? 'Undone' : 'Redone'}: ${move.entry.label}.`);
  }

  return {
    change,
    enqueue,
    undo: () => replay('undo'),
    redo: () => replay('redo'),
    nextUndo: history.done[history.done.length - 1],
    nextRedo: history.undone[history.undone.length - 1],
    notice,
  };
}
