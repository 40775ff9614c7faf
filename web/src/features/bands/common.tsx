import type { LucideIcon } from 'lucide-react';
import { type ReactNode, useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { useQuery } from '../../api/client';
import { invalidate, useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge, type Tone } from '../../ui/Badge';
import { formatMajor, toMajorText as majorText, toMinor as toMinorUnits } from '../../ui/format';
import { FormProblem, fieldProblems as namedFieldProblems } from '../../ui/FormProblem';
import { PageHeader } from '../../ui/Page';
import { can } from '../settings/permissions';
import './bands.css';

export type Schemas = components['schemas'];
export type Money = Schemas['Money'];
export type BandSet = Schemas['BandSet'];
export type BandSetDetail = Schemas['BandSetDetail'];
export type Band = Schemas['Band'];
export type PayZone = Schemas['PayZone'];
export type CompanyJob = Schemas['CompanyJob'];
export type BandEvaluation = Schemas['BandEvaluation'];
export type MarketPercentile = Schemas['MarketPercentile'];

export { formatDate, formatMoney, formatNumber } from '../../ui/format';

/** The percentiles the market publishes: the only ones a build may target. */
export const PERCENTILES: readonly MarketPercentile[] = [10, 25, 40, 50, 60, 75, 90];
export const ROUNDINGS: readonly Schemas['BandRounding'][] = [100, 500, 1000];

// ── who may do what ──────────────────────────────────────────────────────────────────────────

/** Changes need bands edit; a view-as session changes nothing. The server checks again on every call. */
export function useBandsAccess() {
  const person = usePerson().data?.data;
  return {
    /** Changes that span every pay zone (building, publishing, zones, jobs, grades, surveys): bands edit over all zones. */
    edit: can(person, 'bands', 'edit', 'all') && !person?.viewAs,
    /** Editing bands and grade bands: bands edit over all zones, or over the zones that name the person (scope `zones`). */
    editBands: can(person, 'bands', 'edit') && !person?.viewAs,
    pay: (person?.permissionsV3.employeeCompensation ?? []).length > 0,
    benchmarking: person?.modules.some((entry) => entry.module === 'benchmarking' && entry.authorized) ?? false,
    /** Whether the person may see merit cycles, to publish a draft to one. */
    cycles: person?.modules.some((entry) => entry.module === 'compplanning' && entry.authorized) ?? false,
  };
}

/** Every answer of the bands area (and the home tile that reads them) is asked again after a change. */
export function refreshBands(): Promise<void> {
  return invalidate((path) => path.startsWith('/api/bands/'));
}

// ── formats ──────────────────────────────────────────────────────────────────────────────────

/** A zone's differential in basis points as a signed percent: −1000 → "−10%". */
export function formatDifferential(bp: number): string {
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(bp / 10_000);
}

/** A fraction as a percent: 0.5 → "50%", with a sign for progressions. */
export function formatShare(value: number | null | undefined, signed = false): string {
  if (value === null || value === undefined) return '—';
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1, signDisplay: signed ? 'exceptZero' : 'auto' }).format(value);
}

export const formatRatio = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : value.toFixed(2));

/** Major units a person typed → the contract's integer minor units; null when it is not a number. */
export const toMinor = (text: string, currency: string): number | null => toMinorUnits(text, currency);

/** The benchmark a band was built from (major units of its currency), as money. */
export const formatMarketValue = (source: { marketValue: number; marketCurrency: string }): string =>
  formatMajor(source.marketValue, source.marketCurrency);

/** What a set's bands are priced in: its one currency, or each zone's own ("USD, GBP for United Kingdom"). */
export function currenciesText(bandSet: { currency: string; bands: readonly { mid: Money }[] }): string {
  const others = [...new Set(bandSet.bands.map((band) => band.mid.currency).filter((currency) => currency !== bandSet.currency))].sort();
  return others.length ? `${bandSet.currency} and each pay zone's own currency (${others.join(', ')})` : bandSet.currency;
}

/** The currency a new band of a zone is in: the zone's own, else the set's. */
export const zoneCurrency = (zone: { currency: string | null } | undefined, bandSet: { currency: string }): string => zone?.currency ?? bandSet.currency;

/** Minor units → the major-unit text an input starts with. */
export const toMajorText = (money: Money): string => majorText(money);

const STATUS: Record<Schemas['BandSetStatus'], { label: string; tone: Tone }> = {
  draft: { label: 'Draft', tone: 'info' },
  pendingApproval: { label: 'Waiting for approval', tone: 'warning' },
  live: { label: 'Live', tone: 'success' },
  cycle: { label: 'Merit cycle', tone: 'info' },
  archived: { label: 'Archived', tone: 'neutral' },
};

export function StatusBadge({ status }: { status: Schemas['BandSetStatus'] }) {
  return <Badge tone={STATUS[status].tone}>{STATUS[status].label}</Badge>;
}

export function philosophyText(philosophy: Schemas['BandPhilosophy'], locationName: (id: string) => string): string {
  const width = philosophy.width.kind === 'plusMinus' ? `±${philosophy.width.percent}%` : `${philosophy.width.percent}% spread`;
  const extras = [
    philosophy.bonusTargetPercent !== undefined ? `bonus target ${philosophy.bonusTargetPercent}%` : '',
    philosophy.equityPercentile !== undefined ? `equity at p${philosophy.equityPercentile}` : '',
  ].filter(Boolean);
  return `p${philosophy.targetPercentile}, ${width}, rounded to ${philosophy.rounding.toLocaleString()}, priced in ${locationName(philosophy.marketLocationId)}${extras.length ? `, ${extras.join(', ')}` : ''}`;
}

// ── a failed call, in the server's words ─────────────────────────────────────────────────────

const FIELD_NAMES: Record<string, string> = {
  name: 'Name',
  differentialBp: 'Differential',
  rules: 'Rules',
  anchor: 'Anchor',
  title: 'Title',
  jobCode: 'Job code',
  jobFamilyId: 'Job family',
  levelId: 'Level',
  trackId: 'Track',
  marketLocationId: 'Market location',
  targetPercentile: 'Target percentile',
  width: 'Width',
  comment: 'Comment',
};

/** The fields the server named in a 400, in this area's words. */
export const fieldProblems = (error: unknown): string[] => namedFieldProblems(error, FIELD_NAMES);

/** A write of this area (`useMutation`) whose failure the screen shows in place, its fields in this area's words. */
export const useBandsMutation = () => useMutation({ failure: 'problem', fieldNames: FIELD_NAMES });

/** A form's failure: the message, then each field the server named. */
export function Problem({ message, fields = [] }: { message: string | null; fields?: string[] }) {
  return <FormProblem message={message} fields={fields} className="bands-problem" />;
}

// ── names of the market's families, levels, tracks and locations ─────────────────────────────

/**
 * Names from the market catalog. The public (marketing) answers serve everyone with bands; with
 * benchmarking, the explorer's locations add metros, so a build can be priced in one.
 */
export function useMarketNames() {
  const { benchmarking } = useBandsAccess();
  const filters = useQuery('/api/benchmarking/filters/marketing');
  const composition = useQuery('/api/benchmarking/data-composition/marketing');
  const explorerLocations = useQuery('/api/benchmarking/data-composition/locations', benchmarking ? {} : null);
  return useMemo(() => {
    const names = new Map<string, string>();
    const tracks = filters.data?.data.levelsWithIds.levelTracks ?? [];
    for (const track of tracks) {
      names.set(track.id, track.displayString);
      for (const level of track.levels) names.set(level.id, level.displayString);
    }
    const families = composition.data?.data.jobFamilies ?? [];
    for (const family of families) names.set(family.id, family.name);
    const locations = explorerLocations.data?.data.locations ?? composition.data?.data.locations ?? [];
    for (const location of locations) names.set(location.id, location.name);
    return {
      name: (id: string) => names.get(id) ?? id,
      tracks,
      families,
      locations,
    };
  }, [filters.data, composition.data, explorerLocations.data]);
}

// ── the area's frame ─────────────────────────────────────────────────────────────────────────

const TABS = [
  { href: '/bands', label: 'Band sets' },
  { href: '/bands/zones', label: 'Pay zones' },
  { href: '/bands/jobs', label: 'Job architecture' },
  { href: '/bands/surveys', label: 'Surveys' },
  { href: '/bands/market-data', label: 'Market data' },
];

function currentTab(location: string): string {
  if (location.startsWith('/bands/zones')) return '/bands/zones';
  if (location.startsWith('/bands/jobs')) return '/bands/jobs';
  if (location.startsWith('/bands/surveys')) return '/bands/surveys';
  if (location.startsWith('/bands/market-data')) return '/bands/market-data';
  return '/bands';
}

interface FrameProps {
  title: ReactNode;
  eyebrow?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  icon?: LucideIcon;
  children: ReactNode;
}

/** Every bands screen: the links between band sets, pay zones and job architecture, then its header. */
export function BandsFrame({ title, eyebrow, description, actions, icon, children }: FrameProps) {
  const [location] = useLocation();
  const active = currentTab(location);
  return (
    <div className="bands">
      <nav className="tabs bands-tabs" aria-label="Salary bands">
        {TABS.map((tab) => (
          <Link key={tab.href} href={tab.href} className={tab.href === active ? 'tab active' : 'tab'} aria-current={tab.href === active ? 'page' : undefined}>
            {tab.label}
          </Link>
        ))}
      </nav>
      <PageHeader title={title} eyebrow={eyebrow} description={description} actions={actions} icon={icon} />
      {children}
    </div>
  );
}

// ── rows of the grid: company jobs by family and track, by level ─────────────────────────────

export interface JobGroup {
  key: string;
  jobFamilyName: string;
  trackId: string;
  jobs: CompanyJob[];
}

/** The level's rank from its id (P3 → 3): levels are one letter and a digit in the catalog. */
export const levelRank = (levelId: string): number => Number(levelId.replace(/\D/g, '')) || 0;

/** Jobs grouped by family × track, each group ordered by level (the server lists them by family, track, level). */
export function groupJobs(jobs: readonly CompanyJob[]): JobGroup[] {
  const groups = new Map<string, JobGroup>();
  for (const job of jobs) {
    const key = `${job.jobFamilyId}|${job.trackId}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, jobFamilyName: job.jobFamilyName, trackId: job.trackId, jobs: [] };
      groups.set(key, group);
    }
    group.jobs.push(job);
  }
  for (const group of groups.values()) group.jobs.sort((a, b) => levelRank(a.levelId) - levelRank(b.levelId));
  return [...groups.values()];
}

/** The band of a job in a zone, looked up by `${companyJobId}|${payZoneId}`. */
export function bandsByCell(bands: readonly Band[]): Map<string, Band> {
  return new Map(bands.map((band) => [`${band.companyJobId}|${band.payZoneId}`, band]));
}
