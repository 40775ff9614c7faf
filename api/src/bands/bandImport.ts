import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';
import { headerWords } from '../hris/mapping.js';
import type { SourceTable } from '../hris/table.js';
import { parseAmount } from '../hris/values.js';
import { JOB_FAMILIES, LEVELS } from '../market/catalog/index.js';
import { type FileRow, type RowProblems, fileRows } from './fileRows.js';
import { type BandJobRow, type BandRow, type BandSetRow, type CompanyJobRow, type PayZoneRow, insertBands, updateBandFigures } from './store.js';

/** The columns of a bands file this import reads (named as the export writes them); the others are ignored. */
export type BandColumn = 'jobCode' | 'jobFamily' | 'level' | 'payZone' | 'currency' | 'min' | 'mid' | 'max';

const COLUMN_NAMES: Record<BandColumn, string[]> = {
  jobCode: ['Job code'],
  jobFamily: ['Job family', 'Job family ID'],
  level: ['Level', 'Level ID'],
  payZone: ['Pay zone', 'Zone'],
  currency: ['Currency'],
  min: ['Min', 'Minimum'],
  mid: ['Mid', 'Midpoint'],
  max: ['Max', 'Maximum'],
};

const compact = (text: string): string => headerWords(text).replace(/ /g, '');

/** Which column holds what, by the export's header names (any case or spacing). */
export function bandColumns(columns: readonly string[]): Partial<Record<BandColumn, string>> {
  const mapping: Partial<Record<BandColumn, string>> = {};
  for (const [field, names] of Object.entries(COLUMN_NAMES) as [BandColumn, string[]][]) {
    const wanted = new Set(names.map(compact));
    const column = columns.find((candidate) => wanted.has(compact(candidate)));
    if (column !== undefined) mapping[field] = column;
  }
  return mapping;
}

/** The export's columns a file must have: Pay zone, Min, Mid, Max, and Job code or Job family and Level. */
export function missingBandColumns(mapping: Partial<Record<BandColumn, string>>): string[] {
  const missing: string[] = [];
  if (!mapping.jobCode && !(mapping.jobFamily && mapping.level)) missing.push(mapping.jobFamily ? 'Level' : mapping.level ? 'Job family' : 'Job code');
  for (const field of ['payZone', 'min', 'mid', 'max'] as const) if (!mapping[field]) missing.push(COLUMN_NAMES[field][0] as string);
  return missing;
}

/** What a checked bands file changes: bands added and bands whose figures change. */
export interface BandPlan {
  rows: number;
  create: BandRow[];
  update: { id: string; min: number; mid: number; max: number }[];
  unchanged: number;
}

const lower = (text: string): string => text.trim().toLowerCase();
const familyByText = new Map<string, string>(JOB_FAMILIES.flatMap((family) => [[family.id, family.id] as const, [lower(family.name), family.id] as const]));
const levelByText = new Map<string, string>(LEVELS.flatMap((level) => [[level.id, level.id] as const, [lower(level.displayString), level.id] as const, [lower(level.extendedDisplayString), level.id] as const]));

function companyJobOf(row: FileRow<BandColumn>, byCode: ReadonlyMap<string, CompanyJobRow>, byCell: ReadonlyMap<string, CompanyJobRow>): CompanyJobRow | null {
  const code = row.cell('jobCode');
  if (code) {
    const job = byCode.get(lower(code));
    if (!job) row.problem('jobCode', `no company job has the job code "${code}"`);
    return job ?? null;
  }
  const familyText = row.cell('jobFamily');
  const levelText = row.cell('level');
  if (!familyText || !levelText) {
    row.problem(familyText ? 'level' : row.columnOf('jobCode') ? 'jobCode' : 'jobFamily', 'name the company job: its job code, or its job family and level');
    return null;
  }
  const family = familyByText.get(lower(familyText));
  const level = levelByText.get(lower(levelText));
  if (!family) row.problem('jobFamily', `"${familyText}" is not a job family of the market catalog`);
  if (!level) row.problem('level', `"${levelText}" is not a level of the market catalog`);
  if (!family || !level) return null;
  const job = byCell.get(`${family}|${level}`);
  if (!job) row.problem('jobFamily', `the company has no job for ${familyText} ${levelText}`);
  return job ?? null;
}

/**
 * Checks every row of a bands file against the draft, its company's jobs and zones: the job (by code,
 * else family and level), the zone (by name), the set's currency, min ≤ mid ≤ max with mid above 0,
 * one row per job × zone. Plans updates of the set's bands and additions; writes nothing.
 */
export function checkBandRows(
  table: SourceTable,
  context: { set: BandSetRow; minor: number; jobs: readonly CompanyJobRow[]; zones: readonly PayZoneRow[]; bands: readonly BandJobRow[]; userId: string },
  problems: RowProblems,
): BandPlan {
  const { set, minor } = context;
  const rows = fileRows<BandColumn>(table, bandColumns(table.columns), problems);
  const byCode = new Map(context.jobs.flatMap((job) => (job.job_code ? [[lower(job.job_code), job] as const] : [])));
  const byCell = new Map(context.jobs.map((job) => [`${job.job_family_id}|${job.level_id}`, job]));
  const zoneByName = new Map(context.zones.map((zone) => [lower(zone.name), zone]));
  const bandOf = new Map(context.bands.map((band) => [`${band.company_job_id}|${band.pay_zone_id}`, band]));
  const seen = new Map<string, number>();
  const plan: BandPlan = { rows: rows.length, create: [], update: [], unchanged: 0 };
  const now = new Date().toISOString();
  const amount = (text: string) => parseAmount(text, set.currency, minor);
  for (const row of rows) {
    const before = problems.count;
    const job = companyJobOf(row, byCode, byCell);
    const zoneName = row.cell('payZone');
    const zone = zoneName ? zoneByName.get(lower(zoneName)) : undefined;
    if (!zoneName) row.problem('payZone', 'is required');
    else if (!zone) row.problem('payZone', `"${zoneName}" is not one of the company's pay zones`);
    const currency = row.cell('currency');
    if (currency && currency.toUpperCase() !== set.currency) row.problem('currency', `the set's bands are in ${set.currency}, not ${currency}`);
    const [min, mid, max] = (['min', 'mid', 'max'] as const).map((field) => {
      const value = row.parse(field, amount);
      if (value === null && row.cell(field) === '') row.problem(field, 'is required');
      return value ?? null;
    });
    if (min !== null && mid !== null && max !== null && min !== undefined && mid !== undefined && max !== undefined) {
      if (mid <= 0) row.problem('mid', 'must be above 0');
      else if (min > mid || mid > max) row.problem(min > mid ? 'min' : 'max', 'a band runs from its minimum through its midpoint to its maximum: min ≤ mid ≤ max');
    }
    if (job && zone) {
      const key = `${job.id}|${zone.id}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) row.problem('payZone', `line ${earlier} already gives this job's band in ${zone.name}`);
      else seen.set(key, row.line);
    }
    if (problems.count !== before || !job || !zone || typeof min !== 'number' || typeof mid !== 'number' || typeof max !== 'number') continue;
    const existing = bandOf.get(`${job.id}|${zone.id}`);
    if (!existing) {
      plan.create.push({
        id: newId(),
        company_id: set.company_id,
        band_set_id: set.id,
        company_job_id: job.id,
        pay_zone_id: zone.id,
        min_amount: min,
        mid_amount: mid,
        max_amount: max,
        source: null,
        benchmark_amount: null,
        benchmark_count: 0,
        version: 1,
        updated_by: context.userId,
        created_at: now,
        updated_at: now,
      });
    } else if (Number(existing.min_amount) !== min || Number(existing.mid_amount) !== mid || Number(existing.max_amount) !== max) {
      plan.update.push({ id: existing.id, min, mid, max });
    } else plan.unchanged += 1;
  }
  return plan;
}

/** Writes a checked plan into the draft (in the caller's transaction): a changed band loses its market source, as a hand edit does. */
export async function applyBandPlan(trx: Knex, scope: CompanyScope, plan: BandPlan, userId: string): Promise<void> {
  const now = new Date().toISOString();
  for (const change of plan.update) {
    await updateBandFigures(trx, scope, change.id, { min_amount: change.min, mid_amount: change.mid, max_amount: change.max, source: null, updated_by: userId, updated_at: now });
  }
  await insertBands(trx, plan.create);
}
