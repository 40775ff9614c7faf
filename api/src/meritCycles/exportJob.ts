import type { Caller } from '../access/caller.js';
import { companyScope } from '../access/caller.js';
import { majorUnits } from '../bands/exportJob.js';
import { type CsvRow, csvFile } from '../downloads/csv.js';
import { saveDownload } from '../downloads/service.js';
import { HttpError } from '../kernel/errors.js';
import { jobKind } from '../jobs/kind.js';
import type { JobQueue } from '../jobs/queue.js';
import { startJob } from '../jobs/service.js';
import { minorUnits } from '../money/minorUnits.js';
import { requireWholeCompany } from './access.js';
import { requireCycle } from './cycles.js';
import { CycleMoney, configOf, newBaseOf, planOf } from './present.js';
import { basisPointsOf } from './formulas.js';
import { listRows } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

export const MERIT_CYCLE_PAYROLL_EXPORT = 'meritCyclePayrollExport';

export interface PayrollExportInput {
  meritCycleId: string;
}

export const PAYROLL_COLUMNS = [
  'Employee number',
  'First name',
  'Last name',
  'Title',
  'Department',
  'Effective date',
  'Currency',
  'Current base',
  'Merit %',
  'Merit',
  'Promotion',
  'New base',
  'Lump sum',
  'Equity refresh',
  'Cycle currency',
  'New base (cycle currency)',
  'Comment',
] as const;

const fileSafe = (name: string): string => name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'merit-cycle';

/**
 * The payroll / HRIS file of a cycle: one line per eligible employee, amounts in major units (exact
 * decimal text), through the one formula-safe CSV writer.
 */
export const payrollExportJob = jobKind<PayrollExportInput>({ type: MERIT_CYCLE_PAYROLL_EXPORT, title: 'Merit cycle payroll export' }, ({ downloads: storage }) => async ({ job, db, progress }) => {
  const scope = { companyId: job.companyId };
  const cycle = await requireCycle(db, scope, job.input.meritCycleId);
  const config = configOf(cycle);
  const money = new CycleMoney(cycle.currency, config.exchange);
  const rows = await listRows(db, scope, cycle.id);
  const digits = await minorUnits(db);
  await progress(50, `${rows.length} employees read`);
  const lines: CsvRow[] = [];
  for (const row of rows) {
    if (row.eligibility !== 'eligible') continue;
    const plan = planOf(row);
    const places = digits.of(row.currency);
    const major = (amount: number | null) => (amount === null ? null : majorUnits(amount, places, 'csv'));
    const newBase = newBaseOf(plan);
    const inCycle = newBase === null ? null : money.toCycle(newBase, row.currency);
    lines.push([
      row.employee_number,
      row.first_name,
      row.last_name,
      row.title,
      row.department,
      cycle.effective_date,
      row.currency,
      major(plan.base),
      basisPointsOf(plan.merit, plan.base ?? 0) / 100,
      major(plan.merit),
      major(plan.promotion),
      major(newBase),
      major(plan.lumpSum),
      major(plan.equityRefresh),
      cycle.currency,
      inCycle === null ? null : majorUnits(inCycle, digits.of(cycle.currency), 'csv'),
      row.comment,
    ]);
  }
  const download = await saveDownload(db, storage, {
    companyId: job.companyId,
    ownerUserId: job.ownerUserId,
    jobId: job.id,
    kind: MERIT_CYCLE_PAYROLL_EXPORT,
    filename: `merit-cycle-${fileSafe(cycle.name)}-${cycle.effective_date}.csv`,
    contentType: 'text/csv',
    permission: 'compensationPlanning',
    content: csvFile([...PAYROLL_COLUMNS], lines),
  });
  return { downloadId: download.id, meritCycleId: cycle.id, employees: lines.length };
});

/** Starts the export of a launched cycle of the caller's company (another company's id is 404 before anything is queued). */
export async function startPayrollExport(ctx: Pick<ServiceContext, 'db'>, jobs: JobQueue, caller: Caller, cycleId: string, socketId: string | undefined) {
  const { db } = ctx;
  const cycle = await requireCycle(db, companyScope(caller), cycleId);
  requireWholeCompany(caller, 'The payroll export of a cycle');
  if (cycle.state === 'draft' || cycle.state === 'cancelled') throw new HttpError(409, 'cycle_not_launched', { message: `A ${cycle.state} cycle has nothing to export; launch it first.` });
  return startJob(jobs, caller, payrollExportJob, { meritCycleId: cycle.id }, socketId);
}
