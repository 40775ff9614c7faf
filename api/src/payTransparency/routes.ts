import { can, colleague, secured } from '../kernel/operations.js';
import type { AppDeps } from '../deps.js';
import { approveRequest, askClarification, companyRequest, fileRequest, listCompanyRequests, myPayInformation, myRequest, prepareAgain, replyClarification, sendNoticeNow, settings, updateNote, updateSettings } from './service.js';
import type { NotifyPorts } from './notify.js';

const view = can('payEquity', 'view');
const edit = can('payEquity', 'edit');

const ports = (deps: AppDeps): NotifyPorts => ({ db: deps.db, mailer: deps.mailer, publicUrl: deps.config.publicUrl });

export const payTransparencyOperations = [
  // Any member of the company but a candidate, for their own requests only (anyone else's is 404).
  secured({ operationId: 'getMyPayInformation', access: colleague, handler: async (_input, ctx) => ({ data: await myPayInformation(ctx) }) }),
  secured({ operationId: 'filePayInformationRequest', access: colleague, status: 201, handler: async ({ body }, ctx) => ({ data: await fileRequest(ctx, { body, ports: ports(ctx.deps), afterCommit: ctx.afterCommit }) }) }),
  secured({ operationId: 'getMyPayInformationRequest', access: colleague, handler: async ({ path }, ctx) => ({ data: await myRequest(ctx, path.requestId) }) }),
  secured({
    operationId: 'askPayInformationClarification',
    access: colleague,
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await askClarification(ctx, { requestId: path.requestId, question: body.question, ports: ports(ctx.deps), afterCommit: ctx.afterCommit }) }),
  }),
  // HR: the queue, the review and the delivery.
  secured({ operationId: 'listPayInformationRequests', access: view, handler: async (_input, ctx) => ({ data: await listCompanyRequests(ctx) }) }),
  secured({ operationId: 'getPayInformationRequest', access: view, handler: async ({ path }, ctx) => ({ data: await companyRequest(ctx, path.requestId) }) }),
  secured({
    operationId: 'updatePayInformationRequest',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateNote(ctx, { requestId: path.requestId, ifMatch: headers['If-Match'], note: body.note }) }),
  }),
  secured({
    operationId: 'approvePayInformationRequest',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({
      data: await approveRequest(ctx, { requestId: path.requestId, ifMatch: headers['If-Match'], comment: body?.comment, ports: ports(ctx.deps), afterCommit: ctx.afterCommit }),
    }),
  }),
  secured({
    operationId: 'preparePayInformationAnswer',
    access: edit,
    handler: async ({ path, headers }, ctx) => ({ data: await prepareAgain(ctx, { requestId: path.requestId, ifMatch: headers['If-Match'] }) }),
  }),
  secured({
    operationId: 'replyPayInformationClarification',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({
      data: await replyClarification(ctx, { requestId: path.requestId, clarificationId: path.clarificationId, ifMatch: headers['If-Match'], reply: body.reply, prepareAgain: body.prepareAgain, ports: ports(ctx.deps), afterCommit: ctx.afterCommit }),
    }),
  }),
  secured({ operationId: 'getPayTransparencySettings', access: view, handler: async (_input, ctx) => ({ data: await settings(ctx) }) }),
  secured({
    operationId: 'updatePayTransparencySettings',
    access: edit,
    handler: async ({ headers, body }, ctx) => ({ data: await updateSettings(ctx, { ifMatch: headers['If-Match'], body }) }),
  }),
  secured({
    operationId: 'sendPayTransparencyNotice',
    access: edit,
    status: 201,
    handler: async (_input, ctx) => ({ data: await sendNoticeNow(ctx, { ports: ports(ctx.deps), afterCommit: ctx.afterCommit }) }),
  }),
];
