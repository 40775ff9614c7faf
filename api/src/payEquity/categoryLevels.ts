import type { Knex } from 'knex';
import { mean, median, totalHourly } from './engine.js';
import { categoryResolver } from './categories.js';
import { defaultCategoryName, workersOfYear } from './workers.js';

/** The fewest women or men a category's pay levels are given for (docs/pay-equity.md). */
export const PUBLICATION_MINIMUM = 5;

export interface CategoryPayLevels {
  categoryId: string;
  categoryName: string;
  currency: string;
  /** per sex as recorded: 'female' | 'male'; null when the group is below the publication minimum */
  bySex: Record<'female' | 'male', { count: number; meanAnnual: number; meanHourly: number; medianAnnual: number; medianHourly: number } | null>;
}

export type PayLevelsOf = (employeeId: string) => { own: { annual: number; hourly: number; currency: string }; category: CategoryPayLevels } | null;

/**
 * Reads the year of `asOf` once and answers `categoryPayLevelsFor` for any of its workers: what
 * preparing (or checking) several answers of the same day needs.
 */
export async function payLevelsReader(db: Knex, options: { companyId: string; asOf: string /* YYYY-MM-DD */; publicationMinimum?: number }): Promise<PayLevelsOf> {
  const scope = { companyId: options.companyId };
  const resolver = await categoryResolver(db, scope);
  const year = await workersOfYear(db, scope, { year: Number(options.asOf.slice(0, 4)), asOf: options.asOf, categoryOf: resolver.categoryOf });
  const minimum = options.publicationMinimum ?? PUBLICATION_MINIMUM;
  return (employeeId) => {
    const own = year.workers.find((worker) => worker.employeeId === employeeId);
    if (!own || own.categoryId === null) return null;
    // Equal work with the same employer: the category's workers of the person's legal entity.
    const members = year.workers.filter((worker) => worker.categoryId === own.categoryId && worker.employee.legalEntity === own.employee.legalEntity);
    const levels = (sex: 'female' | 'male'): CategoryPayLevels['bySex']['female'] => {
      const group = members.filter((worker) => worker.sex === sex);
      if (group.length < minimum) return null;
      const annual = group.map((worker) => worker.base + worker.variable);
      const hourly = group.map(totalHourly);
      return { count: group.length, meanAnnual: mean(annual) ?? 0, meanHourly: mean(hourly) ?? 0, medianAnnual: median(annual) ?? 0, medianHourly: median(hourly) ?? 0 };
    };
    return {
      own: { annual: own.base + own.variable, hourly: totalHourly(own), currency: year.currency },
      category: { categoryId: own.categoryId, categoryName: resolver.nameOf(own.categoryId) ?? defaultCategoryName(own.categoryId), currency: year.currency, bySex: { female: levels('female'), male: levels('male') } },
    };
  };
}

/**
 * A worker's own pay level and the average pay levels by sex of their category of workers on a
 * day (what Article 7 of the Directive entitles them to know), amounts in major units of the
 * company currency, total pay (base + complementary and variable components) annual and hourly.
 * null when the person was not a worker with pay in force on that day.
 */
export async function categoryPayLevelsFor(
  db: Knex,
  options: {
    companyId: string;
    employeeId: string;
    asOf: string /* YYYY-MM-DD */;
    /** The fewest women or men a column is shown for; PUBLICATION_MINIMUM (5) unless the company chose another. */
    publicationMinimum?: number;
  },
): Promise<ReturnType<PayLevelsOf>> {
  return (await payLevelsReader(db, options))(options.employeeId);
}
