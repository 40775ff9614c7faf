import { describe, expect, it } from 'vitest';
import { Pacer } from '../kernel/pace.js';
import { CountingPacer } from '../kernel/test/countingPacer.js';
import { MinorUnits } from '../money/minorUnits.js';
import { type EmployeeContext, planEmployees } from './employees.js';
import { RowErrors, mappedRows } from './rows.js';

/** A vendor's pay history: `people` employees with a row per year for three years. */
function historyRows(people: number) {
  const columns = ['Employee ID', 'First name', 'Last name', 'Base salary', 'Currency', 'Effective date'];
  const rows = [];
  for (let person = 1; person <= people; person += 1) {
    for (let year = 0; year < 3; year += 1) rows.push({ line: rows.length + 2, values: [`E${person}`, `Given${person}`, `Family${person}`, String(60_000 + person + year * 1_000), 'USD', `${2024 + year}-01-01`] });
  }
  const mapping = { employeeId: 'Employee ID', firstName: 'First name', lastName: 'Last name', baseSalary: 'Base salary', currency: 'Currency', effectiveDate: 'Effective date' };
  const errors = new RowErrors();
  return { rows: mappedRows({ columns, rows, rowCount: rows.length }, mapping, errors), errors };
}

const context = (): EmployeeContext => ({
  companyId: 'company',
  companyCurrency: 'USD',
  currencies: new MinorUnits(new Map([['USD', 2]])),
  existing: [],
  history: [],
  userIdsByEmail: new Map(),
  today: '2026-12-07',
  now: '2026-12-07T00:00:00.000Z',
  source: 'integration',
});

describe('planning an employees file', () => {
  it('hands the event loop back through its pacer as it plans, and plans the same as in one go', async () => {
    const file = historyRows(2_000);
    const pacer = new CountingPacer();
    const paced = await planEmployees(file.rows, context(), false, pacer);
    // Every loop over the rows asks the pacer; one always due pauses at each of them.
    expect(pacer.pauses).toBeGreaterThan(6_000);
    expect(pacer.turns()).toBeGreaterThan(0);

    const again = historyRows(2_000);
    const whole = await planEmployees(again.rows, context(), false, new Pacer(Number.POSITIVE_INFINITY));
    expect(file.errors.count + again.errors.count).toBe(0);
    expect(paced.plan).toEqual(whole.plan);
    expect(paced.plan).toMatchObject({ create: 2_000, compensationRecords: { add: 6_000, update: 0 } });
    const shape = (writes: typeof paced.writes) => writes.compensation.map(({ id: _id, employee_id: _employee, ...record }) => record);
    expect(shape(paced.writes)).toEqual(shape(whole.writes));
  });
});
