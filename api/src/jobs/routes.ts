import { found } from '../kernel/errors.js';
import { member, secured } from '../kernel/operations.js';
import { cancel, job, myJobs } from './service.js';

export const jobOperations = [
  secured({
    operationId: 'listUserBackgroundJobs',
    access: member,
    handler: async ({ body }, { deps, caller }) => ({ data: await myJobs(deps.db, caller, body?.withinDays ?? 7) }),
  }),
  secured({
    operationId: 'getBackgroundJob',
    access: member,
    handler: async ({ path }, { deps, caller }) => ({ data: found(await job(deps.db, caller, path.jobId)) }),
  }),
  secured({
    operationId: 'cancelBackgroundJob',
    access: member,
    handler: async ({ path }, { deps, caller }) => ({ data: found(await cancel(deps.db, deps.jobs, caller, path.jobId)) }),
  }),
];
