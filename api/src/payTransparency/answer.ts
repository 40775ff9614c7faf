import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { minorUnitOf } from '../money/minorUnits.js';
// One definition of a category and its pay: pay equity's (docs/pay-equity.md).
import { type PayLevelsOf, payLevelsReader } from '../payEquity/categoryLevels.js';
import { DEFAULT_HOURS_PER_WEEK } from '../payEquity/workers.js';
import { type TransparencyRules, transparencyRules } from './settings.js';

export type PayInformationAnswer = components['schemas']['PayInformationAnswer'];

/** The company's rules and the pay levels of one day, read once. */
export interface AnswerReader {
  asOf: string;
  rules: TransparencyRules;
  levelsOf: PayLevelsOf;
}

export async function answerReader(db: Knex, scope: CompanyScope, asOf: string): Promise<AnswerReader> {
  const rules = await transparencyRules(db, scope);
  return { asOf, rules, levelsOf: await payLevelsReader(db, { companyId: scope.companyId, asOf, publicationMinimum: rules.publicationMinimum }) };
}

/**
 * What an answer tells, without the day it was prepared on or the words around it: two answers
 * with the same figures are the same answer. An answer whose figures differ from the ones people
 * data gives today is stale.
 */
export function answerFigures(answer: PayInformationAnswer): string {
  return JSON.stringify([answer.currency, answer.own, answer.categoryName, answer.bySex, answer.publicationMinimum, answer.withheld]);
}

/** Amounts to the currency's minor unit, hourly ones to cents. */
const round = (value: number, decimals: number): number => Math.round(value * 10 ** decimals) / 10 ** decimals;

const NO_CRITERIA = 'The company has not written down its pay-setting criteria yet: ask HR how your pay and its progression are set.';

/**
 * The answer to a request, prepared from people data on `asOf`: the employee's own pay level, the
 * average pay levels of women and men in their category (mean and median, annual and hourly), and
 * the company's pay-setting criteria (Article 6). What cannot be shown says why.
 */
export async function prepareAnswer(db: Knex, scope: CompanyScope, options: { employeeId: string; asOf: string; /** The day's pay levels read once for several answers (`answerReader`). */ reader?: AnswerReader }): Promise<PayInformationAnswer> {
  const reader = options.reader ?? (await answerReader(db, scope, options.asOf));
  const minimum = reader.rules.publicationMinimum;
  const rules = reader.rules;
  const levels = reader.levelsOf(options.employeeId);
  const year = options.asOf.slice(0, 4);
  const method =
    `Your category is the people whose work is of equal value to yours: the same job (family, level and track), or jobs with equal points in the company's job evaluation; everyone employed in ${year} up to ${options.asOf} counts, a leaver with their pay on their last day. ` +
    `Pay is base salary plus the complementary and variable components in force on ${options.asOf} — bonus target, variable pay, commission and benefits in kind at their recorded annual value — and every one-off bonus paid in ${year}, converted into the company’s currency; equity grants are not counted. ` +
    `Annual figures are the full-time-equivalent annual rates people data records (a part-timer's pay as its full-time equivalent) and one-off bonuses ÷ FTE; hourly figures are what the contractual hours pay over those hours: the annual rate × FTE ÷ (contractual hours a week × 52, or FTE × ${DEFAULT_HOURS_PER_WEEK} hours × 52 weeks = FTE × ${DEFAULT_HOURS_PER_WEEK * 52} hours when no hours are recorded). ` +
    `Women and men are counted as recorded in people data; averages of fewer than ${minimum} people are not shown, so that no colleague's pay can be told from them.`;
  const criteria = rules.criteria.trim() || NO_CRITERIA;
  if (!levels) {
    return {
      asOf: options.asOf,
      currency: '',
      own: null,
      categoryName: null,
      bySex: { female: null, male: null },
      publicationMinimum: minimum,
      criteria,
      withheld: 'People data holds no job family and level, or no pay in force, for you on this day: HR completes your record and answers in person.',
      method,
    };
  }
  const decimals = (await minorUnitOf(db, levels.own.currency)) ?? 2;
  const money = (value: number): number => round(value, decimals);
  const hourly = (value: number): number => round(value, 2);
  const column = (sex: 'female' | 'male'): PayInformationAnswer['bySex']['female'] => {
    const group = levels.category.bySex[sex];
    return group && { count: group.count, meanAnnual: money(group.meanAnnual), meanHourly: hourly(group.meanHourly), medianAnnual: money(group.medianAnnual), medianHourly: hourly(group.medianHourly) };
  };
  const small = (['female', 'male'] as const).filter((sex) => levels.category.bySex[sex] === null).map((sex) => (sex === 'female' ? 'women' : 'men'));
  return {
    asOf: options.asOf,
    currency: levels.own.currency,
    own: { annual: money(levels.own.annual), hourly: hourly(levels.own.hourly) },
    categoryName: levels.category.categoryName,
    bySex: { female: column('female'), male: column('male') },
    publicationMinimum: minimum,
    criteria,
    withheld: small.length ? `The average pay of ${small.join(' and ')} in your category is not shown: fewer than ${minimum} people.` : null,
    method,
  };
}
