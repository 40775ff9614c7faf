import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { findCompany } from '../access/usersStore.js';
import { newId } from '../db/ids.js';
import { type Rational, round } from '../money/rational.js';
import { Converter } from '../money/converter.js';
import { type CompensationRecordRow, type EquityGrantRow, insertGrants, insertRecords } from './store.js';

/*
 * The people side of closing a merit cycle (api/src/meritCycles/close.ts): the new base salaries and
 * the one-off bonuses (lump sums), dated the cycle's effective date, written into the pay history,
 * and the equity refreshes as grants, all in the caller's transaction. Writing is idempotent: a
 * record already there for that employee, type and day with the same amount and currency (a refresh
 * grant of the cycle with the same shares) counts as written, so closing again writes nothing twice;
 * a different one is a conflict the caller reports, never overwritten.
 */

export interface MeritPayChange {
  employeeId: string;
  /** The new annual base, or the bonus paid once; minor units of `currency`. */
  type?: 'base_salary' | 'one_off_bonus';
  amount: number;
  currency: string;
  effectiveDate: string;
  reason: 'merit' | 'promotion';
}

export interface MeritPayConflict {
  employeeId: string;
  type: 'base_salary' | 'one_off_bonus';
  existing: { amount: number; currency: string };
  wanted: { amount: number; currency: string };
}

export interface MeritPayResult {
  written: number;
  /** Already recorded exactly so (an earlier close). */
  unchanged: number;
  /** Employees no longer in people data. */
  gone: number;
  conflicts: MeritPayConflict[];
  /** The records written, for the caller's audit entries. */
  records: { recordId: string; employeeId: string; type: 'base_salary' | 'one_off_bonus'; amount: number; currency: string; reason: string }[];
}

const CHUNK = 500;

/**
 * Writes the changes, all or nothing, with `trx`: nothing is written when any change conflicts with
 * a record already there (the caller rolls back and reports them). The caller audits the records
 * written (a cycle's close writes thousands: its audit entries list them in batches).
 */
export async function writeMeritCyclePay(trx: Knex, scope: CompanyScope, changes: readonly MeritPayChange[]): Promise<MeritPayResult> {
  const result: MeritPayResult = { written: 0, unchanged: 0, gone: 0, conflicts: [], records: [] };
  const ids = changes.map((change) => change.employeeId);
  const present = new Set<string>();
  const existing = new Map<string, { amount: number; currency: string }>();
  const days = [...new Set(changes.map((change) => change.effectiveDate))];
  const types = [...new Set(changes.map((change) => change.type ?? 'base_salary'))];
  for (let at = 0; at < ids.length; at += CHUNK) {
    const slice = ids.slice(at, at + CHUNK);
    const employees = (await trx('employees').where({ company_id: scope.companyId }).whereIn('id', slice).select('id')) as { id: string }[];
    for (const row of employees) present.add(row.id);
    const records = (await trx('compensation_records')
      .where({ company_id: scope.companyId })
      .whereIn('type', types)
      .whereIn('effective_date', days)
      .whereIn('employee_id', slice)
      .select('employee_id', 'type', 'effective_date', 'amount', 'currency')) as { employee_id: string; type: string; effective_date: string; amount: number | string; currency: string }[];
    for (const row of records) existing.set(`${row.employee_id}|${row.type}|${row.effective_date}`, { amount: Number(row.amount), currency: row.currency });
  }
  const now = new Date().toISOString();
  const rows: CompensationRecordRow[] = [];
  for (const change of changes) {
    if (!present.has(change.employeeId)) {
      result.gone += 1;
      continue;
    }
    const type = change.type ?? 'base_salary';
    const there = existing.get(`${change.employeeId}|${type}|${change.effectiveDate}`);
    if (there) {
      if (there.amount === change.amount && there.currency === change.currency) result.unchanged += 1;
      else result.conflicts.push({ employeeId: change.employeeId, type, existing: there, wanted: { amount: change.amount, currency: change.currency } });
      continue;
    }
    rows.push({
      id: newId(),
      company_id: scope.companyId,
      employee_id: change.employeeId,
      type,
      amount: change.amount,
      currency: change.currency,
      percent_of_base_bp: null,
      effective_date: change.effectiveDate,
      reason: change.reason,
      source: 'merit_cycle',
      version: 1,
      created_at: now,
      updated_at: now,
    });
  }
  if (result.conflicts.length) return result;
  await insertRecords(trx, rows);
  result.written = rows.length;
  result.records = rows.map((row) => ({ recordId: row.id, employeeId: row.employee_id, type: row.type === 'one_off_bonus' ? 'one_off_bonus' : 'base_salary', amount: row.amount, currency: row.currency, reason: row.reason ?? 'merit' }));
  return result;
}

// ---- equity refreshes ---------------------------------------------------------------------------

export interface MeritRefresh {
  employeeId: string;
  /** The refresh's value, minor units of `currency` (the employee's). */
  amount: number;
  currency: string;
  grantDate: string;
}

export interface MeritGrantResult {
  written: number;
  unchanged: number;
  gone: number;
  /** Why no grant can be sized (no share price, no rate into the share currency); nothing written. */
  refused: string | null;
  conflicts: { employeeId: string; existingShares: number; wantedShares: number }[];
  grants: { grantId: string; grantNumber: string; employeeId: string; shares: number }[];
}

const MICROS = 1_000_000n;
/** A refresh grant: RSUs, four years monthly after a one-year cliff, from the grant date. */
const REFRESH_TERMS = { grant_type: 'rsu', vesting_months: 48, cliff_months: 12, vesting_frequency: 'monthly' } as const;

/**
 * Each refresh as an RSU grant (reason `refresher`, source `merit_cycle`) of whole shares: its value
 * converted into the company's share currency at the reference rate on or before the grant date,
 * divided by the share price, rounded down (a share is never granted beyond the value).
 */
export async function writeMeritCycleGrants(trx: Knex, scope: CompanyScope, refreshes: readonly MeritRefresh[]): Promise<MeritGrantResult> {
  const result: MeritGrantResult = { written: 0, unchanged: 0, gone: 0, refused: null, conflicts: [], grants: [] };
  if (!refreshes.length) return result;
  const company = await findCompany(trx, scope);
  const priceMicros = BigInt(company?.share_price_micros ?? 0);
  if (!company || priceMicros <= 0n) return { ...result, refused: "The company has no share price, so equity refreshes cannot be granted as shares; set it in the company's settings." };
  const shareCurrency = company.currency;
  const converters = new Map<string, Converter>();
  const sharesOf = async (refresh: MeritRefresh): Promise<number | null> => {
    let converter = converters.get(refresh.grantDate);
    if (!converter) {
      converter = await Converter.open(trx, refresh.grantDate);
      converters.set(refresh.grantDate, converter);
    }
    const rate: Rational | null = await converter.exactRate(refresh.currency, shareCurrency);
    if (!rate) return null;
    // value in millionths of the share currency ÷ price in millionths, rounded down.
    const valueMicros: Rational = { n: BigInt(refresh.amount) * rate.n * MICROS, d: rate.d * 10n ** BigInt(converter.minorUnit(refresh.currency)) };
    return Number(round({ n: valueMicros.n, d: valueMicros.d * priceMicros }, 'down'));
  };
  const ids = refreshes.map((refresh) => refresh.employeeId);
  const present = new Set<string>();
  const existing = new Map<string, number>();
  const days = [...new Set(refreshes.map((refresh) => refresh.grantDate))];
  for (let at = 0; at < ids.length; at += CHUNK) {
    const slice = ids.slice(at, at + CHUNK);
    for (const row of (await trx('employees').where({ company_id: scope.companyId }).whereIn('id', slice).select('id')) as { id: string }[]) present.add(row.id);
    const grants = (await trx('equity_grants')
      .where({ company_id: scope.companyId, source: 'merit_cycle', reason: 'refresher' })
      .whereIn('grant_date', days)
      .whereIn('employee_id', slice)
      .select('employee_id', 'grant_date', 'shares')) as { employee_id: string; grant_date: string; shares: number | string }[];
    for (const row of grants) existing.set(`${row.employee_id}|${row.grant_date}`, Number(row.shares));
  }
  const now = new Date().toISOString();
  const rows: EquityGrantRow[] = [];
  for (const refresh of refreshes) {
    if (!present.has(refresh.employeeId)) {
      result.gone += 1;
      continue;
    }
    const shares = await sharesOf(refresh);
    if (shares === null) return { ...result, refused: `No reference exchange rate from ${refresh.currency} to ${shareCurrency} on or before ${refresh.grantDate}, so equity refreshes in ${refresh.currency} cannot be granted as shares.` };
    if (shares <= 0) continue;
    const there = existing.get(`${refresh.employeeId}|${refresh.grantDate}`);
    if (there !== undefined) {
      if (there === shares) result.unchanged += 1;
      else result.conflicts.push({ employeeId: refresh.employeeId, existingShares: there, wantedShares: shares });
      continue;
    }
    rows.push({
      id: newId(),
      company_id: scope.companyId,
      employee_id: refresh.employeeId,
      grant_number: `R-${newId().replace(/-/g, '').slice(-12).toUpperCase()}`,
      ...REFRESH_TERMS,
      reason: 'refresher',
      shares,
      exercise_price: null,
      currency: shareCurrency,
      grant_date: refresh.grantDate,
      vesting_start_date: refresh.grantDate,
      source: 'merit_cycle',
      version: 1,
      created_at: now,
      updated_at: now,
    });
  }
  if (result.conflicts.length) return result;
  await insertGrants(trx, rows);
  result.written = rows.length;
  result.grants = rows.map((row) => ({ grantId: row.id, grantNumber: row.grant_number, employeeId: row.employee_id, shares: row.shares }));
  return result;
}
