import { describe, expect, it } from 'vitest';
import { parseWholeNumber } from './cells.js';
import { type CellProblem, LineProblems, tableRows } from './rows.js';
import type { SourceTable } from './table.js';

const table: SourceTable = {
  columns: ['Code', 'Count', 'Label'],
  rows: [
    { line: 2, values: ['A1', '12', " '=SUM(1) "] },
    { line: 3, values: ['A2', 'many', ''] },
  ],
  rowCount: 2,
};

describe('rows read through a mapping', () => {
  it('gives undefined for an unmapped field, null for an empty or wrong cell, and reports a wrong one with its line and column', () => {
    const problems = new LineProblems<CellProblem<'code' | 'count' | 'label' | 'level'>>();
    const rows = tableRows<'code' | 'count' | 'label' | 'level'>(table, { code: 'Code', count: 'Count', label: 'Label' }, { report: (problem) => problems.add(problem) });
    const [first, second] = rows;
    expect(first?.parse('count', (text) => parseWholeNumber(text, 0, 100))).toBe(12);
    expect(first?.cell('level')).toBeUndefined();
    expect(first?.text('level')).toBeUndefined();
    expect(second?.parse('count', (text) => parseWholeNumber(text, 0, 100))).toBeNull();
    expect(second?.text('label')).toBeNull();
    expect(first?.text('code', 1)).toBeNull();
    expect(problems.count).toBe(2);
    // Handed back in file order, whatever order they were found in.
    expect(problems.first()).toEqual([
      { line: 2, column: 'Code', field: 'code', message: 'is longer than 1 characters' },
      { line: 3, column: 'Count', field: 'count', message: '"many" is not a whole number' },
    ]);
  });

  it('tidies cells when asked: trimmed, and our own export’s apostrophe before a formula taken off', () => {
    const plain = tableRows<'label'>(table, { label: 'Label' }, { report: () => undefined });
    const tidy = tableRows<'label'>(table, { label: 'Label' }, { report: () => undefined, tidy: true });
    expect(plain[0]?.cell('label')).toBe(" '=SUM(1) ");
    expect(tidy[0]?.cell('label')).toBe('=SUM(1)');
  });

  it('keeps every problem but hands back at most the limit', () => {
    const problems = new LineProblems<{ line: number }>();
    for (const line of [9, 4, 7]) problems.add({ line });
    expect(problems.count).toBe(3);
    expect(problems.first(2)).toEqual([{ line: 4 }, { line: 7 }]);
  });
});
