import type { Knex } from 'knex';
import type { AppDeps } from '../deps.js';
import { csvFile } from '../downloads/csv.js';
import { type XlsxFormat, xlsxContent } from '../downloads/xlsx.js';
import { atPrecision } from '../money/format.js';
import { saveDownload } from '../downloads/service.js';
import { jobKind } from '../jobs/kind.js';
import { JOB_FAMILIES, PERCENTILES, type MarketPercentile, findCompensationType, findLevel, findLevelBlend } from '../reference/catalog/index.js';
import { queryRelease, type BenchmarkCell, type BenchmarkRequest } from './engine/index.js';
import { currentRelease } from './releases.js';
import { ratesNamed, ratesText } from '../forex/perDollar.js';
import { currencyForexMapping } from './service.js';
import { marketNames } from './marketNames.js';

export const MARKET_DATA_EXPORT = 'marketDataExport';
export type ExportFormat = 'csv' | 'xlsx';

export interface MarketDataExportInput {
  format: ExportFormat;
  request: BenchmarkRequest;
}

const familyNames = new Map(JOB_FAMILIES.map((f) => [f.id, f.name]));

/** Column headers: the cell's coordinates (its market by name) and sample, then one column per requested percentile. */
export function exportHeader(percentiles: readonly number[]): string[] {
  return [
    'Release',
    'Market',
    'Job family',
    'Job family name',
    'Level type',
    'Level',
    'Level name',
    'Compensation type',
    'Compensation type name',
    'Intended vs actual',
    'Equity view',
    'Timeframe',
    'Unit',
    'Currency',
    'Status',
    'Companies',
    'Employees',
    'Consistency',
    'Median error (95%)',
    'Demo share',
    'Exchange rates',
    ...percentiles.map((p) => `P${p}`),
  ];
}

export type ExportRow = (string | number | null)[];

/** One row per cell; `rates` names the exchange rates its answer was converted with ('' when none). */
function rowOf(version: string, cell: BenchmarkCell, markets: readonly string[], percentiles: readonly MarketPercentile[], rates: string): ExportRow {
  const values = new Map((cell.percentiles ?? []).map((p) => [p.percentile, p.value]));
  return [
    version,
    markets[cell.marketFilterIndex] ?? '',
    cell.jobFamilyId,
    familyNames.get(cell.jobFamilyId) ?? cell.jobFamilyId,
    cell.levelType,
    cell.levelId,
    (cell.levelType === 'levelBlend' ? findLevelBlend(cell.levelId) : findLevel(cell.levelId))?.displayString ?? cell.levelId,
    cell.compensationTypeId,
    findCompensationType(cell.compensationTypeId)?.title ?? cell.compensationTypeId,
    cell.equityOption?.intendedVsActual ?? null,
    cell.equityOption?.view ?? null,
    cell.equityOption?.timeframe ?? null,
    cell.unit,
    cell.currency,
    cell.label ?? 'Published',
    cell.sample.companyBucket.label,
    cell.sample.employeeBucket.label,
    cell.consistency?.consistencyLabel ?? null,
    cell.medianUncertainty?.relativeError ?? null,
    cell.syntheticShare,
    rates,
    // Amounts in major units at the currency's precision (no float tails); a percent figure as the engine gives it.
    ...percentiles.map((p) => {
      const value = values.get(p);
      if (value === undefined) return null;
      return cell.unit === 'currency' && cell.currency ? atPrecision(value, cell.currency) : value;
    }),
  ];
}

/** The spreadsheet's number formats: percentiles in their row's currency, shares as percentages, counts grouped. */
export function exportFormats(header: readonly string[]): Map<number, XlsxFormat> {
  const at = (name: string) => header.indexOf(name);
  const formats = new Map<number, XlsxFormat>([
    [at('Median error (95%)'), { kind: 'fraction' }],
    [at('Demo share'), { kind: 'fraction' }],
  ]);
  header.forEach((name, index) => /^P\d+$/.test(name) && formats.set(index, { kind: 'money', currencyColumn: at('Currency') }));
  return formats;
}

/**
 * Rows one job family at a time: only one family's cells are in memory while the file is written,
 * however broad the request.
 */
async function* exportRows(deps: AppDeps, db: Knex, input: MarketDataExportInput, progress: (percent: number, message: string) => Promise<void>) {
  const served = await currentRelease(deps);
  const forex = await currencyForexMapping(db);
  const families = input.request.jobFamilies;
  const markets = marketNames(input.request.marketFilters);
  for (const [index, family] of families.entries()) {
    const result = queryRelease(served.release, { ...input.request, jobFamilies: [family] }, { forex });
    const rates = ratesText(await ratesNamed(db, result.convertedCurrencies));
    for (const cell of result.cells) yield rowOf(served.row.version, cell, markets, result.percentiles, rates);
    await progress(Math.round(((index + 1) / families.length) * 90), `${index + 1} of ${families.length} job families written`);
  }
}

function percentilesOf(request: BenchmarkRequest): MarketPercentile[] {
  return request.percentiles ?? [...PERCENTILES];
}

// The one XLSX writer, shared by every export of the market, bands, offers and reports.
export { xlsxContent } from '../downloads/xlsx.js';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export const marketDataExportJob = jobKind<MarketDataExportInput>({ type: MARKET_DATA_EXPORT, title: 'Market data export' }, (deps) => async ({ job, db, progress }) => {
    const input = job.input;
    const header = exportHeader(percentilesOf(input.request));
    const rows = exportRows(deps, db, input, progress);
    const written = input.format === 'xlsx' ? xlsxContent(rows, header, { sheetName: 'Market data', formats: exportFormats(header) }) : { content: csvFile(header, rows), done: Promise.resolve() };
    const download = await saveDownload(db, deps.downloads, {
      companyId: job.companyId,
      ownerUserId: job.ownerUserId,
      jobId: job.id,
      kind: MARKET_DATA_EXPORT,
      filename: `market-data-${new Date().toISOString().slice(0, 10)}.${input.format}`,
      contentType: CONTENT_TYPES[input.format],
      permission: 'benchmarking',
      content: written.content,
    });
    await written.done;
    return { downloadId: download.id, format: input.format };
  });
