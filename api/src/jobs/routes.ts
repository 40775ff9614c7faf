import { found } from '../kernel/errors.js';
import { member, secured } from '../kernel/operations.js';
import { cancel, job, myJobs } from './service.js';

export const jobOperations = [
  secured({
    operationId: 'listUserBackgroundJobs',
    access: member,
    handler: async ({ body }, ctx) => ({ data: await myJobs(ctx, body?.withinDays ?? 7) }),
  }),
  secured({
    operationId: 'getBackgroundJob',
    access: member,
    handler: async ({ path }, ctx) => ({ data: found(await job(ctx, path.jobId)) }),
  }),
  secured({
    operationId: 'cancelBackgroundJob',
    access: member,
    handler: async ({ path }, ctx) => ({ data: found(await cancel(ctx, ctx.deps.jobs, ctx.caller, path.jobId)) }),
  }),
];
