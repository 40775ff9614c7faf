import type { Knex } from 'knex';
import { companyScope } from '../access/caller.js';
import { majorUnits } from '../bands/exportJob.js';
import { csvFile } from '../downloads/csv.js';
import { saveDownload } from '../downloads/service.js';
import { jobKind } from '../jobs/kind.js';
import { startJob } from '../jobs/service.js';
import { CONTENT_TYPES, type ExportFormat, type ExportRow, xlsxContent } from '../market/exportJob.js';
import { findJobFamily, findLevel, findLocation } from '../reference/catalog/index.js';
import { today } from '../money/converter.js';
import { minorUnits } from '../money/minorUnits.js';
import { candidateForOffer } from '../people/offerHire.js';
import { bonusTargetOf } from './package.js';
import { bindingPackage, parseAcceptance } from './present.js';
import { type OfferRow, listOfferRows } from './store.js';
import type { OfferState } from './workflow.js';
import type { ServiceContext } from '../kernel/operations.js';

export const OFFERS_EXPORT = 'offersExport';

export interface OffersExportInput {
  format: ExportFormat;
  state: OfferState | null;
}

export const OFFERS_EXPORT_COLUMNS = [
  'Offer ID',
  'Candidate',
  'Email',
  'Title',
  'Job family',
  'Level',
  'Location',
  'Department',
  'State',
  'Start date',
  'Expires on',
  'Currency',
  'Package',
  'Base',
  'Bonus target %',
  'Bonus target',
  'Variable',
  'Sign-on',
  'Equity type',
  'Equity shares',
  'Out of band',
  'Sent at',
  'Opened at',
  'Views',
  'Accepted at',
  'Declined at',
] as const;

const stamp = (value: string | Date | null): string | null => (value ? new Date(value).toISOString() : null);

/** What the file says of the state: an open letter past its date reads as expired, as every screen shows it. */
const shownState = (row: OfferRow, day: string): string => ((row.state === 'sent' || row.state === 'opened') && row.expires_on < day ? 'expired' : row.state);

async function offerRows(db: Knex, companyId: string, input: OffersExportInput): Promise<ExportRow[]> {
  const scope = { companyId };
  const day = today();
  const rows = (await listOfferRows(db, scope, {})).filter((row) => input.state === null || shownState(row, day) === input.state);
  const digits = await minorUnits(db);
  const names = new Map<string, { name: string; email: string }>();
  for (const row of rows) {
    if (names.has(row.candidate_id)) continue;
    const candidate = await candidateForOffer(db, scope, row.candidate_id);
    names.set(row.candidate_id, { name: candidate ? `${candidate.firstName} ${candidate.lastName}`.trim() : '', email: candidate?.email ?? row.candidate_email });
  }
  return rows.map((row) => {
    // An accepted offer exports the package accepted, named by its label.
    const pkg = bindingPackage(row);
    const label = parseAcceptance(row)?.packageLabel ?? 'Offer';
    const places = digits.of(row.currency);
    const amount = (value: number | null) => (value === null ? null : majorUnits(value, places, input.format));
    const candidate = names.get(row.candidate_id);
    return [
      row.id,
      candidate?.name ?? null,
      candidate?.email ?? row.candidate_email,
      row.title,
      findJobFamily(row.job_family_id)?.name ?? row.job_family_id,
      findLevel(row.level_id)?.extendedDisplayString ?? row.level_id.toUpperCase(),
      findLocation(row.location_id)?.paybenchLocationName ?? row.location_id,
      row.department,
      shownState(row, day),
      row.start_date,
      row.expires_on,
      row.currency,
      label,
      amount(pkg.base),
      pkg.bonusTargetBp === null ? null : pkg.bonusTargetBp / 100,
      amount(bonusTargetOf(pkg)),
      amount(pkg.variable),
      amount(pkg.signOn),
      pkg.equity?.type ?? null,
      pkg.equity?.shares ?? null,
      row.out_of_range ? 'yes' : 'no',
      stamp(row.sent_at),
      stamp(row.opened_at),
      row.view_count,
      stamp(row.accepted_at),
      stamp(row.declined_at),
    ];
  });
}

async function* each(rows: ExportRow[]): AsyncGenerator<ExportRow> {
  yield* rows;
}

/** Every offer of the company (or those in one state), as they are when the job runs. */
export const offersExportJob = jobKind<OffersExportInput>({ type: OFFERS_EXPORT, title: 'Offers export' }, ({ downloads: storage }) => async ({ job, db, progress }) => {
  const input = job.input;
  const rows = await offerRows(db, job.companyId, input);
  await progress(50, `${rows.length} offers read`);
  const header = [...OFFERS_EXPORT_COLUMNS];
  const written = input.format === 'xlsx' ? xlsxContent(each(rows), header, 'Offers') : { content: csvFile(header, rows), done: Promise.resolve() };
  const download = await saveDownload(db, storage, {
    companyId: job.companyId,
    ownerUserId: job.ownerUserId,
    jobId: job.id,
    kind: OFFERS_EXPORT,
    filename: `offers${input.state ? `-${input.state}` : ''}-${today()}.${input.format}`,
    contentType: CONTENT_TYPES[input.format],
    permission: 'offers',
    content: written.content,
  });
  await written.done;
  return { downloadId: download.id, format: input.format, offers: rows.length };
});

export async function startOffersExport(ctx: Pick<ServiceContext, 'deps' | 'caller'>, input: { format?: ExportFormat; state?: OfferState } | undefined, socketId: string | undefined) {
  const { deps, caller } = ctx;
  companyScope(caller);
  return startJob(deps.jobs, caller, offersExportJob, { format: input?.format ?? 'csv', state: input?.state ?? null }, socketId);
}
