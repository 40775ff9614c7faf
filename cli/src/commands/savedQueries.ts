import type { components } from '../../../openapi.js';
import { type Connection, call, createApi } from '../client.js';
import { RejectedInput, hint, printJson, printTable } from '../output.js';
import type { CommandContext } from './users.js';

type SavedQuery = components['schemas']['SavedReportQuery'];

export interface RenameSavedQueryOptions {
  description?: string;
}

async function savedQueries(connection: Connection): Promise<SavedQuery[]> {
  return (await call(connection, createApi(connection).GET('/api/benchmarking/saved-queries'))).data;
}

/** `paybench benchmark saved list`: the company's saved report queries, most recently changed first. */
export async function listSavedQueriesCommand(ctx: CommandContext): Promise<void> {
  const saved = await savedQueries(ctx.connection);
  if (ctx.output.json) return printJson(saved);
  if (!saved.length) return hint('No saved report queries yet: save one from the data explorer.');
  printTable(
    ['ID', 'NAME', 'DESCRIPTION', 'UPDATED'],
    saved.map((query) => [query.id, query.name, query.description, query.updatedAt.slice(0, 10)]),
  );
}

/**
 * `paybench benchmark saved rename QUERY NAME`: a saved query (by its name or id) under a new name,
 * its request kept, at the version just read so a change someone made meanwhile is refused.
 */
export async function renameSavedQueryCommand(ctx: CommandContext, wanted: string, name: string, options: RenameSavedQueryOptions): Promise<void> {
  if (!name.trim()) throw new RejectedInput('Give the new name.');
  const saved = await savedQueries(ctx.connection);
  const found = saved.find((query) => query.id === wanted) ?? saved.find((query) => query.name.toLowerCase() === wanted.toLowerCase());
  if (!found) throw new RejectedInput(`No saved report query is called "${wanted}".`, saved.length ? [`Saved: ${saved.map((query) => query.name).join(', ')}`] : []);
  const body = { name: name.trim(), description: options.description ?? found.description, request: found.request };
  const renamed = (
    await call(ctx.connection, createApi(ctx.connection).PUT('/api/benchmarking/saved-queries/{savedQueryId}', { params: { path: { savedQueryId: found.id }, header: { 'If-Match': `"${found.version}"` } }, body }))
  ).data;
  if (ctx.output.json) return printJson(renamed);
  process.stdout.write(`Renamed “${found.name}” to “${renamed.name}”.\n`);
}
