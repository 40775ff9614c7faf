import { can, member, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import { getApprovalSettings, updateApprovalSettings } from './approvals.js';
import { bulkOfferAction } from './bulk.js';
import { startOffersExport } from './exportJob.js';
import { cancelOfferHire } from './hire.js';
import { findOffersByEmail, recruiterLetter, sendOffer } from './letters.js';
import { letterPdf } from './pdf.js';
import { approveOffer, checkOffer, createOffer, deleteOffer, getOffer, listOffers, rejectOffer, rescindOffer, submitOffer, updateOffer } from './service.js';

const view = can('offers', 'view');
const edit = can('offers', 'edit');

export const offersOperations = [
  secured({
    operationId: 'listOffers',
    access: view,
    handler: async ({ query }, { deps, caller, afterCommit }) => ({ data: await listOffers({ deps, afterCommit }, caller, query) }),
  }),
  secured({
    operationId: 'createOffer',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller, afterCommit }) => ({ data: await createOffer({ deps, afterCommit }, caller, body) }),
  }),
  secured({
    operationId: 'checkOffer',
    access: view,
    handler: async ({ body }, { deps, caller, afterCommit }) => ({ data: await checkOffer({ deps, afterCommit }, caller, body) }),
  }),
  secured({
    operationId: 'findOffersByEmail',
    access: member,
    handler: async ({ body }, { deps, caller, afterCommit }) => ({ data: await findOffersByEmail({ deps, afterCommit }, caller, body) }),
  }),
  secured({
    operationId: 'startOffersExport',
    access: view,
    status: 202,
    handler: async ({ body }, { deps, caller, koa }) => ({ data: await startOffersExport(deps.jobs, caller, body, socketIdOf(koa.get('x-socket-id'))) }),
  }),
  secured({
    operationId: 'bulkOfferAction',
    // Approving needs view (and to be awaited); the other actions check edit themselves.
    access: view,
    handler: async ({ body }, { deps, caller, afterCommit }) => ({ data: await bulkOfferAction({ deps, afterCommit }, caller, body) }),
  }),
  secured({
    operationId: 'getOfferApprovalSettings',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await getApprovalSettings(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateOfferApprovalSettings',
    access: edit,
    handler: async ({ headers, body }, { deps, caller }) => ({ data: await updateApprovalSettings(deps.db, caller, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'getOffer',
    access: view,
    handler: async ({ path }, { deps, caller, afterCommit }) => ({ data: await getOffer({ deps, afterCommit }, caller, path.offerId) }),
  }),
  secured({
    operationId: 'updateOffer',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller, afterCommit }) => ({ data: await updateOffer({ deps, afterCommit }, caller, path.offerId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteOffer',
    access: edit,
    handler: async ({ path }, { deps, caller, afterCommit }) => ({ data: await deleteOffer({ deps, afterCommit }, caller, path.offerId) }),
  }),
  secured({
    operationId: 'submitOffer',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller, afterCommit }) => ({ data: await submitOffer({ deps, afterCommit }, caller, path.offerId, headers['If-Match'], body?.comment) }),
  }),
  secured({
    operationId: 'approveOffer',
    access: view,
    handler: async ({ path, headers, body }, { deps, caller, afterCommit }) => ({ data: await approveOffer({ deps, afterCommit }, caller, path.offerId, headers['If-Match'], body?.comment) }),
  }),
  secured({
    operationId: 'rejectOffer',
    access: view,
    handler: async ({ path, headers, body }, { deps, caller, afterCommit }) => ({ data: await rejectOffer({ deps, afterCommit }, caller, path.offerId, headers['If-Match'], body.comment) }),
  }),
  secured({
    operationId: 'sendOffer',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller, afterCommit }) => sendOffer({ deps, afterCommit }, caller, path.offerId, headers['If-Match'], body?.comment),
    etag: (body) => body.data.version,
  }),
  secured({
    operationId: 'rescindOffer',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller, afterCommit }) => ({ data: await rescindOffer({ deps, afterCommit }, caller, path.offerId, headers['If-Match'], body.comment) }),
  }),
  secured({
    operationId: 'cancelOfferHire',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller, afterCommit }) => ({ data: await cancelOfferHire({ deps, afterCommit }, caller, path.offerId, headers['If-Match'], body.comment) }),
    etag: (body) => body.data.version,
  }),
  secured({
    operationId: 'previewOfferLetter',
    access: view,
    handler: async ({ path }, { deps, caller, afterCommit }) => ({ data: await recruiterLetter({ deps, afterCommit }, caller, path.offerId) }),
  }),
  secured({
    operationId: 'getOfferPdf',
    access: view,
    handler: async ({ path }, { deps, caller, afterCommit }) => letterPdf(await recruiterLetter({ deps, afterCommit }, caller, path.offerId)),
  }),
];
