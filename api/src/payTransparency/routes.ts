import { can, colleague, secured } from '../kernel/operations.js';
import type { AppDeps } from '../deps.js';
import { approveRequest, askClarification, companyRequest, fileRequest, listCompanyRequests, myPayInformation, myRequest, prepareAgain, replyClarification, sendNoticeNow, settings, updateNote, updateSettings } from './service.js';
import type { NotifyPorts } from './notify.js';

const view = can('payEquity', 'view');
const edit = can('payEquity', 'edit');

const ports = (deps: AppDeps): NotifyPorts => ({ db: deps.db, mailer: deps.mailer, publicUrl: deps.config.publicUrl });

export const payTransparencyOperations = [
  // Any member of the company but a candidate, for their own requests only (anyone else's is 404).
  secured({ operationId: 'getMyPayInformation', access: colleague, handler: async (_input, { deps, caller }) => ({ data: await myPayInformation(deps.db, caller) }) }),
  secured({ operationId: 'filePayInformationRequest', access: colleague, status: 201, handler: async ({ body }, { deps, caller, afterCommit }) => ({ data: await fileRequest(deps.db, caller, { body, ports: ports(deps), afterCommit }) }) }),
  secured({ operationId: 'getMyPayInformationRequest', access: colleague, handler: async ({ path }, { deps, caller }) => ({ data: await myRequest(deps.db, caller, path.requestId) }) }),
  secured({
    operationId: 'askPayInformationClarification',
    access: colleague,
    status: 201,
    handler: async ({ path, body }, { deps, caller, afterCommit }) => ({ data: await askClarification(deps.db, caller, { requestId: path.requestId, question: body.question, ports: ports(deps), afterCommit }) }),
  }),
  // HR: the queue, the review and the delivery.
  secured({ operationId: 'listPayInformationRequests', access: view, handler: async (_input, { deps, caller }) => ({ data: await listCompanyRequests(deps.db, caller) }) }),
  secured({ operationId: 'getPayInformationRequest', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await companyRequest(deps.db, caller, path.requestId) }) }),
  secured({
    operationId: 'updatePayInformationRequest',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateNote(deps.db, caller, { requestId: path.requestId, ifMatch: headers['If-Match'], note: body.note }) }),
  }),
  secured({
    operationId: 'approvePayInformationRequest',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller, afterCommit }) => ({
      data: await approveRequest(deps.db, caller, { requestId: path.requestId, ifMatch: headers['If-Match'], comment: body?.comment, ports: ports(deps), afterCommit }),
    }),
  }),
  secured({
    operationId: 'preparePayInformationAnswer',
    access: edit,
    handler: async ({ path, headers }, { deps, caller }) => ({ data: await prepareAgain(deps.db, caller, { requestId: path.requestId, ifMatch: headers['If-Match'] }) }),
  }),
  secured({
    operationId: 'replyPayInformationClarification',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller, afterCommit }) => ({
      data: await replyClarification(deps.db, caller, { requestId: path.requestId, clarificationId: path.clarificationId, ifMatch: headers['If-Match'], reply: body.reply, prepareAgain: body.prepareAgain, ports: ports(deps), afterCommit }),
    }),
  }),
  secured({ operationId: 'getPayTransparencySettings', access: view, handler: async (_input, { deps, caller }) => ({ data: await settings(deps.db, caller) }) }),
  secured({
    operationId: 'updatePayTransparencySettings',
    access: edit,
    handler: async ({ headers, body }, { deps, caller }) => ({ data: await updateSettings(deps.db, caller, { ifMatch: headers['If-Match'], body }) }),
  }),
  secured({
    operationId: 'sendPayTransparencyNotice',
    access: edit,
    status: 201,
    handler: async (_input, { deps, caller, afterCommit }) => ({ data: await sendNoticeNow(deps.db, caller, { ports: ports(deps), afterCommit }) }),
  }),
];
