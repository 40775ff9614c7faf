/*
 * The calendar of a request: an answer is due within two months of the day the request is filed
 * (Article 7(4)); HR is reminded two weeks before. Dates are calendar days, 'YYYY-MM-DD', UTC.
 */

/** Days before the due date when HR is reminded. */
export const REMINDER_DAYS_BEFORE = 14;

/** The same day `months` later; a day the month does not have is its last day (31 December + 2 months = 28 or 29 February). */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date, lastDay));
  return target.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export const dayOf = (now: Date): string => now.toISOString().slice(0, 10);

/** When a request filed on `filedOn` is due, and when HR is reminded. */
export function deadlines(filedOn: string): { dueOn: string; reminderOn: string } {
  const dueOn = addMonths(filedOn, 2);
  return { dueOn, reminderOn: addDays(dueOn, -REMINDER_DAYS_BEFORE) };
}

/** The yearly notice goes out on 15 January, 08:00 UTC. */
export const NOTICE_MONTH_DAY = '01-15';

/** The next moment the yearly notice job runs after `now`. */
export function nextNoticeRun(now: Date): string {
  const thisYear = new Date(`${now.getUTCFullYear()}-${NOTICE_MONTH_DAY}T08:00:00.000Z`);
  return (thisYear.getTime() > now.getTime() ? thisYear : new Date(`${now.getUTCFullYear() + 1}-${NOTICE_MONTH_DAY}T08:00:00.000Z`)).toISOString();
}
