import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';
import { type CompensationRecordRow, insertRecords } from './store.js';

/*
 * The people side of closing a merit cycle (api/src/meritCycles/close.ts): the new base salaries,
 * dated the cycle's effective date, written into the pay history in the caller's transaction. Writing
 * is idempotent: a base salary already recorded for that employee and day with the same amount and
 * currency counts as written (closing again writes nothing twice); a different one is a conflict the
 * caller reports, never overwritten.
 */

export interface MeritPayChange {
  employeeId: string;
  /** The new annual base, minor units of `currency`. */
  amount: number;
  currency: string;
  effectiveDate: string;
  reason: 'merit' | 'promotion';
}

export interface MeritPayConflict {
  employeeId: string;
  existing: { amount: number; currency: string };
  wanted: { amount: number; currency: string };
}

export interface MeritPayResult {
  written: number;
  /** Already recorded exactly so (an earlier close). */
  unchanged: number;
  /** Employees no longer in people data. */
  gone: number;
  conflicts: MeritPayConflict[];
  /** The records written, for the caller's audit entries. */
  records: { recordId: string; employeeId: string; amount: number; currency: string; reason: string }[];
}

const CHUNK = 500;

/**
 * Writes the changes, all or nothing, with `trx`: nothing is written when any change conflicts with
 * a record already there (the caller rolls back and reports them). The caller audits the records
 * written (a cycle's close writes thousands: its audit entries list them in batches).
 */
export async function writeMeritCyclePay(trx: Knex, scope: CompanyScope, changes: readonly MeritPayChange[]): Promise<MeritPayResult> {
  const result: MeritPayResult = { written: 0, unchanged: 0, gone: 0, conflicts: [], records: [] };
  const ids = changes.map((change) => change.employeeId);
  const present = new Set<string>();
  const existing = new Map<string, { amount: number; currency: string }>();
  const days = [...new Set(changes.map((change) => change.effectiveDate))];
  for (let at = 0; at < ids.length; at += CHUNK) {
    const slice = ids.slice(at, at + CHUNK);
    const employees = (await trx('employees').where({ company_id: scope.companyId }).whereIn('id', slice).select('id')) as { id: string }[];
    for (const row of employees) present.add(row.id);
    const records = (await trx('compensation_records')
      .where({ company_id: scope.companyId, type: 'base_salary' })
      .whereIn('effective_date', days)
      .whereIn('employee_id', slice)
      .select('employee_id', 'effective_date', 'amount', 'currency')) as { employee_id: string; effective_date: string; amount: number | string; currency: string }[];
    for (const row of records) existing.set(`${row.employee_id}|${row.effective_date}`, { amount: Number(row.amount), currency: row.currency });
  }
  const now = new Date().toISOString();
  const rows: CompensationRecordRow[] = [];
  for (const change of changes) {
    if (!present.has(change.employeeId)) {
      result.gone += 1;
      continue;
    }
    const there = existing.get(`${change.employeeId}|${change.effectiveDate}`);
    if (there) {
      if (there.amount === change.amount && there.currency === change.currency) result.unchanged += 1;
      else result.conflicts.push({ employeeId: change.employeeId, existing: there, wanted: { amount: change.amount, currency: change.currency } });
      continue;
    }
    rows.push({
      id: newId(),
      company_id: scope.companyId,
      employee_id: change.employeeId,
      type: 'base_salary',
      amount: change.amount,
      currency: change.currency,
      percent_of_base_bp: null,
      effective_date: change.effectiveDate,
      reason: change.reason,
      source: 'merit_cycle',
      version: 1,
      created_at: now,
      updated_at: now,
    });
  }
  if (result.conflicts.length) return result;
  await insertRecords(trx, rows);
  result.written = rows.length;
  result.records = rows.map((row) => ({ recordId: row.id, employeeId: row.employee_id, amount: row.amount, currency: row.currency, reason: row.reason ?? 'merit' }));
  return result;
}
