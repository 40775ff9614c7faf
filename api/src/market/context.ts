import { companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { HttpError } from '../kernel/errors.js';
import { presentSettings } from './present.js';
import { servedRelease, servedReleaseId } from './releases.js';
import { findSettings } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type BenchmarkingContext = components['schemas']['BenchmarkingContext'];

/** What the caller may do in benchmarking: the company's switch, their access, its preferred location and the served release. */
export async function benchmarkingContext(ctx: Pick<ServiceContext, 'deps' | 'caller'>): Promise<BenchmarkingContext> {
  const { deps, caller } = ctx;
  if (caller.isCandidate) throw new HttpError(403, 'candidate', { message: 'Candidates have no benchmarking.' });
  const scope = companyScope(caller);
  const access = hasPermission(caller.permissions, 'benchmarking', 'edit', undefined)
    ? 'edit'
    : hasPermission(caller.permissions, 'benchmarking', 'view', undefined)
      ? 'view'
      : 'none';
  const switchedOn = caller.flags.benchmarking;
  const { location } = presentSettings(await findSettings(deps.db, scope));
  const row = servedReleaseId(deps) === null ? null : servedRelease(deps).row;
  return {
    switchedOn,
    access,
    mayRequestAccess: switchedOn && access === 'none',
    location,
    release: row ? { id: row.id, version: row.version } : null,
  };
}
