import type { CompanyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { badRequest } from '../kernel/errors.js';
import { categoryResolver } from './categories.js';
import { type FactorValue, adjustedGap } from './regression.js';
import { type WorkerPay, workersOfYear } from './workers.js';
import type { ServiceContext } from '../kernel/operations.js';

type Presented = components['schemas']['PayEquityAdjustedGap'];

export const CONTROLS = ['category', 'level', 'family', 'location', 'department', 'tenure', 'rating', 'employmentType'] as const;
export type Control = (typeof CONTROLS)[number];

const DAY_MS = 86_400_000;

/** A control's value for a worker: tenure in years at the reference date, the others as recorded. */
function controlValue(worker: WorkerPay, control: Control, asOf: string): FactorValue {
  const employee = worker.employee;
  switch (control) {
    case 'category':
      return worker.categoryId;
    case 'level':
      return employee.levelId;
    case 'family':
      return employee.jobFamilyId;
    case 'location':
      return employee.locationId;
    case 'department':
      return employee.department;
    case 'rating':
      return employee.performanceRating;
    case 'employmentType':
      return employee.employmentType;
    case 'tenure':
      return employee.startDate ? Math.max(0, (Date.parse(worker.payDay > asOf ? asOf : worker.payDay) - Date.parse(employee.startDate)) / DAY_MS / 365.25) : 0;
  }
}

export interface AdjustedOptions {
  year: number;
  asOf?: string;
  controls: string;
  threshold: number;
  /** The employer the regression is fitted within; every legal entity together when absent. */
  legalEntity?: string;
  /** Whether each person's figures are shown (employeeCompensation view over the company). */
  withPeople: boolean;
}

/** The adjusted gap of the year's women and men in the company currency. */
export async function adjustedGapOf(ctx: Pick<ServiceContext, 'db'>, scope: CompanyScope, options: AdjustedOptions): Promise<Presented | null> {
  const { db } = ctx;
  const controls = [...new Set(options.controls.split(',').map((part) => part.trim()))] as Control[];
  if (controls.some((control) => !CONTROLS.includes(control))) throw badRequest('Unknown control.', [{ field: 'query.controls', message: `must be among ${CONTROLS.join(', ')}` }]);
  const resolver = await categoryResolver(db, scope);
  const year = await workersOfYear(db, scope, { year: options.year, asOf: options.asOf, categoryOf: resolver.categoryOf, legalEntity: options.legalEntity });
  if (options.legalEntity !== undefined && !year.loaded.employees.some((employee) => employee.legalEntity === options.legalEntity)) {
    throw badRequest('No worker of the reference year works for that legal entity.', [{ field: 'query.legalEntity', message: `is not a legal entity of the ${options.year} workers` }]);
  }
  const included = year.workers.filter((worker) => (worker.sex === 'female' || worker.sex === 'male') && worker.base + worker.variable > 0);
  const fit = adjustedGap(
    included.map((worker) => ({
      employeeId: worker.employeeId,
      sex: worker.sex as 'female' | 'male',
      pay: worker.base + worker.variable,
      factors: Object.fromEntries(controls.map((control) => [control, controlValue(worker, control, year.asOf)])),
    })),
    { controls, threshold: options.threshold },
  );
  if (!fit) return null;
  const names = new Map(included.map((worker) => [worker.employeeId, `${worker.employee.firstName} ${worker.employee.lastName}`.trim()]));
  return {
    year: options.year,
    legalEntity: options.legalEntity ?? null,
    currency: year.currency,
    n: fit.n,
    controls: fit.controls,
    columns: fit.columns,
    rank: fit.rank,
    rSquared: fit.rSquared,
    coefficient: fit.coefficient,
    standardError: fit.standardError,
    interval: fit.interval,
    adjustedGap: fit.adjustedGap,
    adjustedGapInterval: fit.adjustedGapInterval,
    decomposition: fit.decomposition,
    costToClose: { total: Math.round(fit.costToClose.total), people: fit.costToClose.people },
    people: options.withPeople
      ? fit.people.map((entry) => ({ employeeId: entry.employeeId, name: names.get(entry.employeeId) ?? '', sex: entry.sex, pay: entry.pay, predicted: entry.predicted, residual: entry.residual, raise: entry.raise }))
      : [],
  };
}
