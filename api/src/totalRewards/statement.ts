import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { type CompanyRow, findCompany } from '../access/usersStore.js';
import type { components } from '../contract-types.js';
import { initialsOf } from '../documents/content.js';
import { notFound } from '../kernel/errors.js';
import { Converter, type Money } from '../money/converter.js';
import { latestByType } from '../people/reads/payInForce.js';
import { type StatementEmployeeRow, statementGrants, statementPayRecords } from './peopleReads.js';
import type { CompensationRecordRow, EquityGrantRow } from '../people/store.js';
import { EquityValuation, vestingOn, vestingStopsOn, vestingTerms } from '../people/valuation.js';
import { addMonths, vestingEvents } from '../people/vesting.js';
import { StatementMoney } from './amounts.js';
import { formatPerShare } from '../money/format.js';
import { SECTION_ORDER, type SectionName } from './defaults.js';
import { type CommunicateSettings, renderBanner } from './settings.js';
import { type CompTypes, compTypesOf } from '../compTypes/reads.js';

type Schemas = components['schemas'];
type Statement = Schemas['TotalRewardsStatement'];
type Amount = Schemas['TotalRewardsAmount'];
type PayType = Schemas['StatementPayType'];
type ColourGroup = Schemas['CompColourGroup'];

const PAY_LABELS: Record<PayType, string> = {
  base_salary: 'Base salary',
  bonus_target: 'Bonus target',
  variable_pay: 'Variable pay',
  commission: 'Commission',
  benefits: 'Benefits allowance',
};

/** The spec's colour group of each kind of pay. */
const PAY_GROUPS: Record<PayType, ColourGroup> = {
  base_salary: 'base',
  bonus_target: 'annualBonus',
  variable_pay: 'variable',
  commission: 'performance',
  benefits: 'benefits',
};

/** Which section shows each kind of pay: with that section off, the pay is absent everywhere in the statement. */
const PAY_SECTION: Record<PayType, SectionName> = {
  base_salary: 'salary',
  bonus_target: 'bonus',
  variable_pay: 'variablePay',
  commission: 'variablePay',
  benefits: 'benefits',
};

const CASH_TYPES: readonly PayType[] = ['base_salary', 'bonus_target', 'variable_pay', 'commission'];

const GRANT_LABELS: Record<EquityGrantRow['grant_type'], string> = { option: 'Stock options', rsu: 'RSUs', rsa: 'Restricted stock', common_stock: 'Common stock' };
/** How a number of a grant type's shares is said: "4,800 stock options", "1 RSU". */
const GRANT_UNITS: Record<EquityGrantRow['grant_type'], [string, string]> = {
  option: ['stock option', 'stock options'],
  rsu: ['RSU', 'RSUs'],
  rsa: ['restricted share', 'restricted shares'],
  common_stock: ['common share', 'common shares'],
};
const GRANT_GROUPS: Record<EquityGrantRow['grant_type'], ColourGroup> = { option: 'option', rsu: 'rsu', rsa: 'rsa', common_stock: 'commonStock' };
const REASON_GROUPS: Record<string, { group: ColourGroup; label: string }> = {
  new_hire: { group: 'newHireEquity', label: 'New-hire grants' },
  refresher: { group: 'equityRefresherShares', label: 'Refresher grants' },
  promotion: { group: 'equityPromotionShares', label: 'Promotion grants' },
  performance: { group: 'equityPerformanceShares', label: 'Performance grants' },
};
const reasonOf = (reason: string) => REASON_GROUPS[reason] ?? { group: 'other' as const, label: 'Other grants' };

const isPayType = (type: string): type is PayType => Object.hasOwn(PAY_LABELS, type);
const percentOf = (basisPoints: number | null): number | null => (basisPoints === null ? null : basisPoints / 100);
const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** Whole years and months from the start to the day, in words. */
export function tenureOf(startDate: string | null, asOf: string): Schemas['StatementEmployee']['tenure'] {
  if (!startDate || startDate > asOf) return null;
  const [sy, sm, sd] = startDate.split('-').map(Number) as [number, number, number];
  const [ay, am, ad] = asOf.split('-').map(Number) as [number, number, number];
  const months = (ay - sy) * 12 + (am - sm) - (ad < sd ? 1 : 0);
  const years = Math.floor(months / 12);
  const rest = months % 12;
  const parts = [years > 0 ? plural(years, 'year') : '', rest > 0 ? plural(rest, 'month') : ''].filter(Boolean);
  return { years, months: rest, text: parts.length ? parts.join(' and ') : 'less than a month' };
}

/** Who gets a benefit: an employee is in a group when each of its non-empty rules contains their value. */
export function inGroup(employee: Pick<StatementEmployeeRow, 'country_code' | 'department' | 'employment_type'>, group: Schemas['CommunicateUserGroup']): boolean {
  const { countries, departments, employmentTypes } = group.rules;
  if (countries.length && !countries.includes(employee.country_code ?? '')) return false;
  if (departments.length && !departments.some((department) => department.trim().toLowerCase() === (employee.department ?? '').trim().toLowerCase())) return false;
  if (employmentTypes.length && !(employmentTypes as string[]).includes(employee.employment_type)) return false;
  return true;
}

export interface StatementRequest {
  scope: CompanyScope;
  employee: StatementEmployeeRow;
  viewer: Statement['viewer'];
  settings: CommunicateSettings;
  asOf: string;
}

/** Everything one statement is built from, read once. */
class StatementBuilder {
  readonly enabled: (section: SectionName) => boolean;
  readonly records: CompensationRecordRow[];
  readonly inForce: Map<string, CompensationRecordRow>;
  readonly grants: EquityGrantRow[];

  constructor(
    readonly request: StatementRequest,
    readonly company: CompanyRow,
    readonly money: StatementMoney,
    readonly valuation: EquityValuation,
    records: CompensationRecordRow[],
    grants: EquityGrantRow[],
    /** The company's comp type settings: a type it switched off is absent, a renamed one shows its title. */
    readonly compTypes: CompTypes,
  ) {
    this.grants = grants.filter((grant) => compTypes.enabled(grant.grant_type));
    const sections = request.settings.sections;
    this.enabled = (section) => sections[section].enabled;
    // Pay in force is the latest record of each type on or before the day (people/reads/payInForce.ts).
    this.records = records.filter((record) => record.effective_date.slice(0, 10) <= request.asOf);
    this.inForce = latestByType(this.records);
  }

  get employee() {
    return this.request.employee;
  }

  get asOf() {
    return this.request.asOf;
  }

  get showsEquityValue(): boolean {
    return this.request.settings.equityDisplay.show === 'value';
  }

  text(section: SectionName) {
    const { title, text } = this.request.settings.sections[section];
    return { title, text };
  }

  /** A kind of pay the statement shows: the company uses it and its own section is on. */
  shows(type: PayType): boolean {
    return this.compTypes.enabled(type) && this.enabled(PAY_SECTION[type]);
  }

  /** The pay type's name: the company's title when it renamed the type. */
  payLabel(type: PayType): string {
    return this.compTypes.renamed(type) ?? PAY_LABELS[type];
  }

  grantLabel(type: EquityGrantRow['grant_type']): string {
    return this.compTypes.renamed(type) ?? GRANT_LABELS[type];
  }

  private moneyOf(record: CompensationRecordRow): Money {
    return { amount: record.amount, currency: record.currency };
  }

  // ── pay ─────────────────────────────────────────────────────────────────────────────────

  async payItem(type: PayType): Promise<Schemas['StatementPayItem'] | null> {
    const current = this.inForce.get(type);
    if (!current) return null;
    const history: Schemas['StatementPayChange'][] = [];
    let previous: CompensationRecordRow | undefined;
    for (const record of this.records.filter((candidate) => candidate.type === type)) {
      const change = previous && previous.currency === record.currency && previous.amount > 0 ? Math.round(((record.amount - previous.amount) / previous.amount) * 10_000) / 100 : null;
      history.push({ effectiveDate: record.effective_date.slice(0, 10), amount: await this.money.amount(this.moneyOf(record)), percentOfBase: percentOf(record.percent_of_base_bp), reason: record.reason, changePercent: change });
      previous = record;
    }
    return {
      type,
      group: PAY_GROUPS[type],
      label: this.payLabel(type),
      amount: await this.money.amount(this.moneyOf(current)),
      target: current.percent_of_base_bp === null ? 'amount' : 'percent',
      percentOfBase: percentOf(current.percent_of_base_bp),
      effectiveDate: current.effective_date.slice(0, 10),
      history: history.reverse(),
    };
  }

  async paySection(section: SectionName, types: readonly PayType[], withTotal = false): Promise<Schemas['StatementPaySection']> {
    const items: Schemas['StatementPayItem'][] = [];
    for (const type of types) {
      if (!this.shows(type)) continue;
      const item = await this.payItem(type);
      if (item) items.push(item);
    }
    const result: Schemas['StatementPaySection'] = { ...this.text(section), items };
    if (withTotal && items.some((item) => item.type === 'base_salary')) result.totalCash = this.money.sum(items.map((item) => item.amount));
    return result;
  }

  /** Total cash a year: the cash pay the statement shows. */
  async annualCash(): Promise<Amount | null> {
    const parts: Amount[] = [];
    for (const type of CASH_TYPES) {
      const record = this.inForce.get(type);
      if (record && this.shows(type)) parts.push(await this.money.amount(this.moneyOf(record)));
    }
    return parts.length ? this.money.sum(parts) : null;
  }

  // ── benefits ────────────────────────────────────────────────────────────────────────────

  private benefitsOnce: Promise<Schemas['StatementBenefits']> | undefined;

  /** The benefits of the employee's groups (read by the overview, the simulator and the section alike). */
  benefits(): Promise<Schemas['StatementBenefits']> {
    this.benefitsOnce ??= this.readBenefits();
    return this.benefitsOnce;
  }

  private async readBenefits(): Promise<Schemas['StatementBenefits']> {
    const { benefits, userGroups } = this.request.settings;
    const mine = new Set(userGroups.filter((group) => inGroup(this.employee, group)).map((group) => group.id));
    const items: Schemas['StatementBenefits']['items'] = [];
    for (const benefit of benefits) {
      if (benefit.userGroupIds.length && !benefit.userGroupIds.some((id) => mine.has(id))) continue;
      items.push({ id: benefit.id, name: benefit.name, description: benefit.description, annualValue: benefit.annualValue ? await this.money.amount(benefit.annualValue) : null });
    }
    const record = this.inForce.get('benefits');
    if (record && this.compTypes.enabled('benefits')) items.push({ id: 'pay-record-benefits', name: this.payLabel('benefits'), description: 'Recorded with your pay.', annualValue: await this.money.amount(this.moneyOf(record)) });
    const values = items.flatMap((item) => (item.annualValue ? [item.annualValue] : []));
    return { ...this.text('benefits'), items, total: values.length ? this.money.sum(values) : this.money.sum([]) };
  }

  // ── equity ──────────────────────────────────────────────────────────────────────────────

  /** Shares of a grant that vest after `from` up to and including `to` (vesting stops at a termination). */
  vestingBetween(grant: EquityGrantRow, from: string, to: string): number {
    return vestingOn(grant, this.employee, to).vestedShares - vestingOn(grant, this.employee, from).vestedShares;
  }

  /** A number of a grant's shares at the statement's price, by the one valuation rule; null with no rate for its strike. */
  async valueOf(grant: EquityGrantRow, shares: number): Promise<Amount | null> {
    const spread = await this.valuation.spreadMicros(grant);
    if (spread === null) return null;
    return this.money.amount(this.valuation.valueOf(shares, spread));
  }

  private strikeOf(grant: EquityGrantRow): Schemas['SharePrice'] | null {
    if (grant.grant_type !== 'option') return null;
    if (grant.exercise_price !== null) return { perShare: grant.exercise_price / 10 ** this.money.converter.minorUnit(grant.currency), currency: grant.currency };
    const companyStrike = this.valuation.terms.exercisePriceMicros;
    return companyStrike === null ? null : { perShare: companyStrike / 1_000_000, currency: this.valuation.currency };
  }

  async grant(grant: EquityGrantRow): Promise<Schemas['StatementGrant']> {
    const status = vestingOn(grant, this.employee, this.asOf);
    const spread = await this.valuation.spreadMicros(grant);
    const stop = vestingStopsOn(this.employee);
    const effective = stop && stop < this.asOf ? stop : this.asOf;
    const terms = vestingTerms(grant);
    const value =
      this.showsEquityValue && spread !== null
        ? {
            vested: await this.money.amount(this.valuation.valueOf(status.vestedShares, spread)),
            unvested: await this.money.amount(this.valuation.valueOf(status.unvestedShares, spread)),
            total: await this.money.amount(this.valuation.valueOf(grant.shares, spread)),
          }
        : null;
    return {
      id: grant.id,
      grantNumber: grant.grant_number,
      grantType: grant.grant_type,
      group: GRANT_GROUPS[grant.grant_type],
      reason: grant.reason,
      reasonGroup: reasonOf(grant.reason).group,
      grantDate: grant.grant_date.slice(0, 10),
      shares: grant.shares,
      strikePrice: this.strikeOf(grant),
      vestingStartDate: terms.vestingStartDate,
      vestingMonths: terms.vestingMonths,
      cliffMonths: terms.cliffMonths,
      vestingFrequency: terms.frequency,
      cliffDate: terms.cliffMonths > 0 ? addMonths(terms.vestingStartDate, Math.min(terms.cliffMonths, terms.vestingMonths)) : null,
      fullyVestedDate: status.fullyVestedDate,
      vestedShares: status.vestedShares,
      unvestedShares: status.unvestedShares,
      vestedPercent: status.vestedPercent,
      nextVestingDate: status.nextVestingDate,
      vestingEndedOn: status.vestingEndedOn,
      isUnderwater: spread !== null && spread < 0n,
      value,
      schedule: vestingEvents(terms).map((event) => ({ date: event.date, shares: event.shares, cumulativeShares: event.cumulativeShares, vested: event.date <= effective })),
    };
  }

  price(): Schemas['StatementEquity']['price'] {
    return {
      perShare: this.valuation.terms.sharePriceMicros / 1_000_000,
      currency: this.valuation.currency,
      source: this.request.settings.equityDisplay.price,
    };
  }

  async equity(): Promise<Schemas['StatementEquity']> {
    const grants: Schemas['StatementGrant'][] = [];
    for (const grant of this.grants) grants.push(await this.grant(grant));
    const values = grants.map((grant) => grant.value);
    const allValued = this.showsEquityValue && values.every((value) => value !== null);
    const valued = values.filter((value) => value !== null);
    return {
      ...this.text('equity'),
      show: this.request.settings.equityDisplay.show,
      price: this.price(),
      grants,
      totals: {
        shares: grants.reduce((sum, grant) => sum + grant.shares, 0),
        vestedShares: grants.reduce((sum, grant) => sum + grant.vestedShares, 0),
        unvestedShares: grants.reduce((sum, grant) => sum + grant.unvestedShares, 0),
        value: allValued
          ? {
              vested: this.money.sum(valued.map((value) => value.vested)),
              unvested: this.money.sum(valued.map((value) => value.unvested)),
              total: this.money.sum(valued.map((value) => value.total)),
            }
          : null,
      },
    };
  }

  /** Shares still to vest, by calendar year from the statement's day, with their value at its price. */
  async futureGrants(): Promise<Schemas['StatementFutureGrants']> {
    const years: Schemas['StatementFutureGrants']['years'] = [];
    const unvested = this.grants.filter((grant) => vestingOn(grant, this.employee, this.asOf).unvestedShares > 0);
    const last = Math.max(0, ...unvested.map((grant) => Number(vestingOn(grant, this.employee, this.asOf).fullyVestedDate.slice(0, 4))));
    for (let year = Number(this.asOf.slice(0, 4)); year <= last; year += 1) {
      const from = year === Number(this.asOf.slice(0, 4)) ? this.asOf : `${year - 1}-12-31`;
      const to = `${year}-12-31`;
      const parts = new Map<ColourGroup, { label: string; shares: number; values: (Amount | null)[] }>();
      for (const grant of unvested) {
        const shares = this.vestingBetween(grant, from, to);
        if (shares <= 0) continue;
        const reason = reasonOf(grant.reason);
        const part = parts.get(reason.group) ?? { label: reason.label, shares: 0, values: [] };
        part.shares += shares;
        part.values.push(this.showsEquityValue ? await this.valueOf(grant, shares) : null);
        parts.set(reason.group, part);
      }
      if (!parts.size) continue;
      const valueOfPart = (values: (Amount | null)[]) => (values.every((value) => value !== null) ? this.money.sum(values as Amount[]) : null);
      const presented = [...parts].map(([group, part]) => ({ group, label: part.label, shares: part.shares, value: valueOfPart(part.values) }));
      years.push({
        year,
        shares: presented.reduce((sum, part) => sum + part.shares, 0),
        value: valueOfPart(presented.map((part) => part.value)),
        parts: presented,
      });
    }
    return { ...this.text('futureGrants'), years };
  }

  async futureModeling(): Promise<Schemas['StatementFutureModeling']> {
    const checkpoints = [0, 12, 24, 36, 48].map((months) => addMonths(this.asOf, months));
    const grants: Schemas['StatementFutureModeling']['grants'] = [];
    for (const grant of this.grants) {
      const spread = await this.valuation.spreadMicros(grant);
      // An option whose strike no reference rate converts cannot be modelled: it is left out, as in the overview.
      if (spread === null) continue;
      const strike = grant.grant_type === 'option' ? BigInt(this.valuation.terms.sharePriceMicros) - spread : null;
      grants.push({
        id: grant.id,
        grantType: grant.grant_type,
        group: GRANT_GROUPS[grant.grant_type],
        label: `${plural(grant.shares, ...GRANT_UNITS[grant.grant_type])} granted ${grant.grant_date.slice(0, 10)}`,
        shares: grant.shares,
        // Share price less the valuation rule's spread: a strike in another currency, converted at the reference rate.
        strikePerShare: strike === null ? null : Number(strike) / 1_000_000,
        vestedAt: checkpoints.map((day) => vestingOn(grant, this.employee, day).vestedShares),
      });
    }
    const benefits = this.enabled('benefits') ? (await this.benefits()).total : null;
    const { multiples, customPriceAllowed } = this.request.settings.futureModeling;
    return {
      ...this.text('futureModeling'),
      price: { perShare: this.valuation.terms.sharePriceMicros / 1_000_000, currency: this.valuation.currency },
      multiples,
      customPriceAllowed,
      annualCash: await this.annualCash(),
      annualBenefits: benefits,
      checkpoints,
      grants,
    };
  }

  // ── overview and timeline ───────────────────────────────────────────────────────────────

  async overview(): Promise<Schemas['StatementOverview']> {
    const breakdown: Schemas['StatementOverview']['breakdown'] = [];
    const notes: string[] = [];
    for (const type of CASH_TYPES) {
      const record = this.inForce.get(type);
      if (record && this.shows(type)) breakdown.push({ group: PAY_GROUPS[type], label: this.payLabel(type), amount: await this.money.amount(this.moneyOf(record)) });
    }
    if (this.enabled('equity') && this.showsEquityValue && this.grants.length) {
      const nextYear = addMonths(this.asOf, 12);
      const byType = new Map<EquityGrantRow['grant_type'], Amount[]>();
      let unknown = false;
      for (const grant of this.grants) {
        const shares = this.vestingBetween(grant, this.asOf, nextYear);
        if (shares <= 0) continue;
        const value = await this.valueOf(grant, shares);
        if (!value) unknown = true;
        else byType.set(grant.grant_type, [...(byType.get(grant.grant_type) ?? []), value]);
      }
      for (const [type, values] of byType) breakdown.push({ group: GRANT_GROUPS[type], label: `${this.grantLabel(type)}, next 12 months`, amount: this.money.sum(values) });
      const price = this.price();
      const perShare = formatPerShare(price.perShare, price.currency);
      notes.push(`Equity counts the shares that vest in the next 12 months, at ${perShare} a share${price.source === 'custom' ? ' (the price the company chose for statements)' : ' (the company’s share price)'}, less any exercise price.`);
      if (unknown) notes.push('Some options are left out: their exercise price is in a currency without a reference rate.');
    }
    if (this.enabled('benefits')) {
      const benefits = await this.benefits();
      const valued = benefits.items.filter((item) => item.annualValue);
      if (valued.length) breakdown.push({ group: 'benefits', label: 'Benefits', amount: benefits.total });
    }
    notes.push('Cash amounts are a year, before tax; bonus and variable pay at target.');
    return { ...this.text('overview'), total: this.money.sum(breakdown.map((part) => part.amount)), breakdown, notes };
  }

  async timeline(): Promise<Schemas['StatementTimeline']> {
    type Event = Schemas['StatementTimelineEvent'];
    const events: Event[] = [];
    const none = { payType: null, amount: null, previousAmount: null, changePercent: null, grant: null } as const;
    const start = this.employee.start_date?.slice(0, 10);
    if (start && start <= this.asOf) events.push({ ...none, date: start, kind: 'hire', label: `Joined ${this.company.name}` });
    const previous = new Map<string, CompensationRecordRow>();
    for (const record of this.records) {
      if (!isPayType(record.type) || !this.shows(record.type)) continue;
      const before = previous.get(record.type);
      previous.set(record.type, record);
      const promotion = record.reason === 'promotion';
      const change = before && before.currency === record.currency && before.amount > 0 ? Math.round(((record.amount - before.amount) / before.amount) * 10_000) / 100 : null;
      const name = this.payLabel(record.type);
      const label = promotion ? `Promotion: ${name.toLowerCase()} changed` : before ? `${name} changed` : `${name} set`;
      events.push({
        date: record.effective_date.slice(0, 10),
        kind: promotion ? 'promotion' : 'pay_change',
        label,
        payType: record.type,
        amount: await this.money.amount(this.moneyOf(record)),
        previousAmount: before ? await this.money.amount(this.moneyOf(before)) : null,
        changePercent: change,
        grant: null,
      });
    }
    if (this.enabled('equity')) {
      for (const grant of this.grants) {
        const date = grant.grant_date.slice(0, 10);
        if (date > this.asOf) continue;
        events.push({
          ...none,
          date,
          kind: 'grant',
          label: `Granted ${plural(grant.shares, ...GRANT_UNITS[grant.grant_type])}`,
          grant: { grantNumber: grant.grant_number, grantType: grant.grant_type, shares: grant.shares },
        });
      }
    }
    const left = this.employee.termination_date?.slice(0, 10);
    if (this.employee.status === 'terminated' && left && left <= this.asOf) events.push({ ...none, date: left, kind: 'termination', label: `Left ${this.company.name}` });
    const order: Record<Event['kind'], number> = { hire: 0, promotion: 1, pay_change: 2, grant: 3, termination: 4 };
    events.sort((a, b) => a.date.localeCompare(b.date) || order[a.kind] - order[b.kind]);
    return { ...this.text('timeline'), events };
  }

  // ── the whole ───────────────────────────────────────────────────────────────────────────

  appearance(): Schemas['StatementAppearance'] {
    const { appearance } = this.request.settings;
    const tenure = tenureOf(this.employee.start_date?.slice(0, 10) ?? null, this.asOf);
    return {
      companyName: this.company.name,
      logo: appearance.logo,
      logoText: initialsOf(this.company.name),
      brandColor: appearance.brandColor.toLowerCase(),
      bannerColor: appearance.bannerColor.toLowerCase(),
      bannerText: renderBanner(appearance.bannerText, {
        firstName: this.employee.first_name,
        lastName: this.employee.last_name,
        tenure: tenure?.text ?? 'your time',
        companyName: this.company.name,
        jobTitle: this.employee.title,
      }),
      bannerImage: appearance.bannerImage,
    };
  }

  async build(): Promise<Statement> {
    const employee = this.employee;
    const statement: Statement = {
      asOf: this.asOf,
      viewer: this.request.viewer,
      employee: {
        id: employee.id,
        firstName: employee.first_name,
        lastName: employee.last_name,
        title: employee.title,
        department: employee.department,
        countryCode: employee.country_code,
        employmentType: employee.employment_type,
        startDate: employee.start_date?.slice(0, 10) ?? null,
        status: employee.status === 'terminated' ? 'terminated' : 'active',
        terminationDate: employee.termination_date?.slice(0, 10) ?? null,
        tenure: tenureOf(employee.start_date?.slice(0, 10) ?? null, this.asOf),
      },
      appearance: this.appearance(),
      // Filled in last: every conversion made is named.
      exchange: { local: this.money.local, company: this.money.company, rate: null, date: null, rates: [] },
      sectionOrder: SECTION_ORDER.filter((section) => this.enabled(section)),
    };
    if (this.enabled('overview')) statement.overview = await this.overview();
    if (this.enabled('timeline')) statement.timeline = await this.timeline();
    if (this.enabled('compensation')) statement.compensation = await this.paySection('compensation', CASH_TYPES, true);
    if (this.enabled('salary')) statement.salary = await this.paySection('salary', ['base_salary']);
    if (this.enabled('bonus')) statement.bonus = await this.paySection('bonus', ['bonus_target']);
    if (this.enabled('variablePay')) statement.variablePay = await this.paySection('variablePay', ['variable_pay', 'commission']);
    if (this.enabled('equity')) statement.equity = await this.equity();
    if (this.enabled('futureGrants')) statement.futureGrants = await this.futureGrants();
    if (this.enabled('futureModeling')) statement.futureModeling = await this.futureModeling();
    if (this.enabled('benefits')) statement.benefits = await this.benefits();
    if (this.enabled('aboutUs')) statement.aboutUs = this.text('aboutUs');
    if (this.enabled('learningHub')) statement.learningHub = { ...this.text('learningHub'), articles: this.request.settings.learningHub.articles };
    statement.exchange = await this.money.exchange();
    return statement;
  }
}

/** The price equity is valued at on statements: the company's share price, or the one the settings name. */
function valuationFor(company: CompanyRow, settings: CommunicateSettings, converter: Converter): EquityValuation {
  const display = settings.equityDisplay;
  const custom = display.price === 'custom' && display.customPricePerShare !== null ? Math.round(display.customPricePerShare * 1_000_000) : null;
  return EquityValuation.of({ currency: company.currency, share_price_micros: custom ?? company.share_price_micros, exercise_price_micros: company.exercise_price_micros }, converter);
}

/** One employee's statement on a day, shaped by the settings given. */
export async function buildStatement(db: Knex, request: StatementRequest): Promise<Statement> {
  const company = await findCompany(db, request.scope);
  if (!company) throw notFound();
  const converter = await Converter.open(db, request.asOf);
  const money = new StatementMoney(converter, request.employee.currency, company.currency);
  const records = await statementPayRecords(db, request.scope, request.employee.id);
  const grants = await statementGrants(db, request.scope, request.employee.id);
  const compTypes = await compTypesOf(db, request.scope);
  return new StatementBuilder(request, company, money, valuationFor(company, request.settings, converter), records, grants, compTypes).build();
}
