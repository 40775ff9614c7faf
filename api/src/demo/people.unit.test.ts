import { describe, expect, it } from 'vitest';
import { generateDemoPeople } from './people.js';

const users = new Map([
  ['admin@acme.test', 'u-admin'],
  ['manager@acme.test', 'u-manager'],
  ['employee@acme.test', 'u-employee'],
  ['planner@acme.test', 'u-planner'],
  ['analyst@acme.test', 'u-analyst'],
]);

/** The generated people with ids replaced by employee numbers, so two runs can be compared. */
function portable(today: string) {
  const people = generateDemoPeople('company', users, today);
  const numberOf = new Map(people.employees.map((row) => [row.id, row.employee_number]));
  return {
    employees: people.employees.map(({ id, created_at, updated_at, ...row }) => ({ ...row, manager_id: row.manager_id ? numberOf.get(row.manager_id) : null, id: numberOf.get(id), created_at, updated_at })),
    records: people.records.map(({ id: _id, employee_id, ...row }) => ({ ...row, employee: numberOf.get(employee_id) })),
    grants: people.grants.map(({ id: _id, employee_id, ...row }) => ({ ...row, employee: numberOf.get(employee_id) })),
  };
}

describe('the demo people', () => {
  it('are the same people every time for the same day', () => {
    expect(portable('2025-06-01')).toEqual(portable('2025-06-01'));
  });

  it('link every demo sign-in but the internal admin and the candidate to an employee', () => {
    const people = generateDemoPeople('company', users, '2025-06-01');
    const linked = new Map(people.employees.filter((row) => row.user_id).map((row) => [row.user_id, row]));
    expect([...linked.keys()].sort()).toEqual(['u-admin', 'u-analyst', 'u-employee', 'u-manager', 'u-planner']);
    const manager = linked.get('u-manager');
    const reports = people.employees.filter((row) => row.manager_id === manager?.id);
    expect(reports).toHaveLength(8);
    expect(reports.map((row) => row.user_id)).toContain('u-employee');
    expect(people.candidates.map((row) => row.email)).toEqual(['candidate@example.test']);
  });

  it('keep pay history, grants and references inside the company they were made for', () => {
    const people = generateDemoPeople('company', users, '2025-06-01');
    const ids = new Set(people.employees.map((row) => row.id));
    expect(people.employees.every((row) => row.manager_id === null || ids.has(row.manager_id))).toBe(true);
    expect(people.records.every((row) => ids.has(row.employee_id) && row.effective_date <= '2025-06-01')).toBe(true);
    expect(people.grants.every((row) => ids.has(row.employee_id))).toBe(true);
    expect(new Set(people.grants.map((row) => row.grant_number)).size).toBe(people.grants.length);
    expect(new Set(people.employees.map((row) => row.email)).size).toBe(people.employees.length);
    // Each employee's first base salary is their hire, on their start date.
    for (const employee of people.employees) {
      const first = people.records.filter((row) => row.employee_id === employee.id && row.type === 'base_salary').sort((a, b) => a.effective_date.localeCompare(b.effective_date))[0];
      expect(first).toMatchObject({ reason: 'hire', effective_date: employee.start_date });
    }
  });
});
