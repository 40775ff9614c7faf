import { call, createApi } from '../client.js';
import { hint, printJson, printTable } from '../output.js';
import type { CommandContext } from './users.js';

const when = (value: string | null): string => (value ? value.slice(0, 16).replace('T', ' ') : '-');

/** Prints only the secret on stdout, so `PAYBENCH_TOKEN=$(paybench tokens create ci)` works. */
export async function createTokenCommand(ctx: CommandContext, name: string, options: { expiresInDays?: string }): Promise<void> {
  const body = { name, ...(options.expiresInDays ? { expiresInDays: Number(options.expiresInDays) } : {}) };
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

export async function revokeTokenCommand(ctx: CommandContext, tokenId: string): Promise<void> {
  const revoked = await call(ctx.connection, createApi(ctx.connection).DELETE('/api/me/api-tokens/{tokenId}', { params: { path: { tokenId } } }));
  if (ctx.output.json) return printJson(revoked.data);
  process.stdout.write(`Revoked ${revoked.data.name} (${revoked.data.prefix}…)\n`);
}
