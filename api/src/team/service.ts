import type { Caller } from '../access/caller.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { keptReply } from '../http/keptJson.js';
import { isWithinReach } from '../people/visibility.js';
import { requirePay, seesPay, teamAccess, teamAccessOfGrants, type TeamAccess } from './access.js';
import { EQUITY_COLUMNS, type TeamColumn, columnInfo, isPayColumn, withCompTypes } from './columns.js';
import { compTypesOf } from '../compTypes/reads.js';
import { marketCellOf, marketMedians } from './market.js';
import { type Member, Team, byEmployee, payOf } from './members.js';
import { vestingOn, vestingTerms } from '../people/valuation.js';
import { Converter, today } from '../money/converter.js';
import { type TeamEmployeeRow, jobFamilyRef, levelRef, locationRef, presentGrantEntry, presentRecordColumn, presentTimelineEntry } from './present.js';
import { type TablePage, keptPage, peekPage } from './pages.js';
import { effectiveColumns } from './settings.js';
import {
  type CompanyEquityRow,
  type GrantRow,
  type OrderedId,
  type PayRecordType,
  type TableSortKey,
  type TeamFilters,
  type TextSortField,
  baseCells,
  companyEquity,
  compensationInReach,
  compensationOf,
  countMatching,
  directReportCount,
  distinctValues,
  employeeInReach,
  employeesByIds,
  grantsOf,
  grantsOfEmployees,
  orderedIds,
  payCurrencies,
} from './peopleReads.js';
import { fullyVestedDate } from '../people/vesting.js';
import { endOfMonth, monthOf, monthsBetween } from './months.js';
import type { ServiceContext } from '../kernel/operations.js';

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
  // A converter of its own, so the rates named are the payroll's alone.
  const converter = team.converter.fresh();
  const byCurrency = new Map<string, { employees: number; base: number; cash: number }>();
  for (const member of team.members) {
    const base = team.amountOf(member, 'base_salary');
    if (!member.pay || !base) continue;
    const cash = await team.totalCash(member);
    // Sums stay in the pay currency (the employee's), and each sum is converted once.
    const currency = cash?.currency ?? base.currency;
    const baseInPayCurrency = (await converter.convert(base, currency)) ?? base;
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
    const convertedBase = await converter.convert({ amount: entry.base, currency }, target);
    const convertedCash = await converter.convert({ amount: entry.cash, currency }, target);
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
    rates: converter.ratesUsed(),
    rateSource: converter.rateSource(),
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

export async function overview(ctx: Pick<ServiceContext, 'deps' | 'caller'>, status: Status): Promise<Schemas['TeamOverview']> {
  const { deps, caller } = ctx;
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
      case 'bandPosition':
        out.bandPosition = await team.bandPosition(member);
        break;
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
      case 'performanceRating':
        out.performanceRating = member.row.performance_rating;
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

/** Sorts whose keys need today's vesting and prices, or the live band set: keyed here, over the matching ids only. */
const KEYED_HERE: ReadonlySet<TeamColumn> = new Set(['vestedShares', 'equityValue', 'bandPosition']);

const TEXT_FIELDS: Partial<Record<TeamColumn, TextSortField>> = {
  name: 'name',
  employeeNumber: 'employee_number',
  email: 'email',
  title: 'title',
  department: 'department',
  track: 'track',
  country: 'country_code',
  manager: 'manager',
  employmentType: 'employment_type',
  status: 'status',
};

const MONEY_TYPES: Partial<Record<TeamColumn, PayRecordType[]>> = {
  baseSalary: ['base_salary'],
  bonusTarget: ['bonus_target'],
  variablePay: ['variable_pay'],
  commission: ['commission'],
  totalCash: ['base_salary', 'bonus_target', 'variable_pay', 'commission'],
};

const CATALOG_FIELDS = { jobFamily: ['job_family_id', jobFamilyRef], level: ['level_id', levelRef], location: ['location_id', locationRef] } as const;

/** Minor units of `from` → minor units of `to`, as a factor (null without a rate). */
async function conversionFactor(converter: Converter, from: string, to: string): Promise<number | null> {
  const rate = await converter.exactRate(from, to);
  if (!rate) return null;
  return (Number(rate.n) / Number(rate.d)) * 10 ** (converter.minorUnit(to) - converter.minorUnit(from));
}

/**
 * What the database sorts a column by: text case-insensitively, catalog references by their names
 * (ranked here, as the browser compares them), money by its value in the company currency, the
 * compa-ratio against the same market medians the column shows.
 */
async function tableSortKey(deps: AppDeps, access: TeamAccess, query: TableQuery, sort: TeamColumn, converter: Converter, companyCurrency: string): Promise<TableSortKey> {
  const db = deps.db;
  const day = converter.onOrBefore;
  const text = TEXT_FIELDS[sort];
  if (text) return { kind: 'text', field: text };
  if (sort === 'startDate') return { kind: 'startDate' };
  if (sort === 'performanceRating') return { kind: 'rating' };
  if (sort === 'lastRaiseDate') return { kind: 'lastRaise', day };
  if (sort === 'grantedShares') return { kind: 'grantedShares' };
  if (sort === 'jobFamily' || sort === 'level' || sort === 'location') {
    const [field, ref] = CATALOG_FIELDS[sort];
    const names = (await distinctValues(db, access.scope, access.records, query, field)).map((id) => ({ id, key: (ref(id)?.name ?? id).toLowerCase() }));
    names.sort((a, b) => a.key.localeCompare(b.key));
    const ranks = new Map<string, number>();
    names.forEach((entry, index) => {
      const previous = names[index - 1];
      ranks.set(entry.id, previous && previous.key.localeCompare(entry.key) === 0 ? (ranks.get(previous.id) ?? index) : index);
    });
    return { kind: 'rank', field, ranks };
  }
  const types = MONEY_TYPES[sort];
  if (types) {
    const factors = new Map<string, number>();
    for (const currency of await payCurrencies(db, access.scope, types)) {
      const factor = await conversionFactor(converter, currency, companyCurrency);
      if (factor !== null) factors.set(currency, factor);
    }
    return { kind: 'money', types, day, factors };
  }
  // compaRatio: base ÷ the cell's published p50, the base converted into the cell's currency first.
  const cells = await baseCells(db, access.scope, access.records, query, day);
  const priced = cells.flatMap((row) => {
    const cell = marketCellOf(row);
    return cell ? [{ cell, currency: row.currency }] : [];
  });
  const medians = await marketMedians(deps, priced.map((entry) => entry.cell));
  const published = new Map<string, { currency: string; perMinorUnit: number }>();
  const rates = new Map<string, number>();
  for (const { cell, currency } of priced) {
    const median = medians.of(cell);
    if (median.status !== 'published') continue;
    published.set(`${cell.jobFamilyId}|${cell.levelId}|${cell.locationId}`, { currency: median.currency, perMinorUnit: 1 / median.p50 / 10 ** converter.minorUnit(median.currency) });
    const pair = `${currency}>${median.currency}`;
    if (rates.has(pair)) continue;
    const factor = await conversionFactor(converter.market(), currency, median.currency);
    if (factor !== null) rates.set(pair, factor);
  }
  return { kind: 'compaRatio', day, cells: published, rates };
}

/** The key of each employee in pay reach: equity from the people module's vesting, band position from the live set. */
async function keysInPay(deps: AppDeps, access: TeamAccess, sort: TeamColumn, ordered: OrderedId[], given: { converter: Converter; company: CompanyEquityRow }): Promise<Map<string, number | null>> {
  const inPay = ordered.filter((entry) => entry.inPay);
  const keys = new Map<string, number | null>();
  if (sort === 'bandPosition') {
    const team = await Team.ofRows(deps, access, await employeesByIds(deps.db, access.scope, inPay.map((entry) => entry.id)), { pay: true, grants: false, ...given });
    for (const member of team.members) keys.set(member.row.id, (await team.bandPosition(member))?.compaRatio ?? null);
    return keys;
  }
  const grants = new Map<string, GrantRow[]>();
  byEmployee(grants, await grantsOfEmployees(deps.db, access.scope, inPay.map((entry) => entry.id)));
  // A team of no one: only its valuation of grants (today's prices and rates) is used.
  const team = await Team.ofRows(deps, access, [], { pay: false, grants: false, ...given });
  for (const entry of inPay) {
    const equity = await team.equityOf(grants.get(entry.id) ?? [], entry.holder);
    keys.set(entry.id, sort === 'vestedShares' ? equity.vested : equity.value.amount);
  }
  return keys;
}

/** Vested shares, equity value and band position: every matching id in name order, keyed here, then sorted (stably). */
async function keyedHere(deps: AppDeps, access: TeamAccess, query: TableQuery, sort: TeamColumn, given: { converter: Converter; company: CompanyEquityRow }, offset: number): Promise<string[]> {
  const ordered = await orderedIds(deps.db, access.scope, access, query, { sort: { key: null, order: 'asc' }, window: null });
  const keys = await keysInPay(deps, access, sort, ordered, given);
  const keyed = ordered.map((entry) => ({ id: entry.id, key: keys.get(entry.id) ?? null }));
  const sign = query.order === 'asc' ? 1 : -1;
  // Empty values go last in either direction; ties keep the name order.
  keyed.sort((a, b) => (a.key === null || b.key === null ? (a.key === b.key ? 0 : a.key === null ? 1 : -1) : sign * (a.key - b.key)));
  return keyed.slice(offset, offset + query.limit).map((entry) => entry.id);
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

/** The table's reply per kept page: one object, so the router sends the bytes of its first serialisation again. */
const replies = new WeakMap<TablePage, TableReply>();

export interface TableReply {
  data: Schemas['TeamTable'];
  page: { limit: number; nextCursor: string | null };
}

/** Without columns asked for, a page shows the caller's own choice (team view settings): theirs alone. */
const questionOf = (caller: Caller, query: TableQuery): unknown => (query.columns?.length ? query : { ...query, columnsOf: caller.userId });

/**
 * One page of the table. The database filters, counts, sorts and pages (the cursor is the offset);
 * only the page's employees are read in full, with their pay and market cells.
 */
export async function table(ctx: Pick<ServiceContext, 'deps' | 'caller'>, query: TableQuery): Promise<TableReply> {
  const { deps, caller } = ctx;
  const access = await teamAccess(deps.db, caller);
  refusePayQuery(access, query);
  const page = await keptPage(deps, access, questionOf(caller, query), async () => {
    const fresh = await tablePage(deps, access, query);
    // The company's comp type settings name the pay columns (and drop a switched-off type's). Kept
    // with the page: the settings are data, so a change to them is a commit that ends the page.
    const types = await compTypesOf(deps.db, access.scope);
    return { ...fresh, table: { ...fresh.table, columns: withCompTypes(fresh.table.columns, types) } };
  });
  return replyOf(page, query);
}

/**
 * The page the node keeps for the question, when the caller's grants alone decide their reach (so
 * nothing needs reading to know which page is theirs); undefined otherwise, and `table` answers.
 */
export async function keptTable(ctx: Pick<ServiceContext, 'deps' | 'caller'>, query: TableQuery): Promise<TableReply | undefined> {
  const { deps, caller } = ctx;
  const access = teamAccessOfGrants(caller);
  if (!access) return undefined;
  refusePayQuery(access, query);
  const page = await peekPage(deps, access, questionOf(caller, query));
  return page && replyOf(page, query);
}

/** The same page object is the same question (its limit included): the same reply. */
function replyOf(page: TablePage, query: TableQuery): TableReply {
  let reply = replies.get(page);
  if (!reply) {
    reply = keptReply({ data: page.table, page: { limit: query.limit, nextCursor: page.nextCursor } });
    replies.set(page, reply);
  }
  return reply;
}

async function tablePage(deps: AppDeps, access: TeamAccess, query: TableQuery): Promise<TablePage> {
  const offset = parseCursor(query.cursor);
  const payVisible = seesPay(access);
  const requested = query.columns?.length ? query.columns : await effectiveColumns(deps.db, access);
  // Pay columns the caller may not see are dropped, not filled with zeros.
  const columns = requested.filter((column) => payVisible || !isPayColumn(column));
  const sort = query.sort ?? 'name';
  const converter = await Converter.open(deps.db, today(), { scope: access.scope });
  const company = await companyEquity(deps.db, access.scope);
  if (!company) throw notFound();
  // One after another: on Postgres a request's queries share one connection (its tenant transaction).
  const total = await countMatching(deps.db, access.scope, access.records, query);
  const ids = KEYED_HERE.has(sort)
    ? await keyedHere(deps, access, query, sort, { converter, company }, offset)
    : (
        await orderedIds(
          deps.db,
          access.scope,
          access,
          query,
          {
            sort: { key: sort === 'name' ? null : await tableSortKey(deps, access, query, sort, converter, company.currency), order: query.order },
            window: { offset, limit: query.limit },
          },
        )
      ).map((entry) => entry.id);
  const byId = new Map((await employeesByIds(deps.db, access.scope, ids)).map((row) => [row.id, row]));
  const rows = ids.flatMap((id) => byId.get(id) ?? []);
  const needsPay = payVisible && columns.some(isPayColumn);
  const team = await Team.ofRows(deps, access, rows, { pay: needsPay, grants: needsPay && columns.some((column) => EQUITY_COLUMNS.has(column)), converter, company });
  const presented = [];
  for (const member of team.members) presented.push(await presentRow(team, member, columns));
  const next = offset + query.limit < total ? String(offset + query.limit) : null;
  return { table: { columns: columns.map(columnInfo), total, rows: presented }, nextCursor: next };
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
  'bandPosition',
  'grantedShares',
  'vestedShares',
  'equityValue',
  'lastRaiseDate',
];

export async function employee(ctx: Pick<ServiceContext, 'deps' | 'caller'>, employeeId: string): Promise<Schemas['TeamEmployeeDetail']> {
  const { deps, caller } = ctx;
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

export async function compTimeline(ctx: Pick<ServiceContext, 'deps' | 'caller'>, employeeId: string): Promise<Schemas['TeamCompTimeline']> {
  const { deps, caller } = ctx;
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

export async function equityDetailsChart(ctx: Pick<ServiceContext, 'deps' | 'caller'>, employeeId: string): Promise<Schemas['TeamEquityDetailsChart']> {
  const { deps, caller } = ctx;
  const { access, row } = await payOfReachable(deps, caller, employeeId);
  const grants = await grantsOf(deps.db, access.scope, employeeId);
  const team = await Team.ofOne(deps, access, row, { current: new Map(), lastRaiseDate: null, grants });
  const day = today();
  const spreads = new Map<string, bigint | null>();
  for (const grant of grants) spreads.set(grant.id, await team.valuation.spreadMicros(grant));
  const amounts = (grant: (typeof grants)[number], date: string) => {
    const vested = vestingOn(grant, row, date).vestedShares;
    const spread = spreads.get(grant.id) ?? null;
    return {
      vestedShares: vested,
      unvestedShares: grant.shares - vested,
      vestedValue: team.valuation.valueOf(vested, spread),
      unvestedValue: team.valuation.valueOf(grant.shares - vested, spread),
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

