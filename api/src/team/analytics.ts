import type { components } from '../contract-types.js';
import { INSUFFICIENT_DATA_LABEL, TRACKS, findLevel } from '../reference/catalog/index.js';
import { percentileInc } from '../market/engine/index.js';
import { badRequest } from '../kernel/errors.js';
import { requireDemographics, requirePay, seesPay, teamAccess } from './access.js';
import { type Member, Team } from './members.js';
import type { Money } from '../money/converter.js';
import { fullName, jobFamilyRef, levelRef, locationRef, managerRef } from './present.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type Status = Schemas['TeamStatusFilter'];
type Measure = Schemas['TeamPayMeasure'];
type Dimension = Schemas['TeamDimension'];
type Metric = Schemas['TeamMetric'];
type Attribute = Schemas['TeamDemographicAttribute'];

/** Groups of fewer people than this are not shown where demographics meet pay. */
export const MINIMUM_GROUP_SIZE = 5;

// ── compa-ratio ──────────────────────────────────────────────────────────────────────────────

const COMPA_BANDS: { label: string; min: number | null; max: number | null }[] = [
  { label: 'Below 0.80', min: null, max: 0.8 },
  { label: '0.80–0.90', min: 0.8, max: 0.9 },
  { label: '0.90–1.10', min: 0.9, max: 1.1 },
  { label: '1.10–1.20', min: 1.1, max: 1.2 },
  { label: '1.20 and above', min: 1.2, max: null },
];

export async function compaRatioReport(ctx: Pick<ServiceContext, 'deps' | 'caller'>, status: Status): Promise<Schemas['TeamCompaRatioReport']> {
  const { deps, caller } = ctx;
  const access = await teamAccess(deps.db, caller);
  requirePay(access, 'The compa-ratio');
  const team = await Team.load(deps, access, { status }, { pay: true, grants: false });
  const employees: Schemas['TeamCompaRatioEntry'][] = [];
  for (const member of team.members) {
    if (!member.pay) continue;
    const compa = await team.compaRatio(member);
    employees.push({
      employeeId: member.row.id,
      name: fullName(member.row.first_name, member.row.last_name),
      jobFamily: jobFamilyRef(member.row.job_family_id),
      level: levelRef(member.row.level_id),
      location: locationRef(member.row.location_id),
      baseSalary: team.amountOf(member, 'base_salary'),
      marketP50: compa.marketP50,
      compaRatio: compa.ratio,
      label: compa.label,
      cell: compa.cell,
    });
  }
  employees.sort((a, b) => (a.compaRatio ?? Infinity) - (b.compaRatio ?? Infinity) || a.name.localeCompare(b.name));
  const ratios = employees.flatMap((entry) => (entry.compaRatio === null ? [] : [entry.compaRatio]));
  return {
    releaseVersion: await team.releaseVersion(),
    average: ratios.length ? ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length : null,
    compared: ratios.length,
    insufficientData: employees.filter((entry) => entry.label === INSUFFICIENT_DATA_LABEL).length,
    unmatched: employees.filter((entry) => entry.compaRatio === null && entry.label !== INSUFFICIENT_DATA_LABEL).length,
    bands: COMPA_BANDS.map((band) => ({
      ...band,
      count: ratios.filter((ratio) => (band.min === null || ratio >= band.min) && (band.max === null || ratio < band.max)).length,
    })),
    employees,
  };
}

// ── pay distribution by level ────────────────────────────────────────────────────────────────

const levelOrder = (id: string | null): number => {
  if (id === null) return Number.MAX_SAFE_INTEGER;
  const level = findLevel(id);
  if (!level) return Number.MAX_SAFE_INTEGER - 1;
  const track = TRACKS.find((candidate) => candidate.id === level.track);
  return (track?.sortOrder ?? 9) * 100 + level.levelRank;
};

function byLevel<T extends { level: string | null }>(items: T[]): [string | null, T[]][] {
  const groups = new Map<string | null, T[]>();
  for (const item of items) groups.set(item.level, [...(groups.get(item.level) ?? []), item]);
  return [...groups].sort(([a], [b]) => levelOrder(a) - levelOrder(b) || String(a).localeCompare(String(b)));
}

const quantile = (sorted: number[], percent: number): number => Math.round(percentileInc(sorted, sorted.length, percent));

async function measured(team: Team, measure: Measure): Promise<{ member: Member; level: string | null; amount: number }[]> {
  const out = [];
  for (const member of team.members) {
    if (!member.pay) continue;
    const money = await team.measure(member, measure);
    if (money) out.push({ member, level: member.row.level_id, amount: money.amount });
  }
  return out;
}

export async function payDistribution(ctx: Pick<ServiceContext, 'deps' | 'caller'>, measure: Measure, status: Status): Promise<Schemas['TeamPayDistribution']> {
  const { deps, caller } = ctx;
  const access = await teamAccess(deps.db, caller);
  requirePay(access, 'The pay distribution');
  const team = await Team.load(deps, access, { status }, { pay: true, grants: false });
  const currency = team.companyCurrency;
  const money = (amount: number): Money => ({ amount, currency });
  const levels = byLevel(await measured(team, measure)).map(([level, items]) => {
    const sorted = items.map((item) => item.amount).sort((a, b) => a - b);
    return {
      level: levelRef(level),
      track: level ? (findLevel(level)?.track ?? null) : null,
      count: sorted.length,
      min: money(sorted[0] ?? 0),
      p25: money(quantile(sorted, 25)),
      median: money(quantile(sorted, 50)),
      p75: money(quantile(sorted, 75)),
      max: money(sorted.at(-1) ?? 0),
    };
  });
  return { measure, currency, rates: team.converter.ratesUsed(), levels };
}

// ── demographics ─────────────────────────────────────────────────────────────────────────────

const NOT_DISCLOSED = 'not_disclosed';

function demographicsOf(member: Member): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(member.row.demographics || '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const AGE_BANDS: { id: string; label: string; below: number }[] = [
  { id: 'under_25', label: 'Under 25', below: 25 },
  { id: '25_34', label: '25–34', below: 35 },
  { id: '35_44', label: '35–44', below: 45 },
  { id: '45_54', label: '45–54', below: 55 },
  { id: '55_plus', label: '55 and over', below: Infinity },
];

const humanise = (value: string): string => {
  const text = value.replace(/[_-]+/g, ' ').trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : value;
};

/** A person's group for a demographic attribute; unknown or missing is its own group. */
function demographicGroup(member: Member, attribute: Attribute): { id: string; label: string } {
  const fields = demographicsOf(member);
  if (attribute === 'ageBand') {
    const birthYear = Number(fields.birthYear);
    if (!Number.isInteger(birthYear) || birthYear < 1900) return { id: NOT_DISCLOSED, label: 'Not disclosed' };
    const age = new Date().getUTCFullYear() - birthYear;
    const band = AGE_BANDS.find((candidate) => age < candidate.below) ?? AGE_BANDS[AGE_BANDS.length - 1];
    return { id: band?.id ?? NOT_DISCLOSED, label: band?.label ?? 'Not disclosed' };
  }
  const raw = fields[attribute];
  if (typeof raw !== 'string' || !raw.trim()) return { id: NOT_DISCLOSED, label: 'Not disclosed' };
  const id = raw.trim().toLowerCase();
  return { id, label: humanise(raw.trim()) };
}

export async function payEquity(ctx: Pick<ServiceContext, 'deps' | 'caller'>, attribute: Attribute, measure: Measure): Promise<Schemas['TeamPayEquity']> {
  const { deps, caller } = ctx;
  const access = await teamAccess(deps.db, caller);
  requireDemographics(access, 'The pay-equity view');
  requirePay(access, 'The pay-equity view');
  const team = await Team.load(deps, access, { status: 'active' }, { pay: true, grants: false });
  const currency = team.companyCurrency;
  const levels = byLevel(await measured(team, measure)).map(([level, items]) => {
    const median = (amounts: number[]) => quantile([...amounts].sort((a, b) => a - b), 50);
    const levelMedian = median(items.map((item) => item.amount));
    const groups = new Map<string, { label: string; amounts: number[] }>();
    for (const item of items) {
      const group = demographicGroup(item.member, attribute);
      const entry = groups.get(group.id) ?? { label: group.label, amounts: [] };
      entry.amounts.push(item.amount);
      groups.set(group.id, entry);
    }
    const shown = [...groups].filter(([, group]) => group.amounts.length >= MINIMUM_GROUP_SIZE);
    return {
      level: levelRef(level),
      count: items.length,
      median: { amount: levelMedian, currency },
      groups: shown
        .map(([value, group]) => {
          const groupMedian = median(group.amounts);
          return {
            value,
            label: group.label,
            count: group.amounts.length,
            median: { amount: groupMedian, currency },
            ratioToLevelMedian: levelMedian > 0 ? Math.round((groupMedian / levelMedian) * 10000) / 10000 : 0,
          };
        })
        .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label)),
      hiddenGroups: groups.size - shown.length,
    };
  });
  return { attribute, measure, currency, minimumGroupSize: MINIMUM_GROUP_SIZE, rates: team.converter.ratesUsed(), levels };
}

// ── the playground ───────────────────────────────────────────────────────────────────────────

const DEMOGRAPHIC_DIMENSIONS: ReadonlySet<Dimension> = new Set(['gender', 'ethnicity', 'ageBand']);
/** Read with pay (docs/permissions.md): grouping by it counts only the people whose pay the caller sees. */
const PAY_DIMENSIONS: ReadonlySet<Dimension> = new Set(['performanceRating']);
const RECORD_METRICS: ReadonlySet<Metric> = new Set(['headcount', 'averageTenureMonths']);

const EMPLOYMENT_LABELS: Record<string, string> = { full_time: 'Full-time', part_time: 'Part-time', contractor: 'Contractor', intern: 'Intern' };

function dimensionKey(member: Member, dimension: Dimension): { id: string | null; label: string } {
  const row = member.row;
  const plain = (value: string | null) => ({ id: value, label: value ?? 'Not set' });
  const ref = (value: { id: string; name: string } | null) => (value ? { id: value.id, label: value.name } : { id: null, label: 'Not set' });
  switch (dimension) {
    case 'department':
      return plain(row.department);
    case 'level':
      return ref(levelRef(row.level_id));
    case 'track':
      return plain(row.track);
    case 'jobFamily':
      return ref(jobFamilyRef(row.job_family_id));
    case 'location':
      return ref(locationRef(row.location_id));
    case 'country':
      return plain(row.country_code);
    case 'manager':
      return ref(managerRef(row));
    case 'employmentType':
      return { id: row.employment_type, label: EMPLOYMENT_LABELS[row.employment_type] ?? row.employment_type };
    case 'status':
      return { id: row.status, label: row.status === 'terminated' ? 'Terminated' : 'Active' };
    case 'startYear':
      return plain(row.start_date ? row.start_date.slice(0, 4) : null);
    case 'performanceRating':
      return plain(row.performance_rating);
    case 'gender':
    case 'ethnicity':
    case 'ageBand':
      return demographicGroup(member, dimension);
  }
}

const UNITS: Record<Metric, Schemas['TeamPlayground']['unit']> = {
  headcount: 'count',
  averageBase: 'money',
  medianBase: 'money',
  totalBase: 'money',
  averageTotalCash: 'money',
  medianTotalCash: 'money',
  averageCompaRatio: 'ratio',
  averageTenureMonths: 'months',
  totalGrantedShares: 'shares',
};

function tenureMonths(member: Member, day: string): number | null {
  const start = member.row.start_date?.slice(0, 10);
  if (!start || start > day) return null;
  const [y1 = 0, m1 = 0] = start.split('-').map(Number);
  const [y2 = 0, m2 = 0] = day.split('-').map(Number);
  return (y2 - y1) * 12 + (m2 - m1);
}

const mean = (values: number[]): number | null => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

async function metricOf(team: Team, members: Member[], metric: Metric): Promise<number | null> {
  const day = new Date().toISOString().slice(0, 10);
  const amounts = async (measure: Measure) => {
    const out: number[] = [];
    for (const member of members) {
      const money = member.pay ? await team.measure(member, measure) : null;
      if (money) out.push(money.amount);
    }
    return out.sort((a, b) => a - b);
  };
  switch (metric) {
    case 'headcount':
      return members.length;
    case 'averageTenureMonths': {
      const value = mean(members.flatMap((member) => tenureMonths(member, day) ?? []));
      return value === null ? null : Math.round(value * 10) / 10;
    }
    case 'averageBase':
    case 'averageTotalCash': {
      const value = mean(await amounts(metric === 'averageBase' ? 'base_salary' : 'total_cash'));
      return value === null ? null : Math.round(value);
    }
    case 'medianBase':
    case 'medianTotalCash': {
      const sorted = await amounts(metric === 'medianBase' ? 'base_salary' : 'total_cash');
      return sorted.length ? quantile(sorted, 50) : null;
    }
    case 'totalBase': {
      const sorted = await amounts('base_salary');
      return sorted.length ? sorted.reduce((a, b) => a + b, 0) : null;
    }
    case 'averageCompaRatio': {
      const ratios: number[] = [];
      for (const member of members) {
        const ratio = member.pay ? (await team.compaRatio(member)).ratio : null;
        if (ratio !== null) ratios.push(ratio);
      }
      const value = mean(ratios);
      return value === null ? null : Math.round(value * 10000) / 10000;
    }
    case 'totalGrantedShares': {
      let total = 0;
      for (const member of members) total += (await team.equity(member))?.granted ?? 0;
      return total;
    }
  }
}

export async function playground(
  ctx: Pick<ServiceContext, 'deps' | 'caller'>,
  input: { groupBy: Dimension[]; metric: Metric; status: Status },
): Promise<Schemas['TeamPlayground']> {
  const { deps, caller } = ctx;
  const access = await teamAccess(deps.db, caller);
  const payMetric = !RECORD_METRICS.has(input.metric);
  if (payMetric) requirePay(access, `The ${input.metric} metric`);
  const payDimension = input.groupBy.find((dimension) => PAY_DIMENSIONS.has(dimension));
  // Like sorting the table by a pay column: a query parameter the caller may not use.
  if (payDimension && !seesPay(access)) {
    throw badRequest(`Grouping by ${payDimension} needs the employeeCompensation permission`, [{ field: 'query.groupBy', message: `${payDimension} is read with pay; you may not see pay` }]);
  }
  const demographic = input.groupBy.some((dimension) => DEMOGRAPHIC_DIMENSIONS.has(dimension));
  if (demographic) requireDemographics(access, 'Grouping by a demographic field');
  const withPay = payMetric || payDimension !== undefined;
  const team = await Team.load(deps, access, { status: input.status }, { pay: withPay, grants: input.metric === 'totalGrantedShares' });
  // A pay metric or a pay grouping covers only the people whose pay the caller may see.
  const members = withPay ? team.members.filter((member) => member.pay) : team.members;
  const groups = new Map<string, { keys: Schemas['TeamPlayground']['rows'][number]['keys']; members: Member[] }>();
  for (const member of members) {
    const keys = input.groupBy.map((dimension) => ({ dimension, ...dimensionKey(member, dimension) }));
    const key = JSON.stringify(keys.map((k) => k.id));
    const group = groups.get(key) ?? { keys, members: [] };
    group.members.push(member);
    groups.set(key, group);
  }
  const hideSmall = demographic && payMetric;
  const unit = UNITS[input.metric];
  const currency = unit === 'money' ? team.companyCurrency : null;
  const minor = team.converter.minorUnit(team.companyCurrency);
  let hiddenGroups = 0;
  const rows: Schemas['TeamPlayground']['rows'] = [];
  for (const group of groups.values()) {
    if (hideSmall && group.members.length < MINIMUM_GROUP_SIZE) {
      hiddenGroups += 1;
      continue;
    }
    const value = await metricOf(team, group.members, input.metric);
    const row: Schemas['TeamPlayground']['rows'][number] = { keys: group.keys, count: group.members.length, value };
    if (unit === 'money' && value !== null) {
      row.money = { amount: value, currency: team.companyCurrency };
      row.value = value / 10 ** minor;
    }
    rows.push(row);
  }
  rows.sort((a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity) || b.count - a.count);
  return {
    groupBy: input.groupBy,
    metric: input.metric,
    unit,
    currency,
    minimumGroupSize: hideSmall ? MINIMUM_GROUP_SIZE : null,
    hiddenGroups,
    rates: team.converter.ratesUsed(),
    rows,
  };
}
