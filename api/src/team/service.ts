import type { Caller } from '../access/caller.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { badRequest, notFound } from '../http/errors.js';
import { isWithinReach } from '../people/visibility.js';
import { requirePay, seesPay, teamAccess, type TeamAccess } from './access.js';
import { EQUITY_COLUMNS, type TeamColumn, columnInfo, isPayColumn } from './columns.js';
import { type Member, Team, payOf, vestingTerms } from './members.js';
import { today } from './money.js';
import { type TeamEmployeeRow, fullName, jobFamilyRef, levelRef, locationRef, presentGrantEntry, presentRecordColumn, presentTimelineEntry } from './present.js';
import { effectiveColumns } from './settings.js';
import { type TeamFilters, compensationInReach, compensationOf, directReportCount, employeeInReach, grantsOf } from './store.js';
import { fullyVestedDate, vestedSharesOn } from '../people/vesting.js';
import { endOfMonth, monthOf, monthsBetween } from './months.js';

type Schemas = components['schemas'];
type Status = Schemas['TeamStatusFilter'];

// ── overview ─────────────────────────────────────────────────────────────────────────────────

function breakdown(members: Member[], keyOf: (row: Member['row']) => string | null, labelOf: (id: string) => string): Schemas['TeamBreakdown'][] {
  const counts = new Map<string | null, number>();
  for (const member of members) {
    const key = keyOf(member.row);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .map(([id, count]) => ({ id, label: id === null ? 'Not set' : labelOf(id), count }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

async function payroll(team: Team): Promise<Schemas['TeamPayroll']> {
  const byCurrency = new Map<string, { employees: number; base: number; cash: number }>();
  for (const member of team.members) {
    const base = team.amountOf(member, 'base_salary');
    if (!member.pay || !base) continue;
    const cash = await team.totalCash(member);
    // Sums stay in the pay currency (the employee's), and each sum is converted once.
    const currency = cash?.currency ?? base.currency;
    const baseInPayCurrency = (await team.converter.convert(base, currency)) ?? base;
    const entry = byCurrency.get(currency) ?? { employees: 0, base: 0, cash: 0 };
    entry.employees += 1;
    entry.base += baseInPayCurrency.amount;
    entry.cash += cash?.amount ?? baseInPayCurrency.amount;
    byCurrency.set(currency, entry);
  }
  const target = team.companyCurrency;
  let base = 0;
  let cash = 0;
  let employees = 0;
  const unconverted: string[] = [];
  const lines: Schemas['TeamPayrollCurrency'][] = [];
  for (const [currency, entry] of [...byCurrency].sort(([a], [b]) => a.localeCompare(b))) {
    const convertedBase = await team.converter.convert({ amount: entry.base, currency }, target);
    const convertedCash = await team.converter.convert({ amount: entry.cash, currency }, target);
    if (convertedBase && convertedCash) {
      base += convertedBase.amount;
      cash += convertedCash.amount;
      employees += entry.employees;
    } else {
      unconverted.push(currency);
    }
    lines.push({
      currency,
      employees: entry.employees,
      annualBase: { amount: entry.base, currency },
      annualTotalCash: { amount: entry.cash, currency },
      convertedAnnualBase: convertedBase,
      convertedAnnualTotalCash: convertedCash,
    });
  }
  return {
    annualBase: { amount: base, currency: target },
    annualTotalCash: { amount: cash, currency: target },
    employees,
    byCurrency: lines,
    rates: team.converter.ratesUsed(),
    unconverted,
  };
}

async function compaSummary(team: Team): Promise<Schemas['TeamCompaRatioSummary']> {
  let sum = 0;
  let compared = 0;
  let insufficientData = 0;
  let unmatched = 0;
  for (const member of team.members) {
    if (!member.pay) continue;
    const compa = await team.compaRatio(member);
    if (compa.ratio !== null) {
      sum += compa.ratio;
      compared += 1;
    } else if (compa.label === 'Insufficient data') insufficientData += 1;
    else unmatched += 1;
  }
  return { average: compared ? sum / compared : null, compared, insufficientData, unmatched, releaseVersion: await team.releaseVersion() };
}

export async function overview(deps: AppDeps, caller: Caller, status: Status): Promise<Schemas['TeamOverview']> {
  const access = await teamAccess(deps.db, caller);
  const team = await Team.load(deps, access, { status }, { pay: true, grants: false });
  const members = team.members;
  const result: Schemas['TeamOverview'] = {
    headcount: members.length,
    currency: team.companyCurrency,
    byDepartment: breakdown(members, (row) => row.department, (id) => id),
    byLevel: breakdown(members, (row) => row.level_id, (id) => levelRef(id)?.name ?? id),
    byLocation: breakdown(members, (row) => row.location_id, (id) => locationRef(id)?.name ?? id),
    byJobFamily: breakdown(members, (row) => row.job_family_id, (id) => jobFamilyRef(id)?.name ?? id),
  };
  // Without the pay permission the pay figures are absent, never zero.
  if (seesPay(access)) {
    result.payroll = await payroll(team);
    result.compaRatio = await compaSummary(team);
  }
  return result;
}

// ── the table ────────────────────────────────────────────────────────────────────────────────

export interface TableQuery extends TeamFilters {
  sort?: TeamColumn;
  order: 'asc' | 'desc';
  columns?: TeamColumn[];
  limit: number;
  cursor?: string;
}

/** The pay columns of one row; nothing when the caller may not see this person's pay. */
async function payColumns(team: Team, member: Member, columns: TeamColumn[]): Promise<Partial<TeamEmployeeRow>> {
  if (!member.pay) return {};
  const out: Partial<TeamEmployeeRow> = {};
  const equity = columns.some((column) => EQUITY_COLUMNS.has(column)) ? await team.equity(member) : null;
  for (const column of columns) {
    switch (column) {
      case 'baseSalary':
        out.baseSalary = team.amountOf(member, 'base_salary');
        break;
      case 'bonusTarget':
        out.bonusTarget = team.amountOf(member, 'bonus_target');
        break;
      case 'variablePay':
        out.variablePay = team.amountOf(member, 'variable_pay');
        break;
      case 'commission':
        out.commission = team.amountOf(member, 'commission');
        break;
      case 'totalCash':
        out.totalCash = await team.totalCash(member);
        break;
      case 'compaRatio': {
        const compa = await team.compaRatio(member);
        out.compaRatio = { ratio: compa.ratio, marketP50: compa.marketP50, label: compa.label };
        break;
      }
      case 'grantedShares':
        if (equity) out.grantedShares = equity.granted;
        break;
      case 'vestedShares':
        if (equity) out.vestedShares = equity.vested;
        break;
      case 'equityValue':
        if (equity) out.equityValue = equity.value;
        break;
      case 'lastRaiseDate':
        out.lastRaiseDate = member.pay.lastRaiseDate;
        break;
      default:
        break;
    }
  }
  return out;
}

async function presentRow(team: Team, member: Member, columns: TeamColumn[]): Promise<TeamEmployeeRow> {
  const row: TeamEmployeeRow = { id: member.row.id };
  for (const column of columns) Object.assign(row, presentRecordColumn(member.row, column));
  return Object.assign(row, await payColumns(team, member, columns.filter(isPayColumn)));
}

type SortKey = string | number | null;

/** What a column sorts by: text case-insensitively, money by its value in the company currency. */
async function sortKey(team: Team, member: Member, column: TeamColumn): Promise<SortKey> {
  if (isPayColumn(column)) {
    if (!member.pay) return null;
    const money = async (type: Parameters<Team['amountOf']>[1]) => {
      const converted = await team.inCompanyCurrency(team.amountOf(member, type));
      return converted ? converted.amount : null;
    };
    switch (column) {
      case 'baseSalary':
        return money('base_salary');
      case 'bonusTarget':
        return money('bonus_target');
      case 'variablePay':
        return money('variable_pay');
      case 'commission':
        return money('commission');
      case 'totalCash':
        return (await team.measure(member, 'total_cash'))?.amount ?? null;
      case 'compaRatio':
        return (await team.compaRatio(member)).ratio;
      case 'grantedShares':
        return (await team.equity(member))?.granted ?? null;
      case 'vestedShares':
        return (await team.equity(member))?.vested ?? null;
      case 'equityValue':
        return (await team.equity(member))?.value.amount ?? null;
      case 'lastRaiseDate':
        return member.pay.lastRaiseDate;
      default:
        return null;
    }
  }
  const value = Object.values(presentRecordColumn(member.row, column))[0];
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') return 'name' in value ? value.name.toLowerCase() : null;
  return typeof value === 'string' ? value.toLowerCase() : value;
}

function compareKeys(a: SortKey, b: SortKey, order: 'asc' | 'desc'): number {
  // Empty values go last in either direction.
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const sign = order === 'asc' ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return sign * (a - b);
  return sign * String(a).localeCompare(String(b));
}

function parseCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw badRequest('The cursor is not one this server gave out', [{ field: 'query.cursor', message: 'is not a valid cursor' }]);
  return Number(cursor);
}

function refusePayQuery(access: TeamAccess, query: TableQuery): void {
  if (seesPay(access)) return;
  if (query.sort && isPayColumn(query.sort)) {
    throw badRequest(`Sorting by ${columnInfo(query.sort).label.toLowerCase()} needs the employeeCompensation permission`, [
      { field: 'query.sort', message: 'is a pay column; you may not see pay' },
    ]);
  }
}

export async function table(deps: AppDeps, caller: Caller, query: TableQuery): Promise<{ table: Schemas['TeamTable']; nextCursor: string | null }> {
  const access = await teamAccess(deps.db, caller);
  refusePayQuery(access, query);
  const offset = parseCursor(query.cursor);
  const payVisible = seesPay(access);
  const requested = query.columns?.length ? query.columns : await effectiveColumns(deps.db, access);
  // Pay columns the caller may not see are dropped, not filled with zeros.
  const columns = requested.filter((column) => payVisible || !isPayColumn(column));
  const sort = query.sort ?? 'name';
  const needsPay = payVisible && [...columns, sort].some(isPayColumn);
  const needsGrants = needsPay && [...columns, sort].some((column) => EQUITY_COLUMNS.has(column));
  const team = await Team.load(deps, access, query, { pay: needsPay, grants: needsGrants });
  // One after another: on Postgres a request's queries share one connection (its tenant transaction).
  const keyed: { member: (typeof team.members)[number]; key: Awaited<ReturnType<typeof sortKey>>; name: string }[] = [];
  for (const member of team.members) {
    keyed.push({ member, key: await sortKey(team, member, sort), name: fullName(member.row.first_name, member.row.last_name).toLowerCase() });
  }
  keyed.sort((a, b) => compareKeys(a.key, b.key, query.order) || a.name.localeCompare(b.name) || a.member.row.id.localeCompare(b.member.row.id));
  const page = keyed.slice(offset, offset + query.limit);
  team.priceOnly(page.map((entry) => entry.member));
  const rows = [];
  for (const entry of page) rows.push(await presentRow(team, entry.member, columns));
  const next = offset + query.limit < keyed.length ? String(offset + query.limit) : null;
  return { table: { columns: columns.map(columnInfo), total: keyed.length, rows }, nextCursor: next };
}

// ── one employee ───────────────────────────────────────────────────────────────────────────

/** The employee, if the caller's `team` reach covers them; anyone else (and other companies) is 404. */
async function reachable(deps: AppDeps, access: TeamAccess, employeeId: string) {
  const row = await employeeInReach(deps.db, access.scope, access.records, employeeId);
  if (!row) throw notFound();
  const payVisible = await isWithinReach(deps.db, access.scope, access.pay, employeeId);
  return { row, payVisible };
}

const ALL_COLUMNS: TeamColumn[] = [
  'name',
  'employeeNumber',
  'email',
  'title',
  'department',
  'jobFamily',
  'level',
  'track',
  'location',
  'country',
  'manager',
  'startDate',
  'employmentType',
  'status',
  'performanceRating',
  'baseSalary',
  'bonusTarget',
  'variablePay',
  'commission',
  'totalCash',
  'compaRatio',
  'grantedShares',
  'vestedShares',
  'equityValue',
  'lastRaiseDate',
];

export async function employee(deps: AppDeps, caller: Caller, employeeId: string): Promise<Schemas['TeamEmployeeDetail']> {
  const access = await teamAccess(deps.db, caller);
  const { row, payVisible } = await reachable(deps, access, employeeId);
  let pay = null;
  if (payVisible) {
    const records = (await compensationInReach(deps.db, access.scope, { kind: 'self', employeeId }, today())).filter((r) => r.employee_id === employeeId);
    pay = { ...payOf(records), grants: await grantsOf(deps.db, access.scope, employeeId) };
  }
  const team = await Team.ofOne(deps, access, row, pay);
  const member = team.members[0] as Member;
  const columns = ALL_COLUMNS.filter((column) => payVisible || !isPayColumn(column));
  return { employee: await presentRow(team, member, columns), payVisible, directReports: await directReportCount(deps.db, access.scope, employeeId) };
}

/** The per-employee pay endpoints: in `team` reach and in pay reach, else 404. */
async function payOfReachable(deps: AppDeps, caller: Caller, employeeId: string) {
  const access = await teamAccess(deps.db, caller);
  requirePay(access, 'This');
  const { row, payVisible } = await reachable(deps, access, employeeId);
  if (!payVisible) throw notFound();
  return { access, row };
}

export async function compTimeline(deps: AppDeps, caller: Caller, employeeId: string): Promise<Schemas['TeamCompTimeline']> {
  const { access } = await payOfReachable(deps, caller, employeeId);
  const records = await compensationOf(deps.db, access.scope, employeeId);
  const grants = await grantsOf(deps.db, access.scope, employeeId);
  const day = today();
  const previousOfType = new Map<string, (typeof records)[number]>();
  const entries: Schemas['TeamCompTimelineEntry'][] = [];
  for (const record of records) {
    entries.push(presentTimelineEntry(record, previousOfType.get(record.type)));
    previousOfType.set(record.type, record);
  }
  for (const grant of grants) entries.push(presentGrantEntry(grant));
  entries.sort((a, b) => a.date.localeCompare(b.date) || a.kind.localeCompare(b.kind) || a.id.localeCompare(b.id));
  const inForce = payOf(records.filter((record) => record.effective_date.slice(0, 10) <= day)).current;
  const current = [...inForce.values()]
    .filter((record): record is typeof record & { type: Schemas['TeamCompType'] } =>
      ['base_salary', 'bonus_target', 'variable_pay', 'commission', 'benefits'].includes(record.type),
    )
    .map((record) => ({ type: record.type, amount: { amount: record.amount, currency: record.currency }, effectiveDate: record.effective_date.slice(0, 10) }));
  return { employeeId, current, entries };
}

export async function equityDetailsChart(deps: AppDeps, caller: Caller, employeeId: string): Promise<Schemas['TeamEquityDetailsChart']> {
  const { access, row } = await payOfReachable(deps, caller, employeeId);
  const grants = await grantsOf(deps.db, access.scope, employeeId);
  const team = await Team.ofOne(deps, access, row, { current: new Map(), lastRaiseDate: null, grants });
  const day = today();
  const spreads = new Map<string, bigint | null>();
  for (const grant of grants) spreads.set(grant.id, await team.spreadMicros(grant));
  const amounts = (grant: (typeof grants)[number], date: string) => {
    const vested = vestedSharesOn(vestingTerms(grant), date);
    const spread = spreads.get(grant.id) ?? null;
    return {
      vestedShares: vested,
      unvestedShares: grant.shares - vested,
      vestedValue: team.valueOf(vested, spread),
      unvestedValue: team.valueOf(grant.shares - vested, spread),
    };
  };
  const sum = (parts: ReturnType<typeof amounts>[]) => ({
    vestedShares: parts.reduce((n, p) => n + p.vestedShares, 0),
    unvestedShares: parts.reduce((n, p) => n + p.unvestedShares, 0),
    vestedValue: { amount: parts.reduce((n, p) => n + p.vestedValue.amount, 0), currency: team.companyCurrency },
    unvestedValue: { amount: parts.reduce((n, p) => n + p.unvestedValue.amount, 0), currency: team.companyCurrency },
  });
  const presentedGrants = grants.map((grant) => ({
    id: grant.id,
    grantNumber: grant.grant_number,
    grantType: (['option', 'rsu', 'rsa', 'common_stock'].includes(grant.grant_type) ? grant.grant_type : 'option') as Schemas['TeamEquityGrant']['grantType'],
    reason: grant.reason,
    grantDate: grant.grant_date.slice(0, 10),
    shares: grant.shares,
    exercisePrice: grant.exercise_price === null ? null : grant.exercise_price / 10 ** team.converter.minorUnit(grant.currency),
    currency: grant.currency,
    vestingStartDate: grant.vesting_start_date.slice(0, 10),
    vestingMonths: grant.vesting_months,
    cliffMonths: grant.cliff_months,
    vestingFrequency: vestingTerms(grant).frequency,
    fullyVestedOn: fullyVestedDate(vestingTerms(grant)),
    today: amounts(grant, day),
  }));
  let months: Schemas['TeamEquityMonth'][] = [];
  if (grants.length) {
    const first = grants.map((grant) => monthOf(grant.vesting_start_date)).sort()[0] as string;
    const last = presentedGrants.map((grant) => monthOf(grant.fullyVestedOn)).sort().at(-1) as string;
    months = monthsBetween(first, last).map((month) => {
      const date = endOfMonth(month);
      const parts = grants.map((grant) => ({ grantId: grant.id, ...amounts(grant, date) }));
      return { month, ...sum(parts), grants: parts };
    });
  }
  return {
    employeeId,
    asOf: day,
    currency: team.companyCurrency,
    sharePrice: team.sharePriceMicros / 1_000_000,
    grants: presentedGrants,
    months,
    today: sum(presentedGrants.map((grant) => grant.today)),
  };
}

