import { describe, expect, it } from 'vitest';
import { addMonths, deadlines, nextNoticeRun } from './dates.js';

describe('the calendar of a request', () => {
  it('is due two months after filing, on the same day or the month’s last, and reminds 14 days before', () => {
    // 15 March + 2 months = 15 May; 15 May − 14 days = 1 May.
    expect(deadlines('2026-03-15')).toEqual({ dueOn: '2026-05-15', reminderOn: '2026-05-01' });
    // 31 December 2026 + 2 months: February 2027 has 28 days → 28 February; − 14 days = 14 February.
    expect(deadlines('2026-12-31')).toEqual({ dueOn: '2027-02-28', reminderOn: '2027-02-14' });
    // 2028 is a leap year: 31 December 2027 → 29 February 2028; − 14 days = 15 February.
    expect(deadlines('2027-12-31')).toEqual({ dueOn: '2028-02-29', reminderOn: '2028-02-15' });
    // 31 July + 2 months: September has 30 days → 30 September; − 14 days = 16 September.
    expect(deadlines('2026-07-31')).toEqual({ dueOn: '2026-09-30', reminderOn: '2026-09-16' });
    expect(addMonths('2026-11-30', 2)).toBe('2027-01-30');
  });

  it('sends the yearly notice on the next 15 January at 08:00 UTC', () => {
    expect(nextNoticeRun(new Date('2026-12-06T10:00:00Z'))).toBe('2027-01-15T08:00:00.000Z');
    expect(nextNoticeRun(new Date('2027-01-15T07:59:59Z'))).toBe('2027-01-15T08:00:00.000Z');
    expect(nextNoticeRun(new Date('2027-01-15T08:00:00Z'))).toBe('2028-01-15T08:00:00.000Z');
  });
});
