import { describe, expect, it } from 'vitest';
import { applyOrder, dropColumn, emptySelection, keepShown, moveCell, moveColumn, selectAll, selectMode, selectRow, toCsv, toTsv } from '../src/ui/gridModel.js';

// 100 data rows under a header (rows 0..100), 6 columns (0..5), 20 rows to a screen.
const shape = { rows: 100, cols: 6, page: 20 };

describe('the data grid’s keyboard (ARIA grid pattern)', () => {
  it('moves one cell with the arrows and stops at the edges', () => {
    expect(moveCell({ row: 5, col: 2 }, { key: 'ArrowDown' }, shape)).toEqual({ row: 6, col: 2 });
    expect(moveCell({ row: 5, col: 2 }, { key: 'ArrowUp' }, shape)).toEqual({ row: 4, col: 2 });
    expect(moveCell({ row: 5, col: 2 }, { key: 'ArrowLeft' }, shape)).toEqual({ row: 5, col: 1 });
    expect(moveCell({ row: 5, col: 2 }, { key: 'ArrowRight' }, shape)).toEqual({ row: 5, col: 3 });
    // The header is row 0: up from it stays; the last row is 100, the last column 5.
    expect(moveCell({ row: 0, col: 0 }, { key: 'ArrowUp' }, shape)).toEqual({ row: 0, col: 0 });
    expect(moveCell({ row: 100, col: 5 }, { key: 'ArrowDown' }, shape)).toEqual({ row: 100, col: 5 });
    expect(moveCell({ row: 100, col: 5 }, { key: 'ArrowRight' }, shape)).toEqual({ row: 100, col: 5 });
    expect(moveCell({ row: 3, col: 0 }, { key: 'ArrowLeft' }, shape)).toEqual({ row: 3, col: 0 });
  });

  it('goes to the row’s ends with Home/End, and the grid’s with Ctrl', () => {
    expect(moveCell({ row: 7, col: 3 }, { key: 'Home' }, shape)).toEqual({ row: 7, col: 0 });
    expect(moveCell({ row: 7, col: 3 }, { key: 'End' }, shape)).toEqual({ row: 7, col: 5 });
    expect(moveCell({ row: 7, col: 3 }, { key: 'Home', ctrlKey: true }, shape)).toEqual({ row: 0, col: 0 });
    expect(moveCell({ row: 7, col: 3 }, { key: 'End', metaKey: true }, shape)).toEqual({ row: 100, col: 5 });
  });

  it('pages by a screenful, not past the last row and not up onto the header', () => {
    // 7 + 20 = 27; 95 + 20 = 115, held at 100; 27 - 20 = 7; 7 - 20 = -13, held at the first data row 1.
    expect(moveCell({ row: 7, col: 1 }, { key: 'PageDown' }, shape)).toEqual({ row: 27, col: 1 });
    expect(moveCell({ row: 95, col: 1 }, { key: 'PageDown' }, shape)).toEqual({ row: 100, col: 1 });
    expect(moveCell({ row: 27, col: 1 }, { key: 'PageUp' }, shape)).toEqual({ row: 7, col: 1 });
    expect(moveCell({ row: 7, col: 1 }, { key: 'PageUp' }, shape)).toEqual({ row: 1, col: 1 });
    expect(moveCell({ row: 0, col: 1 }, { key: 'PageDown' }, shape)).toEqual({ row: 20, col: 1 });
  });

  it('leaves other keys to the cell', () => {
    expect(moveCell({ row: 1, col: 1 }, { key: 'Enter' }, shape)).toBeNull();
    expect(moveCell({ row: 1, col: 1 }, { key: 'a' }, shape)).toBeNull();
  });

  it('stays on the header when there are no rows', () => {
    expect(moveCell({ row: 0, col: 2 }, { key: 'ArrowDown' }, { rows: 0, cols: 3, page: 10 })).toEqual({ row: 0, col: 2 });
  });
});

describe('the data grid’s selection', () => {
  const order = ['a', 'b', 'c', 'd', 'e', 'f'];
  const ids = (selection: { ids: ReadonlySet<string> }) => [...selection.ids].sort();

  it('reads the modifier keys as Excel does', () => {
    expect(selectMode({})).toBe('only');
    expect(selectMode({ ctrlKey: true })).toBe('toggle');
    expect(selectMode({ metaKey: true })).toBe('toggle');
    expect(selectMode({ shiftKey: true, ctrlKey: true })).toBe('range');
  });

  it('selects one row, then Ctrl adds and removes, then Shift spans from the anchor in the order shown', () => {
    let selection = selectRow(emptySelection, 'b', 'only', order);
    expect(ids(selection)).toEqual(['b']);
    selection = selectRow(selection, 'd', 'toggle', order);
    expect(ids(selection)).toEqual(['b', 'd']);
    // The anchor is now d; Shift on f adds d..f (d, e, f) to what was chosen.
    selection = selectRow(selection, 'f', 'range', order);
    expect(ids(selection)).toEqual(['b', 'd', 'e', 'f']);
    // Shift upwards from the same anchor (d) to c adds c.
    selection = selectRow(selection, 'c', 'range', order);
    expect(ids(selection)).toEqual(['b', 'c', 'd', 'e', 'f']);
    selection = selectRow(selection, 'b', 'toggle', order);
    expect(ids(selection)).toEqual(['c', 'd', 'e', 'f']);
    // A plain click makes one row the selection; on the only selected row it clears.
    selection = selectRow(selection, 'a', 'only', order);
    expect(ids(selection)).toEqual(['a']);
    expect(ids(selectRow(selection, 'a', 'only', order))).toEqual([]);
  });

  it('treats Shift without an anchor as Ctrl', () => {
    expect(ids(selectRow(emptySelection, 'c', 'range', order))).toEqual(['c']);
  });

  it('selects all shown, or none when all were', () => {
    const all = selectAll(emptySelection, order);
    expect(ids(all)).toEqual(order);
    expect(ids(selectAll(all, order))).toEqual([]);
  });

  it('keeps only rows still shown after a filter', () => {
    const selection = { ids: new Set(['a', 'c', 'e']), anchor: 'e' };
    const kept = keepShown(selection, ['a', 'b', 'c']);
    expect(ids(kept)).toEqual(['a', 'c']);
    expect(kept.anchor).toBeNull();
    // Nothing gone: the same object, so no re-render loop.
    expect(keepShown(selection, order)).toBe(selection);
  });
});

describe('the data grid’s columns', () => {
  it('moves a column one place, never into or out of the pinned ones', () => {
    expect(moveColumn(['name', 'title', 'level', 'base'], 'level', -1, 1)).toEqual(['name', 'level', 'title', 'base']);
    expect(moveColumn(['name', 'title', 'level', 'base'], 'title', -1, 1)).toEqual(['name', 'title', 'level', 'base']);
    expect(moveColumn(['name', 'title', 'level', 'base'], 'base', 1, 1)).toEqual(['name', 'title', 'level', 'base']);
    expect(moveColumn(['name', 'title', 'level', 'base'], 'name', 1, 1)).toEqual(['name', 'title', 'level', 'base']);
  });

  it('drops a dragged column in another’s place', () => {
    expect(dropColumn(['name', 'title', 'level', 'base'], 'base', 'title', 1)).toEqual(['name', 'base', 'title', 'level']);
    expect(dropColumn(['name', 'title', 'level', 'base'], 'title', 'base', 1)).toEqual(['name', 'level', 'base', 'title']);
    expect(dropColumn(['name', 'title', 'level', 'base'], 'base', 'name', 1)).toEqual(['name', 'title', 'level', 'base']);
  });

  it('applies a saved order to the columns there are now', () => {
    expect(applyOrder(['a', 'b', 'c', 'd'], ['c', 'gone', 'a'])).toEqual(['c', 'a', 'b', 'd']);
    expect(applyOrder(['a', 'b'], undefined)).toEqual(['a', 'b']);
  });
});

describe('copying and exporting rows', () => {
  it('writes tab-separated text for a spreadsheet, tabs and line breaks in cells made spaces', () => {
    expect(toTsv(['Name', 'Base'], [['Ada\tL', '120000'], ['Line\nbreak', '90000']])).toBe('Name\tBase\nAda L\t120000\nLine break\t90000');
  });

  it('quotes CSV cells and keeps formulas as text, negative numbers as numbers', () => {
    expect(toCsv(['Name', 'Note'], [['Lovelace, Ada', 'said "hi"'], ['=SUM(A1)', '-5'], ['-x', '@me']])).toBe(
      'Name,Note\r\n"Lovelace, Ada","said ""hi"""\r\n"\'=SUM(A1)",-5\r\n"\'-x","\'@me"',
    );
  });
});
