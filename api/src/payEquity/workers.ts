import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { Converter } from '../money/converter.js';
import { TRACKS, findJobFamily, findLevel } from '../reference/catalog/index.js';
import { type PayEquityEmployee, type PayEquityRecord, payEquityCompanyCurrency, payEquityEmployees, payEquityRecords } from './peopleReads.js';
import type { PayWorker, Sex, UkWorker } from './engine.js';

/*
 * Pay components per worker — the one reader pay equity computes from. For a reference year it
 * takes everyone employed on at least one day of it (leavers included, contractors and hires still
 * to start not), their pay in force on the reference date (or on their last day, for a leaver) and
 * every one-off bonus dated in the year, converted into the company currency with the company's
 * own rates where it set them, else the ECB reference rates of the reference date.
 *
 * Ordinary basic wage = the base salary record. Complementary or variable components = bonus
 * (target as recorded), variable pay, commission, benefits (in kind, at their recorded annual
 * value) and one-off bonuses paid in the year. Equity grants are not pay of the year and are left
 * out (docs/pay-equity.md). Pay records are annual full-time-equivalent rates (a part-timer's pay is
 * recorded as its full-time equivalent, as the market and the bands compare it), so annual figures
 * compare full-time rates; a one-off bonus is an amount actually paid and is annualised to full
 * time (÷ fte). Hourly pay is the pay for the contractual hours (rate × fte) ÷ the contractual hours
 * a year: weekly hours × 52 where people data records them, else fte × the full-time hours.
 */

/** Full-time hours a week when none is given: a year of full-time work is 40 × 52 = 2,080 hours. */
export const DEFAULT_HOURS_PER_WEEK = 40;

export const ANNUAL_COMPONENTS = ['bonus_target', 'variable_pay', 'commission', 'benefits'] as const;
/** UK bonus pay: every component paid for performance, not benefits in kind. */
const UK_BONUS_COMPONENTS = ['bonus_target', 'variable_pay', 'commission'] as const;

/** The recorded gender as the Directive's sex: `woman`/`female`/`f` and `man`/`male`/`m` (any case); anything else recorded is `other`; nothing recorded `unknown`. */
export function sexOf(gender: string | null): Sex {
  if (gender === null || gender.trim() === '') return 'unknown';
  const value = gender.trim().toLowerCase();
  if (['woman', 'female', 'f', 'w'].includes(value)) return 'female';
  if (['man', 'male', 'm'].includes(value)) return 'male';
  return 'other';
}

/** The default category of workers: the job as family × level × track. */
export const defaultCategoryOf = (employee: Pick<PayEquityEmployee, 'jobFamilyId' | 'levelId' | 'track'>): string | null =>
  employee.jobFamilyId && employee.levelId ? `${employee.jobFamilyId}|${employee.levelId}|${employee.track ?? ''}` : null;

export function defaultCategoryName(categoryId: string): string {
  if (categoryId === 'uncategorised') return 'Without a job family or level';
  const [family, levelId, track] = categoryId.split('|');
  const familyName = findJobFamily(family ?? '')?.name ?? family ?? '';
  const level = findLevel(levelId ?? '');
  const trackTitle = TRACKS.find((entry) => entry.id === (track || level?.track))?.title;
  const levelName = level ? `${level.displayString} ${level.title}` : (levelId ?? '').toUpperCase();
  // e.g. "Software Engineering · P3 Career (Professional)"
  return `${familyName} · ${levelName}${trackTitle ? ` (${trackTitle})` : ''}`;
}

export interface WorkerPay extends PayWorker {
  employee: PayEquityEmployee;
  currency: string;
  /** Each component's annual amount in the company currency (major units). */
  components: Record<string, number>;
  /** The day pay was read on: the reference date, or a leaver's last day. */
  payDay: string;
}

export interface WorkersOfYear {
  currency: string;
  year: number;
  from: string;
  to: string;
  asOf: string;
  annualHours: number;
  workers: WorkerPay[];
  /** Employed in the year but left out: no base salary in force, or a currency without a rate. */
  excluded: { withoutBase: number; withoutRate: number };
  /** What was read, for the UK figures of the same year to reuse. */
  loaded: { employees: PayEquityEmployee[]; records: PayEquityRecord[] };
}

const min = (a: string, b: string): string => (a < b ? a : b);

function inForce(records: readonly PayEquityRecord[], type: string, on: string): PayEquityRecord | undefined {
  let found: PayEquityRecord | undefined;
  for (const record of records) if (record.type === type && record.effectiveDate <= on) found = record;
  return found;
}

function groupByEmployee(records: readonly PayEquityRecord[]): Map<string, PayEquityRecord[]> {
  const byEmployee = new Map<string, PayEquityRecord[]>();
  for (const record of records) {
    const list = byEmployee.get(record.employeeId) ?? [];
    list.push(record);
    byEmployee.set(record.employeeId, list);
  }
  return byEmployee;
}

/** Sums amounts converted to the company currency; null when one has no rate. */
async function convertedMajor(converter: Converter, records: readonly PayEquityRecord[], currency: string): Promise<number | null> {
  let total = 0;
  for (const record of records) {
    const converted = await converter.convert({ amount: record.amount, currency: record.currency }, currency);
    if (!converted) return null;
    total += converter.major(converted);
  }
  return total;
}

export interface WorkersOptions {
  year: number;
  /** The reference date pay is read on; the year's last day by default. */
  asOf?: string;
  /** Full-time hours a week (40 by default); a year is 52 weeks. */
  hoursPerWeek?: number;
  /** The category of each worker; family × level × track by default. */
  categoryOf?: (employee: PayEquityEmployee) => string | null;
  /** Only the workers of this legal entity; every entity when absent. */
  legalEntity?: string;
}

/** Contractual hours a year: weekly hours × 52 where recorded, else fte × the full-time hours a year. */
export const contractualAnnualHours = (employee: Pick<PayEquityEmployee, 'fte' | 'weeklyHours'>, fullTimeAnnualHours: number): number =>
  employee.weeklyHours !== null && employee.weeklyHours > 0 ? employee.weeklyHours * 52 : employee.fte * fullTimeAnnualHours;

/** Whether the employee works for the legal entity (every one when none is chosen). */
export const inEntity = (employee: Pick<PayEquityEmployee, 'legalEntity'>, legalEntity: string | undefined): boolean => legalEntity === undefined || employee.legalEntity === legalEntity;

/** Every worker of the year with their pay components in the company currency. */
export async function workersOfYear(db: Knex, scope: CompanyScope, options: WorkersOptions): Promise<WorkersOfYear> {
  const from = `${options.year}-01-01`;
  const to = `${options.year}-12-31`;
  const asOf = options.asOf ?? to;
  const annualHours = (options.hoursPerWeek ?? DEFAULT_HOURS_PER_WEEK) * 52;
  const currency = await payEquityCompanyCurrency(db, scope);
  const employees = await payEquityEmployees(db, scope, { from, to: asOf });
  const allRecords = await payEquityRecords(db, scope, to);
  const byEmployee = groupByEmployee(allRecords);
  const converter = await Converter.open(db, asOf, { scope });
  const categoryOf = options.categoryOf ?? defaultCategoryOf;
  const workers: WorkerPay[] = [];
  const excluded = { withoutBase: 0, withoutRate: 0 };
  for (const employee of employees) {
    if (!inEntity(employee, options.legalEntity)) continue;
    const records = byEmployee.get(employee.id) ?? [];
    const payDay = employee.terminationDate ? min(asOf, employee.terminationDate) : asOf;
    const base = inForce(records, 'base_salary', payDay);
    if (!base) {
      excluded.withoutBase += 1;
      continue;
    }
    const components: Record<string, number> = {};
    let failed = false;
    const parts: [string, PayEquityRecord[]][] = [['base_salary', [base]]];
    for (const type of ANNUAL_COMPONENTS) {
      const record = inForce(records, type, payDay);
      if (record) parts.push([type, [record]]);
    }
    parts.push(['one_off_bonus', records.filter((record) => record.type === 'one_off_bonus' && record.effectiveDate >= from && record.effectiveDate <= min(to, payDay))]);
    for (const [type, list] of parts) {
      const amount = await convertedMajor(converter, list, currency);
      if (amount === null) failed = true;
      else if (list.length > 0) components[type] = amount;
    }
    if (failed) {
      excluded.withoutRate += 1;
      continue;
    }
    // A one-off bonus is what was paid for the contractual hours: annualised to full time like the rates.
    const fte = employee.fte > 0 ? employee.fte : 1;
    if (components.one_off_bonus !== undefined) components.one_off_bonus /= fte;
    const baseAmount = components.base_salary ?? 0;
    const variable = Object.entries(components).reduce((sum, [type, amount]) => (type === 'base_salary' ? sum : sum + amount), 0);
    workers.push({
      employeeId: employee.id,
      sex: sexOf(employee.gender),
      categoryId: categoryOf(employee),
      base: baseAmount,
      variable,
      annualHours: contractualAnnualHours(employee, annualHours),
      fte,
      employee,
      currency,
      components,
      payDay,
    });
  }
  return { currency, year: options.year, from, to, asOf, annualHours, workers, excluded, loaded: { employees, records: allRecords } };
}

/**
 * The UK's relevant employees on the snapshot date (5 April of the year): employed that day. A
 * person on leave that day is not a full-pay relevant employee (counted for bonus, not for hourly
 * pay and quartiles). Hourly pay = ordinary pay for the contractual hours (base salary × fte) ÷
 * the contractual hours a year; bonus pay = bonus,
 * variable pay and commission in force on the snapshot date plus one-off bonuses of the 12 months
 * ending on it.
 */
export async function ukWorkersOf(
  db: Knex,
  scope: CompanyScope,
  options: { year: number; hoursPerWeek?: number; /** The same year's read (employees of the year, records to its end), reused. */ loaded?: WorkersOfYear['loaded']; /** The employer: one legal entity; every one when absent. */ legalEntity?: string },
): Promise<{ snapshotDate: string; currency: string; workers: UkWorker[] }> {
  const snapshotDate = `${options.year}-04-05`;
  const yearBefore = `${options.year - 1}-04-06`;
  const annualHours = (options.hoursPerWeek ?? DEFAULT_HOURS_PER_WEEK) * 52;
  const currency = await payEquityCompanyCurrency(db, scope);
  const employed = (employee: PayEquityEmployee) => inEntity(employee, options.legalEntity) && (employee.startDate === null || employee.startDate <= snapshotDate) && (employee.terminationDate === null || employee.terminationDate >= snapshotDate);
  const employees = (options.loaded?.employees ?? (await payEquityEmployees(db, scope, { from: snapshotDate, to: snapshotDate }))).filter(employed);
  const records = (options.loaded?.records ?? (await payEquityRecords(db, scope, snapshotDate))).filter((record) => record.effectiveDate <= snapshotDate);
  const byEmployee = groupByEmployee(records);
  const converter = await Converter.open(db, snapshotDate, { scope });
  const workers: UkWorker[] = [];
  for (const employee of employees) {
    const records = byEmployee.get(employee.id) ?? [];
    const base = inForce(records, 'base_salary', snapshotDate);
    if (!base) continue;
    const bonusRecords = UK_BONUS_COMPONENTS.map((type) => inForce(records, type, snapshotDate)).filter((record): record is PayEquityRecord => record !== undefined);
    const oneOff = records.filter((record) => record.type === 'one_off_bonus' && record.effectiveDate >= yearBefore && record.effectiveDate <= snapshotDate);
    const baseMajor = await convertedMajor(converter, [base], currency);
    // Bonus pay actually received: recurring targets are full-time rates (× fte), one-off bonuses as paid.
    const recurring = await convertedMajor(converter, bonusRecords, currency);
    const paid = await convertedMajor(converter, oneOff, currency);
    if (baseMajor === null || recurring === null || paid === null) continue;
    const bonus = recurring * employee.fte + paid;
    const onLeave = employee.leaveStartDate !== null && employee.leaveStartDate <= snapshotDate && (employee.leaveEndDate === null || employee.leaveEndDate >= snapshotDate);
    // Ordinary pay for the contractual hours (the full-time rate × fte) ÷ those hours.
    const hours = contractualAnnualHours(employee, annualHours);
    workers.push({ employeeId: employee.id, sex: sexOf(employee.gender), hourlyPay: hours > 0 ? (baseMajor * employee.fte) / hours : 0, bonus, fullPay: !onLeave });
  }
  return { snapshotDate, currency, workers };
}
