import { readFileSync } from 'node:fs';
import type { components } from '../../../openapi.js';
import { ApiError, call, createApi, type Connection } from '../client.js';
import { type OutputOptions, RejectedInput, hint, printJson } from '../output.js';
import { progressBar } from '../progress.js';

export interface CommandContext {
  connection: Connection;
  output: OutputOptions;
}

type ReferenceRatesImport = components['schemas']['ReferenceRatesImport'];

function readRatesFile(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new RejectedInput(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The server names problems `lines.N.COLUMN`; people read `line N: COLUMN: message`. */
function rejectedFile(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.body.errors?.length) return error;
  const lines = error.body.errors.map((problem) => {
    const match = /^lines\.(\d+)\.(.+)$/.exec(problem.field);
    return match ? `line ${match[1]}: ${match[2]}: ${problem.message}` : `${problem.field}: ${problem.message}`;
  });
  return new RejectedInput(error.body.message ?? 'The rates file was refused; nothing was written.', lines);
}

export function ratesSummary(result: ReferenceRatesImport): string {
  const span = result.firstDate ? `${result.days} day${result.days === 1 ? '' : 's'} (${result.firstDate} to ${result.lastDate}), ${result.currencies.length} currencies` : 'no days';
  const counts = result.dryRun
    ? `${result.added} to add, ${result.corrected} to correct, ${result.unchanged} unchanged`
    : `${result.added} added, ${result.corrected} corrected, ${result.unchanged} unchanged`;
  return `${span}: ${counts}`;
}

/** `paybench rates import FILE`: dated ECB reference rates, all or nothing (internal admins). */
export async function importRatesCommand(ctx: CommandContext, file: string, options: { dryRun?: boolean }): Promise<void> {
  const csv = readRatesFile(file);
  const bar = progressBar({ label: options.dryRun ? 'Checking' : 'Importing', percent: undefined, detail: file === '-' ? 'stdin' : file });
  let result: { data: ReferenceRatesImport };
  try {
    result = await call(
      ctx.connection,
      createApi(ctx.connection).POST('/api/internal/forex/reference-rates', {
        params: { query: { dryRun: Boolean(options.dryRun) } },
        body: csv,
        bodySerializer: (body: string) => body,
        headers: { 'Content-Type': 'text/csv' },
      }),
    );
  } catch (error) {
    throw rejectedFile(error);
  } finally {
    bar.done();
  }
  if (ctx.output.json) return printJson(result.data);
  process.stdout.write(`${ratesSummary(result.data)}\n`);
  if (options.dryRun && (result.data.added || result.data.corrected)) hint('Nothing was written. Run again without --dry-run to apply.');
}
