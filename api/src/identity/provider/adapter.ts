import type { Knex } from 'knex';
import type { Adapter, AdapterPayload } from 'oidc-provider';

const TABLE = 'oidc_models';
/** Expired rows are swept at most this often, piggybacking on writes. */
const SWEEP_EVERY_MS = 5 * 60_000;

interface ModelRow {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: string | Date | null;
  consumed_at: string | Date | null;
}

const toTime = (value: string | Date | null): number | undefined => (value === null ? undefined : new Date(value).getTime());

/** Parses a stored row, or undefined when it has expired (the provider checks `exp` too; this also covers sessions). */
function revive(row: ModelRow | undefined, now: number): AdapterPayload | undefined {
  if (!row) return undefined;
  const expiresAt = toTime(row.expires_at);
  if (expiresAt !== undefined && expiresAt <= now) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  const consumedAt = toTime(row.consumed_at);
  return consumedAt === undefined ? payload : { ...payload, consumed: Math.floor(consumedAt / 1000) };
}

/** Every oidc-provider model in one table; `expiresIn` is seconds from now. */
export function knexAdapterFactory(db: Knex): (model: string) => Adapter {
  let lastSweep = 0;
  const sweep = async (): Promise<void> => {
    const now = Date.now();
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    await db(TABLE).where('expires_at', '<', new Date(now).toISOString()).delete();
  };

  return (model: string): Adapter => {
    const rows = (): Knex.QueryBuilder<ModelRow> => db<ModelRow>(TABLE).where({ model });
    const findWhere = async (where: Partial<ModelRow>): Promise<AdapterPayload | undefined> =>
      revive(await rows().where(where).first(), Date.now());

    return {
      async upsert(id, payload, expiresIn) {
        const row: ModelRow = {
          model,
          id,
          payload: JSON.stringify(payload),
          grant_id: payload.grantId ?? null,
          user_code: payload.userCode ?? null,
          uid: payload.uid ?? null,
          expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
          consumed_at: null,
        };
        await db<ModelRow>(TABLE)
          .insert(row)
          .onConflict(['model', 'id'])
          .merge(['payload', 'grant_id', 'user_code', 'uid', 'expires_at']);
        await sweep();
      },
      find: (id) => findWhere({ id }),
      findByUid: (uid) => findWhere({ uid }),
      findByUserCode: (userCode) => findWhere({ user_code: userCode }),
      async consume(id) {
        await rows().where({ id }).update({ consumed_at: new Date().toISOString() });
      },
      async destroy(id) {
        await rows().where({ id }).delete();
      },
      async revokeByGrantId(grantId) {
        // Called per model, so only this model's tokens of the grant go.
        await rows().where({ grant_id: grantId }).delete();
      },
    };
  };
}

/** What a stored Session says about each client signed in through it. */
interface SessionPayload {
  authorizations?: Record<string, { grantId?: string; persistsLogout?: boolean }>;
}

/**
 * Ends a session by its uid the way the provider's sign-out (RP-initiated logout) does: the grants
 * of clients whose tokens end with the session (the web app's) go with every token and code issued
 * under them, then the session itself. Grants that outlive a logout (the CLI's device sign-in) stay.
 */
export async function endSession(db: Knex, sessionUid: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx<ModelRow>(TABLE).where({ model: 'Session', uid: sessionUid }).first();
    if (!row) return;
    const { authorizations = {} } = JSON.parse(row.payload) as SessionPayload;
    const grantIds = Object.values(authorizations)
      .filter((authorization) => !authorization.persistsLogout)
      .flatMap((authorization) => (authorization.grantId ? [authorization.grantId] : []));
    if (grantIds.length) {
      await trx(TABLE).whereIn('grant_id', grantIds).delete();
      await trx(TABLE).where({ model: 'Grant' }).whereIn('id', grantIds).delete();
    }
    await trx(TABLE).where({ model: 'Session', id: row.id }).delete();
  });
}
