import type { Knex } from 'knex';

/*
 * Pay in force on a day — the one rule every reader of pay uses: for each employee and kind of
 * pay, the record with the latest effective date on or before that day. A record dated later is a
 * change to come, not pay in force; a terminated employee's last pay stays in force for the days
 * they were employed (readers choose whom to include, not which record counts).
 */

/**
 * The SQL condition that a record (table alias `alias`) is in force on the day bound to `?`: its
 * date is the latest on or before that day for its employee and type. Read through the unique
 * (employee_id, type, effective_date) index.
 */
export const inForceSql = (alias: string): string =>
  `${alias}.effective_date = (select max(x.effective_date) from compensation_records x where x.employee_id = ${alias}.employee_id and x.type = ${alias}.type and x.effective_date <= ?)`;

/**
 * The same rule as one value: `expression` (over alias `c`) of the record of type `typeSql` in
 * force for the employee `employeeIdSql` on the day bound to `?` (a sort key per row; the latest
 * record by the index, then `limit 1`, is the cheapest plan on both engines).
 */
export const valueInForceSql = (expression: string, employeeIdSql: string, typeSql: string): string =>
  `(select ${expression} from compensation_records c where c.employee_id = ${employeeIdSql} and c.type = ${typeSql} and c.effective_date <= ? order by c.effective_date desc limit 1)`;

/** Records in force on `day` (alias `c`); the caller adds which employees and types. */
export function recordsInForce(db: Knex, day: string): Knex.QueryBuilder {
  return db('compensation_records as c').whereRaw(inForceSql('c'), [day]);
}

/** The record of each type in force, from one employee's records sorted oldest first and cut at the day. */
export function latestByType<T extends { type: string }>(recordsOldestFirst: readonly T[]): Map<string, T> {
  const current = new Map<string, T>();
  for (const record of recordsOldestFirst) current.set(record.type, record);
  return current;
}
