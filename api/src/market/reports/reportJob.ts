import { csvFile } from '../../downloads/csv.js';
import { saveDownload } from '../../downloads/service.js';
import { jobKind } from '../../jobs/kind.js';
import {
  BELOW_THRESHOLD_BUCKET,
  CANADA_ID,
  COMPANY_STAGES,
  FOUNDER_TYPES,
  GERMANY_ID,
  JOB_FAMILIES,
  LEVELS,
  OWNERSHIP_GROUPS,
  UNITED_KINGDOM_ID,
  UNITED_STATES_ID,
  findLocation,
  type LevelType,
} from '../../reference/catalog/index.js';
import { describeRelease, disclose, queryRelease, type CompositionEntry, type MarketRelease } from '../engine/index.js';
import { CONTENT_TYPES, xlsxContent, type ExportFormat, type ExportRow } from '../exportJob.js';
import { currentRelease, rebuild } from '../releases.js';
import { currencyForexMapping } from '../service.js';
import { findRelease } from '../store.js';

export const MARKET_DATA_REPORT = 'marketDataReport';
export type ReportKind = 'market_summary' | 'data_composition';

export interface MarketDataReportInput {
  releaseId: string;
  report: ReportKind;
  format: ExportFormat;
}

/** The reports every published release offers. */
export const REPORTS: readonly { report: ReportKind; title: string; description: string }[] = [
  {
    report: 'market_summary',
    title: 'Market summary',
    description: 'Base, total cash and total equity p25/p50/p75 for every job family and level, in the US, its tiers, Canada, the UK and Germany.',
  },
  {
    report: 'data_composition',
    title: 'Data composition',
    description: 'Companies and employees by industry, stage, ownership, job family, level and location, rounded down (to multiples of five under 100, two significant figures above); groups below the privacy threshold without numbers.',
  },
];

const SUMMARY_LOCATIONS = [UNITED_STATES_ID, '840_1', '840_2', '840_3', CANADA_ID, UNITED_KINGDOM_ID, GERMANY_ID];
const SUMMARY_TYPES = ['base', 'total_cash', 'total_equity'];
const familyNames = new Map(JOB_FAMILIES.map((f) => [f.id, f.name]));

const SUMMARY_HEADER = ['Release', 'Location', 'Location name', 'Job family', 'Job family name', 'Level', 'Compensation type', 'Currency', 'Status', 'Companies', 'Employees', 'Consistency', 'P25', 'P50', 'P75'];

/** One location at a time, so only one location's cells are in memory while the file is written. */
async function* summaryRows(release: MarketRelease, version: string, forex: Readonly<Record<string, number>>, progress: (percent: number, message: string) => Promise<void>): AsyncGenerator<ExportRow> {
  for (const [index, location] of SUMMARY_LOCATIONS.entries()) {
    const result = queryRelease(
      release,
      {
        compensationTypes: SUMMARY_TYPES,
        marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), industries: ['ind_all'], locations: [location], founderTypes: FOUNDER_TYPES.map((f) => f.id) }],
        jobFamilies: JOB_FAMILIES.map((f) => f.id),
        levels: LEVELS.map((l) => ({ type: 'level' as LevelType, id: l.id })),
        percentiles: [25, 50, 75],
      },
      { forex },
    );
    for (const cell of result.cells) {
      const at = (p: number) => cell.percentiles?.find((v) => v.percentile === p)?.value ?? null;
      yield [version, location, findLocation(location)?.paybenchLocationName ?? location, cell.jobFamilyId, familyNames.get(cell.jobFamilyId) ?? cell.jobFamilyId, cell.levelId, cell.compensationTypeId, cell.currency, cell.label ?? 'Published', cell.sample.companyBucket.label, cell.sample.employeeBucket.label, cell.consistency?.consistencyLabel ?? null, at(25), at(50), at(75)];
    }
    await progress(10 + Math.round(((index + 1) / SUMMARY_LOCATIONS.length) * 85), `${index + 1} of ${SUMMARY_LOCATIONS.length} locations written`);
  }
}

const COMPOSITION_HEADER = ['Release', 'Dimension', 'Id', 'Companies', 'Employees'];

async function* compositionRows(release: MarketRelease, version: string): AsyncGenerator<ExportRow> {
  const composition = describeRelease(release);
  const sections = [
    ['Industry', composition.industries],
    ['Company stage', composition.companyStages],
    ['Ownership group', composition.ownershipGroups],
    ['Job family', composition.jobFamilies],
    ['Level', composition.levels],
    ['Location', composition.locations],
  ] as const;
  // As the composition endpoints publish them: rounded down, or below the threshold without a number.
  const row = (dimension: string, entry: CompositionEntry): ExportRow => {
    const shown = disclose(entry);
    return [version, dimension, entry.id, shown.companies ?? BELOW_THRESHOLD_BUCKET.label, shown.employees ?? BELOW_THRESHOLD_BUCKET.label];
  };
  yield row('All', { id: 'all', ...composition });
  for (const [dimension, entries] of sections) for (const entry of entries) yield row(dimension, entry);
}

/**
 * Writes a published release's report. A release that is no longer served is rebuilt from its
 * parameters for the report; being published, it answers exactly as it did when it was served.
 */
export const marketDataReportJob = jobKind<MarketDataReportInput>({ type: MARKET_DATA_REPORT, title: 'Market data report' }, (deps) => async ({ job, db, progress }) => {
    const input = job.input;
    const row = await findRelease(db, input.releaseId);
    if (!row || row.status !== 'published') throw new Error(`Release ${input.releaseId} is not published`);
    const served = await currentRelease(deps);
    await progress(2, `reading release ${row.version}`);
    const release = served.row.id === row.id ? served.release : await rebuild(row, db, deps.config.dataDir);
    await progress(10, 'writing the report');
    const forex = await currencyForexMapping(db);
    const [header, rows] =
      input.report === 'market_summary' ? [SUMMARY_HEADER, summaryRows(release, row.version, forex, progress)] : [COMPOSITION_HEADER, compositionRows(release, row.version)];
    const written = input.format === 'xlsx' ? xlsxContent(rows, header, input.report === 'market_summary' ? 'Market summary' : 'Data composition') : { content: csvFile(header, rows), done: Promise.resolve() };
    const download = await saveDownload(db, deps.downloads, {
      companyId: job.companyId,
      ownerUserId: job.ownerUserId,
      jobId: job.id,
      kind: MARKET_DATA_REPORT,
      filename: `${input.report.replace('_', '-')}-${row.version}.${input.format}`,
      contentType: CONTENT_TYPES[input.format],
      permission: 'benchmarking',
      content: written.content,
    });
    await written.done;
    await progress(100, 'report written');
    return { downloadId: download.id, format: input.format, releaseVersion: row.version };
  });
