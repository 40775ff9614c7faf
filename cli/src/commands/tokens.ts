import { call, createApi } from '../client.js';
import { RejectedInput, hint, printJson, printTable } from '../output.js';
import type { CommandContext } from './users.js';

const when = (value: string | null): string => (value ? value.slice(0, 16).replace('T', ' ') : '-');

/** Prints only the secret on stdout, so `PAYBENCH_TOKEN=$(paybench tokens create ci)` works. */
export async function createTokenCommand(ctx: CommandContext, name: string, options: { expiresInDays?: string; dryRun?: boolean }): Promise<void> {
  const body = { name, ...(options.expiresInDays ? { expiresInDays: Number(options.expiresInDays) } : {}) };
  if (options.dryRun) {
    // Checks the credentials by reading the existing tokens; writes nothing.
    await call(ctx.connection, createApi(ctx.connection).GET('/api/me/api-tokens'));
    if (ctx.output.json) return printJson({ wouldCreate: body });
    process.stdout.write(`Would create the token ${name}${body.expiresInDays ? `, expiring after ${body.expiresInDays} days` : ', without expiry'}\n`);
    return hint('Nothing was written. Run again without --dry-run to create it.');
  }
  const created = await call(ctx.connection, createApi(ctx.connection).POST('/api/me/api-tokens', { body }));
  if (ctx.output.json) return printJson(created.data);
  process.stdout.write(`${created.data.token}\n`);
  hint('This is the only time the token is shown. Keep it somewhere safe.');
}

export async function listTokensCommand(ctx: CommandContext): Promise<void> {
  const tokens = (await call(ctx.connection, createApi(ctx.connection).GET('/api/me/api-tokens'))).data;
  if (ctx.output.json) return printJson(tokens);
  printTable(
    ['ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'EXPIRES', 'REVOKED'],
    tokens.map((token) => [token.id, token.name, token.prefix, when(token.createdAt), when(token.lastUsedAt), when(token.expiresAt), when(token.revokedAt)]),
  );
}

export async function revokeTokenCommand(ctx: CommandContext, tokenId: string, options: { dryRun?: boolean } = {}): Promise<void> {
  if (options.dryRun) {
    const tokens = (await call(ctx.connection, createApi(ctx.connection).GET('/api/me/api-tokens'))).data;
    const token = tokens.find((candidate) => candidate.id === tokenId);
    if (!token) throw new RejectedInput(`You have no token ${tokenId}. See: paybench tokens list`);
    if (ctx.output.json) return printJson({ wouldRevoke: token });
    process.stdout.write(token.revokedAt ? `${token.name} (${token.prefix}…) is already revoked\n` : `Would revoke ${token.name} (${token.prefix}…)\n`);
    return hint('Nothing was written. Run again without --dry-run to revoke it.');
  }
  const revoked = await call(ctx.connection, createApi(ctx.connection).DELETE('/api/me/api-tokens/{tokenId}', { params: { path: { tokenId } } }));
  if (ctx.output.json) return printJson(revoked.data);
  process.stdout.write(`Revoked ${revoked.data.name} (${revoked.data.prefix}…)\n`);
}
