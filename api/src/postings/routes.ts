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
    handler: async ({ query }, { deps, caller }) => ({ data: await listPostings(deps.db, caller, query) }),
  }),
  secured({
    operationId: 'createJobPosting',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createPosting(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'checkJobPosting',
    access: view,
    handler: async ({ body }, { deps, caller }) => ({ data: await previewPosting(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'startJobPostingsExport',
    access: view,
    status: 202,
    handler: async ({ body }, { deps, caller, koa }) => ({ data: await startPostingsExport(deps.jobs, caller, body, socketIdOf(koa.get('x-socket-id'))) }),
  }),
  secured({
    operationId: 'getJobPosting',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await getPosting(deps.db, caller, path.postingId) }),
  }),
  secured({
    operationId: 'updateJobPosting',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updatePosting(deps.db, caller, path.postingId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'transitionJobPosting',
    access: view,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await transitionPosting(deps.db, caller, path.postingId, headers['If-Match'], body.action) }),
  }),
  secured({
    operationId: 'getJobPostingStructuredData',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await postingStructuredData(deps.db, caller, path.postingId) }),
  }),
];
