import { useVirtualizer } from '@tanstack/react-virtual';
import { type ClipboardEvent, type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { WorksheetEmployee } from './common';
import type { CellEdit, EditField } from './worksheetModel';

/** One column of the worksheet grid. */
export interface GridColumn {
  key: string;
  label: string;
  /** A CSS grid track, e.g. `120px`. */
  width: string;
  numeric?: boolean;
  /** What the cell shows when it is not being edited. */
  cell: (row: WorksheetEmployee) => ReactNode;
  /** The cell's text as a planner edits it (editable columns only). */
  field?: EditField;
  inputText?: (row: WorksheetEmployee) => string;
  editable?: (row: WorksheetEmployee) => boolean;
}

export interface CellChange {
  employeeId: string;
  field: EditField;
  text: string;
  /** The row version the person was looking at when they typed. */
  readVersion: number;
}

interface GridProps {
  label: string;
  rows: readonly WorksheetEmployee[];
  columns: readonly GridColumn[];
  /** Edits in flight or refused, by row and field: the cell shows the person's text. */
  editOf: (employeeId: string, field: EditField) => CellEdit | undefined;
  onChange: (changes: CellChange[]) => void;
  /** Opens the person (their peers, history and comments). */
  onOpen: (row: WorksheetEmployee) => void;
  /** A fill-down request from outside (the toolbar's button) is this grid's own; it says whether one is possible. */
  onSelection?: (rows: number) => void;
  fillRequest?: number;
}

const ROW_HEIGHT = 44;

/**
 * The planner's grid: a virtualised ARIA grid (thousands of rows, only those in view drawn) moved
 * through with the arrow keys, Home/End and PageUp/PageDown. Enter, F2 or typing edits a cell;
 * Enter saves and goes down, Tab saves and goes right, Escape drops the change. Shift+arrows select
 * down a column and Ctrl+D fills the first cell's value down; a column copied from a spreadsheet is
 * pasted down from the active cell.
 */
export function WorksheetGrid({ label, rows, columns, editOf, onChange, onOpen, onSelection, fillRequest = 0 }: GridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState({ row: 0, col: 1 });
  const [anchor, setAnchor] = useState<number | null>(null);
  const [editing, setEditing] = useState<{ text: string; readVersion: number } | null>(null);
  const focusWanted = useRef(false);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const template = columns.map((column) => column.width).join(' ');

  const row = Math.min(active.row, Math.max(0, rows.length - 1));
  const col = Math.min(active.col, columns.length - 1);
  const selection = anchor === null ? { from: row, to: row } : { from: Math.min(anchor, row), to: Math.max(anchor, row) };

  useEffect(() => onSelection?.(selection.to - selection.from + 1), [selection.from, selection.to]);

  // Focus follows the active cell once it is drawn (it may have been scrolled into view first).
  useEffect(() => {
    if (!focusWanted.current || editing) return;
    const cell = grid.current?.querySelector<HTMLElement>(`[data-row-index="${row}"] [data-col-index="${col}"]`);
    if (cell) {
      focusWanted.current = false;
      cell.focus({ preventScroll: false });
    }
  });

  const fillDone = useRef(fillRequest);
  useEffect(() => {
    if (fillRequest !== fillDone.current) {
      fillDone.current = fillRequest;
      fillDown();
    }
  }, [fillRequest]);

  function moveTo(nextRow: number, nextCol: number, extend = false) {
    const r = Math.max(0, Math.min(rows.length - 1, nextRow));
    const c = Math.max(0, Math.min(columns.length - 1, nextCol));
    if (extend) setAnchor((current) => (current === null ? row : current));
    else setAnchor(null);
    setActive({ row: r, col: c });
    focusWanted.current = true;
    virtualizer.scrollToIndex(r, { align: 'auto' });
  }

  const column = columns[col];
  const current = rows[row];
  const canEdit = (target: WorksheetEmployee | undefined, at: GridColumn | undefined): at is GridColumn & { field: EditField } =>
    Boolean(target && at?.field && at.editable?.(target));

  function textOf(target: WorksheetEmployee, at: GridColumn): string {
    if (!at.field) return '';
    return editOf(target.employeeId, at.field)?.text ?? at.inputText?.(target) ?? '';
  }

  function startEditing(initial?: string) {
    if (!current || !canEdit(current, column)) return;
    setEditing({ text: initial ?? textOf(current, column), readVersion: current.version });
  }

  function commit(text: string, readVersion: number) {
    setEditing(null);
    if (!current || !canEdit(current, column)) return;
    if (text === textOf(current, column)) return;
    onChange([{ employeeId: current.employeeId, field: column.field, text, readVersion }]);
  }

  function fillDown() {
    if (selection.to <= selection.from || !column?.field) return;
    const top = rows[selection.from];
    if (!top) return;
    const text = textOf(top, column);
    const changes: CellChange[] = [];
    for (let index = selection.from + 1; index <= selection.to; index += 1) {
      const target = rows[index];
      if (target && canEdit(target, column) && column.field) changes.push({ employeeId: target.employeeId, field: column.field, text, readVersion: target.version });
    }
    if (changes.length) onChange(changes);
  }

  function onGridKey(event: KeyboardEvent<HTMLDivElement>) {
    if (editing) return;
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const control = event.ctrlKey || event.metaKey;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(row + 1, col, event.shiftKey),
      ArrowUp: () => moveTo(row - 1, col, event.shiftKey),
      ArrowRight: () => moveTo(row, col + 1),
      ArrowLeft: () => moveTo(row, col - 1),
      Home: () => moveTo(control ? 0 : row, 0),
      End: () => moveTo(control ? rows.length - 1 : row, columns.length - 1),
      PageDown: () => moveTo(row + page, col, event.shiftKey),
      PageUp: () => moveTo(row - page, col, event.shiftKey),
      Enter: () => (col === 0 && current ? onOpen(current) : startEditing()),
      F2: () => startEditing(),
      Delete: () => canEdit(current, column) && current && onChange([{ employeeId: current.employeeId, field: column.field, text: '', readVersion: current.version }]),
    };
    if (control && event.key.toLowerCase() === 'd') {
      event.preventDefault();
      fillDown();
      return;
    }
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
      return;
    }
    // Typing starts an edit with what was typed, as in a spreadsheet.
    if (event.key.length === 1 && !control && !event.altKey && canEdit(current, column)) {
      event.preventDefault();
      startEditing(event.key);
    }
  }

  function onPaste(event: ClipboardEvent<HTMLDivElement>) {
    if (editing) return;
    const text = event.clipboardData.getData('text/plain');
    if (!text) return;
    event.preventDefault();
    const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
    const changes: CellChange[] = [];
    lines.forEach((line, lineIndex) => {
      const target = rows[row + lineIndex];
      if (!target) return;
      line.split('\t').forEach((value, offset) => {
        const at = columns[col + offset];
        if (at && canEdit(target, at)) changes.push({ employeeId: target.employeeId, field: at.field, text: value.trim(), readVersion: target.version });
      });
    });
    if (changes.length) onChange(changes);
  }

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scroller} className="planning-grid-scroll" role="region" aria-label={`${label}, scrolling`}>
      <div ref={grid} role="grid" aria-label={label} aria-rowcount={rows.length + 1} aria-colcount={columns.length} className="planning-grid" onKeyDown={onGridKey} onPaste={onPaste}>
        <div role="rowgroup">
          <div role="row" className="head" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
            {columns.map((entry, index) => (
              <div key={entry.key} role="columnheader" aria-colindex={index + 1} className={entry.numeric ? 'num' : undefined}>
                {entry.label}
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup" className="body" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const target = rows[item.index] as WorksheetEmployee;
            const flagged = target.flags.some((flag) => flag.severity === 'error') ? 'error' : target.flags.length ? 'warning' : undefined;
            return (
              <div
                key={target.employeeId}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={item.index >= selection.from && item.index <= selection.to}
                data-row-index={item.index}
                data-employee-id={target.employeeId}
                data-version={target.version}
                data-flag={flagged}
                className={target.eligibility.status === 'eligible' ? undefined : 'ineligible'}
                style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: item.size }}
              >
                {columns.map((entry, index) => {
                  const isActive = item.index === row && index === col;
                  const edit = entry.field ? editOf(target.employeeId, entry.field) : undefined;
                  const editable = canEdit(target, entry);
                  const classes = [entry.numeric ? 'num' : '', editable ? 'editable' : '', edit ? `edit-${edit.status}` : '', isActive ? 'active' : ''].filter(Boolean).join(' ');
                  const Role = index === 0 ? 'rowheader' : 'gridcell';
                  return (
                    <div
                      key={entry.key}
                      role={Role}
                      aria-colindex={index + 1}
                      aria-readonly={index === 0 ? undefined : !editable}
                      tabIndex={isActive ? 0 : -1}
                      data-col={entry.key}
                      data-col-index={index}
                      className={classes || undefined}
                      onClick={() => {
                        if (isActive && editable && !editing) startEditing();
                        else if (index === 0) {
                          moveTo(item.index, index);
                          onOpen(target);
                        } else moveTo(item.index, index);
                      }}
                      onDoubleClick={() => editable && startEditing()}
                    >
                      {isActive && editing ? (
                        <CellInput
                          label={`${entry.label} for ${target.name}`}
                          initial={editing.text}
                          onCommit={(text, move) => {
                            commit(text, editing.readVersion);
                            focusWanted.current = true;
                            if (move === 'down') moveTo(item.index + 1, index);
                            else if (move === 'up') moveTo(item.index - 1, index);
                            else if (move === 'right') moveTo(item.index, index + 1);
                            else if (move === 'left') moveTo(item.index, index - 1);
                          }}
                          onCancel={() => {
                            setEditing(null);
                            focusWanted.current = true;
                          }}
                        />
                      ) : edit ? (
                        <span className="pending" title={edit.message}>
                          {edit.text || '—'}
                        </span>
                      ) : (
                        entry.cell(target)
                      )}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** The input of a cell being edited: Enter/Tab save and move, Escape drops the change, leaving the cell saves. */
function CellInput({ label, initial, onCommit, onCancel }: { label: string; initial: string; onCommit: (text: string, move: 'down' | 'up' | 'right' | 'left' | null) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const done = useRef(false);
  const finish = (move: 'down' | 'up' | 'right' | 'left' | null) => {
    if (done.current) return;
    done.current = true;
    onCommit(text, move);
  };
  return (
    <input
      className="planning-cell-input"
      aria-label={label}
      value={text}
      autoFocus
      onFocus={(event) => {
        // Typing started the edit: the caret goes after the typed character, not before it.
        const end = event.currentTarget.value.length;
        event.currentTarget.setSelectionRange(end, end);
      }}
      onChange={(event) => setText(event.target.value)}
      onBlur={() => finish(null)}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Enter') {
          event.preventDefault();
          finish(event.shiftKey ? 'up' : 'down');
        } else if (event.key === 'Tab') {
          event.preventDefault();
          finish(event.shiftKey ? 'left' : 'right');
        } else if (event.key === 'Escape') {
          event.preventDefault();
          done.current = true;
          onCancel();
        } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          finish(event.key === 'ArrowDown' ? 'down' : 'up');
        }
      }}
    />
  );
}
