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
