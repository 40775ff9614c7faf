import type { Knex } from 'knex';
import { companyScope } from '../access/caller.js';
import { majorUnits } from '../bands/exportJob.js';
import { findJob, findSet } from '../bands/store.js';
import { csvFile } from '../downloads/csv.js';
import { saveDownload } from '../downloads/service.js';
import { jobKind } from '../jobs/kind.js';
import { startJob } from '../jobs/service.js';
import { CONTENT_TYPES, type ExportFormat, type ExportRow, xlsxContent } from '../market/exportJob.js';
import { today } from '../money/converter.js';
import { minorUnits } from '../money/minorUnits.js';
import { findJobFamily, findLevel } from '../reference/catalog/index.js';
import { isOutOfBand } from './proposal.js';
import { checksOfRow, locationsOf, regionsOf } from './service.js';
import { type PostingRow, listPostingRows } from './store.js';
import { HOURS_PER_YEAR, payText } from './texts.js';
import type { ServiceContext } from '../kernel/operations.js';

export const POSTINGS_EXPORT = 'postingsExport';

export interface PostingsExportInput {
  format: ExportFormat;
  state: string | null;
}

/** One row per posting and place: what an applicant-tracking system imports. */
export const POSTINGS_EXPORT_COLUMNS = [
  'Posting ID',
  'Title',
  'Job family',
  'Level',
  'State',
  'Remote',
  'Hiring regions',
  'Location',
  'Country',
  'Region',
  'City',
  'Pay zone',
  'Currency',
  'Pay period',
  'Minimum',
  'Maximum',
  'Pay text',
  'Benefits',
  'Band set',
  'Band set version',
  'Out of band',
  'Stale',
  'Meets every rule in force',
] as const;

/** A remote posting's hiring regions, "US-CA; DE"; empty for a posting that is not remote. */
function regionsText(row: PostingRow): string {
  if (!row.remote) return '';
  return regionsOf(row)
    .map((region) => (region.stateCode ? `${region.countryCode}-${region.stateCode}` : region.countryCode))
    .join('; ');
}

async function postingRows(db: Knex, companyId: string, input: PostingsExportInput): Promise<ExportRow[]> {
  const scope = { companyId };
  const digits = await minorUnits(db);
  const rows: ExportRow[] = [];
  for (const row of await listPostingRows(db, scope, { state: input.state })) {
    const job = await findJob(db, scope, row.company_job_id);
    const set = row.band_set_id ? await findSet(db, scope, row.band_set_id) : undefined;
    const locations = locationsOf(row);
    const shape = { title: row.title, payPeriod: row.pay_period === 'hour' ? ('hour' as const) : ('year' as const), payBasis: row.pay_basis === 'hourly' ? ('hourly' as const) : ('salary' as const), benefitsDescription: row.benefits_description };
    // The same checks the posting shows: every rule of every place and hiring region, and the live bands.
    const check = await checksOfRow(db, scope, row);
    for (const location of locations) {
      const places = digits.of(location.currency);
      // In the posting's period: a year, or an hour over a 2,080-hour year (to the cent), as its pay text states.
      const amount = (value: number | undefined) => (value === undefined ? null : majorUnits(shape.payPeriod === 'hour' ? Math.round(value / HOURS_PER_YEAR) : value, places, input.format));
      rows.push([
        row.id,
        row.title,
        job ? (findJobFamily(job.job_family_id)?.name ?? job.job_family_id) : null,
        job ? (findLevel(job.level_id)?.extendedDisplayString ?? job.level_id.toUpperCase()) : null,
        row.state,
        row.remote ? 'yes' : 'no',
        regionsText(row),
        location.name,
        location.countryCode,
        location.stateCode,
        location.city,
        location.payZoneName,
        location.currency,
        shape.payPeriod,
        amount(location.range?.min),
        amount(location.range?.max),
        payText(shape, location),
        row.benefits_description,
        set?.name ?? null,
        row.band_set_version,
        isOutOfBand(location) ? 'yes' : 'no',
        row.stale_at ? 'yes' : 'no',
        check.meetsAll ? 'yes' : 'no',
      ]);
    }
  }
  return rows;
}

async function* each(rows: ExportRow[]): AsyncGenerator<ExportRow> {
  yield* rows;
}

/** Every posting of the company (or those in one state), one row per place, as they are when the job runs. */
export const postingsExportJob = jobKind<PostingsExportInput>({ type: POSTINGS_EXPORT, title: 'Job postings export' }, ({ downloads: storage }) => async ({ job, db, progress }) => {
  const input = job.input;
  const rows = await postingRows(db, job.companyId, input);
  await progress(50, `${rows.length} places read`);
  const header = [...POSTINGS_EXPORT_COLUMNS];
  const written = input.format === 'xlsx' ? xlsxContent(each(rows), header, 'Job postings') : { content: csvFile(header, rows), done: Promise.resolve() };
  const download = await saveDownload(db, storage, {
    companyId: job.companyId,
    ownerUserId: job.ownerUserId,
    jobId: job.id,
    kind: POSTINGS_EXPORT,
    filename: `job-postings${input.state ? `-${input.state}` : ''}-${today()}.${input.format}`,
    contentType: CONTENT_TYPES[input.format],
    permission: 'postings',
    content: written.content,
  });
  await written.done;
  return { downloadId: download.id, format: input.format, places: rows.length };
});

export async function startPostingsExport(ctx: Pick<ServiceContext, 'deps' | 'caller'>, input: { format?: ExportFormat; state?: string } | undefined, socketId: string | undefined) {
  const { deps, caller } = ctx;
  companyScope(caller);
  return startJob(deps.jobs, caller, postingsExportJob, { format: input?.format ?? 'csv', state: input?.state ?? null }, socketId);
}
