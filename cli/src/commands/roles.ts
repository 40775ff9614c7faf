import type { components } from '../../../openapi.js';
import { call, createApi } from '../client.js';
import { csvLine, readCsv } from '../csv.js';
import { RejectedInput, hint, printJson, printTable } from '../output.js';
import { planSummary, rejectedRows } from './importReport.js';
import type { CommandContext } from './users.js';

type PermissionMap = components['schemas']['PermissionMap'];

const ROLE_COLUMNS = { required: ['key', 'name', 'permissions'], optional: ['description'] };

/**
 * Permissions travel as JSON in one cell (`{"offers":[{"authority":"edit","scope":"all"}]}`).
 * A cell that is not a JSON object is a problem of its line; the row still goes to the server's
 * check (with no permissions), so every other problem of the file is reported with it.
 */
function rolesFromCsv(file: string) {
  const badPermissions = new Set<number>();
  const rows = readCsv(file, ROLE_COLUMNS).map(({ line, values }) => {
    let permissions: PermissionMap = {};
    try {
      const parsed = JSON.parse(values.permissions || '{}') as unknown;
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      permissions = parsed as PermissionMap;
    } catch {
      badPermissions.add(line);
    }
    return { line, key: values.key ?? '', name: values.name ?? '', description: values.description ?? '', permissions };
  });
  return { rows, badPermissions };
}

const PERMISSIONS_PROBLEM = 'permissions: is not a JSON object of permission grants';

/** `line 12: …` → 12, for putting problems in the order of the file. */
const lineOf = (problem: string): number => Number(/^line (\d+):/.exec(problem)?.[1] ?? Number.MAX_SAFE_INTEGER);

/**
 * The file's own problems (permissions that are not JSON) together with every problem the server
 * finds in the rest of it, in line order. A row with unreadable permissions was checked without
 * them, so what the server says of its permissions is left out.
 */
async function allProblems(ctx: CommandContext, rows: ReturnType<typeof rolesFromCsv>['rows'], badPermissions: Set<number>): Promise<RejectedInput> {
  const ours = [...badPermissions].map((line) => `line ${line}: ${PERMISSIONS_PROBLEM}`);
  let theirs: string[] = [];
  try {
    await call(ctx.connection, createApi(ctx.connection).POST('/api/roles/imports', { body: { rows, dryRun: true } }));
  } catch (error) {
    const refused = rejectedRows(error, rows.map((row) => row.line), 'roles');
    if (!(refused instanceof RejectedInput)) throw refused;
    theirs = refused.lines.filter((problem) => !(badPermissions.has(lineOf(problem)) && /^line \d+: permissions\b/.test(problem)));
  }
  const problems = [...ours, ...theirs].sort((a, b) => lineOf(a) - lineOf(b));
  return new RejectedInput(`The roles file has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written.`, problems);
}

export async function importRolesCommand(ctx: CommandContext, file: string, options: { dryRun?: boolean }): Promise<void> {
  const { rows, badPermissions } = rolesFromCsv(file);
  if (badPermissions.size) throw await allProblems(ctx, rows, badPermissions);
  let reply;
  try {
    reply = await call(ctx.connection, createApi(ctx.connection).POST('/api/roles/imports', { body: { rows, dryRun: Boolean(options.dryRun) } }));
  } catch (error) {
    throw rejectedRows(error, rows.map((row) => row.line), 'roles');
  }
  if (ctx.output.json) return printJson(reply.data);
  process.stdout.write(`${planSummary(reply.data)}\n`);
  if (options.dryRun && reply.data.changes.length) hint('Nothing was written. Run again without --dry-run to apply.');
}

const listRoles = async (ctx: CommandContext) => (await call(ctx.connection, createApi(ctx.connection).GET('/api/roles'))).data;

/** The same columns `roles import` reads, so an export can be edited and imported back. */
export async function exportRolesCommand(ctx: CommandContext): Promise<void> {
  const roles = await listRoles(ctx);
  const lines = [csvLine(['key', 'name', 'description', 'permissions']), ...roles.map((role) => csvLine([role.key, role.name, role.description, JSON.stringify(role.permissions)]))];
  process.stdout.write(`${lines.join('\n')}\n`);
}

export async function listRolesCommand(ctx: CommandContext): Promise<void> {
  const roles = await listRoles(ctx);
  if (ctx.output.json) return printJson(roles);
  printTable(
    ['KEY', 'NAME', 'USERS', 'BUILT-IN'],
    roles.map((role) => [role.key, role.name, String(role.userCount), role.isBuiltin ? 'yes' : 'no']),
  );
}

type Role = components['schemas']['Role'];

/** Lower case, with `_`, `-` and runs of spaces as one space: `compensation_planner` reads as "compensation planner". */
const normalised = (text: string): string => text.trim().toLowerCase().replace(/[\s_-]+/g, ' ');

/** Whether `phrase` is among the words of `text` (both normalised): "planner" in "Compensation planner". */
const hasWords = (text: string, phrase: string): boolean => ` ${normalised(text)} `.includes(` ${phrase} `);

const described = (role: Role): string => `${role.key} (${role.name})`;

/**
 * The role someone means: its key or its name in any case; failing both, the one role whose key or
 * name contains the words given ("planner"). Unknown or ambiguous, the refusal lists the roles.
 */
export function resolveRole(roles: Role[], wanted: string): Role {
  const phrase = normalised(wanted);
  const exact = roles.filter((role) => normalised(role.key) === phrase || normalised(role.name) === phrase);
  const matches = exact.length || !phrase ? exact : roles.filter((role) => hasWords(role.key, phrase) || hasWords(role.name, phrase));
  const [only] = matches;
  if (only && matches.length === 1) return only;
  if (matches.length > 1) throw new RejectedInput(`"${wanted}" could be any of ${matches.map(described).join(', ')}; name one by its key.`);
  throw new RejectedInput(`There is no role "${wanted}". The roles are:`, roles.map(described));
}

/** Adds a role to a person, keeping the roles they already hold. */
export async function assignRoleCommand(ctx: CommandContext, roleKey: string, email: string, options: { dryRun?: boolean }): Promise<void> {
  const api = createApi(ctx.connection);
  const role = resolveRole(await listRoles(ctx), roleKey);
  const wanted = email.trim().toLowerCase();
  const found = await call(ctx.connection, api.GET('/api/users', { params: { query: { search: wanted, limit: 50 } } }));
  const user = found.data.find((candidate) => candidate.email === wanted);
  if (!user) throw new RejectedInput(`There is no active user ${wanted}. See: paybench users list`);
  const held = user.roles.map((candidate) => candidate.id);
  if (held.includes(role.id)) {
    if (ctx.output.json) return printJson(user);
    process.stdout.write(`${user.email} already holds ${role.key}\n`);
    return;
  }
  if (options.dryRun) {
    process.stdout.write(`Would give ${user.email} the role ${role.key}\n`);
    return hint('Nothing was written. Run again without --dry-run to apply.');
  }
  const updated = await call(ctx.connection, api.PUT('/api/users/{userId}/roles', { params: { path: { userId: user.id } }, body: { roleIds: [...held, role.id] } }));
  if (ctx.output.json) return printJson(updated.data);
  process.stdout.write(`${updated.data.email} now holds ${updated.data.roles.map((candidate) => candidate.key).sort().join(', ')}\n`);
}
