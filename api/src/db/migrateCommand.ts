/**
 * `node api/dist/db/migrateCommand.js`: applies pending migrations and exits: what a deployment runs
 * once per release (the Helm chart's migrations Job, `docker compose run --rm web node
 * api/dist/db/migrateCommand.js`) before new nodes start. Nodes migrate at start-up too, under the
 * same start-up lock, so one of them does it and the others find nothing pending.
 */
import { loadConfig } from '../config.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrations.js';
import { whileStartingAlone } from './startLock.js';

const config = loadConfig();
const db = await openDatabase(config);
try {
  const applied = await whileStartingAlone(db, config.databaseSchema, () => migrateToLatest(db));
  process.stdout.write(applied.length ? `Applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}\n` : 'The database is up to date.\n');
} catch (error) {
  process.stderr.write(`Migrations failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
