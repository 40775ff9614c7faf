import type { CompanyScope } from '../access/caller.js';
import { badRequest } from '../kernel/errors.js';
import { type ArticleNineReport, type CategoryGap, type LegalEntitySummary, type UkReport, articleNineReport, directiveDuty, ukReport } from './engine.js';
import { categoryResolver } from './categories.js';
import { type PayEquityEmployee, payEquityEmployees } from './peopleReads.js';
import { ukWorkersOf, workersOfYear } from './workers.js';
import { listAssessments } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

const employedOn = (employee: PayEquityEmployee, day: string): boolean => (employee.startDate === null || employee.startDate <= day) && (employee.terminationDate === null || employee.terminationDate >= day);

/** Every legal entity of the year's workers with its head count on the reference date and on the UK snapshot date; named ones first, by name. */
export function entitiesOf(yearEmployees: readonly PayEquityEmployee[], snapshotEmployees: readonly PayEquityEmployee[] | undefined, dates: { year: number; asOf: string; snapshotDate: string }): LegalEntitySummary[] {
  const byName = new Map<string | null, { workers: number; uk: number }>();
  const entry = (name: string | null) => {
    const found = byName.get(name) ?? { workers: 0, uk: 0 };
    byName.set(name, found);
    return found;
  };
  for (const employee of yearEmployees) {
    const counted = entry(employee.legalEntity);
    if (employedOn(employee, dates.asOf)) counted.workers += 1;
    if (!snapshotEmployees && employedOn(employee, dates.snapshotDate)) counted.uk += 1;
  }
  for (const employee of snapshotEmployees ?? []) if (employedOn(employee, dates.snapshotDate)) entry(employee.legalEntity).uk += 1;
  return [...byName.entries()]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
    .map(([name, counts]) => ({ name, workers: counts.workers, directive: directiveDuty(counts.workers, dates.year), ukRelevantEmployees: counts.uk, ukRequired: counts.uk >= UK_THRESHOLD }));
}

/** Art. 10(1)(a): a difference in average pay level of at least 5 % in a category of workers. */
export const ASSESSMENT_THRESHOLD = 5;

export interface ReportOptions {
  year: number;
  asOf?: string;
  hoursPerWeek: number;
  minimumGroup: number;
  /** The employer reported on; every legal entity together (the group view) when absent. */
  legalEntity?: string;
}

/** The UK threshold: 250 or more relevant employees on the snapshot date. */
export const UK_THRESHOLD = 250;

export interface PayEquityReport extends ArticleNineReport {
  /** The employer reported on; null for every legal entity together (the group view, which is no employer's report). */
  legalEntity: string | null;
  /** Every legal entity of the year's workers, its size and what the Directive and the UK rules ask of it. */
  legalEntities: LegalEntitySummary[];
  year: number;
  from: string;
  to: string;
  asOf: string;
  currency: string;
  annualHours: number;
  workers: number;
  excluded: { withoutBase: number; withoutRate: number };
  categories: (CategoryGap & { categoryName: string; flagged: boolean; assessment: { id: string; status: AssessmentStatus; dueDate: string } | null; unexplained: boolean })[];
  uk: UkReport & { snapshotDate: string };
  method: string[];
}

export type AssessmentStatus = 'open' | 'justified' | 'remediation' | 'closed';

/**
 * Art. 10(1)(a)–(b): a flagged category's gap is unexplained until the employer justified it by
 * objective, gender-neutral criteria (or closed its assessment); open and in remediation it still is.
 */
export const unexplainedGap = (flagged: boolean, status: AssessmentStatus | null): boolean => flagged && (status === null || status === 'open' || status === 'remediation');

/** Whether a published category's mean gap of total pay, annual or hourly, is 5 % or more either way. */
export function flaggedCategory(category: CategoryGap): boolean {
  if (category.suppressed || !category.annual || !category.hourly) return false;
  return [category.annual.total.meanGap, category.hourly.total.meanGap].some((gap) => gap !== null && Math.abs(gap) >= ASSESSMENT_THRESHOLD);
}

export function methodOf(report: { year: number; from: string; to: string; asOf: string; currency: string; annualHours: number; minimumGroup: number; legalEntity: string | null }): string[] {
  return [
    report.legalEntity === null
      ? 'Employer: every legal entity of the company together (the group view); the Directive and the UK rules ask for a report per legal entity, whose size decides whether it must report.'
      : `Employer: the legal entity ${report.legalEntity}; its size (head count on the reference date, part-timers one each) decides whether and how often it must report.`,
    `Reference year ${report.year} (${report.from} to ${report.to}); pay as in force on ${report.asOf}, or on a leaver's last day; amounts in ${report.currency}, converted at the company's rates where set, else the ECB reference rates of that date.`,
    'Workers: every employee (interns included, contractors not) employed on at least one day of the year; a leaver is counted once, at the annual rate in force on their last day (not pro-rated to the part of the year worked).',
    'Pay: ordinary basic wage (base salary) plus complementary or variable components (bonus, variable pay, commission, benefits in kind, one-off bonuses paid in the year); equity grants are not counted.',
    `Annual pay is annualised to full time: the full-time-equivalent annual rates people data records, and one-off bonuses ÷ FTE. Hourly pay is the pay for the contractual hours (rate × FTE) ÷ the contractual hours a year: weekly hours × 52 where people data records them, else FTE × ${report.annualHours} full-time hours; so part-time workers are compared at what they earn per hour.`,
    'Gender as recorded: women and men are compared; people with another recorded gender or none are counted apart and never assigned one.',
    'Gap = (men’s mean or median − women’s) ÷ men’s × 100. Variable-component gaps (b, d) are among those receiving any; per category (g) over every member.',
    'Quartile bands: women and men ranked by hourly pay, cut into four groups as equal as possible (lower bands take the remainder), ties spread evenly by sex.',
    `Groups with fewer than ${report.minimumGroup} women or men are withheld, and so is the smallest other category where needed so that withheld figures cannot be worked out from the rest.`,
    `A category is flagged for a joint pay assessment (Art. 10) when its mean gap, annual or hourly, is ${ASSESSMENT_THRESHOLD} % or more.`,
    'UK figures, per employer (legal entity): relevant employees employed on 5 April; hourly pay of full-pay relevant employees (not on leave that day) = base salary × FTE ÷ contractual hours a year; bonus pay = bonus, variable pay and commission in force (× FTE) plus one-off bonuses of the 12 months to the snapshot date; a report is required from 250 relevant employees.',
  ];
}

/** The report of a reference year: Article 9 and the UK figures, categories named. */
export async function payEquityReport(ctx: Pick<ServiceContext, 'db'>, scope: CompanyScope, options: ReportOptions): Promise<PayEquityReport> {
  const { db } = ctx;
  if (options.asOf && options.asOf.slice(0, 4) !== String(options.year)) {
    throw badRequest('The reference date must fall in the reference year.', [{ field: 'query.asOf', message: `is not in ${options.year}` }]);
  }
  const resolver = await categoryResolver(db, scope);
  const legalEntity = options.legalEntity;
  const year = await workersOfYear(db, scope, { year: options.year, asOf: options.asOf, hoursPerWeek: options.hoursPerWeek, categoryOf: resolver.categoryOf, legalEntity });
  const snapshotDate = `${options.year}-04-05`;
  const loadedUk = year.asOf >= snapshotDate ? year.loaded : undefined;
  const legalEntities = entitiesOf(year.loaded.employees, loadedUk ? undefined : (await payEquityEmployees(db, scope, { from: snapshotDate, to: snapshotDate })), { year: options.year, asOf: year.asOf, snapshotDate });
  if (legalEntity !== undefined && !legalEntities.some((entity) => entity.name === legalEntity)) {
    throw badRequest('No worker of the reference year works for that legal entity.', [{ field: 'query.legalEntity', message: `is not a legal entity of the ${options.year} workers (${legalEntities.flatMap((entity) => (entity.name === null ? [] : [entity.name])).join(', ') || 'none is recorded'})` }]);
  }
  const nine = articleNineReport(year.workers, { minimumGroup: options.minimumGroup });
  const uk = await ukWorkersOf(db, scope, { year: options.year, hoursPerWeek: options.hoursPerWeek, loaded: loadedUk, legalEntity });
  // This employer's assessments of the year: whether each flagged category's gap is still unexplained.
  const assessed = new Map((await listAssessments(db, scope, { year: options.year, legalEntity: legalEntity ?? null })).map((row) => [row.category_id, row]));
  const base = { year: options.year, from: year.from, to: year.to, asOf: year.asOf, currency: year.currency, annualHours: year.annualHours, minimumGroup: options.minimumGroup, legalEntity: legalEntity ?? null };
  return {
    ...nine,
    ...base,
    legalEntities,
    workers: year.workers.length,
    excluded: year.excluded,
    categories: nine.categories.map((category) => {
      const flagged = flaggedCategory(category);
      const row = assessed.get(category.categoryId);
      const assessment = row ? { id: row.id, status: row.status as AssessmentStatus, dueDate: String(row.due_date).slice(0, 10) } : null;
      return {
        ...category,
        categoryName: category.categoryId === 'uncategorised' ? 'Without a job family or level' : (resolver.nameOf(category.categoryId) ?? category.categoryId),
        flagged,
        assessment,
        unexplained: unexplainedGap(flagged, assessment?.status ?? null),
      };
    }),
    uk: { snapshotDate: uk.snapshotDate, ...ukReport(uk.workers, { minimumGroup: options.minimumGroup }) },
    method: methodOf(base),
  };
}
