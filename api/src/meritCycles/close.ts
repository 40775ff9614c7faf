import type { Knex } from 'knex';
import type { Caller, CompanyScope } from '../access/caller.js';
import { HttpError } from '../kernel/errors.js';
import { type MeritPayChange, type MeritRefresh, writeMeritCycleGrants, writeMeritCyclePay } from '../people/meritCyclePay.js';
import { emit } from '../platform/events.js';
import { type CycleRow, listWorksheets, rowsOf, sumsOf } from './store.js';
import { MERIT_CYCLE_SUBJECT } from './workflow.js';

const AUDIT_BATCH = 500;

/*
 * Closing an approved cycle: every worksheet that plans someone must be approved. Each eligible
 * employee whose base changes gets a base-salary record effective on the cycle's effective date, each
 * lump sum a one-off bonus record on that day, and each equity refresh an RSU grant dated that day,
 * all written by the people module in the closing transaction (all or nothing). Closing is
 * idempotent: the workflow refuses a second close, and the writers count a record or grant already
 * there with the same amount as written, so nothing is ever written twice.
 */

interface ClosingRow {
  employee_id: string;
  first_name: string;
  last_name: string;
  currency: string;
  current_base: number | string | null;
  merit_amount: number | string;
  promotion_amount: number | string | null;
  lump_sum_amount: number | string | null;
  equity_refresh_amount: number | string | null;
  equity_adjustment_amount: number | string | null;
}

export async function closeCycle(trx: Knex, scope: CompanyScope, caller: Caller, cycle: CycleRow): Promise<Partial<CycleRow>> {
  const worksheets = await listWorksheets(trx, scope, cycle.id);
  const open = worksheets.filter((worksheet) => worksheet.state !== 'approved' && worksheet.state !== 'pulled_up' && sumsOf(worksheet).eligible > 0);
  if (open.length) {
    const named = open.slice(0, 5).map((worksheet) => `${worksheet.planner_name ? `${worksheet.planner_name}’s` : 'the top-level'} (${worksheet.state.replace(/_/g, ' ')})`);
    throw new HttpError(409, 'worksheets_not_approved', {
      message: `A cycle closes once every worksheet is approved; ${open.length} ${open.length === 1 ? 'is' : 'are'} not: ${named.join(', ')}${open.length > 5 ? ', …' : ''}.`,
    });
  }
  const rows = (await rowsOf(trx, scope)
    .where({ cycle_id: cycle.id, eligibility: 'eligible' })
    .select('employee_id', 'first_name', 'last_name', 'currency', 'current_base', 'merit_amount', 'promotion_amount', 'lump_sum_amount', 'equity_refresh_amount', 'equity_adjustment_amount')) as ClosingRow[];
  const names = new Map(rows.map((row) => [row.employee_id, `${row.first_name} ${row.last_name}`.trim()]));
  const changes: MeritPayChange[] = [];
  const refreshes: MeritRefresh[] = [];
  for (const row of rows) {
    const lumpSum = Number(row.lump_sum_amount ?? 0);
    if (lumpSum > 0) changes.push({ employeeId: row.employee_id, type: 'one_off_bonus', amount: lumpSum, currency: row.currency, effectiveDate: cycle.effective_date, reason: 'merit' });
    const refresh = Number(row.equity_refresh_amount ?? 0);
    if (refresh > 0) refreshes.push({ employeeId: row.employee_id, amount: refresh, currency: row.currency, grantDate: cycle.effective_date });
    if (row.current_base === null) continue;
    const promotion = Number(row.promotion_amount ?? 0);
    const increase = Number(row.merit_amount) + promotion + Number(row.equity_adjustment_amount ?? 0);
    if (increase === 0) continue;
    changes.push({ employeeId: row.employee_id, type: 'base_salary', amount: Number(row.current_base) + increase, currency: row.currency, effectiveDate: cycle.effective_date, reason: promotion > 0 ? 'promotion' : 'merit' });
  }
  const result = await writeMeritCyclePay(trx, scope, changes);
  if (result.conflicts.length) {
    const named = result.conflicts.slice(0, 5).map((conflict) => `${names.get(conflict.employeeId) ?? conflict.employeeId} (${conflict.existing.amount} ${conflict.existing.currency} recorded, ${conflict.wanted.amount} ${conflict.wanted.currency} planned)`);
    throw new HttpError(409, 'pay_record_exists', {
      message: `${result.conflicts.length} ${result.conflicts.length === 1 ? 'employee already has' : 'employees already have'} a different ${[...new Set(result.conflicts.map((conflict) => (conflict.type === 'one_off_bonus' ? 'one-off bonus' : 'base salary')))].join(' or ')} recorded for ${cycle.effective_date}: ${named.join(', ')}${result.conflicts.length > 5 ? ', …' : ''}. Nothing was written; correct those records or the plan, then close again.`,
    });
  }
  const granted = await writeMeritCycleGrants(trx, scope, refreshes);
  if (granted.refused) throw new HttpError(409, 'equity_refresh_not_granted', { message: `${granted.refused} Nothing was written.` });
  if (granted.conflicts.length) {
    const named = granted.conflicts.slice(0, 5).map((conflict) => `${names.get(conflict.employeeId) ?? conflict.employeeId} (${conflict.existingShares} shares granted, ${conflict.wantedShares} planned)`);
    throw new HttpError(409, 'equity_refresh_not_granted', {
      message: `${granted.conflicts.length} ${granted.conflicts.length === 1 ? 'employee already has' : 'employees already have'} a different refresh grant of a cycle on ${cycle.effective_date}: ${named.join(', ')}${granted.conflicts.length > 5 ? ', …' : ''}. Nothing was written.`,
    });
  }
  // Every pay record and grant written is in the audit log: one entry per type and 500, listing each.
  for (const type of ['base_salary', 'one_off_bonus'] as const) {
    const records = result.records.filter((record) => record.type === type).map(({ type: _type, ...record }) => record);
    for (let at = 0; at < records.length; at += AUDIT_BATCH) {
      await emit(trx, {
        name: 'meritCycle.payWritten',
        companyId: scope.companyId,
        actorUserId: caller.userId,
        subjectType: MERIT_CYCLE_SUBJECT,
        subjectId: cycle.id,
        payload: { meritCycleId: cycle.id, effectiveDate: cycle.effective_date, type, records: records.slice(at, at + AUDIT_BATCH) },
      });
    }
  }
  for (let at = 0; at < granted.grants.length; at += AUDIT_BATCH) {
    await emit(trx, {
      name: 'meritCycle.equityGranted',
      companyId: scope.companyId,
      actorUserId: caller.userId,
      subjectType: MERIT_CYCLE_SUBJECT,
      subjectId: cycle.id,
      payload: { meritCycleId: cycle.id, grantDate: cycle.effective_date, grants: granted.grants.slice(at, at + AUDIT_BATCH) },
    });
  }
  return { closed_at: new Date().toISOString(), pay_records_written: result.written + result.unchanged };
}
