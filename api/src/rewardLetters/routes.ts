import { can, member, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import { remindLetters } from './reminders.js';
import { cancelCycleRelease, confirmLetter, cycleLetters, releaseCycleLetters, letterPdf, letterTemplate, myLetter, myLetters, previewLetter, readLetter, startLetterExport, switchLetterOnOrOff, transitionLetters, updateLetterTemplate } from './service.js';

const view = can('compensationPlanning', 'view');
const edit = can('compensationPlanning', 'edit');

/** Planners' operations need compensationPlanning; an employee's own letter needs only a place in the company (the service decides whose). */
export const rewardLetterOperations = [
  secured({ operationId: 'getMeritCycleRewardLetters', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await cycleLetters(deps.db, caller, path.meritCycleId) }) }),
  secured({ operationId: 'getRewardLetterTemplate', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await letterTemplate(deps.db, caller, path.meritCycleId) }) }),
  secured({
    operationId: 'updateRewardLetterTemplate',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateLetterTemplate(deps.db, caller, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({ operationId: 'previewRewardLetter', access: edit, handler: async ({ path, body }, { deps, caller }) => ({ data: await previewLetter(deps.db, caller, path.meritCycleId, body) }) }),
  secured({
    operationId: 'transitionRewardLetters',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await transitionLetters(deps.db, caller, path.meritCycleId, headers['If-Match'], body.action) }),
  }),
  secured({
    operationId: 'releaseRewardLetters',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await releaseCycleLetters(deps.db, caller, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'cancelRewardLetterRelease',
    access: edit,
    handler: async ({ path, headers }, { deps, caller }) => ({ data: await cancelCycleRelease(deps.db, caller, path.meritCycleId, path.releaseId, headers['If-Match']) }),
  }),
  secured({
    operationId: 'remindRewardLetters',
    access: edit,
    status: 202,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await remindLetters(deps.db, deps.jobs, caller, path.meritCycleId, body.sendAt) }),
  }),
  secured({
    operationId: 'startRewardLetterExport',
    access: view,
    status: 202,
    handler: async ({ path }, { deps, caller, koa }) => ({ data: await startLetterExport(deps.db, deps.jobs, caller, path.meritCycleId, socketIdOf(koa.get('x-socket-id'))) }),
  }),
  secured({ operationId: 'getRewardLetter', access: member, handler: async ({ path }, { deps, caller }) => ({ data: await readLetter(deps.db, caller, path.meritCycleId, path.employeeId) }) }),
  secured({
    operationId: 'updateRewardLetter',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await switchLetterOnOrOff(deps.db, caller, { cycleId: path.meritCycleId, employeeId: path.employeeId, ifMatch: headers['If-Match'], enabled: body.enabled }) }),
  }),
  secured({ operationId: 'getRewardLetterPdf', access: member, handler: async ({ path }, { deps, caller }) => letterPdf(deps.db, caller, path.meritCycleId, path.employeeId) }),
  secured({ operationId: 'confirmRewardLetter', access: member, handler: async ({ path }, { deps, caller }) => ({ data: await confirmLetter(deps.db, caller, path.meritCycleId, path.employeeId) }) }),
  secured({ operationId: 'getMyRewardLetter', access: member, handler: async ({ path }, { deps, caller }) => ({ data: await myLetter(deps.db, caller, path.meritCycleId) }) }),
  secured({ operationId: 'listMyRewardLetters', access: member, handler: async (_input, { deps, caller }) => ({ data: await myLetters(deps.db, caller) }) }),
];
