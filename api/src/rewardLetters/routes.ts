import { can, member, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import { remindLetters } from './reminders.js';
import { cancelCycleRelease, confirmLetter, cycleLetters, releaseCycleLetters, letterPdf, letterTemplate, myLetter, myLetters, previewLetter, readLetter, startLetterExport, switchLetterOnOrOff, transitionLetters, updateLetterTemplate } from './service.js';

const view = can('compensationPlanning', 'view');
const edit = can('compensationPlanning', 'edit');

/** Planners' operations need compensationPlanning; an employee's own letter needs only a place in the company (the service decides whose). */
export const rewardLetterOperations = [
  secured({ operationId: 'getMeritCycleRewardLetters', access: view, handler: async ({ path }, ctx) => ({ data: await cycleLetters(ctx, path.meritCycleId) }) }),
  secured({ operationId: 'getRewardLetterTemplate', access: view, handler: async ({ path }, ctx) => ({ data: await letterTemplate(ctx, path.meritCycleId) }) }),
  secured({
    operationId: 'updateRewardLetterTemplate',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateLetterTemplate(ctx, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({ operationId: 'previewRewardLetter', access: edit, handler: async ({ path, body }, ctx) => ({ data: await previewLetter(ctx, path.meritCycleId, body) }) }),
  secured({
    operationId: 'transitionRewardLetters',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await transitionLetters(ctx, path.meritCycleId, headers['If-Match'], body.action) }),
  }),
  secured({
    operationId: 'releaseRewardLetters',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await releaseCycleLetters(ctx, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'cancelRewardLetterRelease',
    access: edit,
    handler: async ({ path, headers }, ctx) => ({ data: await cancelCycleRelease(ctx, path.meritCycleId, path.releaseId, headers['If-Match']) }),
  }),
  secured({
    operationId: 'remindRewardLetters',
    access: edit,
    status: 202,
    handler: async ({ path, body }, ctx) => ({ data: await remindLetters(ctx, ctx.deps.jobs, ctx.caller, path.meritCycleId, body.sendAt) }),
  }),
  secured({
    operationId: 'startRewardLetterExport',
    access: view,
    status: 202,
    handler: async ({ path }, ctx) => ({ data: await startLetterExport(ctx, ctx.deps.jobs, ctx.caller, path.meritCycleId, socketIdOf(ctx.koa.get('x-socket-id'))) }),
  }),
  secured({ operationId: 'getRewardLetter', access: member, handler: async ({ path }, ctx) => ({ data: await readLetter(ctx, path.meritCycleId, path.employeeId) }) }),
  secured({
    operationId: 'updateRewardLetter',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await switchLetterOnOrOff(ctx, { cycleId: path.meritCycleId, employeeId: path.employeeId, ifMatch: headers['If-Match'], enabled: body.enabled }) }),
  }),
  secured({ operationId: 'getRewardLetterPdf', access: member, handler: async ({ path }, ctx) => letterPdf(ctx, path.meritCycleId, path.employeeId) }),
  secured({ operationId: 'confirmRewardLetter', access: member, handler: async ({ path }, ctx) => ({ data: await confirmLetter(ctx, path.meritCycleId, path.employeeId) }) }),
  secured({ operationId: 'getMyRewardLetter', access: member, handler: async ({ path }, ctx) => ({ data: await myLetter(ctx, path.meritCycleId) }) }),
  secured({ operationId: 'listMyRewardLetters', access: member, handler: async (_input, ctx) => ({ data: await myLetters(ctx) }) }),
];
