import { describe, expect, it } from 'vitest';
import { HIDDEN_WITH_SMALL, TOO_FEW, hiddenGroups, scoreSummary } from './results.js';

const group = (key: string, respondents: number) => ({ key, label: key, audience: respondents + 2, respondents });

describe('which groups of a breakdown are hidden', () => {
  it('shows every group of 5 or more when nothing is hidden', () => {
    expect([...hiddenGroups([group('a', 5), group('b', 9)])]).toEqual([]);
  });

  it('hides groups under 5, and with 1–4 hidden answers also the smallest shown group', () => {
    expect(Object.fromEntries(hiddenGroups([group('a', 2), group('b', 7), group('c', 6)]))).toEqual({ a: TOO_FEW, c: HIDDEN_WITH_SMALL });
  });

  it('keeps hiding shown groups until the hidden ones hold at least 5 answers', () => {
    expect(Object.fromEntries(hiddenGroups([group('a', 1), group('b', 0), group('c', 9)]))).toEqual({ a: TOO_FEW, b: TOO_FEW, c: HIDDEN_WITH_SMALL });
  });

  it('needs no second group when the hidden ones already hold 5 or none', () => {
    expect(Object.fromEntries(hiddenGroups([group('a', 3), group('b', 2), group('c', 8)]))).toEqual({ a: TOO_FEW, b: TOO_FEW });
    expect(Object.fromEntries(hiddenGroups([group('a', 0), group('c', 8)]))).toEqual({ a: TOO_FEW });
  });
});

describe('a question in a group', () => {
  it('averages its counts to two decimals', () => {
    const tally = (score: number, answers: number) => ({ question_id: 'q', dimension: 'all' as const, group_key: '', score, answers });
    // Scores 1, 4, 4, 5, 5, 5: 24 / 6 = 4; and 2, 3, 3: 8 / 3 = 2.67
    expect(scoreSummary('q', [tally(1, 1), tally(4, 2), tally(5, 3)])).toEqual({ questionId: 'q', average: 4, distribution: [1, 0, 0, 2, 3] });
    expect(scoreSummary('q', [tally(2, 1), tally(3, 2)]).average).toBe(2.67);
  });
});
