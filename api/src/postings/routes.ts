import { can, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import { startPostingsExport } from './exportJob.js';
import { createPosting, getPosting, listPostings, postingStructuredData, previewPosting, transitionPosting, updatePosting } from './service.js';

const view = can('postings', 'view');
const edit = can('postings', 'edit');

export const postingsOperations = [
  secured({
    operationId: 'listJobPostings',
    access: view,
    handler: async ({ query }, ctx) => ({ data: await listPostings(ctx, query) }),
  }),
  secured({
    operationId: 'createJobPosting',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createPosting(ctx, body) }),
  }),
  secured({
    operationId: 'checkJobPosting',
    access: view,
    handler: async ({ body }, ctx) => ({ data: await previewPosting(ctx, body) }),
  }),
  secured({
    operationId: 'startJobPostingsExport',
    access: view,
    status: 202,
    handler: async ({ body }, ctx) => ({ data: await startPostingsExport(ctx, body, socketIdOf(ctx.koa.get('x-socket-id'))) }),
  }),
  secured({
    operationId: 'getJobPosting',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await getPosting(ctx, path.postingId) }),
  }),
  secured({
    operationId: 'updateJobPosting',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updatePosting(ctx, path.postingId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'transitionJobPosting',
    access: view,
    handler: async ({ path, headers, body }, ctx) => ({ data: await transitionPosting(ctx, path.postingId, headers['If-Match'], body.action) }),
  }),
  secured({
    operationId: 'getJobPostingStructuredData',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await postingStructuredData(ctx, path.postingId) }),
  }),
];
