import type { Knex } from 'knex';
import type { Caller } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { Converter } from '../money/converter.js';
import { emit } from '../platform/events.js';
import type { Realtime } from '../realtime/server.js';
import type { CompanyScope } from '../access/caller.js';
import { activeEmployeesForMeritCycle } from './peopleReads.js';
import { EDITABLE_STATES, loadContext, requireStageOpen } from './context.js';
import { nameOf, newBaseOf, planOf } from './present.js';
import { announceEmployeesUpdate } from './realtime.js';
import { type EmployeeRowOfCycle, inTransaction, insertRowChange, listRows, rowsOf } from './store.js';
import { worksheetStateInWords } from './workflow.js';

type Money = components['schemas']['Money'];

/** One raise to plan: an amount in minor units of any currency (converted into the row's), and why. */
export interface EquityAdjustment {
  employeeId: string;
  amount: Money;
  reason: string;
}

export interface EquityAdjustmentOutcome {
  sent: { employeeId: string; name: string; amount: Money; reason: string }[];
  notSent: { employeeId: string; name: string | null; reason: string }[];
  /** Rows whose earlier adjustment this set took away. */
  removed: number;
}

const moneyText = (amount: number | null, currency: string): string | null => (amount === null ? null : `${amount} ${currency}`);

/**
 * Plans a set of pay equity adjustments in a cycle, replacing every earlier one (so the same set
 * sent twice changes nothing). Whole-company planners only. A draft keeps the set until it launches
 * (planDraftAdjustments); an active cycle must have its planning window open; `ifMatch` is the cycle's version. Each row changes at its own version,
 * with its history entry and audit event, as a hand edit does; people the cycle does not plan now
 * are returned as not sent, with the reason.
 */
export async function planEquityAdjustments(
  { db, realtime, afterCommit }: { db: Knex; realtime: Realtime | undefined; afterCommit: (task: () => Promise<unknown>) => void },
  caller: Caller,
  { cycleId, ifMatch, adjustments }: { cycleId: string; ifMatch: string; adjustments: readonly EquityAdjustment[] },
): Promise<EquityAdjustmentOutcome> {
  const version = versionOf(ifMatch);
  return inTransaction(db, async (trx) => {
    const context = await loadContext(trx, caller, cycleId);
    if (!hasPermission(caller.permissions, 'compensationPlanning', 'edit', 'all')) {
      throw new HttpError(403, 'forbidden', { message: 'Sending adjustments to a cycle needs Compensation planning edit over the whole company.' });
    }
    const state = context.cycle.state;
    if (state === 'closed' || state === 'cancelled') throw new HttpError(409, 'cycle_closed', { message: `This cycle is ${state}; it takes no more adjustments.` });
    if (state === 'draft') {
      if (Number(context.cycle.version) !== version) throw versionConflict('this cycle', Number(context.cycle.version));
      return planDraftAdjustments(trx, context.scope, caller, context.cycle.id, adjustments);
    }
    requireStageOpen(context, 'planning');
    if (Number(context.cycle.version) !== version) throw versionConflict('this cycle', Number(context.cycle.version));

    const rows = new Map((await listRows(trx, context.scope, context.cycle.id)).map((row) => [row.employee_id, row]));
    const editable = (row: EmployeeRowOfCycle): boolean => {
      const worksheet = row.worksheet_id ? context.byId.get(row.worksheet_id) : undefined;
      return worksheet !== undefined && EDITABLE_STATES.has(worksheet.state);
    };
    const outcome: EquityAdjustmentOutcome = { sent: [], notSent: [], removed: 0 };
    const wanted = new Map<string, { amount: number; reason: string }>();
    let converter: Converter | undefined;
    for (const adjustment of adjustments) {
      const row = rows.get(adjustment.employeeId);
      if (!row) {
        outcome.notSent.push({ employeeId: adjustment.employeeId, name: null, reason: 'Not in this cycle: not an active employee when it launched.' });
        continue;
      }
      const name = nameOf(row);
      if (row.eligibility !== 'eligible') {
        const reasons = JSON.parse(row.reasons) as string[];
        const why = row.excluded_reason ?? reasons.join('; ');
        outcome.notSent.push({ employeeId: row.employee_id, name, reason: `${row.eligibility === 'excluded' ? 'Excluded from' : 'Not eligible in'} this cycle${why ? `: ${why}` : ''}.` });
        continue;
      }
      if (!editable(row)) {
        const worksheet = row.worksheet_id ? context.byId.get(row.worksheet_id) : undefined;
        outcome.notSent.push({ employeeId: row.employee_id, name, reason: `On a worksheet that is ${worksheet ? worksheetStateInWords(worksheet.state) : 'missing'}; its rows are read-only.` });
        continue;
      }
      let amount = adjustment.amount.amount;
      if (adjustment.amount.currency !== row.currency) {
        converter ??= await Converter.open(trx, context.cycle.rates_as_of ?? context.cycle.effective_date, { scope: context.scope });
        const converted = await converter.convert(adjustment.amount, row.currency);
        if (!converted) {
          outcome.notSent.push({ employeeId: row.employee_id, name, reason: `No exchange rate from ${adjustment.amount.currency} to ${row.currency}.` });
          continue;
        }
        amount = converted.amount;
      }
      if (amount <= 0) continue;
      wanted.set(row.employee_id, { amount, reason: adjustment.reason });
      outcome.sent.push({ employeeId: row.employee_id, name, amount: { amount, currency: row.currency }, reason: adjustment.reason });
    }

    // Every row whose adjustment changes: new ones, changed ones, and earlier ones no longer sent.
    const now = new Date().toISOString();
    const moved: { employeeId: string; version: number }[] = [];
    const worksheetIds = new Set<string>();
    for (const row of rows.values()) {
      const next = wanted.get(row.employee_id) ?? null;
      const before = row.equity_adjustment_amount === null || row.equity_adjustment_amount === undefined ? null : Number(row.equity_adjustment_amount);
      if (next === null && before === null) continue;
      if (next && before === next.amount && row.equity_adjustment_reason === next.reason) continue;
      if (!next && !editable(row)) continue;
      if (!next) outcome.removed += 1;
      const changes = [{ field: 'equityAdjustment', from: moneyText(before, row.currency), to: moneyText(next?.amount ?? null, row.currency) }].filter((change) => change.from !== change.to);
      if (row.equity_adjustment_reason !== (next?.reason ?? null)) changes.push({ field: 'equityAdjustmentReason', from: row.equity_adjustment_reason ?? null, to: next?.reason ?? null });
      const rowVersion = await updateAtVersion(
        () => rowsOf(trx, context.scope).where({ cycle_id: context.cycle.id, employee_id: row.employee_id }),
        Number(row.version),
        { equity_adjustment_amount: next?.amount ?? null, equity_adjustment_reason: next?.reason ?? null, updated_by: caller.userId, updated_at: now },
        `${nameOf(row)}’s row`,
      );
      await insertRowChange(trx, { id: newId(), company_id: context.scope.companyId, cycle_id: context.cycle.id, employee_id: row.employee_id, worksheet_id: row.worksheet_id, row_version: rowVersion, actor_user_id: caller.userId, changes: JSON.stringify(changes), created_at: now });
      const newBase = newBaseOf({ ...planOf(row), equityAdjustment: next?.amount ?? null });
      await emit(trx, {
        name: 'meritCycle.employeePlanned',
        companyId: context.scope.companyId,
        actorUserId: caller.userId,
        subjectType: 'employee',
        subjectId: row.employee_id,
        payload: { meritCycleId: context.cycle.id, worksheetId: row.worksheet_id ?? '', rowVersion, changes, newBase: newBase === null ? null : { amount: newBase, currency: row.currency } },
      });
      moved.push({ employeeId: row.employee_id, version: rowVersion });
      if (row.worksheet_id) worksheetIds.add(row.worksheet_id);
    }
    if (moved.length) {
      await announceEmployeesUpdate(trx, context.scope, realtime, afterCommit, { meritCycleId: context.cycle.id, worksheetIds: [...worksheetIds], employees: moved, actorUserId: caller.userId, originSocketId: null, reason: 'edited' });
    }
    return outcome;
  });
}

interface DraftAdjustmentRow {
  id: string;
  company_id: string;
  cycle_id: string;
  employee_id: string;
  amount: number | string;
  currency: string;
  reason: string;
  created_by: string | null;
  created_at: string | Date;
}

const draftAdjustments = (db: Knex, scope: CompanyScope) => db<DraftAdjustmentRow>('merit_cycle_draft_equity_adjustments').where({ company_id: scope.companyId });

/**
 * A draft holds no rows yet: the set waits, replacing any earlier one, and is planned on the rows
 * when the cycle launches (applyDraftEquityAdjustments). People who are not active employees now
 * are not sent; eligibility is judged at launch, as for everyone else.
 */
async function planDraftAdjustments(trx: Knex, scope: CompanyScope, caller: Caller, cycleId: string, adjustments: readonly EquityAdjustment[]): Promise<EquityAdjustmentOutcome> {
  const employees = new Map((await activeEmployeesForMeritCycle(trx, scope)).map((employee) => [employee.id, employee]));
  const earlier = new Set((await draftAdjustments(trx, scope).where({ cycle_id: cycleId }).select('employee_id')).map((row) => row.employee_id));
  const outcome: EquityAdjustmentOutcome = { sent: [], notSent: [], removed: 0 };
  const now = new Date().toISOString();
  const rows: DraftAdjustmentRow[] = [];
  for (const adjustment of adjustments) {
    const employee = employees.get(adjustment.employeeId);
    if (!employee) {
      outcome.notSent.push({ employeeId: adjustment.employeeId, name: null, reason: 'Not an active employee: a cycle plans active employees only.' });
      continue;
    }
    if (adjustment.amount.amount <= 0) continue;
    const name = [employee.first_name, employee.last_name].filter(Boolean).join(' ');
    rows.push({ id: newId(), company_id: scope.companyId, cycle_id: cycleId, employee_id: employee.id, amount: adjustment.amount.amount, currency: adjustment.amount.currency, reason: adjustment.reason, created_by: caller.userId, created_at: now });
    outcome.sent.push({ employeeId: employee.id, name, amount: adjustment.amount, reason: adjustment.reason });
  }
  outcome.removed = [...earlier].filter((employeeId) => !rows.some((row) => row.employee_id === employeeId)).length;
  await draftAdjustments(trx, scope).where({ cycle_id: cycleId }).delete();
  for (let start = 0; start < rows.length; start += 500) await trx('merit_cycle_draft_equity_adjustments').insert(rows.slice(start, start + 500));
  return outcome;
}

/**
 * At launch, in its transaction: the adjustments sent while the cycle was a draft are planned on
 * the rows just written (converted into each row's currency at the cycle's rates), for eligible
 * people; the waiting set is then cleared. Returns how many rows took one.
 */
export async function applyDraftEquityAdjustments(trx: Knex, scope: CompanyScope, cycle: { id: string; rates_as_of?: string | null; effective_date: string }): Promise<number> {
  const waiting = await draftAdjustments(trx, scope).where({ cycle_id: cycle.id }).select('*');
  if (!waiting.length) return 0;
  const rows = new Map((await listRows(trx, scope, cycle.id)).map((row) => [row.employee_id, row]));
  const converter = await Converter.open(trx, cycle.rates_as_of ?? cycle.effective_date, { scope });
  let planned = 0;
  for (const adjustment of waiting) {
    const row = rows.get(adjustment.employee_id);
    if (!row || row.eligibility !== 'eligible') continue;
    const converted = adjustment.currency === row.currency ? { amount: Number(adjustment.amount), currency: row.currency } : await converter.convert({ amount: Number(adjustment.amount), currency: adjustment.currency }, row.currency);
    if (!converted || converted.amount <= 0) continue;
    await rowsOf(trx, scope).where({ cycle_id: cycle.id, employee_id: row.employee_id }).update({ equity_adjustment_amount: converted.amount, equity_adjustment_reason: adjustment.reason });
    planned += 1;
  }
  await draftAdjustments(trx, scope).where({ cycle_id: cycle.id }).delete();
  return planned;
}

/** The pay equity adjustments a cycle plans, per currency (minor units) with the people: a draft's waiting set, else its eligible rows'. */
export async function equityAdjustmentTotals(db: Knex, scope: CompanyScope, cycle: { id: string; state: string }): Promise<{ byCurrency: Money[]; people: number }> {
  const totals = new Map<string, number>();
  let people = 0;
  const source: { amount: number | string | null; currency: string }[] =
    cycle.state === 'draft'
      ? await draftAdjustments(db, scope).where({ cycle_id: cycle.id }).select('amount', 'currency')
      : ((await rowsOf(db, scope).where({ cycle_id: cycle.id, eligibility: 'eligible' }).whereNotNull('equity_adjustment_amount').select('equity_adjustment_amount as amount', 'currency')) as { amount: number | string | null; currency: string }[]);
  for (const entry of source) {
    const amount = Number(entry.amount ?? 0);
    if (amount <= 0) continue;
    people += 1;
    totals.set(entry.currency, (totals.get(entry.currency) ?? 0) + amount);
  }
  return { byCurrency: [...totals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount]) => ({ amount, currency })), people };
}

type BudgetReport = components['schemas']['BudgetReport'];

/**
 * The cycle budget with the pay equity adjustments counted in what is used (spent or planned) and
 * shown apart (`equityAdjustments`), converted into the cycle currency at the cycle's rates.
 */
export async function withEquityAdjustments(db: Knex, context: { scope: CompanyScope; cycle: { id: string; state: string; currency: string; rates_as_of?: string | null; effective_date: string } }, report: BudgetReport): Promise<BudgetReport> {
  const { byCurrency, people } = await equityAdjustmentTotals(db, context.scope, context.cycle);
  if (!people) return report;
  const currency = context.cycle.currency;
  const converter = await Converter.open(db, context.cycle.rates_as_of ?? context.cycle.effective_date, { scope: context.scope });
  let total = 0;
  for (const part of byCurrency) {
    const converted = part.currency === currency ? part : await converter.convert(part, currency);
    if (converted) total += converted.amount;
  }
  const used = report.total.used.amount + total;
  return {
    ...report,
    total: { ...report.total, used: { amount: used, currency }, remaining: { amount: report.total.allocated.amount - used, currency }, overBudget: used > report.total.allocated.amount },
    equityAdjustments: { total: { amount: total, currency }, people, byCurrency },
  };
}
