import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { call, createApi } from '../client.js';
import { Failed, RejectedInput, hint, printJson, printPairs, printTable } from '../output.js';
import type { CommandContext } from './users.js';

export interface PayEquityReportOptions {
  year: string;
  format: string;
  asOf?: string;
  minimumGroup?: string;
  hoursPerWeek?: string;
  legalEntity?: string;
  output?: string;
}

const percent = (value: number | null): string => (value === null ? 'withheld' : `${value.toFixed(2)} %`);

/**
 * The pay gap report of a reference year: `json` prints the report (with --json or --format json),
 * `csv` and `pdf` write the server's file to stdout or --output. Without --format json and without
 * --json on a terminal, a summary of the indicators.
 */
export async function payEquityReportCommand(ctx: CommandContext, options: PayEquityReportOptions): Promise<void> {
  const year = Number(options.year);
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw new RejectedInput(`--year must be a year such as 2026, not "${options.year}".`);
  const format = options.format;
  if (!['json', 'csv', 'xlsx', 'pdf', 'text'].includes(format)) throw new RejectedInput(`--format must be pdf, csv, xlsx or json, not "${format}".`);
  const minimumGroup = options.minimumGroup === undefined ? undefined : Number(options.minimumGroup);
  if (minimumGroup !== undefined && !Number.isInteger(minimumGroup)) throw new RejectedInput(`--minimum-group must be a whole number, not "${options.minimumGroup}".`);
  const hoursPerWeek = options.hoursPerWeek === undefined ? undefined : Number(options.hoursPerWeek);
  if (hoursPerWeek !== undefined && !Number.isFinite(hoursPerWeek)) throw new RejectedInput(`--hours-per-week must be a number, not "${options.hoursPerWeek}".`);
  const query = { year, ...(options.asOf ? { asOf: options.asOf } : {}), ...(minimumGroup !== undefined ? { minimumGroup } : {}), ...(hoursPerWeek !== undefined ? { hoursPerWeek } : {}), ...(options.legalEntity !== undefined ? { legalEntity: options.legalEntity } : {}) };
  if (options.legalEntity !== undefined && options.legalEntity.trim() === '') throw new RejectedInput('--legal-entity names a legal entity, as people data names it.');
  const api = createApi(ctx.connection);
  if (format === 'csv' || format === 'xlsx' || format === 'pdf') {
    if (format !== 'csv' && !options.output && process.stdout.isTTY) throw new RejectedInput(`A ${format.toUpperCase()} file is binary: name a file with --output.`);
    const body = await call(ctx.connection, api.GET('/api/pay-equity/report/file', { params: { query: { ...query, format } }, parseAs: 'stream' }));
    if (!body) throw new Failed('The report file is empty.');
    const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
    await pipeline(source, options.output ? createWriteStream(options.output) : process.stdout, { end: Boolean(options.output) });
    if (options.output) hint(`Wrote ${options.output}`);
    return;
  }
  const report = (await call(ctx.connection, api.GET('/api/pay-equity/report', { params: { query } }))).data;
  if (format === 'json' || ctx.output.json) return printJson(report);
  printPairs([
    ['Employer', report.legalEntity ?? `every legal entity together (${report.legalEntities.map((entity) => entity.name ?? 'none recorded').join(', ') || 'none'})`],
    ['Reference year', `${report.year} (pay as of ${report.asOf}, ${report.currency})`],
    ['Workers', `${report.workers}: ${report.counts.female} women, ${report.counts.male} men, ${report.counts.other} another gender, ${report.counts.unknown} none recorded`],
    ['Mean gap (annual · hourly)', `${percent(report.annual.total.meanGap)} · ${percent(report.hourly.total.meanGap)}`],
    ['Median gap (annual · hourly)', `${percent(report.annual.total.medianGap)} · ${percent(report.hourly.total.medianGap)}`],
    ['Variable components gap (mean · median)', `${percent(report.variable.annual.meanGap)} · ${percent(report.variable.annual.medianGap)}`],
    ['Receiving variable (women · men)', `${percent(report.receivingVariable.female)} · ${percent(report.receivingVariable.male)}`],
  ]);
  printTable(
    ['CATEGORY', 'WOMEN', 'MEN', 'MEAN GAP', 'FLAGGED'],
    report.categories.map((category) => [category.categoryName, String(category.counts?.female ?? '–'), String(category.counts?.male ?? '–'), category.suppressed ? 'withheld' : percent(category.annual?.total.meanGap ?? null), category.flagged ? 'yes' : '']),
  );
}

export interface PayEquityAdjustedOptions {
  year: string;
  format: string;
  asOf?: string;
  legalEntity?: string;
  controls?: string;
  threshold?: string;
  output?: string;
}

/**
 * The adjusted gap of a reference year within one employer (or every legal entity together):
 * `json` prints it, `csv` and `xlsx` write the server's file; else a summary.
 */
export async function payEquityAdjustedCommand(ctx: CommandContext, options: PayEquityAdjustedOptions): Promise<void> {
  const year = Number(options.year);
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw new RejectedInput(`--year must be a year such as 2026, not "${options.year}".`);
  const format = options.format;
  if (!['json', 'csv', 'xlsx', 'text'].includes(format)) throw new RejectedInput(`--format must be csv, xlsx or json, not "${format}".`);
  const threshold = options.threshold === undefined ? undefined : Number(options.threshold);
  if (threshold !== undefined && !(Number.isFinite(threshold) && threshold >= 0 && threshold <= 50)) throw new RejectedInput(`--threshold must be a percentage from 0 to 50, not "${options.threshold}".`);
  if (options.legalEntity !== undefined && options.legalEntity.trim() === '') throw new RejectedInput('--legal-entity names a legal entity, as people data names it.');
  const query = {
    year,
    ...(options.asOf ? { asOf: options.asOf } : {}),
    ...(options.legalEntity !== undefined ? { legalEntity: options.legalEntity } : {}),
    ...(options.controls ? { controls: options.controls } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
  };
  const api = createApi(ctx.connection);
  if (format === 'csv' || format === 'xlsx') {
    if (format === 'xlsx' && !options.output && process.stdout.isTTY) throw new RejectedInput('An XLSX file is binary: name a file with --output.');
    const body = await call(ctx.connection, api.GET('/api/pay-equity/adjusted-gap/file', { params: { query: { ...query, format } }, parseAs: 'stream' }));
    if (!body) throw new Failed('The file is empty.');
    const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
    await pipeline(source, options.output ? createWriteStream(options.output) : process.stdout, { end: Boolean(options.output) });
    if (options.output) hint(`Wrote ${options.output}`);
    return;
  }
  const gap = (await call(ctx.connection, api.GET('/api/pay-equity/adjusted-gap', { params: { query } }))).data;
  if (format === 'json' || ctx.output.json) return printJson(gap);
  if (!gap) return hint('No adjusted gap: the year has not both women and men with pay.');
  printPairs([
    ['Employer', gap.legalEntity ?? 'every legal entity together'],
    ['Reference year', `${gap.year} (${gap.n} women and men, ${gap.currency})`],
    ['Controls', gap.controls.join(', ')],
    ['Adjusted gap (95 % interval)', `${percent(gap.adjustedGap)} (${percent(gap.adjustedGapInterval[0] ?? null)} to ${percent(gap.adjustedGapInterval[1] ?? null)})`],
    ['Raw gap', percent(gap.decomposition.rawGap)],
    ['Explained share of the raw gap', gap.decomposition.explainedShare === null ? '–' : `${gap.decomposition.explainedShare.toFixed(2)} %`],
    ['Cost to close', `${gap.costToClose.total} ${gap.currency} for ${gap.costToClose.people} people`],
  ]);
}

/**
 * `paybench pay-equity evaluation --format csv|xlsx|pdf`: the job evaluation, the documentation of
 * the categories of workers, as the server's file on stdout or --output.
 */
export async function payEquityEvaluationCommand(ctx: CommandContext, options: { format: string; output?: string }): Promise<void> {
  const format = options.format;
  if (format !== 'csv' && format !== 'xlsx' && format !== 'pdf') throw new RejectedInput(`--format must be csv, xlsx or pdf, not "${format}".`);
  if (format !== 'csv' && !options.output && process.stdout.isTTY) throw new RejectedInput(`A ${format.toUpperCase()} file is binary: name a file with --output.`);
  const body = await call(ctx.connection, createApi(ctx.connection).GET('/api/pay-equity/evaluation/file', { params: { query: { format } }, parseAs: 'stream' }));
  if (!body) throw new Failed('The evaluation file is empty.');
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
  await pipeline(source, options.output ? createWriteStream(options.output) : process.stdout, { end: Boolean(options.output) });
  if (options.output) hint(`Wrote ${options.output}`);
}
