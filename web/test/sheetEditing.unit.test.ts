import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toMinor } from '../src/ui/format.js';
import {
  type CellWrite,
  type EditHistory,
  applyWrites,
  cellKey,
  clipboardBlock,
  emptyHistory,
  fillDownTargets,
  inRange,
  parseHtmlTable,
  parseTsv,
  pasteTargets,
  rangeBetween,
  rangeCells,
  recordEdit,
  redoEdit,
  sortTargets,
  toHtmlTable,
  toTsv,
  undoEdit,
} from '../src/ui/sheet/sheetEditing.js';

describe('the clipboard of a spreadsheet', () => {
  it('reads tab-separated rows as Excel writes them, with a final line break and CRLF', () => {
    expect(parseTsv('1\t2\r\n3\t4\r\n')).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(parseTsv('a\tb\nc\td')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    // An empty cell between two tabs, and an empty last cell, stay cells.
    expect(parseTsv('1\t\t3\n4\t5\t\n')).toEqual([
      ['1', '', '3'],
      ['4', '5', ''],
    ]);
  });

  it('reads a quoted cell with a line break, a tab and doubled quotes as one cell', () => {
    expect(parseTsv('"two\nlines"\t"a\tb"\n"say ""hi"""\tx\n')).toEqual([
      ['two\nlines', 'a\tb'],
      ['say "hi"', 'x'],
    ]);
  });

  it('writes cells back as TSV that reads the same', () => {
    const cells = [
      ['5,000', 'two\nlines'],
      ['say "hi"', ''],
    ];
    expect(toTsv(cells)).toBe('5,000\t"two\nlines"\n"say ""hi"""\t');
    expect(parseTsv(toTsv(cells))).toEqual(cells);
  });

  it('reads the first table of HTML (Google Sheets without plain text), entities decoded', () => {
    const html = '<meta charset="utf-8"><google-sheets-html-origin><table><tbody><tr><td>1&nbsp;000</td><td>R&amp;D</td></tr><tr><td colspan="2">wide</td></tr></tbody></table>';
    expect(parseHtmlTable(html)).toEqual([
      ['1 000', 'R&D'],
      ['wide', ''],
    ]);
    expect(parseHtmlTable('<p>no table</p>')).toBeNull();
    // Plain text wins when both are there; HTML is the fall-back.
    expect(clipboardBlock('9\t8', html)).toEqual([['9', '8']]);
    expect(clipboardBlock('', html)[0]).toEqual(['1 000', 'R&D']);
    expect(parseHtmlTable(toHtmlTable([['<b>', 'x']]))).toEqual([['<b>', 'x']]);
  });
});

describe('where a paste and a fill land', () => {
  const size = { rows: 10, cols: 6 };

  it('pastes a 3×2 block at the selected cell, with one bad cell refused and the five others applied', () => {
    // Three people × (merit amount, promotion), in dollars; "12k" is not an amount.
    const block = parseTsv('2500\t1000\n12k\t0\n3,000.50\t$750\n');
    const targets = pasteTargets(block, rangeBetween({ row: 4, col: 2 }, { row: 4, col: 2 }), size);
    expect(targets).toEqual([
      { row: 4, col: 2, text: '2500' },
      { row: 4, col: 3, text: '1000' },
      { row: 5, col: 2, text: '12k' },
      { row: 5, col: 3, text: '0' },
      { row: 6, col: 2, text: '3,000.50' },
      { row: 6, col: 3, text: '$750' },
    ]);
    // The money module's parsing (USD: 2 decimals): 2500 → 250000 cents, 3,000.50 → 300050, $750 → 75000.
    const { accepted, rejected } = sortTargets(targets, (cell) => (toMinor(cell.text, 'USD') === null ? 'Type an amount in USD, e.g. 2500.' : null));
    expect(rejected).toEqual([{ cell: { row: 5, col: 2, text: '12k' }, problem: 'Type an amount in USD, e.g. 2500.' }]);
    expect(accepted.map((cell) => toMinor(cell.text, 'USD'))).toEqual([250_000, 100_000, 0, 300_050, 75_000]);
  });

  it('repeats a block over a selection a whole number of blocks high, and stops at the edge', () => {
    // One value into six selected rows of one column: six cells.
    expect(pasteTargets([['7']], rangeBetween({ row: 1, col: 1 }, { row: 6, col: 1 }), size)).toHaveLength(6);
    // Two rows into five selected rows (not a multiple): the block's own two rows.
    expect(pasteTargets([['1'], ['2']], rangeBetween({ row: 0, col: 0 }, { row: 4, col: 0 }), size).map((cell) => cell.row)).toEqual([0, 1]);
    // Three rows pasted at row 8 of 10: rows 8 and 9 only.
    expect(pasteTargets([['1'], ['2'], ['3']], rangeBetween({ row: 8, col: 5 }, { row: 8, col: 5 }), size)).toEqual([
      { row: 8, col: 5, text: '1' },
      { row: 9, col: 5, text: '2' },
    ]);
  });

  it('fills each selected column down from its top cell', () => {
    const grid = [
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
    ];
    const textAt = (row: number, col: number) => grid[row]?.[col] ?? '';
    const selection = rangeBetween({ row: 2, col: 1 }, { row: 0, col: 0 });
    expect(selection).toEqual({ top: 0, left: 0, bottom: 2, right: 1 });
    expect(inRange(selection, 1, 1)).toBe(true);
    expect(fillDownTargets(selection, textAt)).toEqual([
      { row: 1, col: 0, text: 'a' },
      { row: 2, col: 0, text: 'a' },
      { row: 1, col: 1, text: '1' },
      { row: 2, col: 1, text: '1' },
    ]);
    expect(toTsv(rangeCells(selection, textAt))).toBe('a\t1\nb\t2\nc\t3');
  });
});

describe('undo and redo', () => {
  const write = (row: string, before: string, after: string): CellWrite => ({ row, col: 'x', before, after });

  it('undoes a whole paste as one change, redoes it, and a new edit drops what could be redone', () => {
    let cells = new Map([
      [cellKey('a', 'x'), '1'],
      [cellKey('b', 'x'), '2'],
    ]);
    let history: EditHistory = emptyHistory();
    // A paste of two cells, then a typed cell.
    history = recordEdit(history, { label: 'Paste', cells: [write('a', '1', '10'), write('b', '2', '20')] });
    cells = applyWrites(cells, [
      { row: 'a', col: 'x', text: '10' },
      { row: 'b', col: 'x', text: '20' },
    ]);
    history = recordEdit(history, { label: 'Typing', cells: [write('a', '10', '11')] });
    cells = applyWrites(cells, [{ row: 'a', col: 'x', text: '11' }]);

    const first = undoEdit(history);
    expect(first?.entry.label).toBe('Typing');
    cells = applyWrites(cells, first?.writes ?? []);
    expect([...cells.values()]).toEqual(['10', '20']);
    const second = undoEdit(first?.history ?? history);
    expect(second?.entry.label).toBe('Paste');
    cells = applyWrites(cells, second?.writes ?? []);
    expect([...cells.values()]).toEqual(['1', '2']);
    expect(undoEdit(second?.history ?? history)).toBeNull();

    const again = redoEdit(second?.history ?? history);
    cells = applyWrites(cells, again?.writes ?? []);
    expect([...cells.values()]).toEqual(['10', '20']);
    // A new edit now: "Typing" can no longer be redone.
    const after = recordEdit(again?.history ?? history, { label: 'Fill down', cells: [write('b', '20', '10')] });
    expect(after.undone).toEqual([]);
    expect(after.done.map((entry) => entry.label)).toEqual(['Paste', 'Fill down']);
  });

  it('puts a cell written twice in one change back to its first text', () => {
    const history = recordEdit(emptyHistory(), { label: 'Paste', cells: [write('a', '1', '2'), write('a', '2', '3')] });
    const undone = undoEdit(history);
    expect(applyWrites(new Map([[cellKey('a', 'x'), '3']]), undone?.writes ?? []).get(cellKey('a', 'x'))).toBe('1');
  });

  it('records nothing for a change that changes nothing', () => {
    expect(recordEdit(emptyHistory(), { label: 'Paste', cells: [write('a', '1', '1')] }).done).toEqual([]);
  });

  it('returns to the original cells after undoing everything, whatever the edits, undos and redos', () => {
    const rows = ['r0', 'r1', 'r2', 'r3'];
    const cols = ['c0', 'c1', 'c2'];
    const step = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), cells: fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 6 }) }),
      fc.record({ kind: fc.constant('undo' as const) }),
      fc.record({ kind: fc.constant('redo' as const) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const original = new Map(rows.flatMap((row) => cols.map((col) => [cellKey(row, col), `${row}${col}`] as const)));
        let cells = new Map(original);
        let history: EditHistory = emptyHistory();
        for (const entry of steps) {
          if (entry.kind === 'edit') {
            // Each write reads the cell's text as it is when written (a cell may appear twice in one change).
            const writes: CellWrite[] = [];
            for (const [r, c, text] of entry.cells) {
              const row = rows[r] as string;
              const col = cols[c] as string;
              writes.push({ row, col, before: cells.get(cellKey(row, col)) ?? '', after: text });
              cells.set(cellKey(row, col), text);
            }
            history = recordEdit(history, { label: 'edit', cells: writes });
          } else {
            const move = entry.kind === 'undo' ? undoEdit(history) : redoEdit(history);
            if (move) {
              cells = applyWrites(cells, move.writes);
              history = move.history;
            }
          }
        }
        for (let move = undoEdit(history); move; move = undoEdit(history)) {
          cells = applyWrites(cells, move.writes);
          history = move.history;
        }
        expect(cells).toEqual(original);
      }),
      { numRuns: 300 },
    );
  });
});
