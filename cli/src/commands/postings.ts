import type { components } from '../../../openapi.js';
import { call, createApi } from '../client.js';
import { requireSuccess, saveDownload, waitForJob } from '../jobs.js';
import { RejectedInput, hint, printJson, printTable } from '../output.js';
import { Currencies } from '../money.js';
import type { CommandContext } from './users.js';

type PostingState = components['schemas']['JobPostingState'];

const STATES: readonly PostingState[] = ['draft', 'pendingApproval', 'open', 'closed'];

export interface PostingsListOptions {
  stale?: boolean;
}

export interface PostingsExportOptions {
  state?: string;
  format: string;
  wait: boolean;
  output?: string;
}

function stateOption(state: string | undefined): PostingState | undefined {
  if (state === undefined) return undefined;
  const found = STATES.find((candidate) => candidate.toLowerCase() === state.toLowerCase());
  if (!found) throw new RejectedInput(`--state must be one of ${STATES.join(', ')}, not "${state}".`);
  return found;
}

export async function listPostingsCommand(ctx: CommandContext, options: PostingsListOptions): Promise<void> {
  const postings = (await call(ctx.connection, createApi(ctx.connection).GET('/api/postings', { params: { query: options.stale ? { stale: true } : {} } }))).data;
  if (ctx.output.json) return printJson(postings);
  const currencies = await Currencies.load(ctx.connection);
  printTable(
    ['ID', 'TITLE', 'STATE', 'PLACE', 'RANGE', 'CHECKS', 'STALE'],
    postings.flatMap((posting) =>
      posting.locations.map((location) => [
        posting.id,
        posting.title,
        posting.state,
        location.name,
        location.range ? `${currencies.whole(location.range.min)} – ${currencies.whole(location.range.max)}` : '—',
        posting.checks.meetsAll ? 'meets' : 'fails',
        posting.stale ? 'yes' : 'no',
      ]),
    ),
  );
  if (!postings.length) hint(options.stale ? 'No posting is out of step with the live bands.' : 'No job postings yet.');
}

export async function exportPostingsCommand(ctx: CommandContext, options: PostingsExportOptions): Promise<void> {
  const format = options.format;
  if (format !== 'csv' && format !== 'xlsx') throw new RejectedInput(`--format must be csv or xlsx, not "${format}".`);
  if (format === 'xlsx' && !options.output && process.stdout.isTTY) throw new RejectedInput('An XLSX file is binary: name a file with --output.');
  const state = stateOption(options.state);
  const started = (await call(ctx.connection, createApi(ctx.connection).POST('/api/postings/exports', { body: { format, ...(state ? { state } : {}) } }))).data;
  if (!options.wait) {
    if (ctx.output.json) return printJson(started);
    process.stdout.write(`${started.id}\n`);
    return hint(`Follow it with: paybench jobs watch ${started.id}`);
  }
  const job = requireSuccess(await waitForJob(ctx.connection, started.id, 'Exporting job postings'));
  await saveDownload(ctx.connection, job.downloadId, options.output);
  if (options.output) hint(`Wrote ${options.output}`);
}
