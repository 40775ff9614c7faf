import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, isolatedConfig } from './env.js';
import { prepareDatabase } from '../src/server.js';

// Web and worker nodes started together on an empty database (`docker compose up`, a Deployment's
// pods) prepare it in turn: one migrates and seeds, the others find it done, and none fails.
describe('nodes starting together on an empty Postgres database', () => {
  const config = isolatedConfig({ PAYBENCH_SEED_DEMO: 'false' });
  afterAll(() => dropSchema(config));

  it('take turns: one migrates and loads the reference data, the other finds it done', async () => {
    const prepared = await Promise.all([prepareDatabase(config), prepareDatabase(config), prepareDatabase(config)]);
    const migrated = prepared.filter((result) => result.applied.length > 0);
    expect(migrated).toHaveLength(1);
    expect(migrated[0]?.currencies).toBeGreaterThan(100);
    expect(prepared.filter((result) => result.applied.length === 0 && result.currencies === 0 && result.rates === 0)).toHaveLength(2);
  }, 240_000);
});
