import { describe, expect, it } from 'vitest';
import { endOfMonth, monthsBetween } from './months.js';

describe("the equity chart's months", () => {
  it('lists months and their last days', () => {
    expect(monthsBetween('2024-11', '2025-02')).toEqual(['2024-11', '2024-12', '2025-01', '2025-02']);
    expect(endOfMonth('2024-02')).toBe('2024-02-29');
  });
});
