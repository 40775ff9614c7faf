import type { Knex } from 'knex';

/**
 * Runs a node's start-up database work (migrations, reference data, seeds) with the other nodes of
 * the same database and schema waiting their turn: on Postgres a transaction holds an advisory lock
 * meanwhile, so nodes started together (compose, a Deployment's pods, the chart's migrations Job)
 * never run it side by side; each after the first finds nothing left to do. SQLite is one node.
 */
export async function whileStartingAlone<T>(db: Knex, schema: string | undefined, work: () => Promise<T>): Promise<T> {
  if (db.client.config.client !== 'pg') return work();
  const holder = await db.transaction();
  try {
    await holder.raw(`select pg_advisory_xact_lock(hashtext('paybench start-up ' || ?))`, [schema ?? 'public']);
    return await work();
  } finally {
    await holder.rollback();
  }
}

/**
 * Runs start-up DDL that every node runs (CREATE … IF NOT EXISTS, triggers) with the other nodes
 * waiting on the same advisory lock: IF NOT EXISTS is no guard against another node creating the
 * same thing at the same moment, which fails on Postgres's catalogue (pg_class_relname_nsp_index).
 * `lock` names the work and its schema. Postgres only.
 */
export function inTurnWithOtherNodes<T>(db: Knex, lock: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`paybench ${lock}`]);
    return work(trx);
  });
}
