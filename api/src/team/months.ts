// The months of the team view's equity chart ('YYYY-MM'). The vesting rule itself is the people
// module's (`people/vesting.ts`), so the chart and the statement always agree.

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number): string => String(n).padStart(2, '0');

/** 'YYYY-MM' of a date. */
export const monthOf = (date: string): string => date.slice(0, 7);

/** The last day of a 'YYYY-MM' month. */
export function endOfMonth(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return `${month}-${pad(daysInMonth(year ?? 1970, m ?? 1))}`;
}

/** Every month from `first` to `last` inclusive ('YYYY-MM'). */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [year = 1970, month = 1] = first.split('-').map(Number);
  const end = last;
  for (let guard = 0; guard < 1200; guard += 1) {
    const current = `${year}-${pad(month)}`;
    if (current > end) break;
    months.push(current);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return months;
}
