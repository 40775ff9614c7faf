import type { Knex } from 'knex';
import { type Caller, type CompanyScope, companyScope } from '../access/caller.js';
import { isBandSet } from '../bands/reads.js';
import { getCompany } from '../companies/service.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { requireMinorUnit } from '../money/minorUnits.js';
import type { JobQueue } from '../jobs/queue.js';
import { emit } from '../platform/events.js';
import { availableActions, history, transition } from '../workflow/service.js';
import { requireWholeCompany } from './access.js';
import { chainsForNewCycle } from './chainRules.js';
import { closeCycle } from './close.js';
import {
  type BudgetConfiguration,
  type ColumnsConfig,
  DEFAULT_BUDGET,
  DEFAULT_COLUMNS,
  DEFAULT_COMPONENTS,
  DEFAULT_ELIGIBILITY,
  DEFAULT_PERFORMANCE,
  DEFAULT_RECOMMENDATION,
  type EligibilityCondition,
  type PerformanceConfig,
  type PlanningWindow,
  type RecommendationLogic,
  budgetProblems,
  eligibilityProblems,
  recommendationProblems,
  throwIfProblems,
  windowProblems,
} from './config.js';
import { launchCycle } from './launch.js';
import { applyDraftEquityAdjustments } from './equityAdjustments.js';
import { armWindowNotices } from './windowNotices.js';
import { type MeritCycle, configOf, presentCycle } from './present.js';
import { type CycleRow, cycleCounts, cyclesOf, findCycle, insertCycle, listCycles, inTransaction, replaceChains } from './store.js';
import { MERIT_CYCLE_SUBJECT, type MeritCycleAction, meritCycleWorkflow } from './workflow.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];

export async function requireCycle(db: Knex, scope: CompanyScope, id: string): Promise<CycleRow> {
  const row = await findCycle(db, scope, id);
  if (!row) throw notFound();
  return row;
}

const subjectOf = (row: CycleRow) => {
  const state = row.state;
  if (!meritCycleWorkflow.isState(state)) throw new Error(`merit cycle ${row.id} is in an unknown state ${state}`);
  return { subjectType: MERIT_CYCLE_SUBJECT, subjectId: row.id, currentState: state, version: Number(row.version) };
};

export async function presentCycles(db: Knex, scope: CompanyScope, caller: Caller, rows: CycleRow[]): Promise<MeritCycle[]> {
  const counts = await cycleCounts(db, scope, rows.map((row) => row.id));
  const out: MeritCycle[] = [];
  for (const row of rows) {
    const actions = (await availableActions(meritCycleWorkflow, subjectOf(row), caller)).map((action) => ({ action: action.action, needsComment: action.needsComment }));
    out.push(presentCycle(row, counts.get(row.id) ?? { employees: 0, eligible: 0, ineligible: 0, excluded: 0, worksheets: 0 }, actions));
  }
  return out;
}

export async function cycleDetail(db: Knex, scope: CompanyScope, caller: Caller, id: string): Promise<MeritCycle> {
  const [cycle] = await presentCycles(db, scope, caller, [await requireCycle(db, scope, id)]);
  if (!cycle) throw notFound();
  return cycle;
}

export async function listMeritCycles(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<MeritCycle[]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return presentCycles(db, scope, caller, await listCycles(db, scope));
}

export async function getMeritCycle(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<MeritCycle> {
  const { db, caller } = ctx;
  return cycleDetail(db, companyScope(caller), caller, id);
}

function datesProblems(dates: { effectiveDate: string; periodStart: string; periodEnd: string }): void {
  if (dates.periodStart > dates.periodEnd) throw badRequest('The performance period must start on or before it ends.', [{ field: 'body.periodEnd', message: 'must not be before periodStart' }]);
}

async function checkBandSet(db: Knex, scope: CompanyScope, bandSetId: string | null | undefined): Promise<void> {
  if (bandSetId && !(await isBandSet(db, scope, bandSetId))) throw badRequest('The band set is not one of the company’s.', [{ field: 'body.bandSetId', message: 'is not a band set of the company' }]);
}

export async function createMeritCycle(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: Schemas['MeritCycleInput']): Promise<MeritCycle> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  requireWholeCompany(caller, 'Setting up a merit cycle');
  const currency = input.currency ?? (await getCompany({ db, caller })).settings.currency;
  await requireMinorUnit(db, currency, 'body.currency');
  datesProblems(input);
  await checkBandSet(db, scope, input.bandSetId);
  const now = new Date().toISOString();
  const row: CycleRow = {
    id: newId(),
    company_id: scope.companyId,
    name: input.name.trim() || 'Merit cycle',
    state: meritCycleWorkflow.initial,
    effective_date: input.effectiveDate,
    period_start: input.periodStart,
    period_end: input.periodEnd,
    currency,
    components: JSON.stringify(input.components ?? DEFAULT_COMPONENTS),
    band_set_id: input.bandSetId ?? null,
    planner_mode: input.plannerMode ?? 'ownReports',
    performance: JSON.stringify(DEFAULT_PERFORMANCE),
    eligibility: JSON.stringify(DEFAULT_ELIGIBILITY),
    recommendation: JSON.stringify(DEFAULT_RECOMMENDATION),
    budget: JSON.stringify(DEFAULT_BUDGET),
    columns: JSON.stringify(DEFAULT_COLUMNS),
    planning_windows: '[]',
    closing_notice_hours: 24,
    rates_as_of: null,
    exchange_rates: JSON.stringify({ rates: [], conversions: {} }),
    launched_at: null,
    launched_by: null,
    closed_at: null,
    pay_records_written: 0,
    version: 1,
    created_by: caller.userId,
    created_at: now,
    updated_at: now,
  };
  // A new cycle starts with the company's default approval chains (workflow settings).
  const chains = await chainsForNewCycle(db, scope);
  await inTransaction(db, async (trx) => {
    await insertCycle(trx, row);
    await replaceChains(
      trx,
      scope,
      row.id,
      chains.map((chain) => ({ id: newId(), company_id: scope.companyId, cycle_id: row.id, branch_employee_id: chain.branchEmployeeId, reviewers: JSON.stringify(chain.reviewerUserIds), version: 1, updated_by: caller.userId, created_at: now, updated_at: now })),
    );
  });
  return cycleDetail(db, scope, caller, row.id);
}

type Stage = 'draft' | 'open';

/**
 * One change of a cycle's configuration at the version read: `draft` changes only a draft (a
 * launched cycle keeps what its figures were computed from); `open` a draft or an active cycle.
 */
async function changeCycle(
  db: Knex,
  caller: Caller,
  id: string,
  ifMatch: string,
  stage: Stage,
  what: string,
  change: (row: CycleRow, trx: Knex) => Promise<Partial<CycleRow>> | Partial<CycleRow>,
): Promise<MeritCycle> {
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await inTransaction(db, async (trx) => {
    const row = await requireCycle(trx, scope, id);
    requireWholeCompany(caller, `Changing a cycle's ${what}`);
    if (Number(row.version) !== version) throw versionConflict('this cycle', Number(row.version));
    const allowed = stage === 'draft' ? ['draft'] : ['draft', 'active'];
    if (!allowed.includes(row.state)) {
      throw new HttpError(409, 'cycle_locked', {
        message: stage === 'draft' ? `A launched cycle keeps the ${what} its figures were computed from; this cycle is ${row.state}.` : `A ${row.state} cycle does not change.`,
      });
    }
    const changes = await change(row, trx);
    await updateAtVersion(() => cyclesOf(trx, scope).where({ id }), version, { ...changes, updated_at: new Date().toISOString() }, 'this cycle');
  });
  return cycleDetail(db, scope, caller, id);
}

export async function updateSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, patch: Schemas['MeritCycleSettingsPatch']): Promise<MeritCycle> {
  const { db, caller } = ctx;
  const onlyName = Object.keys(patch).every((key) => key === 'name');
  return changeCycle(db, caller, id, ifMatch, onlyName ? 'open' : 'draft', 'settings', async (row, trx) => {
    const scope = { companyId: row.company_id };
    const dates = { effectiveDate: patch.effectiveDate ?? row.effective_date, periodStart: patch.periodStart ?? row.period_start, periodEnd: patch.periodEnd ?? row.period_end };
    datesProblems(dates);
    if (patch.currency) await requireMinorUnit(trx, patch.currency, 'body.currency');
    await checkBandSet(trx, scope, patch.bandSetId);
    return {
      ...(patch.name !== undefined ? { name: patch.name.trim() || row.name } : {}),
      effective_date: dates.effectiveDate,
      period_start: dates.periodStart,
      period_end: dates.periodEnd,
      ...(patch.currency ? { currency: patch.currency } : {}),
      ...(patch.components ? { components: JSON.stringify(patch.components) } : {}),
      ...(patch.bandSetId !== undefined ? { band_set_id: patch.bandSetId } : {}),
      ...(patch.plannerMode ? { planner_mode: patch.plannerMode } : {}),
    };
  });
}

export async function updatePerformance(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: PerformanceConfig): Promise<MeritCycle> {
  const { db, caller } = ctx;
  return changeCycle(db, caller, id, ifMatch, 'draft', 'performance configuration', (row) => {
    const values = input.scale.map((entry) => entry.value);
    const twice = values.findIndex((value, index) => values.indexOf(value) !== index);
    if (twice >= 0) throw badRequest('Each rating appears once on the scale.', [{ field: `body.scale.${twice}.value`, message: `repeats ${values[twice]}` }]);
    // The matrix must still name ratings of the scale.
    const logic = configOf(row).recommendation;
    throwIfProblems('The merit matrix names ratings that are not on this scale; change the matrix first.', recommendationProblems(logic, input.scale));
    return { performance: JSON.stringify(input) };
  });
}

export async function updateRecommendation(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: RecommendationLogic): Promise<MeritCycle> {
  const { db, caller } = ctx;
  return changeCycle(db, caller, id, ifMatch, 'draft', 'recommendation logic', (row) => {
    throwIfProblems('The recommendation logic does not agree with itself or the performance scale.', recommendationProblems(input, configOf(row).performance.scale));
    return { recommendation: JSON.stringify(input) };
  });
}

export async function updateEligibilityRules(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: EligibilityCondition): Promise<MeritCycle> {
  const { db, caller } = ctx;
  return changeCycle(db, caller, id, ifMatch, 'draft', 'eligibility rules', () => {
    throwIfProblems('The eligibility rules are not complete.', eligibilityProblems(input));
    return { eligibility: JSON.stringify(input) };
  });
}

export async function updateBudgetConfiguration(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: BudgetConfiguration): Promise<MeritCycle> {
  const { db, caller } = ctx;
  return changeCycle(db, caller, id, ifMatch, 'draft', 'budget configuration', () => {
    throwIfProblems('The budget configuration names something twice.', budgetProblems(input));
    return { budget: JSON.stringify({ ...input, basis: input.basis ?? 'orgBranch', overrides: input.overrides ?? [] }) };
  });
}

export async function updateColumns(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, input: ColumnsConfig): Promise<MeritCycle> {
  const { db, caller } = ctx;
  return changeCycle(db, caller, id, ifMatch, 'open', 'columns', () => {
    const keys = input.roles.map((entry) => entry.roleKey);
    const twice = keys.findIndex((key, index) => keys.indexOf(key) !== index);
    if (twice >= 0) throw badRequest('Each role appears once.', [{ field: `body.roles.${twice}.roleKey`, message: `repeats ${keys[twice]}` }]);
    return { columns: JSON.stringify(input) };
  });
}

/**
 * The windows (and the lead time of the notice before each closes). In an active cycle a window
 * whose close or lead time changed has its notice queued again in the same transaction.
 */
export async function updatePlanningWindows(
  ctx: Pick<ServiceContext, 'db'>,
  jobs: JobQueue,
  caller: Caller,
  { id, ifMatch, windows, closingNoticeHours }: { id: string; ifMatch: string; windows: PlanningWindow[]; closingNoticeHours: number | undefined },
): Promise<MeritCycle> {
  const { db } = ctx;
  let armed = 0;
  const detail = await changeCycle(db, caller, id, ifMatch, 'open', 'planning windows', async (row, trx) => {
    throwIfProblems('The planning windows do not agree.', windowProblems(windows));
    const stored = windows.map((window) => ({ stage: window.stage, opensAt: new Date(window.opensAt).toISOString(), closesAt: new Date(window.closesAt).toISOString() }));
    const hours = closingNoticeHours ?? Number(row.closing_notice_hours);
    if (row.state === 'active') {
      armed = await armWindowNotices(trx, row, caller.userId, { windows: stored, hours }, { windows: configOf(row).windows, hours: Number(row.closing_notice_hours) });
    }
    return { planning_windows: JSON.stringify(stored), closing_notice_hours: hours };
  });
  if (armed) jobs.worker.wake();
  return detail;
}

/** Launch, close or cancel at the version read, through the cycle's workflow (history in the same transaction). */
export async function transitionMeritCycle(
  ctx: Pick<ServiceContext, 'db'>,
  jobs: JobQueue,
  caller: Caller,
  { id, ifMatch, action, comment }: { id: string; ifMatch: string; action: MeritCycleAction; comment: string | undefined },
): Promise<MeritCycle> {
  const { db } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  let armed = 0;
  await inTransaction(db, async (trx) => {
    const row = await requireCycle(trx, scope, id);
    if (Number(row.version) !== version) throw versionConflict('this cycle', Number(row.version));
    const subject = subjectOf(row);
    // Refused moves (409) and permissions (403) before any work.
    if (!meritCycleWorkflow.transitionFrom(subject.currentState, action)) throw new HttpError(409, 'invalid_transition', { message: meritCycleWorkflow.refusal(subject.currentState, action) });
    requireWholeCompany(caller, `Having a cycle ${action === 'launch' ? 'launched' : action === 'close' ? 'closed' : 'cancelled'}`);
    const now = new Date().toISOString();
    let changes: Partial<CycleRow> = {};
    if (action === 'launch') {
      changes = await launchCycle(trx, scope, caller, row);
      await applyDraftEquityAdjustments(trx, scope, row);
      // The windows set while it was a draft: their notices are queued now that there are worksheets.
      armed = await armWindowNotices(trx, row, caller.userId, { windows: configOf(row).windows, hours: Number(row.closing_notice_hours) }, null);
    }
    if (action === 'close') changes = await closeCycle(trx, scope, caller, row);
    const moved = await transition(trx, scope, meritCycleWorkflow, { subject, action, actor: caller, comment });
    await updateAtVersion(() => cyclesOf(trx, scope).where({ id }), version, { ...changes, state: moved.state, updated_at: now }, 'this cycle');
    await emit(trx, {
      name: 'meritCycle.transitioned',
      companyId: scope.companyId,
      actorUserId: caller.userId,
      subjectType: MERIT_CYCLE_SUBJECT,
      subjectId: id,
      payload: { meritCycleId: id, action, from: moved.from, to: moved.state, payRecordsWritten: Number(changes.pay_records_written ?? 0) },
    });
  });
  if (armed) jobs.worker.wake();
  return cycleDetail(db, scope, caller, id);
}

export async function cycleHistory(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<Schemas['WorkflowHistoryEntry'][]> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  await requireCycle(db, scope, id);
  return historyEntries(db, scope, MERIT_CYCLE_SUBJECT, id);
}

export async function historyEntries(db: Knex, scope: CompanyScope, subjectType: string, subjectId: string): Promise<Schemas['WorkflowHistoryEntry'][]> {
  const entries = await history(db, scope, subjectType, subjectId);
  return entries.map((entry) => ({
    id: entry.id,
    action: entry.action,
    from: entry.from,
    to: entry.to,
    subjectVersion: entry.subjectVersion,
    comment: entry.comment,
    actor: entry.actor,
    at: entry.at,
  }));
}

/** Config readers for the other services. */
export { configOf };
export type { CycleRow };
