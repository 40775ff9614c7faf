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
    handler: async ({ query }, ctx) => ({ data: await listOffers({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, query) }),
  }),
  secured({
    operationId: 'createOffer',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, body) }),
  }),
  secured({
    operationId: 'checkOffer',
    access: view,
    handler: async ({ body }, ctx) => ({ data: await checkOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, body) }),
  }),
  secured({
    operationId: 'findOffersByEmail',
    access: member,
    handler: async ({ body }, ctx) => ({ data: await findOffersByEmail({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, body) }),
  }),
  secured({
    operationId: 'startOffersExport',
    access: view,
    status: 202,
    handler: async ({ body }, ctx) => ({ data: await startOffersExport(ctx, body, socketIdOf(ctx.koa.get('x-socket-id'))) }),
  }),
  secured({
    operationId: 'bulkOfferAction',
    // Approving needs view (and to be awaited); the other actions check edit themselves.
    access: view,
    handler: async ({ body }, ctx) => ({ data: await bulkOfferAction({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, body) }),
  }),
  secured({
    operationId: 'getOfferApprovalSettings',
    access: view,
    handler: async (_input, ctx) => ({ data: await getApprovalSettings(ctx) }),
  }),
  secured({
    operationId: 'updateOfferApprovalSettings',
    access: edit,
    handler: async ({ headers, body }, ctx) => ({ data: await updateApprovalSettings(ctx, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'getOffer',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await getOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId) }),
  }),
  secured({
    operationId: 'updateOffer',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteOffer',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deleteOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId) }),
  }),
  secured({
    operationId: 'submitOffer',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await submitOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId, headers['If-Match'], body?.comment) }),
  }),
  secured({
    operationId: 'approveOffer',
    access: view,
    handler: async ({ path, headers, body }, ctx) => ({ data: await approveOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId, headers['If-Match'], body?.comment) }),
  }),
  secured({
    operationId: 'rejectOffer',
    access: view,
    handler: async ({ path, headers, body }, ctx) => ({ data: await rejectOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId, headers['If-Match'], body.comment) }),
  }),
  secured({
    operationId: 'sendOffer',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => sendOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId, headers['If-Match'], body?.comment),
    etag: (body) => body.data.version,
  }),
  secured({
    operationId: 'rescindOffer',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await rescindOffer({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId, headers['If-Match'], body.comment) }),
  }),
  secured({
    operationId: 'cancelOfferHire',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await cancelOfferHire({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId, headers['If-Match'], body.comment) }),
    etag: (body) => body.data.version,
  }),
  secured({
    operationId: 'previewOfferLetter',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await recruiterLetter({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId) }),
  }),
  secured({
    operationId: 'getOfferPdf',
    access: view,
    handler: async ({ path }, ctx) => letterPdf(await recruiterLetter({ deps: ctx.deps, afterCommit: ctx.afterCommit }, ctx.caller, path.offerId)),
  }),
];
