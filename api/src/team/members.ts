import type { Knex } from 'knex';
import type { AppDeps } from '../deps.js';
import { notFound } from '../kernel/errors.js';
import type { TeamAccess } from './access.js';
import { seesPay } from './access.js';
import { type MarketMedians, type MarketCell, marketCellOf, marketMedians } from './market.js';
import { Converter, type Money, today } from '../money/converter.js';
import {
  type CompanyEquityRow,
  type CompensationRow,
  type EmployeeRow,
  type GrantRow,
  type TeamFilters,
  companyEquity,
  compensationInReach,
  compensationOfEmployees,
  employeesInReach,
  grantsInReach,
  grantsOfEmployees,
  idsInReach,
} from './peopleReads.js';
import { latestByType } from '../people/reads/payInForce.js';
import { EquityValuation, type Holder, vestingOn } from '../people/valuation.js';
import { type BandPlacer, type BandPosition, liveBandPlacer } from '../bands/positions.js';

export type CompType = 'base_salary' | 'bonus_target' | 'variable_pay' | 'commission' | 'benefits';
const CASH_TYPES: CompType[] = ['base_salary', 'bonus_target', 'variable_pay', 'commission'];

/** An employee's pay as of today, for those whose pay the caller may see. */
export interface MemberPay {
  current: Map<string, CompensationRow>;
  lastRaiseDate: string | null;
  grants: GrantRow[];
}

export interface Member {
  row: EmployeeRow;
  /** null: the caller may not see this person's pay. */
  pay: MemberPay | null;
}

export interface CompaRatio {
  ratio: number | null;
  marketP50: Money | null;
  label: string | null;
  cell: MarketCell | null;
}

/** From records up to the day, oldest first: the pay in force (people's rule) and the day of the last base increase. */
export function payOf(records: CompensationRow[]): Omit<MemberPay, 'grants'> {
  let lastRaiseDate: string | null = null;
  let before: CompensationRow | undefined;
  for (const record of records) {
    if (record.type !== 'base_salary') continue;
    if (before && before.currency === record.currency && record.amount > before.amount) lastRaiseDate = record.effective_date.slice(0, 10);
    before = record;
  }
  return { current: latestByType(records), lastRaiseDate };
}

/** Appends each row to its employee's list, keeping their order. */
export function byEmployee<T extends { employee_id: string }>(lists: Map<string, T[]>, rows: T[]): void {
  for (const row of rows) {
    const list = lists.get(row.employee_id);
    if (list) list.push(row);
    else lists.set(row.employee_id, [row]);
  }
}

/** An employee's pay from their records in force and their grants. */
const payFrom = (records: Map<string, CompensationRow[]>, grants: Map<string, GrantRow[]>, id: string): MemberPay => ({ ...payOf(records.get(id) ?? []), grants: grants.get(id) ?? [] });

/**
 * The team as the caller may see it, loaded once per request: records for everyone in reach, pay
 * for those the pay permission reaches, and lazily the market and the equity prices.
 */
export class Team {
  // Promises, not values: rows are priced concurrently and must share one market look-up.
  private medians: Promise<MarketMedians> | undefined;
  private bands: Promise<BandPlacer | null> | undefined;

  private constructor(
    readonly deps: AppDeps,
    readonly access: TeamAccess,
    readonly members: Member[],
    readonly converter: Converter,
    /** The people module's valuation of grants, at the company's prices and today's rates. */
    readonly valuation: EquityValuation,
  ) {}

  get companyCurrency(): string {
    return this.valuation.currency;
  }

  get db(): Knex {
    return this.deps.db;
  }

  static async load(deps: AppDeps, access: TeamAccess, filters: TeamFilters, options: { pay: boolean; grants: boolean }): Promise<Team> {
    const db = deps.db;
    const day = today();
    const rows = await employeesInReach(db, access.scope, access.records, filters);
    const withPay = options.pay && seesPay(access);
    const payIds = withPay ? (access.pay.kind === access.records.kind ? null : await idsInReach(db, access.scope, access.pay)) : new Set<string>();
    const records = new Map<string, CompensationRow[]>();
    const grants = new Map<string, GrantRow[]>();
    if (withPay) {
      byEmployee(records, await compensationInReach(db, access.scope, access.pay, day));
      if (options.grants) byEmployee(grants, await grantsInReach(db, access.scope, access.pay));
    }
    const members = rows.map((row): Member => {
      const visible = withPay && (payIds === null || payIds.has(row.id));
      return { row, pay: visible ? payFrom(records, grants, row.id) : null };
    });
    return Team.assemble(deps, access, members, {});
  }

  /**
   * The employees of one table page (already in `team` reach): their pay only where the pay reach
   * covers them, read for these employees alone.
   */
  static async ofRows(
    deps: AppDeps,
    access: TeamAccess,
    rows: EmployeeRow[],
    options: { pay: boolean; grants: boolean; converter?: Converter; company?: CompanyEquityRow },
  ): Promise<Team> {
    const db = deps.db;
    const day = today();
    const withPay = options.pay && seesPay(access) && rows.length > 0;
    const ids = rows.map((row) => row.id);
    const payIds = withPay ? (access.pay.kind === access.records.kind ? new Set(ids) : await idsInReach(db, access.scope, access.pay, ids)) : new Set<string>();
    const records = new Map<string, CompensationRow[]>();
    const grants = new Map<string, GrantRow[]>();
    if (payIds.size) {
      byEmployee(records, await compensationOfEmployees(db, access.scope, [...payIds], day));
      if (options.grants) byEmployee(grants, await grantsOfEmployees(db, access.scope, [...payIds]));
    }
    const members = rows.map((row): Member => ({ row, pay: payIds.has(row.id) ? payFrom(records, grants, row.id) : null }));
    return Team.assemble(deps, access, members, options);
  }

  /** A team of one (the per-employee endpoints), already checked to be in reach. */
  static async ofOne(deps: AppDeps, access: TeamAccess, row: EmployeeRow, pay: MemberPay | null): Promise<Team> {
    return Team.assemble(deps, access, [{ row, pay }], {});
  }

  /** The members with today's converter and the company's currency and equity prices (read unless given). */
  private static async assemble(deps: AppDeps, access: TeamAccess, members: Member[], given: { converter?: Converter; company?: CompanyEquityRow }): Promise<Team> {
    const company = given.company ?? (await companyEquity(deps.db, access.scope));
    if (!company) throw notFound();
    // The company's own money: its own rates where it has set them.
    const converter = given.converter ?? (await Converter.open(deps.db, today(), { scope: access.scope }));
    return new Team(deps, access, members, converter, EquityValuation.of(company, converter));
  }

  // ── cash ─────────────────────────────────────────────────────────────────────────────────

  amountOf(member: Member, type: CompType): Money | null {
    const record = member.pay?.current.get(type);
    return record ? { amount: record.amount, currency: record.currency } : null;
  }

  /** Base, bonus target, variable pay and commission, in the employee's pay currency. */
  async totalCash(member: Member): Promise<Money | null> {
    if (!member.pay) return null;
    const currency = member.row.currency;
    let total = 0;
    let any = false;
    for (const type of CASH_TYPES) {
      const amount = this.amountOf(member, type);
      if (!amount) continue;
      const converted = await this.converter.convert(amount, currency);
      if (!converted) return null;
      total += converted.amount;
      any = true;
    }
    return any ? { amount: total, currency } : null;
  }

  /** A pay measure in the company currency (for sorting, distributions and sums). */
  async inCompanyCurrency(amount: Money | null): Promise<Money | null> {
    return amount ? this.converter.convert(amount, this.companyCurrency) : null;
  }

  async measure(member: Member, measure: 'base_salary' | 'total_cash'): Promise<Money | null> {
    return this.inCompanyCurrency(measure === 'base_salary' ? this.amountOf(member, 'base_salary') : await this.totalCash(member));
  }

  // ── market ───────────────────────────────────────────────────────────────────────────────

  private market(): Promise<MarketMedians> {
    this.medians ??= marketMedians(
      this.deps,
      this.members.filter((member) => member.pay).map((member) => marketCellOf(member.row)),
    );
    return this.medians;
  }

  async releaseVersion(): Promise<string> {
    return (await this.market()).releaseVersion;
  }

  /** Base ÷ the market p50 of the employee's family × level × location (in the cell's currency). */
  async compaRatio(member: Member): Promise<CompaRatio> {
    const cell = marketCellOf(member.row);
    const median = (await this.market()).of(cell);
    if (median.status !== 'published') return { ratio: null, marketP50: null, label: median.label, cell };
    const marketP50 = { amount: Math.round(median.p50 * 10 ** this.converter.minorUnit(median.currency)), currency: median.currency };
    const base = this.amountOf(member, 'base_salary');
    if (!base) return { ratio: null, marketP50, label: 'No base salary', cell };
    // Compared with the market at the reference rates the market is priced at.
    const inMarketCurrency = await this.converter.market().convert(base, median.currency);
    if (!inMarketCurrency) return { ratio: null, marketP50, label: 'No exchange rate', cell };
    return { ratio: this.converter.major(inMarketCurrency) / median.p50, marketP50, label: null, cell };
  }

  // ── bands ────────────────────────────────────────────────────────────────────────────────

  /** Where the base sits in the live band set; null while the company has none (read once per request). */
  async bandPosition(member: Member): Promise<BandPosition | null> {
    this.bands ??= liveBandPlacer(this.db, this.access.scope, this.access.caller, this.converter);
    const placer = await this.bands;
    return placer ? placer.place(member.row, this.amountOf(member, 'base_salary')) : null;
  }

  // ── equity ───────────────────────────────────────────────────────────────────────────────

  get sharePriceMicros(): number {
    return this.valuation.terms.sharePriceMicros;
  }

  async equity(member: Member, day = today()): Promise<{ granted: number; vested: number; value: Money } | null> {
    return member.pay ? this.equityOf(member.pay.grants, member.row, day) : null;
  }

  /** Shares granted, vested on the day (vesting stops when the holder leaves), and their value, over some grants. */
  async equityOf(grants: GrantRow[], holder: Holder, day = today()): Promise<{ granted: number; vested: number; value: Money }> {
    let granted = 0;
    let vested = 0;
    let value = 0;
    for (const grant of grants) {
      granted += grant.shares;
      vested += vestingOn(grant, holder, day).vestedShares;
      value += this.valuation.valueOf(grant.shares, await this.valuation.spreadMicros(grant)).amount;
    }
    return { granted, vested, value: { amount: value, currency: this.companyCurrency } };
  }
}
