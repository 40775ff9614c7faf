import type { Knex } from 'knex';
import type { Caller } from '../access/caller.js';
import { companyScope } from '../access/caller.js';
import { csvFile } from '../downloads/csv.js';
import { saveDownload } from '../downloads/service.js';
import { jobKind } from '../jobs/kind.js';
import type { JobQueue } from '../jobs/queue.js';
import { startJob } from '../jobs/service.js';
import { CONTENT_TYPES, type ExportFormat, type ExportRow, xlsxContent } from '../market/exportJob.js';
import { TRACKS, findJobFamily, findLevel } from '../reference/catalog/index.js';
import { minorUnits } from '../money/minorUnits.js';
import { parseSource } from './present.js';
import { type BandRanges, parseRanges } from './ranges.js';
import { type BandJobRow, type BandSetRow, type GradeBandRow, listBands, listGradeBands, listGrades, listJobs, listZones } from './store.js';
import { callerZoneReach, requireSet } from './sets.js';
import type { ServiceContext } from '../kernel/operations.js';

export const BANDS_EXPORT = 'bandsExport';

export interface BandsExportInput {
  bandSetId: string;
  format: ExportFormat;
  /** The pay zones a holder limited to some zones exports; absent for every zone. */
  zoneIds?: string[];
}

export const BANDS_EXPORT_COLUMNS = [
  'Band set',
  'Status',
  'Job code',
  'Job title',
  'Job family',
  'Level',
  'Track',
  'Pay zone',
  'Differential %',
  'Currency',
  'Min',
  'Mid',
  'Max',
  'Market percentile',
  'Market value',
  'Market release',
  'Grade',
  'Bonus target %',
  'Bonus min %',
  'Bonus max %',
  'Variable target',
  'Equity unit',
  'Equity min',
  'Equity mid',
  'Equity max',
] as const;

const trackTitles = new Map(TRACKS.map((track) => [track.id as string, track.title]));

/** Integer minor units → major units: exact decimal text for CSV, a number for XLSX. */
export function majorUnits(amount: number, places: number, format: ExportFormat): string | number {
  const negative = amount < 0;
  const whole = String(Math.abs(amount)).padStart(places + 1, '0');
  const text = `${negative ? '-' : ''}${places ? `${whole.slice(0, -places)}.${whole.slice(-places)}` : whole}`;
  return format === 'xlsx' ? Number(text) : text;
}

/** The ranges' cells: bonus target, min and max %, variable target, equity unit, min, mid and max (value in major units, shares whole). */
function rangeCells(ranges: BandRanges | null, amount: (value: number) => string | number): ExportRow {
  const bonus = ranges?.bonusTargetPercent;
  const equity = ranges?.equity;
  const equityFigure = (value: number) => (equity?.unit === 'value' ? amount(value) : value);
  return [
    bonus ? bonus.target : null,
    bonus?.min ?? null,
    bonus?.max ?? null,
    ranges?.variableTarget ? amount(ranges.variableTarget.amount) : null,
    equity?.unit ?? null,
    equity ? equityFigure(equity.min) : null,
    equity ? equityFigure(equity.mid) : null,
    equity ? equityFigure(equity.max) : null,
  ];
}

/**
 * One row per band of the set, in the order the set lists them (family, track, level, zone), then one
 * per grade band (by grade, then zone): a grade band's row names its grade and no job.
 */
async function bandRows(db: Knex, set: BandSetRow, bands: BandJobRow[], gradeBands: (GradeBandRow & { grade_key: string })[], format: ExportFormat): Promise<ExportRow[]> {
  const scope = { companyId: set.company_id };
  const [jobs, zones, grades, digits] = await Promise.all([listJobs(db, scope), listZones(db, scope), listGrades(db, scope), minorUnits(db)]);
  const jobById = new Map(jobs.map((job) => [job.id, job]));
  const zoneById = new Map(zones.map((zone) => [zone.id, zone]));
  const gradeKey = new Map(grades.map((grade) => [grade.id, grade.key]));
  /** A band's amounts in major units of its currency. */
  const amountIn = (currency: string) => (value: number | string) => majorUnits(Number(value), digits.of(currency), format);
  const gradeRows = gradeBands.map((band): ExportRow => {
    const zone = zoneById.get(band.pay_zone_id);
    const amount = amountIn(band.currency);
    return [
      set.name,
      set.status,
      null,
      null,
      null,
      null,
      null,
      zone?.name ?? null,
      zone ? Number(zone.differential_bp) / 100 : null,
      band.currency,
      amount(band.min_amount),
      amount(band.mid_amount),
      amount(band.max_amount),
      null,
      null,
      null,
      band.grade_key,
      ...rangeCells(parseRanges(band.ranges), amount),
    ];
  });
  const jobRows = bands.map((band) => {
    const job = jobById.get(band.company_job_id);
    const zone = zoneById.get(band.pay_zone_id);
    const source = parseSource(band.source);
    const amount = amountIn(band.currency);
    // The market figure in the band's currency: a zone paid in another currency than the set's was priced at the recorded rate.
    const marketValue = source && source.conversion ? Number((source.marketValue * source.conversion.rate).toFixed(digits.of(band.currency))) : (source?.marketValue ?? null);
    return [
      set.name,
      set.status,
      job?.job_code ?? null,
      job?.title ?? null,
      findJobFamily(band.job_family_id)?.name ?? band.job_family_id,
      findLevel(band.level_id)?.extendedDisplayString ?? band.level_id.toUpperCase(),
      trackTitles.get(band.track) ?? band.track,
      zone?.name ?? null,
      // Basis points / 100 is exact in a double at this size, and a number is never taken for a formula.
      zone ? Number(zone.differential_bp) / 100 : null,
      band.currency,
      amount(band.min_amount),
      amount(band.mid_amount),
      amount(band.max_amount),
      source?.percentile ?? null,
      marketValue,
      // A composite names its sources in the API; the file says how many it blends.
      source ? (source.kind === 'market' ? source.releaseVersion : `Composite of ${source.parts.filter((part) => part.share !== null).length} sources`) : null,
      job?.grade_id ? (gradeKey.get(job.grade_id) ?? null) : null,
      ...rangeCells(parseRanges(band.ranges), amount),
    ];
  });
  return [...jobRows, ...gradeRows];
}

async function* each(rows: ExportRow[]): AsyncGenerator<ExportRow> {
  yield* rows;
}

const fileSafe = (name: string): string => name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'bands';

/** Every band and grade band of one set (of the starter's zones), as the set is when the job runs. */
export const bandsExportJob = jobKind<BandsExportInput>({ type: BANDS_EXPORT, title: 'Salary bands export' }, ({ downloads: storage }) => async ({ job, db, progress }) => {
  const input = job.input;
  const scope = { companyId: job.companyId };
  const set = await requireSet(db, scope, input.bandSetId);
  const zoneIds = input.zoneIds ? new Set(input.zoneIds) : null;
  const inZones = <T extends { pay_zone_id: string }>(rows: T[]): T[] => (zoneIds ? rows.filter((row) => zoneIds.has(row.pay_zone_id)) : rows);
  const bands = inZones(await listBands(db, scope, set.id));
  const gradeBands = inZones(await listGradeBands(db, scope, set.id));
  const rows = await bandRows(db, set, bands, gradeBands, input.format);
  await progress(50, `${rows.length} bands read`);
  const header = [...BANDS_EXPORT_COLUMNS];
  const written = input.format === 'xlsx' ? xlsxContent(each(rows), header, 'Salary bands') : { content: csvFile(header, rows), done: Promise.resolve() };
  const download = await saveDownload(db, storage, {
    companyId: job.companyId,
    ownerUserId: job.ownerUserId,
    jobId: job.id,
    kind: BANDS_EXPORT,
    filename: `bands-${fileSafe(set.name)}-${set.effective_date}.${input.format}`,
    contentType: CONTENT_TYPES[input.format],
    permission: 'bands',
    content: written.content,
  });
  await written.done;
  return { downloadId: download.id, format: input.format, bandSetId: set.id, bands: rows.length };
});

/** Starts the export of a set of the caller's company (another company's id is 404 before anything is queued). */
export async function startBandSetExport(ctx: Pick<ServiceContext, 'db'>, jobs: JobQueue, caller: Caller, { bandSetId, format, socketId }: { bandSetId: string; format: ExportFormat; socketId: string | undefined }) {
  const { db } = ctx;
  const scope = companyScope(caller);
  const set = await requireSet(db, scope, bandSetId);
  // A holder limited to some pay zones exports those zones' bands only.
  const reach = await callerZoneReach(db, scope, caller);
  return startJob(jobs, caller, bandsExportJob, { bandSetId: set.id, format, ...(reach ? { zoneIds: [...reach] } : {}) }, socketId);
}
