import { Redo2, Undo2 } from 'lucide-react';
import { type ClipboardEvent, type KeyboardEvent, type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { type CellPoint, cellKey, clampPoint, clipboardBlock, fillDownTargets, inRange, pasteTargets, rangeBetween, rangeCells, toHtmlTable, toTsv } from '../../ui/sheet/sheetEditing';
import { type HeldCell, type RowSaveOutcome, type SheetWrite, useSheetEdits } from '../../ui/sheet/useSheetEdits';
import { type Band, type BandSetDetail, type CompanyJob, type PayZone, refreshBands, toMajorText, toMinor } from './common';

export const FIGURE_KEYS = ['min', 'mid', 'max'] as const;
export type Figure = (typeof FIGURE_KEYS)[number];
const LONG: Record<Figure, string> = { min: 'minimum', mid: 'midpoint', max: 'maximum' };

/** A figure typed, pasted or filled and not stored yet: its text, and why it was refused when it was. */
export type PendingFigure = HeldCell;

/** One figure to write: the band as the person saw it (its version is what the save goes at), which figure, the text. */
export interface FigureWrite {
  band: Band;
  figure: Figure;
  text: string;
}

/**
 * A draft's band figures as the spreadsheet views edit them (the jobs × zones grid and the band
 * list share one), through the shared sheet edits (`useSheetEdits`): figures typed, pasted or
 * filled are read with the money module in their band's currency, a bad one is refused in place,
 * and each band touched is saved once, with If-Match at the version read (past this tab's own
 * saves): a band someone else changed meanwhile is refused and shown, never overwritten. Each
 * change is one step of the undo / redo history.
 */
export function useBandFigures({ bandSet, editable }: { bandSet: BandSetDetail; editable: boolean }) {
  const [pending, setPending] = useState<ReadonlyMap<string, PendingFigure>>(new Map());
  // The newest copy of each band: from the set as read, or from this tab's own saves before the set is read again.
  const latest = useRef(new Map<string, Band>());
  for (const band of bandSet.bands) {
    const held = latest.current.get(band.id);
    if (!held || held.version <= band.version) latest.current.set(band.id, band);
  }
  const { save } = useVersionedSave((ifMatch, bandId: string, body: { min: Band['min']; mid: Band['mid']; max: Band['max'] }) =>
    api.PATCH('/api/bands/band-sets/{bandSetId}/bands/{bandId}', { params: { path: { bandSetId: bandSet.id, bandId }, header: { 'If-Match': ifMatch } }, body }),
  );

  /** The newest copy of a band this tab knows. */
  const bandOf = (band: Band): Band => latest.current.get(band.id) ?? band;
  /** A figure's text: what the person typed while it is pending, else the stored amount. */
  const textOf = (band: Band, figure: Figure): string => pending.get(cellKey(band.id, figure))?.text ?? toMajorText(bandOf(band)[figure]);
  const pendingOf = (band: Band, figure: Figure): PendingFigure | undefined => pending.get(cellKey(band.id, figure));

  function setFigures(entries: [string, PendingFigure | null][]) {
    if (!entries.length) return;
    setPending((current) => {
      const next = new Map(current);
      for (const [key, value] of entries) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      return next;
    });
  }

  /** Saves one band with some of its figures changed, at the version given. */
  async function saveBand(bandId: string, texts: Partial<Record<Figure, string>>, version: number): Promise<RowSaveOutcome> {
    const band = latest.current.get(bandId);
    if (!band) return { ok: true };
    const currency = band.mid.currency;
    const figures = Object.fromEntries(FIGURE_KEYS.map((figure) => [figure, texts[figure] === undefined ? band[figure].amount : toMinor(texts[figure] ?? '', currency)])) as Record<Figure, number | null>;
    const bad = FIGURE_KEYS.find((figure) => figures[figure] === null);
    if (bad) return { ok: false, conflict: false, message: `Type the ${LONG[bad]} as an amount in ${currency}, e.g. 95000.` };
    const money = (figure: Figure) => ({ amount: figures[figure] ?? 0, currency });
    const result = await save(version, bandId, { min: money('min'), mid: money('mid'), max: money('max') });
    if (!result.ok) return { ok: false, conflict: result.conflict, message: result.message };
    latest.current.set(bandId, result.data.data);
    return { ok: true, version: result.data.data.version };
  }

  const sheet = useSheetEdits<Figure>({
    enabled: editable,
    savePer: 'row',
    noun: ['figure', 'figures'],
    skippedNote: (count) => `${count} ${count === 1 ? 'cell has' : 'cells have'} no band.`,
    check: (bandId, figure, text) => {
      const currency = latest.current.get(bandId)?.mid.currency ?? '';
      const amount = toMinor(text, currency);
      if (amount === null) return `Type the ${LONG[figure]} as an amount in ${currency}, e.g. 95000.`;
      return amount < 0 ? `The ${LONG[figure]} cannot be negative.` : null;
    },
    held: (bandId, figure) => pending.get(cellKey(bandId, figure)),
    hold: (cells) => setFigures(cells.map(({ row, col, cell }) => [cellKey(row, col), cell])),
    versionOf: (bandId) => latest.current.get(bandId)?.version,
    saveRow: ({ row, cells, version }) => saveBand(row, Object.fromEntries(cells.map(({ col, cell }) => [col, cell.text])), version),
    afterSaves: refreshBands,
  });

  /**
   * Figures from typing, a paste or a fill: checked one by one, the good ones saved, the whole one
   * step to undo. `batch`: a paste or a fill rather than one typed figure; `skipped`: cells the
   * change reached that hold no figure, and `skippedNote` why.
   */
  function change(targets: readonly FigureWrite[], { action, batch = true, skipped = 0, skippedNote }: { action: string; batch?: boolean; skipped?: number; skippedNote?: string }) {
    const writes: SheetWrite<Figure>[] = [];
    for (const target of targets) {
      const band = bandOf(target.band);
      const before = textOf(band, target.figure);
      if (before !== target.text) writes.push({ row: band.id, col: target.figure, text: target.text, before, readVersion: band.version });
    }
    sheet.change(writes, { action, batch, skipped, ...(skippedNote ? { skippedNote } : {}) });
  }

  const { undo, redo, nextUndo, nextRedo, notice } = sheet;
  const refused = [...pending.entries()].filter(([, held]) => held.status === 'error' || held.status === 'conflict');
  /** Undo, Redo, the view's own controls (its fill down), what the last change did, and dropping refused figures. */
  const toolbar = (controls?: ReactNode): ReactNode =>
    editable ? (
      <div className="bands-sheet-bar">
        <button type="button" className="small" disabled={!nextUndo} onClick={undo} title={nextUndo ? `Undo ${nextUndo.label.toLowerCase()} (Ctrl+Z)` : 'Nothing to undo'}>
          <Undo2 size={16} aria-hidden="true" /> Undo
        </button>
        <button type="button" className="small" disabled={!nextRedo} onClick={redo} title={nextRedo ? `Redo ${nextRedo.label.toLowerCase()} (Ctrl+Shift+Z)` : 'Nothing to redo'}>
          <Redo2 size={16} aria-hidden="true" /> Redo
        </button>
        {controls}
        <span role="status" className="bands-sheet-notice" data-testid="band-sheet-notice">
          {notice}
        </span>
        {refused.length > 0 && (
          <button type="button" className="small" onClick={() => (setFigures(refused.map(([key]) => [key, null])), void refreshBands())}>
            Drop the {refused.length} refused {refused.length === 1 ? 'figure' : 'figures'} and reload
          </button>
        )}
      </div>
    ) : null;

  return { editable, bandOf, textOf, pendingOf, change, undo, redo, toolbar };
}

export type BandFigures = ReturnType<typeof useBandFigures>;

/**
 * Spreadsheet editing of the jobs × zones grid: its cells are rows (company jobs, in the order
 * shown) × pay zones × min / mid / max. A range is selected with shift+arrows or shift+click;
 * Ctrl+C copies it as tab-separated text, a block pasted from Excel or Google Sheets lands from the
 * selection's top-left cell, Ctrl+D fills each selected column down, Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y)
 * undo and redo a whole change; the figures are checked and saved by `useBandFigures`.
 */
export function useBandSheet({ bandSet, jobs, zones, figures }: { bandSet: BandSetDetail; jobs: readonly CompanyJob[]; zones: readonly PayZone[]; figures: BandFigures }) {
  const { editable } = figures;
  const [active, setActive] = useState<CellPoint>({ row: 0, col: 0 });
  const [anchor, setAnchor] = useState<CellPoint | null>(null);
  const table = useRef<HTMLTableElement>(null);
  const focusWanted = useRef(false);

  const byCell = new Map(bandSet.bands.map((band) => [`${band.companyJobId}|${band.payZoneId}`, band]));
  const rows = jobs.length;
  const cols = zones.length * 3;
  const { row, col } = clampPoint(active, Math.max(1, rows), Math.max(1, cols));
  const selection = rangeBetween(anchor ? clampPoint(anchor, rows, cols) : { row, col }, { row, col });
  const multiple = selection.top !== selection.bottom || selection.left !== selection.right;

  /** The band and figure at a grid position, if there is a band there. */
  function at(r: number, c: number): { band: Band; figure: Figure } | null {
    const job = jobs[r];
    const zone = zones[Math.floor(c / 3)];
    const figure = FIGURE_KEYS[c % 3];
    if (!job || !zone || !figure) return null;
    const band = byCell.get(`${job.id}|${zone.id}`);
    return band ? { band: figures.bandOf(band), figure } : null;
  }
  const textAt = (r: number, c: number): string => {
    const cell = at(r, c);
    return cell ? figures.textOf(cell.band, cell.figure) : '';
  };

  useEffect(() => {
    if (!focusWanted.current) return;
    const found =
      table.current?.querySelector<HTMLElement>(`[data-sheet-row="${row}"][data-sheet-col="${col}"]`) ??
      table.current?.querySelector<HTMLElement>(`[data-sheet-row="${row}"][data-sheet-col="${col - (col % 3)}"]`);
    if (found) {
      focusWanted.current = false;
      found.focus();
    }
  });

  /** Cells by position: those with a band become figure writes, the others are counted. */
  function change(targets: { row: number; col: number; text: string }[], action: string) {
    const writes: FigureWrite[] = [];
    let skipped = 0;
    for (const target of targets) {
      const cell = at(target.row, target.col);
      if (cell) writes.push({ ...cell, text: target.text });
      else skipped += 1;
    }
    figures.change(writes, { action, skipped });
  }

  function moveTo(r: number, c: number, extend = false) {
    const next = clampPoint({ row: r, col: c }, rows, cols);
    if (extend) setAnchor((current) => current ?? { row, col });
    else setAnchor(null);
    setActive(next);
    focusWanted.current = true;
  }

  function onKeyDown(event: KeyboardEvent<HTMLTableElement>) {
    const target = event.target as HTMLElement;
    if (!target.dataset.sheetRow) return; // the row's inputs and buttons keep their keys
    const control = event.ctrlKey || event.metaKey;
    const shift = event.shiftKey;
    const letter = event.key.toLowerCase();
    if (control && !event.altKey && ['d', 'z', 'y', 'a'].includes(letter)) {
      event.preventDefault();
      if (letter === 'a') {
        setAnchor({ row: 0, col: 0 });
        setActive({ row: rows - 1, col: cols - 1 });
        focusWanted.current = true;
      } else if (!editable) return;
      else if (letter === 'd') fillDown();
      else if (letter === 'y' || shift) figures.redo();
      else figures.undo();
      return;
    }
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(control ? rows - 1 : row + 1, col, shift),
      ArrowUp: () => moveTo(control ? 0 : row - 1, col, shift),
      ArrowRight: () => moveTo(row, control ? cols - 1 : col + 1, shift),
      ArrowLeft: () => moveTo(row, control ? 0 : col - 1, shift),
      Home: () => moveTo(control ? 0 : row, 0, shift),
      End: () => moveTo(control ? rows - 1 : row, cols - 1, shift),
      Escape: () => setAnchor(null),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  function fillDown() {
    if (selection.bottom > selection.top) change(fillDownTargets(selection, textAt), 'Fill down');
  }

  function onPaste(event: ClipboardEvent<HTMLTableElement>) {
    if (!editable || !(event.target as HTMLElement).dataset.sheetRow) return;
    const block = clipboardBlock(event.clipboardData.getData('text/plain'), event.clipboardData.getData('text/html'));
    if (!block.length) return;
    event.preventDefault();
    change(pasteTargets(block, selection, { rows, cols }), 'Paste');
  }

  function onCopy(event: ClipboardEvent<HTMLTableElement>) {
    if (!(event.target as HTMLElement).dataset.sheetRow) return;
    event.preventDefault();
    const cells = rangeCells(selection, textAt);
    event.clipboardData.setData('text/plain', toTsv(cells));
    event.clipboardData.setData('text/html', toHtmlTable(cells));
  }

  /** What a figure cell of the grid carries: its place, selection and focus, and what is pending in it. */
  function cellProps(r: number, c: number, band: Band | null, figure: Figure | null) {
    const isActive = r === row && (c === col || (!band && col - (col % 3) === c));
    const held = band && figure ? figures.pendingOf(band, figure) : undefined;
    const refused = held?.status === 'error' || held?.status === 'conflict';
    return {
      'data-sheet-row': r,
      'data-sheet-col': c,
      tabIndex: isActive ? 0 : -1,
      'aria-selected': multiple && inRange(selection, r, c) ? true : undefined,
      'aria-invalid': refused ? true : undefined,
      className: ['sheet-cell', isActive ? 'sheet-active' : '', held ? `sheet-${held.status}` : ''].filter(Boolean).join(' '),
      title: held?.message,
      onClick: (event: MouseEvent) => moveTo(r, c, event.shiftKey),
      pending: held,
    };
  }

  const toolbar = figures.toolbar(
    <button type="button" className="small" disabled={selection.bottom <= selection.top} onClick={fillDown} title="Shift+arrows or shift+click select figures; Ctrl+D fills each column down from its top figure">
      Fill down
    </button>,
  );

  return {
    toolbar,
    cellProps,
    tableProps: { ref: table, role: 'grid', 'aria-multiselectable': true, 'aria-readonly': editable ? undefined : true, onKeyDown, onPaste, onCopy },
  };
}
