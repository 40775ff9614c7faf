import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';
import { HttpError } from '../kernel/errors.js';
import { headerWords } from '../kernel/files/mapping.js';
import type { SourceTable } from '../kernel/files/table.js';
import { type Parsed, parseWholeNumber } from '../kernel/files/cells.js';
import { parseAmount } from '../money/parse.js';
import { JOB_FAMILIES, LEVELS } from '../reference/catalog/index.js';
import { type FileRow, type RowProblems, fileRows } from './fileRows.js';
import { type BandRanges, checkRanges, rangesText } from './ranges.js';
import { type BandJobRow, type BandRow, type BandSetRow, type CompanyJobRow, type GradeBandRow, type GradeRow, type PayZoneRow, gradeBandsOf, insertBands, insertGradeBands, updateBandFigures } from './store.js';

/** The columns of a bands file this import reads (named as the export writes them); the others are ignored. */
export type BandColumn =
  | 'jobCode'
  | 'jobFamily'
  | 'level'
  | 'payZone'
  | 'currency'
  | 'min'
  | 'mid'
  | 'max'
  | 'grade'
  | 'bonusTarget'
  | 'bonusMin'
  | 'bonusMax'
  | 'variableTarget'
  | 'equityUnit'
  | 'equityMin'
  | 'equityMid'
  | 'equityMax';

/** The ranges' columns: a file with any of them sets each row's ranges from them (empty cells: no such part). */
const RANGE_COLUMNS = ['bonusTarget', 'bonusMin', 'bonusMax', 'variableTarget', 'equityUnit', 'equityMin', 'equityMid', 'equityMax'] as const;

const COLUMN_NAMES: Record<BandColumn, string[]> = {
  jobCode: ['Job code'],
  jobFamily: ['Job family', 'Job family ID'],
  level: ['Level', 'Level ID'],
  payZone: ['Pay zone', 'Zone'],
  currency: ['Currency'],
  min: ['Min', 'Minimum'],
  mid: ['Mid', 'Midpoint'],
  max: ['Max', 'Maximum'],
  grade: ['Grade', 'Comp grade'],
  bonusTarget: ['Bonus target %', 'Bonus target'],
  bonusMin: ['Bonus min %', 'Bonus min'],
  bonusMax: ['Bonus max %', 'Bonus max'],
  variableTarget: ['Variable target'],
  equityUnit: ['Equity unit'],
  equityMin: ['Equity min'],
  equityMid: ['Equity mid'],
  equityMax: ['Equity max'],
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

/** The export's columns a file must have: Pay zone, Min, Mid, Max, and Job code or Job family and Level (or Grade, for grade bands). */
export function missingBandColumns(mapping: Partial<Record<BandColumn, string>>): string[] {
  const missing: string[] = [];
  if (!mapping.jobCode && !(mapping.jobFamily && mapping.level) && !mapping.grade) missing.push(mapping.jobFamily ? 'Level' : mapping.level ? 'Job family' : 'Job code');
  for (const field of ['payZone', 'min', 'mid', 'max'] as const) if (!mapping[field]) missing.push(COLUMN_NAMES[field][0] as string);
  return missing;
}

/** What a checked bands file changes: bands added and bands whose figures change. */
export interface BandPlan {
  rows: number;
  create: BandRow[];
  /** `ranges` undefined: the file has no ranges columns, so the band keeps its own. */
  update: { id: string; min: number; mid: number; max: number; ranges?: string | null }[];
  createGrade: GradeBandRow[];
  updateGrade: { id: string; version: number; min: number; mid: number; max: number; ranges?: string | null }[];
  unchanged: number;
}

/** A percentage as a number of percent ("15", "15%", "12.5"). */
function percentOf(text: string): Parsed<number> {
  const cleaned = text.replace(/\s*%$/, '').trim();
  if (!/^\d+(\.\d+)?$/.test(cleaned)) return { error: `"${text}" is not a percentage (write 15 or 15%)` };
  const value = Number(cleaned);
  return value > 1000 ? { error: `"${text}" is more than 1,000%` } : { value };
}

/** The row's ranges from the ranges columns (null: none); problems reported on the row. */
function rangesOf(row: FileRow<BandColumn>, amount: (text: string) => Parsed<number>, currency: string): BandRanges | null {
  const ranges: BandRanges = {};
  const target = row.parse('bonusTarget', percentOf);
  const bonusMin = row.parse('bonusMin', percentOf);
  const bonusMax = row.parse('bonusMax', percentOf);
  if (typeof target === 'number') ranges.bonusTargetPercent = { target, ...(typeof bonusMin === 'number' ? { min: bonusMin } : {}), ...(typeof bonusMax === 'number' ? { max: bonusMax } : {}) };
  else if (typeof bonusMin === 'number' || typeof bonusMax === 'number') row.problem('bonusTarget', 'a bonus range needs its target');
  const variable = row.parse('variableTarget', amount);
  if (typeof variable === 'number') ranges.variableTarget = { amount: variable, currency };
  const unitText = row.cell('equityUnit')?.toLowerCase();
  const unit = unitText === 'value' || unitText === 'shares' ? unitText : undefined;
  if (unitText && !unit) row.problem('equityUnit', `"${row.cell('equityUnit')}" is not an equity unit (value or shares)`);
  const equityParser = unit === 'shares' ? (text: string) => parseWholeNumber(text, 0, Number.MAX_SAFE_INTEGER) : amount;
  const [eMin, eMid, eMax] = (['equityMin', 'equityMid', 'equityMax'] as const).map((field) => row.parse(field, equityParser));
  if (typeof eMin === 'number' && typeof eMid === 'number' && typeof eMax === 'number') {
    if (!unit) row.problem('equityUnit', 'name the equity unit: value or shares');
    else ranges.equity = { unit, min: eMin, mid: eMid, max: eMax, percentile: null };
  } else if ([eMin, eMid, eMax].some((value) => typeof value === 'number')) row.problem('equityMid', 'an equity range needs its min, mid and max');
  try {
    checkRanges(ranges, currency);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // The one range that does not hold together, on the column a person fixes it in.
    const field = error.errors?.[0]?.field ?? '';
    row.problem(field.includes('equity') ? 'equityMid' : field.includes('variable') ? 'variableTarget' : 'bonusTarget', error.message);
  }
  return Object.keys(ranges).length ? ranges : null;
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
 * else family and level), the zone (by name), the band's currency (an existing band's, else its zone's),
 * amounts in that currency, min ≤ mid ≤ max with mid above 0,
 * one row per job × zone. Plans updates of the set's bands and additions; writes nothing.
 */
export function checkBandRows(
  table: SourceTable,
  context: {
    set: BandSetRow;
    /** Minor units of a currency. */
    minor: (currency: string) => number;
    jobs: readonly CompanyJobRow[];
    zones: readonly PayZoneRow[];
    bands: readonly BandJobRow[];
    grades: readonly GradeRow[];
    gradeBands: readonly GradeBandRow[];
    userId: string;
  },
  problems: RowProblems,
): BandPlan {
  const { set, minor } = context;
  const mapping = bandColumns(table.columns);
  const hasRanges = RANGE_COLUMNS.some((field) => mapping[field] !== undefined);
  const rows = fileRows<BandColumn>(table, mapping, problems);
  const gradeByKey = new Map(context.grades.map((grade) => [lower(grade.key), grade]));
  const gradeBandOf = new Map(context.gradeBands.map((band) => [`${band.grade_id}|${band.pay_zone_id}`, band]));
  const byCode = new Map(context.jobs.flatMap((job) => (job.job_code ? [[lower(job.job_code), job] as const] : [])));
  const byCell = new Map(context.jobs.map((job) => [`${job.job_family_id}|${job.level_id}`, job]));
  const zoneByName = new Map(context.zones.map((zone) => [lower(zone.name), zone]));
  const bandOf = new Map(context.bands.map((band) => [`${band.company_job_id}|${band.pay_zone_id}`, band]));
  const seen = new Map<string, number>();
  const plan: BandPlan = { rows: rows.length, create: [], update: [], createGrade: [], updateGrade: [], unchanged: 0 };
  const now = new Date().toISOString();
  for (const row of rows) {
    const before = problems.count;
    // A row naming a grade and no job is the grade's band in the zone.
    const gradeText = row.cell('grade');
    const gradeRow = Boolean(gradeText) && !row.cell('jobCode') && !row.cell('jobFamily') && !row.cell('level');
    const grade = gradeRow && gradeText ? gradeByKey.get(lower(gradeText)) : undefined;
    if (gradeRow && !grade) row.problem('grade', `"${gradeText}" is not one of the company's grades`);
    const job = gradeRow ? null : companyJobOf(row, byCode, byCell);
    const zoneName = row.cell('payZone');
    const zone = zoneName ? zoneByName.get(lower(zoneName)) : undefined;
    if (!zoneName) row.problem('payZone', 'is required');
    else if (!zone) row.problem('payZone', `"${zoneName}" is not one of the company's pay zones`);
    const existingBand = job && zone ? bandOf.get(`${job.id}|${zone.id}`) : grade && zone ? gradeBandOf.get(`${grade.id}|${zone.id}`) : undefined;
    // A band stays in the currency it is in; a new one is in its zone's.
    const bandCurrency = existingBand?.currency ?? zone?.currency ?? set.currency;
    const amount = (text: string) => parseAmount(text, bandCurrency, minor(bandCurrency));
    const currency = row.cell('currency');
    if (currency && currency.toUpperCase() !== bandCurrency) row.problem('currency', `${existingBand ? 'this band is' : `bands of ${zone?.name ?? 'this zone'} are`} in ${bandCurrency}, not ${currency}`);
    const [min, mid, max] = (['min', 'mid', 'max'] as const).map((field) => {
      const value = row.parse(field, amount);
      if (value === null && row.cell(field) === '') row.problem(field, 'is required');
      return value ?? null;
    });
    if (min !== null && mid !== null && max !== null && min !== undefined && mid !== undefined && max !== undefined) {
      if (mid <= 0) row.problem('mid', 'must be above 0');
      else if (min > mid || mid > max) row.problem(min > mid ? 'min' : 'max', 'a band runs from its minimum through its midpoint to its maximum: min ≤ mid ≤ max');
    }
    const ranges = hasRanges ? rangesOf(row, amount, bandCurrency) : undefined;
    const owner = job ?? grade;
    if (owner && zone) {
      const key = `${job ? 'job' : 'grade'}|${owner.id}|${zone.id}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) row.problem('payZone', `line ${earlier} already gives this ${job ? 'job' : 'grade'}'s band in ${zone.name}`);
      else seen.set(key, row.line);
    }
    if (problems.count !== before || !owner || !zone || typeof min !== 'number' || typeof mid !== 'number' || typeof max !== 'number') continue;
    const text = ranges === undefined ? undefined : rangesText(ranges);
    if (grade) {
      const existingGrade = gradeBandOf.get(`${grade.id}|${zone.id}`);
      if (!existingGrade) {
        plan.createGrade.push({
          id: newId(),
          company_id: set.company_id,
          band_set_id: set.id,
          grade_id: grade.id,
          pay_zone_id: zone.id,
          currency: bandCurrency,
          min_amount: min,
          mid_amount: mid,
          max_amount: max,
          ranges: text ?? null,
          source: null,
          benchmark_amount: null,
          benchmark_count: null,
          version: 1,
          updated_by: context.userId,
          created_at: now,
          updated_at: now,
        });
      } else if (Number(existingGrade.min_amount) !== min || Number(existingGrade.mid_amount) !== mid || Number(existingGrade.max_amount) !== max || (text !== undefined && text !== (existingGrade.ranges ?? null))) {
        plan.updateGrade.push({ id: existingGrade.id, version: Number(existingGrade.version), min, mid, max, ...(text !== undefined ? { ranges: text } : {}) });
      } else plan.unchanged += 1;
      continue;
    }
    if (!job) continue;
    const existing = bandOf.get(`${job.id}|${zone.id}`);
    if (!existing) {
      plan.create.push({
        id: newId(),
        company_id: set.company_id,
        band_set_id: set.id,
        company_job_id: job.id,
        pay_zone_id: zone.id,
        currency: bandCurrency,
        min_amount: min,
        mid_amount: mid,
        max_amount: max,
        source: null,
        benchmark_amount: null,
        benchmark_count: 0,
        ranges: text ?? null,
        version: 1,
        updated_by: context.userId,
        created_at: now,
        updated_at: now,
      });
    } else if (Number(existing.min_amount) !== min || Number(existing.mid_amount) !== mid || Number(existing.max_amount) !== max) {
      plan.update.push({ id: existing.id, min, mid, max, ...(text !== undefined ? { ranges: text } : {}) });
    } else if (text !== undefined && text !== (existing.ranges ?? null)) {
      // Only the ranges change: the figures and their source stay as built.
      plan.update.push({ id: existing.id, min, mid, max, ranges: text });
    } else plan.unchanged += 1;
  }
  return plan;
}

/** Writes a checked plan into the draft (in the caller's transaction): a band whose figures change loses its market source, as a hand edit does. */
export async function applyBandPlan(trx: Knex, scope: CompanyScope, plan: BandPlan, userId: string, current: readonly BandJobRow[] = []): Promise<void> {
  const now = new Date().toISOString();
  const byId = new Map(current.map((band) => [band.id, band]));
  for (const change of plan.update) {
    const band = byId.get(change.id);
    const same = band && Number(band.min_amount) === change.min && Number(band.mid_amount) === change.mid && Number(band.max_amount) === change.max;
    await updateBandFigures(trx, scope, change.id, {
      min_amount: change.min,
      mid_amount: change.mid,
      max_amount: change.max,
      source: same ? band.source : null,
      ...(change.ranges !== undefined ? { ranges: change.ranges } : {}),
      updated_by: userId,
      updated_at: now,
    });
  }
  await insertBands(trx, plan.create);
  for (const change of plan.updateGrade) {
    await gradeBandsOf(trx, scope)
      .where({ id: change.id })
      .update({ min_amount: change.min, mid_amount: change.mid, max_amount: change.max, ...(change.ranges !== undefined ? { ranges: change.ranges } : {}), version: change.version + 1, updated_by: userId, updated_at: now });
  }
  await insertGradeBands(trx, plan.createGrade);
}
