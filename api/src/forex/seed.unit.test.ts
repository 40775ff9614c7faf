import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DATA_DIR } from '../reference/files.js';
import { ecbRates } from './seed.js';

/** The shipped ECB history counted by splitting its lines: the rates of each day after `after`. */
function countedByHand(after: string | null): number {
  const [header, ...lines] = readFileSync(path.join(REFERENCE_DATA_DIR, 'eurofxref-hist.csv'), 'utf8').trim().split('\n');
  const currencies = (header ?? '').split(',');
  let count = 0;
  for (const line of lines) {
    const cells = line.split(',');
    if (after && (cells[0] ?? '') <= after) continue;
    cells.forEach((cell, i) => {
      if (/^[A-Z]{3}$/.test(currencies[i] ?? '') && Number(cell) > 0) count++;
    });
  }
  return count;
}

describe('the shipped ECB rate history', () => {
  it('gives every published rate on a first start, and only the newer days later', async () => {
    const all = await ecbRates(null);
    expect(all.length).toBe(countedByHand(null));
    expect(all.find((row) => row.currency === 'USD' && row.rate_date === '2025-05-09')?.rate).toBe(1.1252);
    const newer = await ecbRates('2025-04-30');
    expect(newer.length).toBe(countedByHand('2025-04-30'));
    expect(newer.length).toBeGreaterThan(0);
    expect(newer.every((row) => row.rate_date > '2025-04-30')).toBe(true);
    const newest = all.reduce((latest, row) => (row.rate_date > latest ? row.rate_date : latest), '');
    expect(await ecbRates(newest)).toEqual([]);
  });
});
