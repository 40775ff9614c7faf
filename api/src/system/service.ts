import type { components } from '../contract-types.js';
import { migrationState } from '../db/migrations.js';
import type { AppDeps } from '../deps.js';
import { HttpError } from '../kernel/errors.js';

export async function health(deps: AppDeps): Promise<components['schemas']['Health']> {
  try {
    await deps.db.raw('select 1');
    return {
      status: 'ok',
      version: deps.version,
      uptimeSeconds: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
      database: { engine: deps.config.engine, migrations: await migrationState(deps.db) },
    };
  } catch (error) {
    deps.log.error({ err: error }, 'health check: database unavailable');
    throw new HttpError(503, 'database_unavailable', { message: 'The database is not answering.' });
  }
}
