import { type Caller, companyScope } from '../access/caller.js';
import { can, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import { bottomUpBudget, budgetAllocations, topDownBudget, updateBudgetAllocations } from './budgetViews.js';
import { changeReviewers, listApprovalChains, replaceApprovalChains } from './chains.js';
import { COLUMNS, DEFAULT_COLUMN_MODES, columnModesFor } from './config.js';
import {
  createMeritCycle,
  cycleHistory,
  getMeritCycle,
  listMeritCycles,
  requireCycle,
  transitionMeritCycle,
  updateBudgetConfiguration,
  updateColumns,
  updateEligibilityRules,
  updatePerformance,
  updatePlanningWindows,
  updateRecommendation,
  updateSettings,
} from './cycles.js';
import { windowState } from './context.js';
import { dashboardBudgets, dashboardProgress } from './dashboard.js';
import { listEligibility, previewEligibility, setExclusion } from './eligibility.js';
import { startPayrollExport } from './exportJob.js';
import { configOf } from './present.js';
import { addComment, commentsOfEmployee, commentsOfWorksheet, editCycleEmployee, employeeHistory, employeePeers, getCycleEmployee, listCycleEmployees } from './rows.js';
import { getWorksheet, keptWorksheet, listCycleWorksheets, moveWorksheet, moveWorksheets, pullUpWorksheet, worksheetHistory } from './worksheets.js';
import type { Knex } from 'knex';

const view = can('compensationPlanning', 'view');
const edit = can('compensationPlanning', 'edit');

async function columnsOf(db: Knex, caller: Caller, cycleId: string) {
  const cycle = await requireCycle(db, companyScope(caller), cycleId);
  const config = configOf(cycle).columns;
  return { config, defaults: { ...DEFAULT_COLUMN_MODES }, caller: columnModesFor(config, caller.roles.map((role) => role.key)) };
}

async function planningWindows(db: Knex, caller: Caller, cycleId: string) {
  const cycle = await requireCycle(db, companyScope(caller), cycleId);
  const context = { cycle, config: configOf(cycle) };
  return [windowState(context, 'planning'), windowState(context, 'review')];
}

export const meritCycleOperations = [
  secured({ operationId: 'listMeritCycles', access: view, handler: async (_input, { deps, caller }) => ({ data: await listMeritCycles(deps.db, caller) }) }),
  secured({ operationId: 'createMeritCycle', access: edit, status: 201, handler: async ({ body }, { deps, caller }) => ({ data: await createMeritCycle(deps.db, caller, body) }) }),
  secured({ operationId: 'getMeritCycle', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await getMeritCycle(deps.db, caller, path.meritCycleId) }) }),
  secured({
    operationId: 'updateMeritCycleSettings',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateSettings(deps.db, caller, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'updateMeritCyclePerformanceConfig',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updatePerformance(deps.db, caller, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'updateMeritCycleRecommendationLogic',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateRecommendation(deps.db, caller, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'updateMeritCycleEligibilityRules',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateEligibilityRules(deps.db, caller, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'updateMeritCycleBudgetConfiguration',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateBudgetConfiguration(deps.db, caller, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({ operationId: 'getMeritCycleColumns', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await columnsOf(deps.db, caller, path.meritCycleId) }) }),
  secured({
    operationId: 'updateMeritCycleColumns',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateColumns(deps.db, caller, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({ operationId: 'getMeritCyclePlanningWindows', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await planningWindows(deps.db, caller, path.meritCycleId) }) }),
  secured({
    operationId: 'updateMeritCyclePlanningWindows',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updatePlanningWindows(deps.db, deps.jobs, caller, { id: path.meritCycleId, ifMatch: headers['If-Match'], windows: body.windows, closingNoticeHours: body.closingNoticeHours }) }),
  }),
  secured({
    operationId: 'transitionMeritCycle',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await transitionMeritCycle(deps.db, deps.jobs, caller, { id: path.meritCycleId, ifMatch: headers['If-Match'], action: body.action, comment: body.comment }) }),
  }),
  secured({ operationId: 'getMeritCycleHistory', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await cycleHistory(deps.db, caller, path.meritCycleId) }) }),
  secured({ operationId: 'listMeritCycleEligibility', access: view, handler: async ({ path, query }, { deps, caller }) => ({ data: await listEligibility(deps.db, caller, path.meritCycleId, query.status) }) }),
  secured({
    operationId: 'previewMeritCycleEligibility',
    access: edit,
    handler: async ({ path, query, body }, { deps, caller }) => ({ data: await previewEligibility(deps.db, caller, path.meritCycleId, body, query.limit) }),
  }),
  secured({
    operationId: 'setMeritCycleExclusion',
    access: edit,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await setExclusion(deps.db, caller, { cycleId: path.meritCycleId, employeeId: path.employeeId, excluded: body.excluded, reason: body.reason }) }),
  }),
  secured({
    operationId: 'listMeritCycleEmployees',
    access: view,
    handler: async ({ path, query }, { deps, caller }) => ({ data: await listCycleEmployees(deps.db, caller, path.meritCycleId, query.worksheetId, query.mode) }),
  }),
  secured({ operationId: 'getMeritCycleEmployee', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await getCycleEmployee(deps.db, caller, path.meritCycleId, path.employeeId) }) }),
  secured({
    operationId: 'updateMeritCycleEmployee',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller, koa, afterCommit }) => ({
      data: await editCycleEmployee({ db: deps.db, realtime: deps.realtime, afterCommit }, caller, {
        cycleId: path.meritCycleId,
        employeeId: path.employeeId,
        ifMatch: headers['If-Match'],
        edit: body,
        socketId: socketIdOf(koa.get('x-socket-id')),
      }),
    }),
    etag: ({ data }) => data.employee.version,
  }),
  secured({ operationId: 'getMeritCycleEmployeeHistory', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await employeeHistory(deps.db, caller, path.meritCycleId, path.employeeId) }) }),
  secured({ operationId: 'getMeritCycleEmployeePeers', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await employeePeers(deps.db, caller, path.meritCycleId, path.employeeId) }) }),
  secured({ operationId: 'listMeritCycleEmployeeComments', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await commentsOfEmployee(deps.db, caller, path.meritCycleId, path.employeeId) }) }),
  secured({
    operationId: 'addMeritCycleEmployeeComment',
    access: view,
    status: 201,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await addComment(deps.db, caller, path.meritCycleId, { employeeId: path.employeeId }, body.body) }),
  }),
  secured({ operationId: 'listWorksheets', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await listCycleWorksheets(deps.db, caller, path.meritCycleId) }) }),
  secured({
    operationId: 'getWorksheet',
    access: view,
    handler: async ({ path, query }, { deps, caller }) => ({ data: await getWorksheet(deps.db, caller, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, mode: query.mode, dataVersion: deps.dataVersion }) }),
    kept: async ({ path, query }, { deps, caller }) => {
      const detail = await keptWorksheet(caller, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, mode: query.mode, dataVersion: deps.dataVersion });
      return detail && { data: detail };
    },
    etag: ({ data }) => data.worksheet.version,
  }),
  secured({
    operationId: 'pullUpWorksheet',
    access: edit,
    handler: async ({ path, headers }, { deps, caller }) => ({ data: await pullUpWorksheet(deps.db, caller, path.meritCycleId, path.worksheetId, headers['If-Match']) }),
  }),
  secured({
    operationId: 'submitWorksheet',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await moveWorksheet(deps.db, caller, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, ifMatch: headers['If-Match'], move: 'submit', comment: body?.comment }) }),
  }),
  secured({
    operationId: 'approveWorksheet',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await moveWorksheet(deps.db, caller, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, ifMatch: headers['If-Match'], move: 'approve', comment: body?.comment }) }),
  }),
  secured({
    operationId: 'sendBackWorksheet',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await moveWorksheet(deps.db, caller, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, ifMatch: headers['If-Match'], move: 'sendBack', comment: body.comment }) }),
  }),
  secured({
    operationId: 'reopenWorksheet',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await moveWorksheet(deps.db, caller, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, ifMatch: headers['If-Match'], move: 'reopen', comment: body.comment }) }),
  }),
  secured({
    operationId: 'moveWorksheets',
    access: edit,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await moveWorksheets(deps.db, caller, path.meritCycleId, body) }),
  }),
  secured({ operationId: 'getWorksheetHistory', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await worksheetHistory(deps.db, caller, path.meritCycleId, path.worksheetId) }) }),
  secured({ operationId: 'listWorksheetComments', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await commentsOfWorksheet(deps.db, caller, path.meritCycleId, path.worksheetId) }) }),
  secured({
    operationId: 'addWorksheetComment',
    access: view,
    status: 201,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await addComment(deps.db, caller, path.meritCycleId, { worksheetId: path.worksheetId }, body.body) }),
  }),
  secured({ operationId: 'getMeritCycleTopDownBudget', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await topDownBudget(deps.db, caller, path.meritCycleId) }), etag: ({ data }) => data.version }),
  secured({ operationId: 'getMeritCycleBottomsUpBudget', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await bottomUpBudget(deps.db, caller, path.meritCycleId) }), etag: ({ data }) => data.version }),
  secured({ operationId: 'getMeritCycleBudgetAllocations', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await budgetAllocations(deps.db, caller, path.meritCycleId) }), etag: ({ data }) => data.version }),
  secured({
    operationId: 'updateMeritCycleBudgetAllocations',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateBudgetAllocations(deps.db, caller, path.meritCycleId, headers['If-Match'], body.allocations) }),
    etag: ({ data }) => data.version,
  }),
  secured({ operationId: 'getMeritCycleBudgets', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await dashboardBudgets(deps.db, caller, path.meritCycleId) }) }),
  secured({ operationId: 'getMeritCycleProgress', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await dashboardProgress(deps.db, caller, path.meritCycleId) }) }),
  secured({ operationId: 'listApprovalChains', access: view, handler: async ({ path }, { deps, caller }) => ({ data: await listApprovalChains(deps.db, caller, path.meritCycleId) }) }),
  secured({
    operationId: 'replaceApprovalChains',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await replaceApprovalChains(deps.db, caller, path.meritCycleId, headers['If-Match'], body.chains) }),
  }),
  secured({
    operationId: 'changeApprovalChainReviewers',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await changeReviewers(deps.db, caller, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'startMeritCyclePayrollExport',
    access: view,
    status: 202,
    handler: async ({ path }, { deps, caller, koa }) => ({ data: await startPayrollExport(deps.db, deps.jobs, caller, path.meritCycleId, socketIdOf(koa.get('x-socket-id'))) }),
  }),
];

/** Every column, for documentation and tests. */
export { COLUMNS };
