import type { Knex } from 'knex';
import type { Caller } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { type FieldError, HttpError, badRequest, notFound, nulRefused } from '../kernel/errors.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { emit } from '../platform/events.js';
import type { Realtime } from '../realtime/server.js';
import { budgetReport, budgetTree } from './budgets.js';
import { EDITABLE_COLUMNS, type WorksheetColumn, parse } from './config.js';
import { type CycleContext, EDITABLE_STATES, ancestry, branchOf, loadContext, requireStageOpen } from './context.js';
import { basisPointsOf, median, percentOf } from './formulas.js';
import { type Plan, actorOf, nameOf, newBaseOf, planOf, presentRow } from './present.js';
import { announceEmployeesUpdate, noteViewer } from './realtime.js';
import { type EmployeeRowOfCycle, type RowChangeRow, addSums, addToSums, amountOf, findRow, insertComment, insertRowChange, isoOf, listComments, listRows, rowChanges, rowSums, rowsOf, sumColumns, sumsOf, userNames, inTransaction } from './store.js';
import { worksheetStateInWords } from './workflow.js';
import { requireWorksheet } from './worksheets.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type WorksheetEmployee = Schemas['WorksheetEmployee'];
type Edit = Schemas['WorksheetEmployeeEdit'];
type Money = Schemas['Money'];
type RowFlag = Schemas['RowFlag'];

/** A row the caller reaches (404 otherwise, as for another company's). */
function visibleRow(context: CycleContext, row: EmployeeRowOfCycle | undefined): EmployeeRowOfCycle {
  if (!row) throw notFound();
  const worksheet = row.worksheet_id ? context.byId.get(row.worksheet_id) : undefined;
  if (!context.access.seesEmployee(row.employee_id, worksheet)) throw notFound();
  return row;
}

export async function listCycleEmployees(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, worksheetId: string | undefined, mode: Schemas['PlannerMode'] | undefined): Promise<WorksheetEmployee[]> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  let rows: EmployeeRowOfCycle[];
  if (worksheetId) {
    const worksheet = requireWorksheet(context, worksheetId);
    const sheets = (mode ?? context.config.plannerMode) === 'allBelow' ? branchOf(worksheet, context.worksheets) : [worksheet];
    rows = await listRows(db, context.scope, context.cycle.id, sheets.map((sheet) => sheet.id));
  } else rows = await listRows(db, context.scope, context.cycle.id);
  await noteViewer(db, context.scope, context.cycle.id, caller.userId);
  return rows
    .filter((row) => context.access.seesEmployee(row.employee_id, row.worksheet_id ? context.byId.get(row.worksheet_id) : undefined))
    .map((row) => presentRow(row, context.money, context.modes, context.config.recommendation));
}

export async function getCycleEmployee(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, employeeId: string): Promise<WorksheetEmployee> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  const row = visibleRow(context, await findRow(db, context.scope, context.cycle.id, employeeId));
  return presentRow(row, context.money, context.modes, context.config.recommendation);
}

// ---- editing a row --------------------------------------------------------------------------------

const FIELD_COLUMN: Record<keyof Edit, WorksheetColumn | null> = {
  meritPercentBp: 'merit',
  meritAmount: 'merit',
  promotionAmount: 'promotion',
  lumpSumAmount: 'lumpSum',
  equityRefreshAmount: 'equityRefresh',
  comment: 'comment',
  reviewed: null,
};

const COMPONENT_OF: Partial<Record<WorksheetColumn, Schemas['MeritCycleComponent']>> = { promotion: 'promotion', lumpSum: 'lumpSum', equityRefresh: 'equityRefresh' };

/** What a change is called in the history and in a conflict. */
const FIELD_LABELS: Record<string, string> = { merit: 'merit', promotion: 'promotion', lumpSum: 'lump sum', equityRefresh: 'equity refresh', comment: 'comment', reviewed: 'reviewed' };

function moneyText(amount: number | null, currency: string): string | null {
  return amount === null ? null : `${amount} ${currency}`;
}

/** The guideline flags of a plan: outside min–max (prorated amounts) is a warning, or an error where the cycle enforces it. */
export function flagsOf(row: EmployeeRowOfCycle, plan: Plan, enforced: boolean): RowFlag[] {
  if (row.rec_min_bp === null || row.rec_max_bp === null || plan.base === null) return [];
  const proration = { daysEmployed: row.days_employed, daysInPeriod: row.days_in_period };
  const min = percentOf(plan.base, row.rec_min_bp, proration);
  const max = percentOf(plan.base, row.rec_max_bp, proration);
  if (plan.merit >= min && plan.merit <= max) return [];
  const pct = (bp: number) => `${(bp / 100).toFixed(2)}%`;
  return [
    {
      severity: enforced ? 'error' : 'warning',
      code: 'outside_guideline',
      message: `Merit of ${pct(basisPointsOf(plan.merit, plan.base))} is outside the guideline ${pct(row.rec_min_bp)}–${pct(row.rec_max_bp)}${row.days_employed < row.days_in_period ? ' (prorated)' : ''}.`,
    },
  ];
}

/** The 409 of a stale row edit: which fields changed since the version read, and by whom. Nothing is written. */
async function staleRow(db: Knex, context: CycleContext, row: EmployeeRowOfCycle, readVersion: number): Promise<HttpError> {
  const since = readVersion < Number(row.version) ? await rowChanges(db, context.scope, context.cycle.id, row.employee_id, readVersion) : [];
  const names = await userNames(db, context.scope, since.map((change) => change.actor_user_id));
  const byField = new Map<string, Set<string>>();
  for (const change of since) {
    for (const item of parse<{ field: string }[]>(change.changes)) {
      const who = byField.get(item.field) ?? new Set<string>();
      who.add(change.actor_user_id ? (names.get(change.actor_user_id)?.name ?? 'someone') : 'someone');
      byField.set(item.field, who);
    }
  }
  const fields = [...byField.keys()];
  const what = fields.length ? fields.map((field) => `${FIELD_LABELS[field] ?? field} (by ${[...(byField.get(field) ?? [])].join(', ')})`).join(', ') : 'the row';
  return new HttpError(409, 'version_conflict', {
    message: `Someone else changed ${nameOf(row)}’s ${what} first; your change was not saved. The row is now at version ${row.version}: reload it and try again.`,
    errors: fields.map((field) => ({ field: `row.${field}`, message: `changed since version ${readVersion}` })),
    headers: { ETag: `"${row.version}"` },
  });
}

function checkMoney(value: Money | null | undefined, row: EmployeeRowOfCycle, field: string, errors: FieldError[]): void {
  if (!value) return;
  if (value.currency !== row.currency) errors.push({ field: `body.${field}.currency`, message: `must be ${row.currency}, the employee's currency` });
  if (value.amount < 0) errors.push({ field: `body.${field}.amount`, message: 'must not be negative' });
  if (value.amount > 1e13) errors.push({ field: `body.${field}.amount`, message: 'is too large' });
}

export interface EditOutcome {
  employee: WorksheetEmployee;
  budgets: Schemas['WorksheetBudget'][];
}

/**
 * Plans one employee at the version of the row the caller read. Every refusal writes nothing. The
 * change, its history row and its audit entry commit together; the viewers of the cycle hear of it
 * after the commit.
 */
export async function editCycleEmployee(
  { db, realtime, afterCommit }: { db: Knex; realtime: Realtime | undefined; afterCommit: (task: () => Promise<unknown>) => void },
  caller: Caller,
  { cycleId, employeeId, ifMatch, edit, socketId }: { cycleId: string; employeeId: string; ifMatch: string; edit: Edit; socketId: string | undefined },
): Promise<EditOutcome> {
  const version = versionOf(ifMatch);
  if (typeof edit.comment === 'string' && edit.comment.includes('\u0000')) throw nulRefused('comment');
  return inTransaction(db, async (trx) => {
    const context = await loadContext(trx, caller, cycleId);
    const row = visibleRow(context, await findRow(trx, context.scope, context.cycle.id, employeeId));
    const worksheet = row.worksheet_id ? context.byId.get(row.worksheet_id) : undefined;
    if (!worksheet) throw notFound();
    // Who may plan this row, then whether it can be planned now, then whether what was read is current.
    if (row.user_id === caller.userId) throw new HttpError(403, 'forbidden', { message: 'Nobody plans their own pay; your manager’s worksheet holds your row.' });
    if (!context.access.plansWorksheet(worksheet, context.config.plannerMode)) {
      throw new HttpError(403, 'forbidden', { message: `${worksheet.planner_name ? `${worksheet.planner_name} plans this worksheet` : 'Whole-company planners plan this worksheet'}; you can read it but not change it.` });
    }
    requireStageOpen(context, 'planning');
    if (!EDITABLE_STATES.has(worksheet.state)) {
      throw new HttpError(409, 'worksheet_read_only', { message: `This worksheet is ${worksheetStateInWords(worksheet.state)}; its rows are read-only${worksheet.state === 'in_review' ? ' until a reviewer sends it back' : ''}.` });
    }
    if (Number(row.version) !== version) throw await staleRow(trx, context, row, version);
    if (row.eligibility !== 'eligible' && (edit.meritAmount || edit.meritPercentBp !== undefined || edit.promotionAmount || edit.lumpSumAmount || edit.equityRefreshAmount)) {
      throw new HttpError(409, 'not_eligible', { message: `${nameOf(row)} is ${row.eligibility} in this cycle${row.excluded_reason ? ` (${row.excluded_reason})` : ''}; there is nothing to plan.` });
    }

    const errors: FieldError[] = [];
    for (const key of Object.keys(edit) as (keyof Edit)[]) {
      const column = FIELD_COLUMN[key];
      if (column && context.modes[column] !== 'edit' && EDITABLE_COLUMNS.has(column)) {
        throw new HttpError(403, 'forbidden', { message: `Your role may not edit the ${FIELD_LABELS[column] ?? column} column of this cycle.` });
      }
      const component = column ? COMPONENT_OF[column] : undefined;
      if (component && !context.config.components.includes(component)) errors.push({ field: `body.${key}`, message: `is not a component of this cycle (${context.config.components.join(', ')})` });
    }
    if (edit.meritAmount && edit.meritPercentBp !== undefined) errors.push({ field: 'body.meritPercentBp', message: 'give merit as a percentage or an amount, not both' });
    checkMoney(edit.meritAmount, row, 'meritAmount', errors);
    checkMoney(edit.promotionAmount, row, 'promotionAmount', errors);
    checkMoney(edit.lumpSumAmount, row, 'lumpSumAmount', errors);
    checkMoney(edit.equityRefreshAmount, row, 'equityRefreshAmount', errors);
    if (errors.length) throw badRequest('The change cannot be made as it is.', errors);

    const before = planOf(row);
    const base = before.base ?? 0;
    const plan: Plan = {
      ...before,
      merit: edit.meritAmount ? edit.meritAmount.amount : edit.meritPercentBp !== undefined ? percentOf(base, edit.meritPercentBp) : before.merit,
      promotion: edit.promotionAmount !== undefined ? (edit.promotionAmount?.amount ?? null) : before.promotion,
      lumpSum: edit.lumpSumAmount !== undefined ? (edit.lumpSumAmount?.amount ?? null) : before.lumpSum,
      equityRefresh: edit.equityRefreshAmount !== undefined ? (edit.equityRefreshAmount?.amount ?? null) : before.equityRefresh,
    };
    const comment = edit.comment !== undefined ? edit.comment?.trim() || null : row.comment;
    const flags = flagsOf(row, plan, context.config.recommendation.guidelines.mode === 'enforced');
    // A change that leaves the row outside its guideline says why in the same edit; other edits keep the comment there.
    const amountsChanged = plan.merit !== before.merit || plan.promotion !== before.promotion || plan.lumpSum !== before.lumpSum || plan.equityRefresh !== before.equityRefresh;
    const commentGiven = typeof edit.comment === 'string' && edit.comment.trim() !== '';
    if (flags.length && context.config.recommendation.guidelines.commentRequired && (amountsChanged ? !commentGiven : !comment)) {
      throw new HttpError(400, 'comment_required', { message: `${flags[0]?.message} This cycle asks for a comment saying why.`, errors: [{ field: 'body.comment', message: 'is required outside the guideline' }] });
    }
    const spendLocal = (context.config.budget.spendComponents.includes('merit') ? plan.merit : 0) + (context.config.budget.spendComponents.includes('promotion') ? (plan.promotion ?? 0) : 0) + (context.config.budget.spendComponents.includes('lumpSum') ? (plan.lumpSum ?? 0) : 0);
    const spend = context.money.toCycle(spendLocal, row.currency) ?? 0;

    if (context.config.budget.blockOverBudget && spend > Number(row.spend_in_cycle)) {
      const tree = budgetTree(context.worksheets);
      const own = tree.own.get(worksheet.id);
      const after = (own?.used ?? 0) - Number(row.spend_in_cycle) + spend;
      if (own && after > own.allocated) {
        throw new HttpError(409, 'over_budget', { message: `This change takes ${worksheet.planner_name ? `${worksheet.planner_name}’s` : 'the'} worksheet over its budget: ${after} of ${own.allocated} ${context.cycle.currency} (minor units) allocated. This cycle does not allow going over budget.` });
      }
    }

    const changes: { field: string; from: string | null; to: string | null }[] = [];
    const note = (field: string, from: string | null, to: string | null) => {
      if (from !== to) changes.push({ field, from, to });
    };
    note('merit', moneyText(before.merit, row.currency), moneyText(plan.merit, row.currency));
    note('promotion', moneyText(before.promotion, row.currency), moneyText(plan.promotion, row.currency));
    note('lumpSum', moneyText(before.lumpSum, row.currency), moneyText(plan.lumpSum, row.currency));
    note('equityRefresh', moneyText(before.equityRefresh, row.currency), moneyText(plan.equityRefresh, row.currency));
    note('comment', row.comment, comment);
    const reviewed = edit.reviewed ?? Boolean(row.reviewed);
    note('reviewed', String(Boolean(row.reviewed)), String(reviewed));

    const now = new Date().toISOString();
    const nextVersion = await updateAtVersion(
      () => rowsOf(trx, context.scope).where({ cycle_id: context.cycle.id, employee_id: employeeId }),
      version,
      {
        merit_amount: plan.merit,
        promotion_amount: plan.promotion,
        lump_sum_amount: plan.lumpSum,
        equity_refresh_amount: plan.equityRefresh,
        spend_in_cycle: spend,
        comment,
        flags: JSON.stringify(flags),
        reviewed,
        edited: true,
        updated_by: caller.userId,
        updated_at: now,
      },
      `${nameOf(row)}’s row`,
    );
    const change: RowChangeRow = {
      id: newId(),
      company_id: context.scope.companyId,
      cycle_id: context.cycle.id,
      employee_id: employeeId,
      worksheet_id: worksheet.id,
      row_version: nextVersion,
      actor_user_id: caller.userId,
      changes: JSON.stringify(changes),
      created_at: now,
    };
    await insertRowChange(trx, change);
    if (changes.some((item) => item.field !== 'comment' && item.field !== 'reviewed')) {
      await emit(trx, {
        name: 'meritCycle.employeePlanned',
        companyId: context.scope.companyId,
        actorUserId: caller.userId,
        subjectType: 'employee',
        subjectId: employeeId,
        payload: { meritCycleId: context.cycle.id, worksheetId: worksheet.id, rowVersion: nextVersion, changes, newBase: newBaseOf(plan) === null ? null : { amount: newBaseOf(plan) as number, currency: row.currency } },
      });
    }
    await announceEmployeesUpdate(trx, context.scope, realtime, afterCommit, {
      meritCycleId: context.cycle.id,
      worksheetIds: [worksheet.id],
      employees: [{ employeeId, version: nextVersion }],
      actorUserId: caller.userId,
      originSocketId: socketId ?? null,
      reason: 'edited',
    });

    const stored: EmployeeRowOfCycle = {
      ...row,
      merit_amount: plan.merit,
      promotion_amount: plan.promotion,
      lump_sum_amount: plan.lumpSum,
      equity_refresh_amount: plan.equityRefresh,
      spend_in_cycle: spend,
      comment,
      flags: JSON.stringify(flags),
      reviewed,
      edited: true,
      version: nextVersion,
      updated_by: caller.userId,
      updated_at: now,
    };
    // The worksheet's sums move by what the row's part moved (kept, so the roll-up reads worksheets, not rows).
    const delta = addSums(rowSums(stored), rowSums(row), -1);
    await addToSums(trx, context.scope, context.cycle.id, worksheet.id, delta);
    const moved = { ...worksheet, ...sumColumns(addSums(sumsOf(worksheet), delta)) };
    context.byId.set(moved.id, moved);
    context.worksheets = context.worksheets.map((sheet) => (sheet.id === moved.id ? moved : sheet));
    // The budget roll-up after the edit: the row's worksheet and every one above it.
    const tree = budgetTree(context.worksheets);
    const report = budgetReport(context, tree);
    const chain = new Set(ancestry(worksheet, context.byId).map((sheet) => sheet.id));
    const budgets = ancestry(worksheet, context.byId)
      .map((sheet) => report.worksheets.find((entry) => entry.worksheetId === sheet.id))
      .filter((entry): entry is Schemas['WorksheetBudget'] => entry !== undefined && chain.has(entry.worksheetId));
    return { employee: presentRow(stored, context.money, context.modes, context.config.recommendation), budgets };
  });
}

// ---- history, comments, peers ---------------------------------------------------------------------

export async function employeeHistory(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, employeeId: string): Promise<Schemas['RowChange'][]> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  visibleRow(context, await findRow(db, context.scope, context.cycle.id, employeeId));
  const changes = await rowChanges(db, context.scope, context.cycle.id, employeeId);
  const names = await userNames(db, context.scope, changes.map((change) => change.actor_user_id));
  return changes.map((change) => ({ id: change.id, rowVersion: Number(change.row_version), actor: actorOf(change.actor_user_id, names), at: isoOf(change.created_at), changes: parse(change.changes) }));
}

async function presentComments(db: Knex, context: CycleContext, rows: Awaited<ReturnType<typeof listComments>>): Promise<Schemas['MeritCycleComment'][]> {
  const names = await userNames(db, context.scope, rows.map((row) => row.author_user_id));
  return rows.map((row) => ({ id: row.id, worksheetId: row.worksheet_id, employeeId: row.employee_id, author: actorOf(row.author_user_id, names), body: row.body, createdAt: isoOf(row.created_at) }));
}

export async function commentsOfEmployee(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, employeeId: string): Promise<Schemas['MeritCycleComment'][]> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  visibleRow(context, await findRow(db, context.scope, context.cycle.id, employeeId));
  return presentComments(db, context, await listComments(db, context.scope, context.cycle.id, { employee_id: employeeId }));
}

export async function commentsOfWorksheet(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, worksheetId: string): Promise<Schemas['MeritCycleComment'][]> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  requireWorksheet(context, worksheetId);
  return presentComments(db, context, await listComments(db, context.scope, context.cycle.id, { worksheet_id: worksheetId }));
}

export async function addComment(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, target: { employeeId: string } | { worksheetId: string }, body: string): Promise<Schemas['MeritCycleComment']> {
  const { db, caller } = ctx;
  const text = body.trim();
  if (text.includes('\u0000')) throw nulRefused('comment');
  if (!text) throw badRequest('A comment says something.', [{ field: 'body.body', message: 'is empty' }]);
  const context = await loadContext(db, caller, cycleId);
  let worksheetId: string | null;
  let employeeId: string | null = null;
  if ('employeeId' in target) {
    const row = visibleRow(context, await findRow(db, context.scope, context.cycle.id, target.employeeId));
    worksheetId = row.worksheet_id;
    employeeId = row.employee_id;
  } else worksheetId = requireWorksheet(context, target.worksheetId).id;
  const row = { id: newId(), company_id: context.scope.companyId, cycle_id: context.cycle.id, worksheet_id: 'employeeId' in target ? null : worksheetId, employee_id: employeeId, author_user_id: caller.userId, body: text, created_at: new Date().toISOString() };
  await insertComment(db, row);
  const [presented] = await presentComments(db, context, [row]);
  if (!presented) throw notFound();
  return presented;
}

/**
 * Peers of one employee: the cycle's other rows of the same job family and level. The counts and
 * medians cover all of them (medians only from three peers up, so one person's pay cannot be read
 * off); names and figures only those within the caller's reach.
 */
export async function employeePeers(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, employeeId: string): Promise<Schemas['PeerComparison']> {
  const { db, caller } = ctx;
  const context = await loadContext(db, caller, cycleId);
  const row = visibleRow(context, await findRow(db, context.scope, context.cycle.id, employeeId));
  const peers = row.job_family_id && row.level_id ? ((await rowsOf(db, context.scope).where({ cycle_id: context.cycle.id, job_family_id: row.job_family_id, level_id: row.level_id }).whereNot('employee_id', employeeId).select('*')) as EmployeeRowOfCycle[]) : [];
  const basesInCycle = peers.map((peer) => amountOf(peer.base_in_cycle)).filter((value): value is number => value !== null);
  const merits = peers.filter((peer) => peer.eligibility === 'eligible').map((peer) => basisPointsOf(Number(peer.merit_amount), Number(peer.current_base ?? 0)));
  const enough = peers.length >= 3;
  const medianBase = enough ? median(basesInCycle) : null;
  return {
    jobFamilyId: row.job_family_id,
    levelId: row.level_id,
    currency: context.cycle.currency,
    count: peers.length,
    medianCurrentPay: medianBase === null ? null : { amount: medianBase, currency: context.cycle.currency },
    medianMeritBp: enough ? median(merits) : null,
    peers: peers
      .filter((peer) => context.access.seesEmployee(peer.employee_id, peer.worksheet_id ? context.byId.get(peer.worksheet_id) : undefined))
      .map((peer) => {
        const plan = planOf(peer);
        const newBase = newBaseOf(plan);
        const mid = amountOf(peer.band_mid);
        return {
          employeeId: peer.employee_id,
          name: nameOf(peer),
          currentPayInCycleCurrency: context.money.money(amountOf(peer.base_in_cycle)),
          compaRatio: mid && plan.base !== null ? Math.round((plan.base / mid) * 10_000) / 10_000 : null,
          meritBp: basisPointsOf(plan.merit, plan.base ?? 0),
          newPayInCycleCurrency: newBase === null ? null : context.money.money(context.money.toCycle(newBase, peer.currency)),
        };
      }),
  };
}
