/*
 * The pay-gap engine: pure functions over workers' pay, no database. The Article 9 report of the
 * EU Pay Transparency Directive and the UK gender pay gap report are both computed here from the
 * same primitives (mean, median, gap, quartiles, suppression). docs/pay-equity.md states every
 * definition; the unit tests check each one on figures worked by hand.
 */

/** Gender as recorded, read as sex for the Directive: `female` and `male`; `other` (any other recorded value) and `unknown` (none recorded) are counted apart, never guessed. */
export type Sex = 'female' | 'male' | 'other' | 'unknown';

/** One worker of the reference period, pay in major units of the company currency. */
export interface PayWorker {
  employeeId: string;
  sex: Sex;
  categoryId: string | null;
  /** Ordinary basic wage for the year (full-time equivalent annual rate). */
  base: number;
  /** Complementary or variable components for the year (bonus, variable pay, commission, benefits in kind, one-off bonuses), annualised to full time. */
  variable: number;
  /** Contractual hours a year: weekly hours × 52, or FTE × the full-time hours a year. */
  annualHours: number;
  /** Full-time equivalent (1 when absent): the annual figures are full-time rates, the pay for the contractual hours is rate × fte. */
  fte?: number;
}

export interface Stats {
  count: number;
  mean: number | null;
  median: number | null;
}

export interface GapFigures {
  female: Stats;
  male: Stats;
  /** (male − female) ÷ male × 100, rounded to 0.01; null when a group is suppressed or the male figure is 0. */
  meanGap: number | null;
  medianGap: number | null;
}

export interface QuartileBand {
  /** 1 = lowest paid. */
  quartile: number;
  female: number;
  male: number;
  /** Percentages of the band, rounded to 0.01. */
  femaleShare: number;
  maleShare: number;
  /** Lowest and highest hourly pay in the band. */
  lowest: number | null;
  highest: number | null;
}

export const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);

/** The middle value; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The pay gap (Directive Art. 3(1)(c)): the difference between men's and women's pay as a percentage of men's. */
export function gap(male: number | null, female: number | null): number | null {
  if (male === null || female === null || male === 0) return null;
  return round2(((male - female) / male) * 100);
}

const statsOf = (values: readonly number[]): Stats => ({ count: values.length, mean: mean(values), median: median(values) });

/** Mean and median gap of `measure` between women and men; figures of a group smaller than `minimum` are withheld. */
export function gapFigures(workers: readonly PayWorker[], measure: (worker: PayWorker) => number, minimum: number): GapFigures {
  const female = workers.filter((worker) => worker.sex === 'female').map(measure);
  const male = workers.filter((worker) => worker.sex === 'male').map(measure);
  const shown = female.length >= minimum && male.length >= minimum;
  const f = shown ? statsOf(female) : { count: female.length, mean: null, median: null };
  const m = shown ? statsOf(male) : { count: male.length, mean: null, median: null };
  return { female: f, male: m, meanGap: gap(m.mean, f.mean), medianGap: gap(m.median, f.median) };
}

/**
 * The four pay quartile bands (Art. 3(1)(g), Art. 9(1)(f); the UK's quartiles): women and men
 * ranked by `measure`, lowest first, cut into four groups as equal as can be — when the count is
 * not a multiple of four the lower bands take one more each (n = 10: 3, 3, 2, 2). People paid the
 * same are spread evenly by sex across the run they form: within a tie the i-th of k women sorts at
 * (i + ½) ÷ k and the j-th of l men at (j + ½) ÷ l, so a tie cut by a band boundary is not put on
 * one side by sex.
 */
export function quartiles(workers: readonly PayWorker[], measure: (worker: PayWorker) => number): QuartileBand[] {
  const ranked = workers
    .filter((worker) => worker.sex === 'female' || worker.sex === 'male')
    .map((worker) => ({ sex: worker.sex, pay: measure(worker), id: worker.employeeId }))
    .sort((a, b) => a.pay - b.pay || a.id.localeCompare(b.id));
  // Spread each tie by sex.
  const ordered: typeof ranked = [];
  for (let start = 0; start < ranked.length; ) {
    let end = start;
    while (end < ranked.length && ranked[end]!.pay === ranked[start]!.pay) end += 1;
    const run = ranked.slice(start, end);
    const women = run.filter((entry) => entry.sex === 'female');
    const men = run.filter((entry) => entry.sex === 'male');
    const keyed = [...women.map((entry, i) => ({ entry, key: (i + 0.5) / women.length, order: 0 })), ...men.map((entry, j) => ({ entry, key: (j + 0.5) / men.length, order: 1 }))];
    keyed.sort((a, b) => a.key - b.key || a.order - b.order);
    ordered.push(...keyed.map((item) => item.entry));
    start = end;
  }
  const n = ordered.length;
  const bands: QuartileBand[] = [];
  let at = 0;
  for (let band = 0; band < 4; band += 1) {
    const size = Math.floor(n / 4) + (band < n % 4 ? 1 : 0);
    const members = ordered.slice(at, at + size);
    at += size;
    const female = members.filter((entry) => entry.sex === 'female').length;
    const male = members.length - female;
    bands.push({
      quartile: band + 1,
      female,
      male,
      femaleShare: members.length === 0 ? 0 : round2((female / members.length) * 100),
      maleShare: members.length === 0 ? 0 : round2((male / members.length) * 100),
      lowest: members.length === 0 ? null : members[0]!.pay,
      highest: members.length === 0 ? null : members[members.length - 1]!.pay,
    });
  }
  return bands;
}

/** Pay for the contractual hours of a year ÷ those hours: the full-time rate × fte ÷ contractual hours a year. */
const perHour = (worker: PayWorker, annualRate: number): number => (worker.annualHours > 0 ? (annualRate * (worker.fte ?? 1)) / worker.annualHours : 0);

export const totalAnnual = (worker: PayWorker): number => worker.base + worker.variable;
export const totalHourly = (worker: PayWorker): number => perHour(worker, worker.base + worker.variable);
export const baseAnnual = (worker: PayWorker): number => worker.base;
export const baseHourly = (worker: PayWorker): number => perHour(worker, worker.base);
export const variableAnnual = (worker: PayWorker): number => worker.variable;
export const variableHourly = (worker: PayWorker): number => perHour(worker, worker.variable);

export interface Counts {
  female: number;
  male: number;
  other: number;
  unknown: number;
}

export function countsOf(workers: readonly PayWorker[]): Counts {
  const counts: Counts = { female: 0, male: 0, other: 0, unknown: 0 };
  for (const worker of workers) counts[worker.sex] += 1;
  return counts;
}

export interface CategoryGap {
  categoryId: string;
  /** Withheld: fewer women or men than the minimum, or withheld with it so it cannot be worked out from the others. */
  suppressed: boolean;
  reason: 'below_minimum' | 'complementary' | null;
  /** null when suppressed. */
  counts: Counts | null;
  annual: { total: GapFigures; base: GapFigures; variable: GapFigures } | null;
  hourly: { total: GapFigures; base: GapFigures; variable: GapFigures } | null;
}

/**
 * Which categories to withhold: first every category with fewer than `minimum` women or fewer
 * than `minimum` men (primary); then, while the withheld categories together hold some but fewer
 * than `minimum` women or men — so that the company's figures minus the published categories'
 * would give a small group's pay — the smallest published category (by head count, then id) is
 * withheld too (complementary). Returns the reason per withheld category.
 */
export function suppression(groups: readonly { categoryId: string; counts: Counts }[], minimum: number): Map<string, 'below_minimum' | 'complementary'> {
  const withheld = new Map<string, 'below_minimum' | 'complementary'>();
  for (const group of groups) if (group.counts.female < minimum || group.counts.male < minimum) withheld.set(group.categoryId, 'below_minimum');
  const smallFirst = [...groups].sort((a, b) => a.counts.female + a.counts.male - (b.counts.female + b.counts.male) || a.categoryId.localeCompare(b.categoryId));
  for (;;) {
    const hidden = groups.filter((group) => withheld.has(group.categoryId));
    const women = hidden.reduce((sum, group) => sum + group.counts.female, 0);
    const men = hidden.reduce((sum, group) => sum + group.counts.male, 0);
    const exposed = (women > 0 && women < minimum) || (men > 0 && men < minimum);
    if (!exposed) break;
    const next = smallFirst.find((group) => !withheld.has(group.categoryId));
    if (!next) break;
    withheld.set(next.categoryId, 'complementary');
  }
  return withheld;
}

export interface ArticleNineReport {
  minimumGroup: number;
  counts: Counts;
  /** (a) mean and (c) median gap of total pay; base and variable apart. */
  annual: { total: GapFigures; base: GapFigures };
  hourly: { total: GapFigures; base: GapFigures };
  /** (b) mean and (d) median gap in complementary or variable components, among those who receive any. */
  variable: { annual: GapFigures; hourly: GapFigures };
  /** (e) percentage of women and of men receiving complementary or variable components. */
  receivingVariable: { female: number | null; male: number | null };
  /** (f) quartile bands by hourly total pay. */
  quartiles: QuartileBand[];
  /** (g) gap per category of workers, by ordinary basic wage and by complementary or variable components. */
  categories: CategoryGap[];
}

const share = (part: number, whole: number): number | null => (whole === 0 ? null : round2((part / whole) * 100));

function categoryFigures(members: readonly PayWorker[], minimum: number): Pick<CategoryGap, 'annual' | 'hourly'> {
  return {
    annual: { total: gapFigures(members, totalAnnual, minimum), base: gapFigures(members, baseAnnual, minimum), variable: gapFigures(members, variableAnnual, minimum) },
    hourly: { total: gapFigures(members, totalHourly, minimum), base: gapFigures(members, baseHourly, minimum), variable: gapFigures(members, variableHourly, minimum) },
  };
}

/** Every Article 9(1) indicator from the workers of the reference period. */
export function articleNineReport(workers: readonly PayWorker[], options: { minimumGroup: number }): ArticleNineReport {
  const minimum = options.minimumGroup;
  const counts = countsOf(workers);
  const recipients = workers.filter((worker) => worker.variable > 0);
  const womenReceiving = recipients.filter((worker) => worker.sex === 'female').length;
  const menReceiving = recipients.filter((worker) => worker.sex === 'male').length;
  const shown = counts.female >= minimum && counts.male >= minimum;
  const byCategory = new Map<string, PayWorker[]>();
  for (const worker of workers) {
    const key = worker.categoryId ?? 'uncategorised';
    const list = byCategory.get(key) ?? [];
    list.push(worker);
    byCategory.set(key, list);
  }
  const groups = [...byCategory.entries()].map(([categoryId, members]) => ({ categoryId, members, counts: countsOf(members) })).sort((a, b) => a.categoryId.localeCompare(b.categoryId));
  const withheld = suppression(groups, minimum);
  return {
    minimumGroup: minimum,
    counts,
    annual: { total: gapFigures(workers, totalAnnual, minimum), base: gapFigures(workers, baseAnnual, minimum) },
    hourly: { total: gapFigures(workers, totalHourly, minimum), base: gapFigures(workers, baseHourly, minimum) },
    variable: { annual: gapFigures(recipients, variableAnnual, minimum), hourly: gapFigures(recipients, variableHourly, minimum) },
    receivingVariable: shown ? { female: share(womenReceiving, counts.female), male: share(menReceiving, counts.male) } : { female: null, male: null },
    quartiles: shown ? quartiles(workers, totalHourly) : [],
    categories: groups.map((group) => {
      const reason = withheld.get(group.categoryId) ?? null;
      if (reason) return { categoryId: group.categoryId, suppressed: true, reason, counts: null, annual: null, hourly: null };
      return { categoryId: group.categoryId, suppressed: false, reason: null, counts: group.counts, ...categoryFigures(group.members, minimum) };
    }),
  };
}

/** A relevant employee on the UK snapshot date. */
export interface UkWorker {
  employeeId: string;
  sex: Sex;
  /** Ordinary pay per hour in the pay period of the snapshot date. */
  hourlyPay: number;
  /** Bonus pay in the 12 months ending on the snapshot date. */
  bonus: number;
  /** Not on reduced or nil pay for leave in the snapshot's pay period. */
  fullPay: boolean;
}

export interface UkReport {
  counts: Counts;
  fullPayCounts: Counts;
  /** Mean and median gap in hourly pay of full-pay relevant employees. */
  hourly: GapFigures;
  /** Mean and median bonus gap among relevant employees who received a bonus. */
  bonus: GapFigures;
  /** Percentage of relevant women and of relevant men who received a bonus. */
  receivingBonus: { female: number | null; male: number | null };
  /** Hourly-pay quartiles of full-pay relevant employees. */
  quartiles: QuartileBand[];
}

/** The UK gender pay gap figures (Equality Act 2010 (Gender Pay Gap Information) Regulations 2017), from the same primitives. */
export function ukReport(workers: readonly UkWorker[], options: { minimumGroup: number }): UkReport {
  const asPay = (worker: UkWorker): PayWorker => ({ employeeId: worker.employeeId, sex: worker.sex, categoryId: null, base: worker.hourlyPay, variable: worker.bonus, annualHours: 1 });
  const relevant = workers.map(asPay);
  const fullPay = workers.filter((worker) => worker.fullPay).map(asPay);
  const bonusReceivers = relevant.filter((worker) => worker.variable > 0);
  const counts = countsOf(relevant);
  const shown = counts.female >= options.minimumGroup && counts.male >= options.minimumGroup;
  return {
    counts,
    fullPayCounts: countsOf(fullPay),
    hourly: gapFigures(fullPay, baseAnnual, options.minimumGroup),
    bonus: gapFigures(bonusReceivers, variableAnnual, options.minimumGroup),
    receivingBonus: shown
      ? { female: share(bonusReceivers.filter((w) => w.sex === 'female').length, counts.female), male: share(bonusReceivers.filter((w) => w.sex === 'male').length, counts.male) }
      : { female: null, male: null },
    quartiles: countsOf(fullPay).female >= options.minimumGroup && countsOf(fullPay).male >= options.minimumGroup ? quartiles(fullPay, baseAnnual) : [],
  };
}

/** What the Directive asks of an employer of this size for this reference year (Art. 9(2)–(4)). */
export type DirectiveDuty = 'yearly' | 'every_three_years' | 'not_required';

export interface LegalEntitySummary {
  /** null: people data names no legal entity for these workers. */
  name: string | null;
  /** Head count employed on the reference date (part-timers count one each; contractors not): the size the Directive's thresholds are judged on. */
  workers: number;
  directive: DirectiveDuty;
  /** Head count of relevant employees on the UK snapshot date (5 April). */
  ukRelevantEmployees: number;
  /** The UK rules require a report from an employer with 250 or more relevant employees. */
  ukRequired: boolean;
}

/**
 * Art. 9(2)–(4): 250 or more workers report every year (first in 2027, on 2026); 150 to 249 every
 * three years (first in 2027); 100 to 149 every three years from 2031, on the reference year 2030.
 */
export function directiveDuty(workers: number, year: number): DirectiveDuty {
  if (workers >= 250) return 'yearly';
  if (workers >= 150) return 'every_three_years';
  if (workers >= 100 && year >= 2030) return 'every_three_years';
  return 'not_required';
}
