import { describe, expect, it } from 'vitest';
import { parseJsonPaced } from './pacedJson.js';
import { CountingPacer } from './test/countingPacer.js';

const rows = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ employeeId: String(i), startDate: '2026-01-01', rate: `${60_000 + i}.00 USD`, note: i % 7 === 0 ? 'a "quoted", [bracketed] {braced} \\ note' : null, nested: { list: [i, { deep: [i] }] } }));

describe('parseJsonPaced', () => {
  it('gives what JSON.parse gives for a large array, an object holding large arrays, and small text', async () => {
    const samples = [rows(5_000), { title: 'Report', fields: [{ id: 'a' }], employees: rows(4_000), more: rows(3_000), empty: [], count: 3 }, { small: [1, 2] }, [], {}, '  [1, 2, 3]  ', 42, 'text'];
    for (const sample of samples) {
      const text = typeof sample === 'string' && sample.trim().startsWith('[') ? sample : JSON.stringify(sample, null, sample === samples[1] ? 1 : 0);
      expect(await parseJsonPaced(text)).toEqual(JSON.parse(text));
    }
  });

  it('hands the event loop back between slices of a large answer', async () => {
    const pacer = new CountingPacer();
    const parsed = (await parseJsonPaced(JSON.stringify({ employees: rows(5_000) }), pacer)) as { employees: unknown[] };
    expect(parsed.employees).toHaveLength(5_000);
    expect(pacer.pauses).toBeGreaterThan(10);
    expect(pacer.turns()).toBeGreaterThan(0);
  });

  it('refuses what JSON.parse refuses', async () => {
    const big = JSON.stringify(rows(3_000));
    const broken = [`${big.slice(0, -1)},]`, `${big.slice(0, -1)},,${big.slice(1)}`, `${big} x`, `${big.slice(0, -1)}}`, `{"a":${big},}`, `{a:${big}}`, `{"a":${big.slice(0, -1)}}}`, big.slice(0, -1), `{"a" ${big}}`];
    for (const text of broken) {
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      await expect(parseJsonPaced(text)).rejects.toThrow(SyntaxError);
    }
  });

  it('keeps a key named __proto__ as an own property, as JSON.parse does', async () => {
    const text = JSON.stringify({ list: rows(3_000) }).replace(/^\{/, '{"__proto__":{"polluted":true},');
    const parsed = (await parseJsonPaced(text)) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['__proto__', 'list']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
