import type { components } from '../contract-types.js';
import { migrationState } from '../db/migrations.js';
import { HttpError } from '../kernel/errors.js';
import { STARTING_MESSAGE } from '../kernel/startupGate.js';
import type { ServiceContext } from '../kernel/operations.js';

export async function health(ctx: Pick<ServiceContext, 'deps'>): Promise<components['schemas']['Health']> {
  const { deps } = ctx;
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

/** Ready (200) or draining (503 `draining`); while starting, the start-up gate answers 503 `starting` before this runs. */
export function readiness(ctx: Pick<ServiceContext, 'deps'>): components['schemas']['Readiness'] {
  const { deps } = ctx;
  const lifecycle = deps.lifecycle ?? { state: 'ready', roles: ['web', 'worker'] };
  if (lifecycle.state === 'draining') {
    throw new HttpError(503, 'draining', { message: 'This node is shutting down; send requests to another node.', headers: { 'Retry-After': '2' } });
  }
  if (lifecycle.state === 'starting') {
    throw new HttpError(503, 'starting', { message: STARTING_MESSAGE, headers: { 'Retry-After': '2' } });
  }
  return { status: 'ready', roles: [...lifecycle.roles] };
}
