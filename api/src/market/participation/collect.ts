import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { type MinorUnits, minorUnits } from '../../money/minorUnits.js';
import { isoDate } from '../../money/rateStore.js';
import { countryLocation, findJobFamily, findLevel, findLocation, type Location } from '../../reference/catalog/index.js';
import {
  GRANT_TIMING_OF,
  GRANT_TYPE_OF,
  cliffOfMonths,
  isPlaceable,
  scheduleOfMonths,
  type ContributedParticipant,
  type ContributedRecord,
  type Contribution,
} from './contribution.js';
import { type ContributingEmployeeRow, contributingEmployees, grantsOf, payOn, type GrantRow, type PayRow } from '../../people/reads/contributions.js';
import { participatingCompanies } from './store.js';
import type { MarketEmploymentType } from '../engine/participants.js';
import { personTag } from '../engine/disclosure/recordKeys.js';
import { personTagsOf } from './persons.js';

/** A stable order that says nothing about when a company or employee was created. */
const shuffleKey = (salt: string, id: string): string => createHash('sha256').update(`${salt}:${id}`).digest('hex');

function mode<T>(values: T[]): T | null {
  const counts = new Map<T, number>();
  let best: T | null = null;
  for (const value of values) {
    const n = (counts.get(value) ?? 0) + 1;
    counts.set(value, n);
    if (best === null || n > (counts.get(best) ?? 0)) best = value;
  }
  return best;
}

/** Units of `to` for an amount of `from` through the USD mapping (units per USD); null without a rate. */
function convert(amount: number, from: string, to: string, forex: Readonly<Record<string, number>>): number | null {
  if (from === to) return amount;
  const fromRate = from === 'USD' ? 1 : forex[from];
  const toRate = to === 'USD' ? 1 : forex[to];
  return fromRate && toRate ? (amount / fromRate) * toRate : null;
}

/** The pay in force (one row per employee and type) by employee. */
function latestPay(rows: PayRow[]): Map<string, Map<string, PayRow>> {
  const pay = new Map<string, Map<string, PayRow>>();
  for (const row of rows) {
    let types = pay.get(row.employee_id);
    if (!types) pay.set(row.employee_id, (types = new Map()));
    types.set(row.type, row);
  }
  return pay;
}

/**
 * A company's equity practice from its grants. Whether it has a programme at all is what it said,
 * else what its grants show; a company that said nothing and has no grants imported is unknown, not
 * "no programme".
 */
function practicesOf(
  grants: GrantRow[],
  said: string | null,
): Pick<ContributedParticipant, 'grantsEquity' | 'equityProgrammeKnown' | 'grantType' | 'vestingSchedule' | 'vestingCliff' | 'vestingFrequency' | 'grantTimings'> {
  const known = <T>(values: (T | null | undefined)[]): T[] => values.filter((v): v is T => v !== null && v !== undefined);
  return {
    grantsEquity: grants.length > 0 || said === 'yes',
    equityProgrammeKnown: grants.length > 0 || said === 'yes' || said === 'no',
    grantType: mode(known(grants.map((g) => GRANT_TYPE_OF[g.grant_type]))),
    vestingSchedule: mode(known(grants.map((g) => scheduleOfMonths(Number(g.vesting_months))))),
    vestingCliff: mode(known(grants.map((g) => cliffOfMonths(Number(g.cliff_months))))),
    vestingFrequency: mode(known(grants.map((g) => (['monthly', 'quarterly', 'annually'].includes(g.vesting_frequency) ? g.vesting_frequency : null)))),
    grantTimings: [...new Set(known(grants.map((g) => GRANT_TIMING_OF[g.reason])))].sort(),
  };
}

/** Pay set longer ago than this is not today's market: it is left out rather than presented as current. */
export const PAY_MAX_AGE_MONTHS = 24;

/**
 * Pay in force is aged from the day it was set to the build day at this yearly rate, as survey
 * publishers age their data to one effective date (about what salary budgets have been in recent
 * years); pay set more than PAY_MAX_AGE_MONTHS before is left out instead.
 */
export const PAY_AGING_RATE = 0.035;

/** How much pay set on `from` has grown by `to` at PAY_AGING_RATE a year. */
export function agingFactor(from: string, to: string): number {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
  return days > 0 ? (1 + PAY_AGING_RATE) ** (days / 365.25) : 1;
}

/** The day `months` before an ISO day. */
function monthsBefore(day: string, months: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.toISOString().slice(0, 10);
}

/** Why an active employee adds nothing to a release; each is counted and shown to their company. */
export const EXCLUSION_REASONS = {
  intern: 'An intern (the market is the pay of employees, and of contractors on request)',
  part_time: 'Part-time (no full-time equivalent is recorded to annualise the pay)',
  no_job_family_or_level: 'No job family or level from the market catalog',
  no_location: 'No location or country from the market catalog',
  no_base_salary: 'No positive base salary in force',
  stale_pay: `Base salary last set more than ${PAY_MAX_AGE_MONTHS} months before the build`,
  no_exchange_rate: 'Pay in a currency without a reference rate',
} as const;
export type ExclusionReason = keyof typeof EXCLUSION_REASONS;

/** What a company does so that an employee left out for each reason counts (shown where people data comes in). */
export const EXCLUSION_FIXES: Readonly<Record<ExclusionReason, string>> = {
  intern: 'Nothing to fix: interns are never part of the market.',
  part_time: 'Nothing to fix yet: the market has no full-time equivalent to annualise part-time pay, so part-time employees are left out; import them as full-time only if they are.',
  no_job_family_or_level: 'Give them a job family and level from the market catalog (the Job family and Level columns).',
  no_location: 'Give them a location or country the market catalog knows (the Location or Country column).',
  no_base_salary: 'Import their annual base salary (the Base salary column).',
  stale_pay: `Import each salary with the day it was last set (the Pay effective date column): without one, a new employee's pay is dated from their start date. Pay unchanged for more than ${PAY_MAX_AGE_MONTHS} months stays out.`,
  no_exchange_rate: 'Pay them in a currency with a reference rate, or ask support to load rates for their pay currency; pay in US dollars or euros counts anywhere.',
};

type Placement = { record: Omit<ContributedRecord, 'participant'> } | { reason: ExclusionReason };

/**
 * Where the market places an employee: at their metro when their location is a catalog metro, else
 * at their country, at country level — the country of their location (a country, or a US tier), or
 * else the one their country code names. Every ISO 3166-1 country is one; undefined only when
 * neither names a country.
 */
export function placeOf(employee: Pick<ContributingEmployeeRow, 'location_id' | 'country_code'>): Location | undefined {
  const location = employee.location_id ? findLocation(employee.location_id) : undefined;
  if (location?.kind === 'metro') return location;
  const country = location?.country ? countryLocation(location.country) : undefined;
  return country ?? (employee.country_code ? countryLocation(employee.country_code) : undefined);
}

/** Whether the reference rates convert a currency: the market compares places through USD. */
const hasRate = (currency: string, forex: Readonly<Record<string, number>>): boolean => currency === 'USD' || (forex[currency] ?? 0) > 0;

/**
 * The currency a place's records are kept in: its own, or US dollars where the reference rates do
 * not convert its own (the naira, the hryvnia, …), so pay in dollars, euros or any currency with a
 * rate still counts there. The rule depends on the rates alone, so every record of a place agrees.
 */
export const recordCurrencyOf = (placeCurrency: string, forex: Readonly<Record<string, number>>): string => (hasRate(placeCurrency, forex) ? placeCurrency : 'USD');

/**
 * What one active employee contributes (pay in force, aged to the build day and converted into the
 * currency of their place), or why they cannot be placed.
 */
function placeEmployee(
  employee: ContributingEmployeeRow,
  types: Map<string, PayRow> | undefined,
  minor: MinorUnits,
  forex: Readonly<Record<string, number>>,
  day: string,
): Placement {
  if (employee.employment_type === 'intern') return { reason: 'intern' };
  if (employee.employment_type === 'part_time') return { reason: 'part_time' };
  if (!employee.job_family_id || !employee.level_id || !findJobFamily(employee.job_family_id) || !findLevel(employee.level_id)) return { reason: 'no_job_family_or_level' };
  const place = placeOf(employee);
  if (!place) return { reason: 'no_location' };
  const base = types?.get('base_salary');
  if (!base || !(Number(base.amount) > 0)) return { reason: 'no_base_salary' };
  if (isoDate(base.effective_date) < monthsBefore(day, PAY_MAX_AGE_MONTHS)) return { reason: 'stale_pay' };
  // Converted from the currency the pay is in: only pay in a currency without a rate is left out.
  const currency = recordCurrencyOf(place.currencyCode, forex);
  const local = (row: PayRow | undefined): number | null => {
    if (!row) return null;
    const aged = (Number(row.amount) / 10 ** minor.of(row.currency)) * agingFactor(isoDate(row.effective_date), day);
    const converted = convert(aged, row.currency, currency, forex);
    return converted === null ? null : Math.round(converted);
  };
  const baseLocal = local(base);
  if (baseLocal === null) return { reason: 'no_exchange_rate' };
  const variableParts = [local(types?.get('variable_pay')), local(types?.get('commission'))].filter((v): v is number => v !== null && v > 0);
  const variable = variableParts.length ? variableParts.reduce((a, b) => a + b, 0) : null;
  const bonus = local(types?.get('bonus_target'));
  const annualBonus = bonus !== null && bonus > 0 ? bonus : null;
  const employmentType: MarketEmploymentType = employee.employment_type === 'contractor' ? 'contractor' : 'employee';
  const record = {
    jobFamilyId: employee.job_family_id,
    levelId: employee.level_id,
    locationId: place.paybenchLocationId,
    employmentType,
    ...(currency === place.currencyCode ? {} : { currency }),
    base: baseLocal,
    variable,
    annualBonus,
    totalCash: baseLocal + (variable ?? 0) + (annualBonus ?? 0),
    newHireEquity: null,
  };
  // A base that rounds to nothing in the place's currency places nowhere.
  return isPlaceable(record) ? { record } : { reason: 'no_base_salary' };
}

/**
 * Why a release built on `day` would leave each of these active employees out, counted by reason —
 * the same rules as the build, for people data that is not (or not yet) stored, like an import's
 * planned rows. `pay`: the pay in force on `day`, one row per employee and type.
 */
export function exclusionsAmong(input: {
  employees: ContributingEmployeeRow[];
  pay: PayRow[];
  minor: MinorUnits;
  forex: Readonly<Record<string, number>>;
  day: string;
}): Map<ExclusionReason, number> {
  const payOf = latestPay(input.pay);
  const excluded = new Map<ExclusionReason, number>();
  for (const employee of input.employees) {
    const placed = placeEmployee(employee, payOf.get(employee.id), input.minor, input.forex, input.day);
    if ('reason' in placed) excluded.set(placed.reason, (excluded.get(placed.reason) ?? 0) + 1);
  }
  return excluded;
}

/** Every active employee of these companies with their placement, and the currencies' minor units read for it. */
async function placeEmployees(
  db: Knex,
  companyIds: string[],
  forex: Readonly<Record<string, number>>,
  day: string,
): Promise<{ placements: { employee: ContributingEmployeeRow; placed: Placement }[]; minor: MinorUnits }> {
  const employees = await contributingEmployees(db, companyIds);
  const payOf = latestPay(await payOn(db, companyIds, day));
  const minor = await minorUnits(db);
  return { placements: employees.map((employee) => ({ employee, placed: placeEmployee(employee, payOf.get(employee.id), minor, forex, day) })), minor };
}

/** How a company's active employees would go into a release built today: how many are contributed, and why the others are not. */
export async function companyCoverage(
  db: Knex,
  companyId: string,
  forex: Readonly<Record<string, number>>,
  day = new Date().toISOString().slice(0, 10),
): Promise<{ contributed: number; excluded: Map<ExclusionReason, number> }> {
  let contributed = 0;
  const excluded = new Map<ExclusionReason, number>();
  for (const { placed } of (await placeEmployees(db, [companyId], forex, day)).placements) {
    if ('record' in placed) contributed += 1;
    else excluded.set(placed.reason, (excluded.get(placed.reason) ?? 0) + 1);
  }
  return { contributed, excluded };
}

/**
 * What the opted-in companies contribute to a release built today: each one's active employees the
 * market can place, with the cash pay in force today in their place's currency, and its equity
 * practice as its grants show it. Nothing that names a company or a person leaves this function.
 */
export async function collectContribution(
  db: Knex,
  releaseId: string,
  forex: Readonly<Record<string, number>>,
  options: { day?: string; disclosureKey?: Uint8Array } = {},
): Promise<{ contribution: Contribution; companyIds: string[] }> {
  const day = options.day ?? new Date().toISOString().slice(0, 10);
  const { disclosureKey } = options;
  const companies = await participatingCompanies(db);
  const ids = companies.map((c) => c.id);
  const { placements, minor } = await placeEmployees(db, ids, forex, day);
  const grants = await grantsOf(db, ids);
  // Who each person is across re-imports (personKeys.ts): their tag survives new employee ids.
  const tags = disclosureKey ? await personTagsOf(db, ids, disclosureKey) : null;
  const recordsOf = new Map<string, { key: string; record: Omit<ContributedRecord, 'participant'> }[]>();
  for (const { employee, placed } of placements) {
    if (!('record' in placed)) continue;
    const { record } = placed;
    let list = recordsOf.get(employee.company_id);
    if (!list) recordsOf.set(employee.company_id, (list = []));
    // Who the record is, as a keyed tag the release carries instead of any id: their move stays theirs across releases.
    const person = disclosureKey ? { person: tags?.get(employee.id) ?? personTag(disclosureKey, employee.company_id, employee.id) } : {};
    list.push({ key: shuffleKey(releaseId, employee.id), record: { ...record, ...person } });
  }
  const contributing = companies.filter((c) => (recordsOf.get(c.id)?.length ?? 0) > 0).sort((a, b) => shuffleKey(releaseId, a.id).localeCompare(shuffleKey(releaseId, b.id)));
  const participants: ContributedParticipant[] = [];
  const records: ContributedRecord[] = [];
  contributing.forEach((company, participant) => {
    const list = (recordsOf.get(company.id) ?? []).sort((a, b) => a.key.localeCompare(b.key));
    for (const { record } of list) records.push({ participant, ...record });
    const valuation = company.valuation_minor === null ? null : convert(Number(company.valuation_minor) / 10 ** minor.of(company.currency), company.currency, 'USD', forex);
    participants.push({
      participant,
      companyStage: company.company_stage,
      ownershipGroup: company.ownership_group,
      industry: company.industry,
      headquarters: mode(list.map((r) => r.record.locationId)) ?? list[0]!.record.locationId,
      valuationUsd: valuation ?? 0,
      ...practicesOf(
        grants.filter((g) => g.company_id === company.id),
        company.equity_programme,
      ),
    });
  });
  return { contribution: { participants, records }, companyIds: contributing.map((c) => c.id) };
}
