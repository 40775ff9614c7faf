import type { DataLabEmployee, DataLabGrant } from './peopleReads.js';
import { formatMajor, formatMoney as writeMoney } from '../money/format.js';

/*
 * The insights, each a pure function of the company's data on a day, so each can be checked by
 * hand. Figures about people are counted again when read, over the reader's reach; the title of
 * such an insight names the count with `{people}` ("3 employees").
 */

export type InsightKind =
  | 'belowBandMin'
  | 'aboveBandMax'
  | 'marketPosition'
  | 'compression'
  | 'payEquityGap'
  | 'equityRefresh'
  | 'budgetPacing'
  | 'unmappedJobs'
  | 'missingLevels'
  | 'stalePay';

export type Severity = 'high' | 'medium' | 'low';

export interface InsightTable {
  columns: string[];
  rows: { label: string; cells: string[] }[];
}

export interface ComputedInsight {
  key: string;
  kind: InsightKind;
  severity: Severity;
  /** With `{people}` where the count of people in the reader's reach goes. */
  title: string;
  /** For whole-company insights; people insights count their subjects in reach instead. */
  value: number;
  unit: 'people' | 'percent' | 'count';
  method: string;
  link: string;
  linkLabel: string;
  subjects: { employeeId: string; detail: string }[];
  /** Figures over the whole company: shown only to readers whose reach is the whole company. */
  table: InsightTable | null;
  needsPay: boolean;
  needsDemographics: boolean;
}

const DAY_MS = 86_400_000;
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
export function addMonths(day: string, months: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}

/** Minor units as a person reads them, as every other screen writes pay: "$82,000" (whole units, ISO 4217 decimals). */
export const formatMoney = (amount: number, currency: string): string => writeMoney({ amount, currency }, 'whole');

const round1 = (value: number): number => Math.round(value * 10) / 10;
export const formatPercent = (value: number): string => `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(round1(value)).toFixed(1)}%`;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

// ── band position ─────────────────────────────────────────────────────────────────────────

/** An employee's base against their band in the live set, both in the set's currency. */
export interface BandPlacement {
  employeeId: string;
  base: number;
  min: number;
  max: number;
  currency: string;
}

/** The two sides of a band an employee can fall outside, each with its own words and weight. */
const BAND_SIDES = [
  { kind: 'belowBandMin', severity: 'high', bound: 'minimum', relation: 'below', outside: (p: BandPlacement) => p.base < p.min, limit: (p: BandPlacement) => p.min },
  { kind: 'aboveBandMax', severity: 'medium', bound: 'maximum', relation: 'above', outside: (p: BandPlacement) => p.base > p.max, limit: (p: BandPlacement) => p.max },
] as const;

/** `ratesNote`: which exchange rates converted pay into band currencies (the company's own where set), when any did. */
export function bandInsights(placements: readonly BandPlacement[], bandSet: { id: string; name: string }, ratesNote = ''): ComputedInsight[] {
  return BAND_SIDES.flatMap((side): ComputedInsight[] => {
    const outside = placements.filter(side.outside);
    if (!outside.length) return [];
    return [
      {
        key: side.kind,
        kind: side.kind,
        severity: side.severity,
        title: `{people} paid ${side.relation} their band ${side.bound}`,
        value: outside.length,
        unit: 'people',
        method: `Each active employee's base salary in force today, converted to their band's currency, against the ${side.bound} of their band (company job × pay zone) in the live band set "${bandSet.name}". Of ${placements.length} employees placed in a band, ${outside.length} ${outside.length === 1 ? 'is' : 'are'} ${side.relation} the ${side.bound}.${ratesNote ? ` ${ratesNote}` : ''}`,
        link: `/bands/sets/${bandSet.id}`,
        linkLabel: 'Open the live band set',
        subjects: outside.map((p) => {
          const limit = side.limit(p);
          return { employeeId: p.employeeId, detail: `Base ${formatMoney(p.base, p.currency)}, band ${side.bound} ${formatMoney(limit, p.currency)} (${formatPercent(((p.base - limit) / limit) * 100)})` };
        }),
        table: null,
        needsPay: true,
        needsDemographics: false,
      },
    ];
  });
}

// ── pay vs market ─────────────────────────────────────────────────────────────────────────

/** One family × level × location of the company against its market cell (already through disclosure control). */
export interface MarketComparison {
  label: string;
  employees: number;
  /** The company's median base in the market cell's currency, major units. */
  companyMedian: number;
  currency: string;
  /** Null when the market cell is withheld. */
  marketP50: number | null;
  marketCompanies: number | null;
  marketEmployees: number | null;
}

const money0 = (value: number, currency: string): string => formatMajor(value, currency);

export function marketInsight(comparisons: readonly MarketComparison[], releaseVersion: string, thresholdPercent = 10): ComputedInsight | null {
  if (!comparisons.length) return null;
  const published = comparisons.filter((c) => c.marketP50 !== null && c.marketP50 > 0);
  const gapOf = (c: MarketComparison): number => ((c.companyMedian - (c.marketP50 ?? 0)) / (c.marketP50 ?? 1)) * 100;
  const behind = published.filter((c) => gapOf(c) < -thresholdPercent);
  const rows = [...comparisons]
    .sort((a, b) => (a.marketP50 === null ? 1 : 0) - (b.marketP50 === null ? 1 : 0) || (a.marketP50 !== null && b.marketP50 !== null ? gapOf(a) - gapOf(b) : 0) || a.label.localeCompare(b.label))
    .map((c) => ({
      label: c.label,
      cells:
        c.marketP50 === null
          ? [String(c.employees), money0(c.companyMedian, c.currency), 'Insufficient data', '—', 'Withheld: too few companies or employees']
          : [String(c.employees), money0(c.companyMedian, c.currency), money0(c.marketP50, c.currency), formatPercent(gapOf(c)), `${c.marketCompanies ?? 0} companies, ${c.marketEmployees ?? 0} employees`],
    }));
  return {
    key: 'marketPosition',
    kind: 'marketPosition',
    severity: behind.length ? 'high' : 'low',
    title: `${behind.length} of ${published.length} job families × levels with market data are paid more than ${thresholdPercent}% below market p50`,
    value: behind.length,
    unit: 'count',
    method: `For each job family × level × location with active employees, the median of their base salaries in force today (converted to the market's currency) against the market p50 of base salary for the same family, level and location in market release ${releaseVersion}. Market cells come through the privacy rules: a withheld cell shows "Insufficient data" and is not counted. ${comparisons.length - published.length} of ${comparisons.length} cells are withheld.`,
    link: '/benchmarkingsurvey/data-explorer',
    linkLabel: 'Open the data explorer',
    subjects: [],
    table: { columns: ['Job family × level · location', 'Employees', 'Company median base', 'Market p50', 'Gap', 'Market sample'], rows },
    needsPay: true,
    needsDemographics: false,
  };
}

// ── compression ───────────────────────────────────────────────────────────────────────────

/** New hires: started within the last 365 days. Tenured: started more than two years (730 days) ago. */
export function compressionInsight(employees: readonly DataLabEmployee[], day: string): ComputedInsight | null {
  const cells = new Map<string, DataLabEmployee[]>();
  for (const e of employees) {
    if (!e.jobFamilyId || !e.levelId || !e.base || !e.startDate) continue;
    const key = `${e.jobFamilyId}|${e.levelId}|${e.base.currency}`;
    cells.set(key, [...(cells.get(key) ?? []), e]);
  }
  const subjects: ComputedInsight['subjects'] = [];
  for (const people of cells.values()) {
    const newHires = people.filter((e) => daysBetween(e.startDate ?? day, day) <= 365);
    if (!newHires.length) continue;
    for (const tenured of people.filter((e) => daysBetween(e.startDate ?? day, day) > 730)) {
      const base = tenured.base?.amount ?? 0;
      const above = newHires.filter((hire) => (hire.base?.amount ?? 0) > base).length;
      if (above) {
        subjects.push({
          employeeId: tenured.id,
          detail: `Started ${tenured.startDate}, base ${formatMoney(base, tenured.base?.currency ?? '')}; ${above} ${above === 1 ? 'hire' : 'hires'} of the last 12 months at the same job family and level ${above === 1 ? 'is' : 'are'} paid more`,
        });
      }
    }
  }
  if (!subjects.length) return null;
  return {
    key: 'compression',
    kind: 'compression',
    severity: 'medium',
    title: `{people} with more than two years' tenure paid less than a new hire in the same job and level`,
    value: subjects.length,
    unit: 'people',
    method: 'Active employees who started more than two years ago, compared with those who started in the last 12 months at the same job family and level (and pay currency): an employee is named when at least one such new hire has a higher base salary in force today.',
    link: '/team/employees',
    linkLabel: 'Open the team view',
    subjects,
    table: null,
    needsPay: true,
    needsDemographics: false,
  };
}

// ── pay equity ────────────────────────────────────────────────────────────────────────────

export const MIN_GROUP_SIZE = 5;

const GROUP_NAMES: Record<string, string> = { woman: 'women', man: 'men', non_binary: 'non-binary people' };
/** A gender group as a sentence names it ("women"); values the product does not know, as stored. */
const groupName = (value: string): string => GROUP_NAMES[value] ?? value;
const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Each employee's base against the median of their job family × level (same currency) gives a
 * ratio; a group's figure is its mean ratio. Gaps are against the largest group. Groups under 5
 * people are not shown, and only their number is said.
 */
export function payEquityInsight(employees: readonly DataLabEmployee[]): ComputedInsight | null {
  const cells = new Map<string, DataLabEmployee[]>();
  for (const e of employees) {
    if (!e.jobFamilyId || !e.levelId || !e.base || !e.gender) continue;
    const key = `${e.jobFamilyId}|${e.levelId}|${e.base.currency}`;
    cells.set(key, [...(cells.get(key) ?? []), e]);
  }
  const ratios = new Map<string, number[]>();
  for (const people of cells.values()) {
    if (people.length < 2) continue;
    const mid = median(people.map((e) => e.base?.amount ?? 0));
    if (mid <= 0) continue;
    for (const e of people) ratios.set(e.gender ?? '', [...(ratios.get(e.gender ?? '') ?? []), (e.base?.amount ?? 0) / mid]);
  }
  const groups = [...ratios].map(([group, values]) => ({ group, count: values.length, mean: values.reduce((a, b) => a + b, 0) / values.length }));
  const shown = groups.filter((g) => g.count >= MIN_GROUP_SIZE).sort((a, b) => b.count - a.count || a.group.localeCompare(b.group));
  const hidden = groups.length - shown.length;
  const reference = shown[0];
  if (!reference || shown.length < 2) return null;
  const gapOf = (g: { mean: number }): number => (g.mean / reference.mean - 1) * 100;
  const widest = shown.slice(1).reduce((a, b) => (Math.abs(gapOf(b)) > Math.abs(gapOf(a)) ? b : a));
  const gap = Math.round(gapOf(widest) * 10) / 10;
  const rows = shown.map((g) => ({ label: capitalised(groupName(g.group)), cells: [String(g.count), `${(g.mean * 100).toFixed(1)}%`, g === reference ? 'Reference' : formatPercent(gapOf(g))] }));
  if (hidden) rows.push({ label: `${hidden} ${hidden === 1 ? 'group' : 'groups'} under ${MIN_GROUP_SIZE} people`, cells: ['Not shown', 'Not shown', 'Not shown'] });
  return {
    key: 'payEquityGap',
    kind: 'payEquityGap',
    severity: Math.abs(gap) >= 5 ? 'high' : Math.abs(gap) >= 2 ? 'medium' : 'low',
    title: `${capitalised(groupName(widest.group))} are paid ${Math.abs(gap).toFixed(1)}% ${gap < 0 ? 'less' : 'more'} than ${groupName(reference.group)} in the same job and level`,
    value: gap,
    unit: 'percent',
    method: `Each active employee's base salary in force today divided by the median base of their job family × level (same currency; cells of at least 2 people), averaged per gender group; the gap is each group's average against the largest group's (${groupName(reference.group)}). Groups under ${MIN_GROUP_SIZE} people are not shown.`,
    link: '/team/analytics',
    linkLabel: 'Open team analytics',
    subjects: [],
    table: { columns: ['Group', 'People', 'Pay vs job-and-level median', `Gap vs ${groupName(reference.group)}`], rows },
    needsPay: true,
    needsDemographics: true,
  };
}

// ── equity refresh ────────────────────────────────────────────────────────────────────────

/** Employees whose every grant is fully vested within the next 182 days (or already), with no later-vesting grant. */
export function equityRefreshInsight(employees: readonly DataLabEmployee[], grants: readonly DataLabGrant[], day: string): ComputedInsight | null {
  const active = new Set(employees.map((e) => e.id));
  const lastVest = new Map<string, string>();
  for (const grant of grants) {
    if (!active.has(grant.employeeId)) continue;
    const end = addMonths(grant.vestingStartDate, grant.vestingMonths);
    const known = lastVest.get(grant.employeeId);
    if (!known || end > known) lastVest.set(grant.employeeId, end);
  }
  const horizon = addDays(day, 182);
  const subjects = [...lastVest]
    .filter(([, end]) => end <= horizon)
    .sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0]))
    .map(([employeeId, end]) => ({ employeeId, detail: end <= day ? `Fully vested since ${end}; no grant vests after that` : `Fully vested on ${end}; no grant vests after that` }));
  if (!subjects.length) return null;
  return {
    key: 'equityRefresh',
    kind: 'equityRefresh',
    severity: 'medium',
    title: `{people} fully vested within six months with no refresh grant`,
    value: subjects.length,
    unit: 'people',
    method: "For each active employee with equity, the date their last grant finishes vesting (vesting start plus its vesting months). Named when that date is within the next 182 days or already passed: nothing of theirs vests after it.",
    link: '/team/employees',
    linkLabel: 'Open the team view',
    subjects,
    table: null,
    needsPay: true,
    needsDemographics: false,
  };
}

// ── budget pacing ─────────────────────────────────────────────────────────────────────────

export interface CyclePacing {
  cycleId: string;
  name: string;
  currency: string;
  allocated: number;
  used: number;
  worksheets: number;
  submitted: number;
}

export function budgetPacingInsights(cycles: readonly CyclePacing[]): ComputedInsight[] {
  return cycles.map((cycle) => {
    const usedPercent = cycle.allocated > 0 ? (cycle.used / cycle.allocated) * 100 : 0;
    const submittedPercent = cycle.worksheets > 0 ? (cycle.submitted / cycle.worksheets) * 100 : 0;
    const over = cycle.used > cycle.allocated;
    const ahead = usedPercent - submittedPercent > 20;
    return {
      key: `budgetPacing.${cycle.cycleId}`,
      kind: 'budgetPacing',
      severity: over ? 'high' : ahead ? 'medium' : 'low',
      title: `${cycle.name} has used ${usedPercent.toFixed(1)}% of its budget with ${cycle.submitted} of ${cycle.worksheets} worksheets submitted`,
      value: Math.round(usedPercent * 10) / 10,
      unit: 'percent',
      method: `The planned spend of every worksheet (${formatMoney(cycle.used, cycle.currency)}) against the budget allocated to them (${formatMoney(cycle.allocated, cycle.currency)}), in the cycle currency; worksheets count as submitted once in review or approved.${over ? ' The cycle is over budget.' : ahead ? ' Spending runs more than 20 points ahead of submissions.' : ''}`,
      link: `/compensationplanning/cycles/${cycle.cycleId}`,
      linkLabel: 'Open the merit cycle',
      subjects: [],
      table: { columns: ['Allocated', 'Used', 'Remaining', 'Worksheets submitted'], rows: [{ label: cycle.name, cells: [formatMoney(cycle.allocated, cycle.currency), formatMoney(cycle.used, cycle.currency), formatMoney(cycle.allocated - cycle.used, cycle.currency), `${cycle.submitted} of ${cycle.worksheets}`] }] },
      needsPay: true,
      needsDemographics: false,
    };
  });
}

// ── data quality ──────────────────────────────────────────────────────────────────────────

/** Base pay unchanged for longer than this many days is stale (18 months). */
export const STALE_PAY_DAYS = 548;

export function dataQualityInsights(employees: readonly DataLabEmployee[], day: string): ComputedInsight[] {
  const out: ComputedInsight[] = [];
  const unmapped = employees.filter((e) => !e.jobFamilyId);
  const noLevel = employees.filter((e) => e.jobFamilyId && !e.levelId);
  const stale = employees.filter((e) => !e.base || daysBetween(e.base.effectiveDate, day) > STALE_PAY_DAYS);
  if (unmapped.length) {
    out.push({
      key: 'unmappedJobs',
      kind: 'unmappedJobs',
      severity: 'medium',
      title: '{people} without a job family',
      value: unmapped.length,
      unit: 'people',
      method: 'Active employees whose record has no job family: they cannot be compared with bands or the market.',
      link: '/team/employees',
      linkLabel: 'Open the team view',
      subjects: unmapped.map((e) => ({ employeeId: e.id, detail: 'No job family' })),
      table: null,
      needsPay: false,
      needsDemographics: false,
    });
  }
  if (noLevel.length) {
    out.push({
      key: 'missingLevels',
      kind: 'missingLevels',
      severity: 'medium',
      title: '{people} with a job family but no level',
      value: noLevel.length,
      unit: 'people',
      method: 'Active employees whose record has a job family but no level: they cannot be placed in a band or a market cell.',
      link: '/team/employees',
      linkLabel: 'Open the team view',
      subjects: noLevel.map((e) => ({ employeeId: e.id, detail: 'No level' })),
      table: null,
      needsPay: false,
      needsDemographics: false,
    });
  }
  if (stale.length) {
    out.push({
      key: 'stalePay',
      kind: 'stalePay',
      severity: 'low',
      title: '{people} whose base salary has not changed in 18 months',
      value: stale.length,
      unit: 'people',
      method: `Active employees whose base salary in force today took effect more than ${STALE_PAY_DAYS} days ago, or who have no base salary at all.`,
      link: '/team/employees',
      linkLabel: 'Open the team view',
      subjects: stale.map((e) => ({ employeeId: e.id, detail: e.base ? `Base unchanged since ${e.base.effectiveDate}` : 'No base salary recorded' })),
      table: null,
      needsPay: true,
      needsDemographics: false,
    });
  }
  return out;
}
