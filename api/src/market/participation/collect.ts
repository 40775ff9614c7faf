import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { findLocation } from '../catalog/index.js';
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
import { contributingEmployees, grantsOf, minorUnitsOf, participatingCompanies, payOn, type GrantRow, type PayRow } from './store.js';

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

/** The latest amount of each pay type in force, per employee (rows come newest first). */
function latestPay(rows: PayRow[]): Map<string, Map<string, PayRow>> {
  const pay = new Map<string, Map<string, PayRow>>();
  for (const row of rows) {
    let types = pay.get(row.employee_id);
    if (!types) pay.set(row.employee_id, (types = new Map()));
    if (!types.has(row.type)) types.set(row.type, row);
  }
  return pay;
}

function practicesOf(grants: GrantRow[]): Pick<ContributedParticipant, 'grantsEquity' | 'grantType' | 'vestingSchedule' | 'vestingCliff' | 'vestingFrequency' | 'grantTimings'> {
  const known = <T>(values: (T | null | undefined)[]): T[] => values.filter((v): v is T => v !== null && v !== undefined);
  return {
    grantsEquity: grants.length > 0,
    grantType: mode(known(grants.map((g) => GRANT_TYPE_OF[g.grant_type]))),
    vestingSchedule: mode(known(grants.map((g) => scheduleOfMonths(Number(g.vesting_months))))),
    vestingCliff: mode(known(grants.map((g) => cliffOfMonths(Number(g.cliff_months))))),
    vestingFrequency: mode(known(grants.map((g) => (['monthly', 'quarterly', 'annually'].includes(g.vesting_frequency) ? g.vesting_frequency : null)))),
    grantTimings: [...new Set(known(grants.map((g) => GRANT_TIMING_OF[g.reason])))].sort(),
  };
}

/**
 * What the opted-in companies contribute to a release built today: each one's active employees the
 * market can place, with the cash pay in force today in their metro's currency, and its equity
 * practice as its grants show it. Nothing that names a company or a person leaves this function.
 */
export async function collectContribution(db: Knex, releaseId: string, forex: Readonly<Record<string, number>>, day = new Date().toISOString().slice(0, 10)): Promise<{ contribution: Contribution; companyIds: string[] }> {
  const companies = await participatingCompanies(db);
  const ids = companies.map((c) => c.id);
  const employees = await contributingEmployees(db, ids);
  const pay = await payOn(db, ids, day);
  const grants = await grantsOf(db, ids);
  const minor = await minorUnitsOf(db);
  const payOf = latestPay(pay);
  const major = (row: PayRow | undefined): number | null => (row ? Number(row.amount) / 10 ** (minor.get(row.currency) ?? 2) : null);
  const recordsOf = new Map<string, { key: string; record: Omit<ContributedRecord, 'participant'> }[]>();
  for (const employee of employees) {
    const metro = findLocation(employee.location_id);
    const types = payOf.get(employee.id);
    const base = types?.get('base_salary');
    if (!metro || metro.kind !== 'metro' || !base) continue;
    const local = (row: PayRow | undefined): number | null => {
      const amount = major(row);
      const converted = amount === null || !row ? null : convert(amount, row.currency, metro.currencyCode, forex);
      return converted === null ? null : Math.round(converted);
    };
    const baseLocal = local(base);
    if (baseLocal === null) continue;
    const variableParts = [local(types?.get('variable_pay')), local(types?.get('commission'))].filter((v): v is number => v !== null && v > 0);
    const variable = variableParts.length ? variableParts.reduce((a, b) => a + b, 0) : null;
    const bonus = local(types?.get('bonus_target'));
    const annualBonus = bonus !== null && bonus > 0 ? bonus : null;
    const record = { jobFamilyId: employee.job_family_id, levelId: employee.level_id, locationId: metro.paybenchLocationId, base: baseLocal, variable, annualBonus, totalCash: baseLocal + (variable ?? 0) + (annualBonus ?? 0), newHireEquity: null };
    if (!isPlaceable(record)) continue;
    let list = recordsOf.get(employee.company_id);
    if (!list) recordsOf.set(employee.company_id, (list = []));
    list.push({ key: shuffleKey(releaseId, employee.id), record });
  }
  const contributing = companies.filter((c) => (recordsOf.get(c.id)?.length ?? 0) > 0).sort((a, b) => shuffleKey(releaseId, a.id).localeCompare(shuffleKey(releaseId, b.id)));
  const participants: ContributedParticipant[] = [];
  const records: ContributedRecord[] = [];
  contributing.forEach((company, participant) => {
    const list = (recordsOf.get(company.id) ?? []).sort((a, b) => a.key.localeCompare(b.key));
    for (const { record } of list) records.push({ participant, ...record });
    const valuation = company.valuation_minor === null ? null : convert(Number(company.valuation_minor) / 10 ** (minor.get(company.currency) ?? 2), company.currency, 'USD', forex);
    participants.push({
      participant,
      companyStage: company.company_stage,
      ownershipGroup: company.ownership_group,
      industry: company.industry,
      headquarters: mode(list.map((r) => r.record.locationId)) ?? list[0]!.record.locationId,
      valuationUsd: valuation ?? 0,
      ...practicesOf(grants.filter((g) => g.company_id === company.id)),
    });
  });
  return { contribution: { participants, records }, companyIds: contributing.map((c) => c.id) };
}
