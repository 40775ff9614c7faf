import { call, createApi, type Connection } from '../client.js';
import { readCsv } from '../csv.js';
import { saveDownload, requireSuccess, waitForJob } from '../jobs.js';
import { type OutputOptions, hint, printJson, printTable } from '../output.js';
import { progressBar } from '../progress.js';
import { planSummary, rejectedRows } from './importReport.js';

export interface CommandContext {
  connection: Connection;
  output: OutputOptions;
}

const USER_COLUMNS = { required: ['email', 'firstName', 'lastName'], optional: ['roles', 'manager', 'status'] };

/**
 * The file's rows as the import takes them; `status` (from an export) is informational and not sent.
 * A `manager` column is sent as it is (empty: no manager); without the column, managers are kept.
 * So are roles: a `roles` cell is what the person holds afterwards (empty: none); no column, no change.
 */
function usersFromCsv(file: string) {
  return readCsv(file, USER_COLUMNS).map(({ line, values }) => ({
    line,
    email: values.email ?? '',
    firstName: values.firstName ?? '',
    lastName: values.lastName ?? '',
    ...(values.roles !== undefined ? { roles: values.roles.split(';').map((role) => role.trim()).filter(Boolean) } : {}),
    ...(values.manager !== undefined ? { manager: values.manager } : {}),
  }));
}

export async function importUsersCommand(ctx: CommandContext, file: string, options: { dryRun?: boolean; invite?: boolean }): Promise<void> {
  const rows = usersFromCsv(file);
  const bar = progressBar({ label: options.dryRun ? 'Checking' : 'Importing', percent: undefined, detail: `${rows.length} rows` });
  let reply;
  try {
    reply = await call(ctx.connection, createApi(ctx.connection).POST('/api/users/imports', { body: { rows, dryRun: Boolean(options.dryRun), invite: Boolean(options.invite) } }));
  } catch (error) {
    throw rejectedRows(error, rows.map((row) => row.line), 'users');
  } finally {
    bar.done();
  }
  if (ctx.output.json) return printJson(reply.data);
  process.stdout.write(`${planSummary(reply.data, { invited: Boolean(options.invite) })}\n`);
  // Taking roles away is easy to miss in a count: each person who loses one is named.
  for (const change of reply.data.changes) {
    if (!change.removesRoles?.length) continue;
    process.stdout.write(`${reply.data.dryRun ? 'Would remove' : 'Removed'} ${change.removesRoles.join(', ')} from ${change.key} (line ${change.line})\n`);
  }
  if (options.dryRun && reply.data.changes.length) hint('Nothing was written. Run again without --dry-run to apply.');
}

export async function exportUsersCommand(ctx: CommandContext, options: { output?: string }): Promise<void> {
  const started = await call(ctx.connection, createApi(ctx.connection).POST('/api/users/exports'));
  const job = requireSuccess(await waitForJob(ctx.connection, started.data.id, 'Exporting users'));
  await saveDownload(ctx.connection, job.downloadId, options.output);
  if (options.output) hint(`Wrote ${options.output}`);
}

export async function listUsersCommand(ctx: CommandContext, options: { role?: string; search?: string; removed?: boolean }): Promise<void> {
  const api = createApi(ctx.connection);
  const users = [];
  let cursor: string | undefined;
  do {
    const query = { limit: 500, status: options.removed ? ('removed' as const) : ('active' as const), ...(options.role ? { role: options.role } : {}), ...(options.search ? { search: options.search } : {}), ...(cursor ? { cursor } : {}) };
    const page = await call(ctx.connection, api.GET('/api/users', { params: { query } }));
    users.push(...page.data);
    cursor = page.page.nextCursor ?? undefined;
  } while (cursor);
  if (ctx.output.json) return printJson(users);
  printTable(
    ['EMAIL', 'NAME', 'ROLES', 'MANAGER', 'STATUS'],
    users.map((user) => [user.email, `${user.firstName} ${user.lastName}`, user.roles.map((role) => role.key).join(';'), user.manager ?? '', user.status]),
  );
}
