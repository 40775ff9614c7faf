import type { Knex } from 'knex';
import { type Caller, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound, nulRefused } from '../kernel/errors.js';
import { moveVersionOn } from '../kernel/versions.js';
import { activeEmployeesForMeritCycle, baseSalariesForMeritCycle } from './peopleReads.js';
import { cycleAccess, requireWholeCompany } from './access.js';
import { requireCycle } from './cycles.js';
import { computeCycle, payDayOf } from './launch.js';
import { Converter } from '../money/converter.js';
import { configOf, nameOf } from './present.js';
import { type EmployeeRowOfCycle, addSums, addToSums, deleteExclusion, listExclusions, listRows, rowSums, rowsOf, upsertExclusion, inTransaction } from './store.js';
import { type EligibilityCondition, eligibilityProblems, parse, throwIfProblems } from './config.js';
import { prorationFactor } from './formulas.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type EligibilityEntry = Schemas['EligibilityEntry'];
type Status = Schemas['EligibilityStatus'];

const entryOf = (row: EmployeeRowOfCycle): EligibilityEntry => ({
  employeeId: row.employee_id,
  name: nameOf(row),
  department: row.department,
  status: row.eligibility as Status,
  reasons: parse<string[]>(row.reasons),
  proration: { factor: prorationFactor({ daysEmployed: row.days_employed, daysInPeriod: row.days_in_period }), daysEmployed: row.days_employed, daysInPeriod: row.days_in_period },
  excludedReason: row.excluded_reason,
});

/**
 * A draft's eligibility as its rules say now (nothing stored); a launched cycle's as computed at
 * launch; with `rules`, what those rules would make of today's people data, in any state.
 */
async function eligibilityRows(db: Knex, caller: Caller, cycleId: string, rules?: EligibilityCondition): Promise<{ rows: EmployeeRowOfCycle[]; managerOf: Map<string, string | null> }> {
  const scope = companyScope(caller);
  const cycle = await requireCycle(db, scope, cycleId);
  let rows: EmployeeRowOfCycle[];
  if (cycle.state === 'draft' || rules) {
    const asOf = payDayOf(cycle.effective_date);
    const employees = await activeEmployeesForMeritCycle(db, scope);
    const bases = await baseSalariesForMeritCycle(db, scope, asOf);
    const exclusions = await listExclusions(db, scope, cycle.id);
    // Planning budgets are the company's own money: its own rates where it has set them.
    const converter = await Converter.open(db, asOf, { scope });
    const computed = await computeCycle({
      cycle,
      config: rules ? { ...configOf(cycle), eligibility: rules } : configOf(cycle),
      employees,
      bases,
      exclusions,
      rateToCycle: (currency) => converter.exactRate(currency, cycle.currency),
      digits: (currency) => converter.minorUnit(currency),
      bandOf: async () => null,
      asOf,
      now: new Date().toISOString(),
    });
    rows = computed.rows;
  } else rows = await listRows(db, scope, cycle.id);
  return { rows, managerOf: new Map(rows.map((row) => [row.employee_id, row.manager_id])) };
}

export async function listEligibility(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, status: Status | undefined): Promise<Schemas['EligibilityList']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const { rows, managerOf } = await eligibilityRows(db, caller, cycleId);
  const access = await cycleAccess(db, scope, caller, managerOf);
  const counts = { employees: rows.length, eligible: 0, ineligible: 0, excluded: 0 };
  for (const row of rows) if (row.eligibility === 'eligible' || row.eligibility === 'ineligible' || row.eligibility === 'excluded') counts[row.eligibility] += 1;
  return {
    counts,
    employees: rows.filter((row) => (!status || row.eligibility === status) && access.seesEmployee(row.employee_id)).map(entryOf),
  };
}

const PREVIEW_ORDER: Record<Status, number> = { ineligible: 0, excluded: 1, eligible: 2 };

/** What unsaved rules would make of the cycle: its counts, and the first entries in reach (ineligible first). Nothing is stored. */
export async function previewEligibility(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string, rules: EligibilityCondition, limit: number): Promise<Schemas['EligibilityList']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  await requireCycle(db, scope, cycleId);
  requireWholeCompany(caller, 'Previewing eligibility rules');
  throwIfProblems('The eligibility rules are not complete.', eligibilityProblems(rules));
  const { rows, managerOf } = await eligibilityRows(db, caller, cycleId, rules);
  const access = await cycleAccess(db, scope, caller, managerOf);
  const counts = { employees: rows.length, eligible: 0, ineligible: 0, excluded: 0 };
  for (const row of rows) if (row.eligibility === 'eligible' || row.eligibility === 'ineligible' || row.eligibility === 'excluded') counts[row.eligibility] += 1;
  const shown = rows.filter((row) => access.seesEmployee(row.employee_id)).sort((a, b) => PREVIEW_ORDER[a.eligibility as Status] - PREVIEW_ORDER[b.eligibility as Status]);
  return { counts, employees: shown.slice(0, limit).map(entryOf) };
}

/**
 * Excludes an employee by hand (with a reason) or takes it back. In a draft it is kept for the
 * launch; in an active cycle the row changes too: excluded rows plan nothing and leave the budget.
 */
export async function setExclusion(ctx: Pick<ServiceContext, 'db' | 'caller'>, { cycleId, employeeId, excluded, reason }: { cycleId: string; employeeId: string; excluded: boolean; reason: string | undefined }): Promise<EligibilityEntry> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const text = reason?.trim() ?? '';
  if (text.includes('\u0000')) throw nulRefused('reason');
  await inTransaction(db, async (trx) => {
    const cycle = await requireCycle(trx, scope, cycleId);
    requireWholeCompany(caller, 'Excluding people from a cycle');
    if (cycle.state !== 'draft' && cycle.state !== 'active') throw new HttpError(409, 'cycle_locked', { message: `A ${cycle.state} cycle's eligibility does not change.` });
    if (excluded && !text) throw badRequest('Say why the employee is excluded.', [{ field: 'body.reason', message: 'is required to exclude someone' }]);
    const rows: EmployeeRowOfCycle[] = cycle.state === 'draft' ? (await eligibilityRows(trx, caller, cycleId)).rows : await rowsOf(trx, scope).where({ cycle_id: cycle.id, employee_id: employeeId }).select('*');
    const row = rows.find((candidate) => candidate.employee_id === employeeId);
    if (!row) throw notFound();
    if (excluded) await upsertExclusion(trx, { id: newId(), company_id: scope.companyId, cycle_id: cycle.id, employee_id: employeeId, reason: text, excluded_by: caller.userId, created_at: new Date().toISOString() });
    else await deleteExclusion(trx, scope, cycle.id, employeeId);
    if (cycle.state === 'active') {
      const now = new Date().toISOString();
      const ruleReasons = parse<string[]>(row.reasons);
      // Back in, the row has its recommendation and budget share again (computed at launch for everyone the rules let in).
      const status: Status = excluded ? 'excluded' : ruleReasons.length ? 'ineligible' : 'eligible';
      await moveVersionOn(() => rowsOf(trx, scope).where({ cycle_id: cycle.id, employee_id: employeeId }), { eligibility: status, excluded_reason: excluded ? text : null, updated_at: now });
      if (row.worksheet_id) await addToSums(trx, scope, cycle.id, row.worksheet_id, addSums(rowSums({ ...row, eligibility: status }), rowSums(row), -1));
    }
  });
  const { rows } = await eligibilityRows(db, caller, cycleId);
  const row = rows.find((candidate) => candidate.employee_id === employeeId);
  if (!row) throw notFound();
  return entryOf(row);
}
