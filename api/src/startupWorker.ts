/**
 * Start-up's database work on a thread of its own: migrations, reference data, the demo company
 * and the bootstrap admin. The main thread meanwhile answers every request at once (503 while
 * starting), however long this takes.
 */
import type { Config } from './config.js';
import { seedCurrencies } from './currencies/seed.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrations.js';
import { whileStartingAlone } from './db/startLock.js';
import { bootstrapAdmin } from './demo/bootstrap.js';
import { type DemoSeedResult, seedDemoCompany } from './demo/seed.js';
import { seedForexRates } from './forex/seed.js';
import { answerFromThread } from './threads/start.js';

export interface PreparedDatabase {
  applied: string[];
  currencies: number;
  rates: number;
  demo: DemoSeedResult;
  bootstrapped: boolean;
}

async function prepare(config: Config): Promise<PreparedDatabase> {
  const db = await openDatabase(config);
  try {
    // Nodes started together take turns: the first migrates and seeds, the others find it done.
    return await whileStartingAlone(db, config.databaseSchema, async () => {
      const applied = await migrateToLatest(db);
      const currencies = await seedCurrencies(db);
      const rates = await seedForexRates(db);
      const demo = config.seedDemo ? await seedDemoCompany(db, config.dataDir) : { created: false, signIn: undefined };
      const bootstrapped = await bootstrapAdmin(db, process.env.PAYBENCH_BOOTSTRAP_ADMIN_EMAIL, process.env.PAYBENCH_BOOTSTRAP_TOKEN);
      return { applied, currencies, rates, demo, bootstrapped };
    });
  } finally {
    await db.destroy();
  }
}

void answerFromThread((data) => prepare(data as Config));
