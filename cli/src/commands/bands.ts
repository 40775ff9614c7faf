import { call, createApi } from '../client.js';
import { requireSuccess, saveDownload, waitForJob } from '../jobs.js';
import { RejectedInput, hint, printJson, printTable } from '../output.js';
import type { CommandContext } from './users.js';

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
