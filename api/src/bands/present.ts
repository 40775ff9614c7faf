import type { components } from '../contract-types.js';
import { isoTimestamp, isoTimestampOrNull } from '../db/timestamps.js';
import { findJobFamily, findLevel } from '../reference/catalog/index.js';
import { parseRanges } from './ranges.js';
import type { BandJobRow, BandSetRow, CompanyJobRow, GradeBandRow, GradeRow, PayZoneRow } from './store.js';
import { viewersOf } from './zoneAccess.js';

type Schemas = components['schemas'];
export type PayZone = Schemas['PayZone'];
export type PayZoneRule = Schemas['PayZoneRule'];
export type CompanyJob = Schemas['CompanyJob'];
export type BandSet = Schemas['BandSet'];
export type BandSetDetail = Schemas['BandSetDetail'];
export type Band = Schemas['Band'];
export type BandPhilosophy = Schemas['BandPhilosophy'];
export type BandSource = Schemas['BandSource'];
export type CompositeBandSource = Schemas['CompositeBandSource'];
export type GradeBandSource = Schemas['GradeBandSource'];
export type CompGrade = Schemas['CompGrade'];
export type GradeBand = Schemas['GradeBand'];

const truthy = (value: boolean | number): boolean => value === true || value === 1;

export function parseRules(text: string): PayZoneRule[] {
  return JSON.parse(text) as PayZoneRule[];
}

export function presentZone(row: PayZoneRow): PayZone {
  return {
    id: row.id,
    name: row.name,
    differentialBp: Number(row.differential_bp),
    anchor: truthy(row.is_anchor),
    catchAll: truthy(row.is_catch_all),
    rules: parseRules(row.rules),
    position: Number(row.position),
    currency: row.currency ?? null,
    viewerUserIds: viewersOf(row),
    version: Number(row.version),
  };
}

export const isAnchor = (row: PayZoneRow): boolean => truthy(row.is_anchor);
export const isCatchAll = (row: PayZoneRow): boolean => truthy(row.is_catch_all);

export function presentJob(row: CompanyJobRow, employeeCount: number, gradeKeys: ReadonlyMap<string, string> = new Map()): CompanyJob {
  return {
    id: row.id,
    jobFamilyId: row.job_family_id,
    jobFamilyName: findJobFamily(row.job_family_id)?.name ?? row.job_family_id,
    levelId: row.level_id,
    levelDisplay: findLevel(row.level_id)?.extendedDisplayString ?? row.level_id.toUpperCase(),
    trackId: row.track,
    title: row.title,
    jobCode: row.job_code,
    gradeId: row.grade_id ?? null,
    gradeKey: row.grade_id ? (gradeKeys.get(row.grade_id) ?? null) : null,
    employeeCount,
    version: Number(row.version),
  };
}

export function parsePhilosophy(text: string | null): BandPhilosophy | null {
  return text ? (JSON.parse(text) as BandPhilosophy) : null;
}

export function presentSet(row: BandSetRow, bandCount: number): BandSet {
  return {
    id: row.id,
    name: row.name,
    status: row.status as BandSet['status'],
    // A draft may keep the cycle of a submission that was rejected; only a set serving, waiting to serve or having served a cycle names it.
    meritCycleId: row.status === 'draft' ? null : (row.merit_cycle_id ?? null),
    currency: row.currency,
    effectiveDate: row.effective_date,
    philosophy: parsePhilosophy(row.philosophy),
    bandCount,
    publishedAt: isoTimestampOrNull(row.published_at),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
    version: Number(row.version),
  };
}

/** A band's stored source; those written before composites existed are market sources without their kind. */
export function parseSource(text: string | null): BandSource | CompositeBandSource | null {
  if (!text) return null;
  const source = JSON.parse(text) as BandSource | CompositeBandSource | Omit<BandSource, 'kind'>;
  return 'kind' in source ? source : { kind: 'market', ...source };
}

export function presentBand(row: BandJobRow): Band {
  const currency = row.currency;
  return {
    id: row.id,
    companyJobId: row.company_job_id,
    payZoneId: row.pay_zone_id,
    jobFamilyId: row.job_family_id,
    levelId: row.level_id,
    trackId: row.track,
    min: { amount: Number(row.min_amount), currency },
    mid: { amount: Number(row.mid_amount), currency },
    max: { amount: Number(row.max_amount), currency },
    source: parseSource(row.source),
    ranges: parseRanges(row.ranges),
    version: Number(row.version),
  };
}

export function presentGrade(row: GradeRow, jobCount: number): CompGrade {
  return { id: row.id, key: row.key, name: row.name, order: Number(row.position), jobCount, version: Number(row.version) };
}

export function presentGradeBand(row: GradeBandRow & { grade_key: string }): GradeBand {
  const currency = row.currency;
  return {
    id: row.id,
    gradeId: row.grade_id,
    gradeKey: row.grade_key,
    payZoneId: row.pay_zone_id,
    min: { amount: Number(row.min_amount), currency },
    mid: { amount: Number(row.mid_amount), currency },
    max: { amount: Number(row.max_amount), currency },
    ranges: parseRanges(row.ranges),
    source: row.source ? (JSON.parse(row.source) as GradeBandSource) : null,
    version: Number(row.version),
  };
}

export function presentSetDetail(row: BandSetRow, bands: BandJobRow[], gradeBands: (GradeBandRow & { grade_key: string })[] = []): BandSetDetail {
  return { ...presentSet(row, bands.length), bands: bands.map((band) => presentBand(band)), gradeBands: gradeBands.map((band) => presentGradeBand(band)) };
}
