import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { inTurnWithOtherNodes } from './startLock.js';

/**
 * Postgres: every commit that changes what authentication reads — a token revoked, expired or
 * deleted, a user changed or removed, their roles, a role's permissions, a company's flags — sends
 * a notification on the install's channel (a statement-level trigger calling `pg_notify`, which
 * Postgres delivers only if and when the transaction commits, once per transaction, in commit
 * order). Each node listens on it and drops the callers it keeps (`access/authCache.ts`).
 *
 * Writing `last_used_at` of a token (done at most once a minute per token and node) changes
 * nothing authentication reads and sends nothing.
 */

const FUNCTION = 'paybench_auth_changed';
const TRIGGER = 'paybench_auth_changed';

/**
 * The tables authentication reads, and the writes on each that can change a caller it keeps (a new
 * token, user or role was never kept: only callers that were found are).
 */
const WATCHED: Record<string, string> = {
  api_tokens: 'update of revoked_at, expires_at, user_id, company_id, token_hash or delete or truncate',
  users: 'update or delete or truncate',
  user_roles: 'insert or update or delete or truncate',
  roles: 'update or delete or truncate',
  company_flags: 'insert or update or delete or truncate',
};

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/** The schema an install's tables live in: the first of the search path, as knex connects. */
export function schemaOf(db: Knex): string {
  const searchPath: string | readonly string[] | undefined = (db.client.config as Knex.Config).searchPath;
  const first = typeof searchPath === 'string' ? searchPath.split(',')[0]?.trim() : searchPath?.[0];
  return first || 'public';
}

/**
 * The channel of an install (a schema): channel names are identifiers of at most 63 bytes, and
 * several installs (schemas) may share one database.
 */
export function authChannel(schema: string): string {
  return `paybench_auth_${createHash('sha256').update(schema).digest('hex').slice(0, 24)}`;
}

/**
 * The data channel: every commit that writes any table an answer may be read from notifies it, so
 * a node can keep read answers (team table pages) until the next such commit. Left out are the
 * tables of bookkeeping no answer kept this way reads, written far more often than data: the job
 * queue and event outbox, provider sessions and sign-in throttling, usage and audit trails, mail
 * sent, downloads, who is viewing a worksheet, and token use (auth has its own channel).
 */
const DATA_FUNCTION = 'paybench_data_changed';
const DATA_TRIGGER = 'paybench_data_changed';
const NOT_DATA: ReadonlySet<string> = new Set([
  'knex_migrations',
  'knex_migrations_lock',
  'jobs',
  'domain_events',
  'oidc_models',
  'sign_in_throttle',
  'analytics_events',
  'audit_events',
  'outbox_emails',
  'downloads',
  'merit_cycle_viewers',
  'market_slice_collaborator_opens',
  'api_tokens',
]);

export function dataChannel(schema: string): string {
  return `paybench_data_${createHash('sha256').update(schema).digest('hex').slice(0, 24)}`;
}

/** Puts the notifying triggers on the watched tables (Postgres; idempotent; a no-op on SQLite). */
export async function applyAuthChangeNotifications(db: Knex): Promise<void> {
  if (db.client.config.client !== 'pg') return;
  const schema = schemaOf(db);
  const channel = authChannel(schema);
  await inTurnWithOtherNodes(db, `auth changes ${schema}`, async (trx) => {
    // The payload is empty: a listener only needs to know that something changed.
    await trx.raw(
      `create or replace function ${quote(schema)}.${FUNCTION}() returns trigger language plpgsql as $body$ begin perform pg_notify('${channel}', ''); return null; end $body$`,
    );
    const { rows } = await trx.raw<{ rows: { table: string }[] }>(
      `select c.relname as "table" from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace where n.nspname = ? and t.tgname = ?`,
      [schema, TRIGGER],
    );
    const present = new Set(rows.map((row) => row.table));
    for (const [table, events] of Object.entries(WATCHED)) {
      if (present.has(table)) continue;
      await trx.raw(`create trigger ${TRIGGER} after ${events} on ${quote(schema)}.${quote(table)} for each statement execute function ${quote(schema)}.${FUNCTION}()`);
    }
    await applyDataChangeNotifications(trx, schema);
  });
}

/** Every base table of the schema but the bookkeeping ones, including those later migrations add (run after each). */
async function applyDataChangeNotifications(trx: Knex.Transaction, schema: string): Promise<void> {
  await trx.raw(
    `create or replace function ${quote(schema)}.${DATA_FUNCTION}() returns trigger language plpgsql as $body$ begin perform pg_notify('${dataChannel(schema)}', ''); return null; end $body$`,
  );
  const { rows } = await trx.raw<{ rows: { table: string; watched: boolean }[] }>(
    `select c.relname as "table", exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = ?) as watched
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ? and c.relkind in ('r', 'p')`,
    [DATA_TRIGGER, schema],
  );
  for (const { table, watched } of rows) {
    if (watched || NOT_DATA.has(table)) continue;
    await trx.raw(`create trigger ${DATA_TRIGGER} after insert or update or delete or truncate on ${quote(schema)}.${quote(table)} for each statement execute function ${quote(schema)}.${DATA_FUNCTION}()`);
  }
}
