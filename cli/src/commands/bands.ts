import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { components } from '../../../openapi.js';
import { ApiError, call, createApi } from '../client.js';
import { requireSuccess, saveDownload, waitForJob } from '../jobs.js';
import { Failed, RejectedInput, hint, printJson, printTable } from '../output.js';
import type { CommandContext } from './users.js';

type BandImport = components['schemas']['BandImport'];

export interface BandsImportOptions {
  set?: string;
  dryRun?: boolean;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface BandsExportOptions {
  format: string;
  wait: boolean;
  output?: string;
}

export async function listBandSetsCommand(ctx: CommandContext): Promise<void> {
  const sets = (await call(ctx.connection, createApi(ctx.connection).GET('/api/bands/band-sets'))).data;
  if (ctx.output.json) return printJson(sets);
  printTable(
    ['ID', 'NAME', 'STATUS', 'CURRENCY', 'BANDS', 'EFFECTIVE'],
    sets.map((set) => [set.id, set.name, set.status, set.currency, String(set.bandCount), set.effectiveDate]),
  );
  if (!sets.length) hint('No band sets yet.');
}

export async function exportBandSetCommand(ctx: CommandContext, bandSetId: string, options: BandsExportOptions): Promise<void> {
  const format = options.format;
  if (format !== 'csv' && format !== 'xlsx') throw new RejectedInput(`--format must be csv or xlsx, not "${format}".`);
  if (format === 'xlsx' && !options.output && process.stdout.isTTY) throw new RejectedInput('An XLSX file is binary: name a file with --output.');
  const started = (
    await call(ctx.connection, createApi(ctx.connection).POST('/api/bands/band-sets/{bandSetId}/exports', { params: { path: { bandSetId } }, body: { format } }))
  ).data;
  if (!options.wait) {
    if (ctx.output.json) return printJson(started);
    process.stdout.write(`${started.id}\n`);
    return hint(`Follow it with: paybench jobs watch ${started.id}`);
  }
  const job = requireSuccess(await waitForJob(ctx.connection, started.id, 'Exporting bands'));
  await saveDownload(ctx.connection, job.downloadId, options.output);
  if (options.output) hint(`Wrote ${options.output}`);
}

function readFile(file: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : file);
  } catch (error) {
    throw new RejectedInput(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A refusal before anything is queued (a missing column, a live set): the server's message and fields. */
function refusal(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 400) return error;
  return new RejectedInput(error.body.message ?? 'The file was refused; nothing was written.', (error.body.errors ?? []).map((problem) => `${problem.field}: ${problem.message}`));
}

/**
 * Uploads a bands file (the export's columns), imports it into a draft set with the server's job
 * (or checks it with --dry-run) and prints the plan; every bad row goes to stderr with its line,
 * exit 2 and nothing written when any row is bad.
 */
export async function importBandsCommand(ctx: CommandContext, file: string, options: BandsImportOptions): Promise<void> {
  const bandSetId = options.set;
  if (!bandSetId) throw new RejectedInput('Name the draft band set to import into with --set ID (paybench bands list shows them).');
  const bytes = readFile(file);
  const api = createApi(ctx.connection);
  const filename = file === '-' ? undefined : path.basename(file);
  let started: BandImport;
  try {
    const uploaded = await call(
      ctx.connection,
      api.POST('/api/bands/files', {
        params: { query: { kind: 'bands', ...(filename ? { filename } : {}) } },
        // The file goes as it is; openapi-fetch would serialise it as JSON otherwise.
        body: bytes as unknown as string,
        bodySerializer: (body: string) => body,
        headers: { 'Content-Type': bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50 ? XLSX_TYPE : 'text/csv' },
      }),
    );
    started = (
      await call(
        ctx.connection,
        api.POST('/api/bands/band-sets/{bandSetId}/imports', { params: { path: { bandSetId } }, body: { fileId: uploaded.data.id, dryRun: Boolean(options.dryRun) } }),
      )
    ).data;
  } catch (error) {
    throw refusal(error);
  }
  if (started.jobId) await waitForJob(ctx.connection, started.jobId, options.dryRun ? 'Checking bands' : 'Importing bands');
  const run = (await call(ctx.connection, api.GET('/api/bands/imports/{bandImportId}', { params: { path: { bandImportId: started.id } } }))).data;
  if (ctx.output.json) printJson(run);
  if (run.status === 'rejected') {
    const lines = run.errors.map((problem) => `line ${problem.line}: ${problem.column ?? 'row'}: ${problem.message}`);
    if (run.errorCount > run.errors.length) lines.push(`… and ${run.errorCount - run.errors.length} more`);
    throw new RejectedInput(run.message ?? `The file has ${run.errorCount} problems; nothing was written.`, lines);
  }
  if (run.status !== 'planned' && run.status !== 'applied') throw new Failed(`The import ${run.status}${run.message ? `: ${run.message}` : '.'}`);
  if (ctx.output.json || !run.plan) return;
  const plan = run.plan;
  process.stdout.write(
    plan.dryRun
      ? `${plan.create} bands to add, ${plan.update} to update, ${plan.unchanged} unchanged\n`
      : `${plan.create} bands added, ${plan.update} updated, ${plan.unchanged} unchanged\n`,
  );
  if (plan.dryRun && (plan.create || plan.update)) hint('Nothing was written. Run again without --dry-run to apply.');
}
