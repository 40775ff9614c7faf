import { companyScope } from '../access/caller.js';
import { can, secured, type ServiceContext } from '../kernel/operations.js';
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

const view = can('compensationPlanning', 'view');
const edit = can('compensationPlanning', 'edit');

async function columnsOf(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string) {
  const { db, caller } = ctx;
  const cycle = await requireCycle(db, companyScope(caller), cycleId);
  const config = configOf(cycle).columns;
  return { config, defaults: { ...DEFAULT_COLUMN_MODES }, caller: columnModesFor(config, caller.roles.map((role) => role.key)) };
}

async function planningWindows(ctx: Pick<ServiceContext, 'db' | 'caller'>, cycleId: string) {
  const { db, caller } = ctx;
  const cycle = await requireCycle(db, companyScope(caller), cycleId);
  const context = { cycle, config: configOf(cycle) };
  return [windowState(context, 'planning'), windowState(context, 'review')];
}

export const meritCycleOperations = [
  secured({ operationId: 'listMeritCycles', access: view, handler: async (_input, ctx) => ({ data: await listMeritCycles(ctx) }) }),
  secured({ operationId: 'createMeritCycle', access: edit, status: 201, handler: async ({ body }, ctx) => ({ data: await createMeritCycle(ctx, body) }) }),
  secured({ operationId: 'getMeritCycle', access: view, handler: async ({ path }, ctx) => ({ data: await getMeritCycle(ctx, path.meritCycleId) }) }),
  secured({
    operationId: 'updateMeritCycleSettings',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateSettings(ctx, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'updateMeritCyclePerformanceConfig',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updatePerformance(ctx, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'updateMeritCycleRecommendationLogic',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateRecommendation(ctx, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'updateMeritCycleEligibilityRules',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateEligibilityRules(ctx, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'updateMeritCycleBudgetConfiguration',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateBudgetConfiguration(ctx, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({ operationId: 'getMeritCycleColumns', access: view, handler: async ({ path }, ctx) => ({ data: await columnsOf(ctx, path.meritCycleId) }) }),
  secured({
    operationId: 'updateMeritCycleColumns',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateColumns(ctx, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({ operationId: 'getMeritCyclePlanningWindows', access: view, handler: async ({ path }, ctx) => ({ data: await planningWindows(ctx, path.meritCycleId) }) }),
  secured({
    operationId: 'updateMeritCyclePlanningWindows',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updatePlanningWindows(ctx, ctx.deps.jobs, ctx.caller, { id: path.meritCycleId, ifMatch: headers['If-Match'], windows: body.windows, closingNoticeHours: body.closingNoticeHours }) }),
  }),
  secured({
    operationId: 'transitionMeritCycle',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await transitionMeritCycle(ctx, ctx.deps.jobs, ctx.caller, { id: path.meritCycleId, ifMatch: headers['If-Match'], action: body.action, comment: body.comment }) }),
  }),
  secured({ operationId: 'getMeritCycleHistory', access: view, handler: async ({ path }, ctx) => ({ data: await cycleHistory(ctx, path.meritCycleId) }) }),
  secured({ operationId: 'listMeritCycleEligibility', access: view, handler: async ({ path, query }, ctx) => ({ data: await listEligibility(ctx, path.meritCycleId, query.status) }) }),
  secured({
    operationId: 'previewMeritCycleEligibility',
    access: edit,
    handler: async ({ path, query, body }, ctx) => ({ data: await previewEligibility(ctx, path.meritCycleId, body, query.limit) }),
  }),
  secured({
    operationId: 'setMeritCycleExclusion',
    access: edit,
    handler: async ({ path, body }, ctx) => ({ data: await setExclusion(ctx, { cycleId: path.meritCycleId, employeeId: path.employeeId, excluded: body.excluded, reason: body.reason }) }),
  }),
  secured({
    operationId: 'listMeritCycleEmployees',
    access: view,
    handler: async ({ path, query }, ctx) => ({ data: await listCycleEmployees(ctx, path.meritCycleId, query.worksheetId, query.mode) }),
  }),
  secured({ operationId: 'getMeritCycleEmployee', access: view, handler: async ({ path }, ctx) => ({ data: await getCycleEmployee(ctx, path.meritCycleId, path.employeeId) }) }),
  secured({
    operationId: 'updateMeritCycleEmployee',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({
      data: await editCycleEmployee({ db: ctx.db, realtime: ctx.deps.realtime, afterCommit: ctx.afterCommit }, ctx.caller, {
        cycleId: path.meritCycleId,
        employeeId: path.employeeId,
        ifMatch: headers['If-Match'],
        edit: body,
        socketId: socketIdOf(ctx.koa.get('x-socket-id')),
      }),
    }),
    etag: ({ data }) => data.employee.version,
  }),
  secured({ operationId: 'getMeritCycleEmployeeHistory', access: view, handler: async ({ path }, ctx) => ({ data: await employeeHistory(ctx, path.meritCycleId, path.employeeId) }) }),
  secured({ operationId: 'getMeritCycleEmployeePeers', access: view, handler: async ({ path }, ctx) => ({ data: await employeePeers(ctx, path.meritCycleId, path.employeeId) }) }),
  secured({ operationId: 'listMeritCycleEmployeeComments', access: view, handler: async ({ path }, ctx) => ({ data: await commentsOfEmployee(ctx, path.meritCycleId, path.employeeId) }) }),
  secured({
    operationId: 'addMeritCycleEmployeeComment',
    access: view,
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await addComment(ctx, path.meritCycleId, { employeeId: path.employeeId }, body.body) }),
  }),
  secured({ operationId: 'listWorksheets', access: view, handler: async ({ path }, ctx) => ({ data: await listCycleWorksheets(ctx, path.meritCycleId) }) }),
  secured({
    operationId: 'getWorksheet',
    access: view,
    handler: async ({ path, query }, ctx) => ({ data: await getWorksheet(ctx, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, mode: query.mode, dataVersion: ctx.deps.dataVersion }) }),
    kept: async ({ path, query }, ctx) => {
      const detail = await keptWorksheet(ctx.caller, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, mode: query.mode, dataVersion: ctx.deps.dataVersion });
      return detail && { data: detail };
    },
    etag: ({ data }) => data.worksheet.version,
  }),
  secured({
    operationId: 'pullUpWorksheet',
    access: edit,
    handler: async ({ path, headers }, ctx) => ({ data: await pullUpWorksheet(ctx, path.meritCycleId, path.worksheetId, headers['If-Match']) }),
  }),
  secured({
    operationId: 'submitWorksheet',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await moveWorksheet(ctx, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, ifMatch: headers['If-Match'], move: 'submit', comment: body?.comment }) }),
  }),
  secured({
    operationId: 'approveWorksheet',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await moveWorksheet(ctx, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, ifMatch: headers['If-Match'], move: 'approve', comment: body?.comment }) }),
  }),
  secured({
    operationId: 'sendBackWorksheet',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await moveWorksheet(ctx, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, ifMatch: headers['If-Match'], move: 'sendBack', comment: body.comment }) }),
  }),
  secured({
    operationId: 'reopenWorksheet',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await moveWorksheet(ctx, { cycleId: path.meritCycleId, worksheetId: path.worksheetId, ifMatch: headers['If-Match'], move: 'reopen', comment: body.comment }) }),
  }),
  secured({
    operationId: 'moveWorksheets',
    access: edit,
    handler: async ({ path, body }, ctx) => ({ data: await moveWorksheets(ctx, path.meritCycleId, body) }),
  }),
  secured({ operationId: 'getWorksheetHistory', access: view, handler: async ({ path }, ctx) => ({ data: await worksheetHistory(ctx, path.meritCycleId, path.worksheetId) }) }),
  secured({ operationId: 'listWorksheetComments', access: view, handler: async ({ path }, ctx) => ({ data: await commentsOfWorksheet(ctx, path.meritCycleId, path.worksheetId) }) }),
  secured({
    operationId: 'addWorksheetComment',
    access: view,
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await addComment(ctx, path.meritCycleId, { worksheetId: path.worksheetId }, body.body) }),
  }),
  secured({ operationId: 'getMeritCycleTopDownBudget', access: view, handler: async ({ path }, ctx) => ({ data: await topDownBudget(ctx, path.meritCycleId) }), etag: ({ data }) => data.version }),
  secured({ operationId: 'getMeritCycleBottomsUpBudget', access: view, handler: async ({ path }, ctx) => ({ data: await bottomUpBudget(ctx, path.meritCycleId) }), etag: ({ data }) => data.version }),
  secured({ operationId: 'getMeritCycleBudgetAllocations', access: view, handler: async ({ path }, ctx) => ({ data: await budgetAllocations(ctx, path.meritCycleId) }), etag: ({ data }) => data.version }),
  secured({
    operationId: 'updateMeritCycleBudgetAllocations',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateBudgetAllocations(ctx, path.meritCycleId, headers['If-Match'], body.allocations) }),
    etag: ({ data }) => data.version,
  }),
  secured({ operationId: 'getMeritCycleBudgets', access: view, handler: async ({ path }, ctx) => ({ data: await dashboardBudgets(ctx, path.meritCycleId) }) }),
  secured({ operationId: 'getMeritCycleProgress', access: view, handler: async ({ path }, ctx) => ({ data: await dashboardProgress(ctx, path.meritCycleId) }) }),
  secured({ operationId: 'listApprovalChains', access: view, handler: async ({ path }, ctx) => ({ data: await listApprovalChains(ctx, path.meritCycleId) }) }),
  secured({
    operationId: 'replaceApprovalChains',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await replaceApprovalChains(ctx, path.meritCycleId, headers['If-Match'], body.chains) }),
  }),
  secured({
    operationId: 'changeApprovalChainReviewers',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await changeReviewers(ctx, path.meritCycleId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'startMeritCyclePayrollExport',
    access: view,
    status: 202,
    handler: async ({ path }, ctx) => ({ data: await startPayrollExport(ctx, ctx.deps.jobs, ctx.caller, path.meritCycleId, socketIdOf(ctx.koa.get('x-socket-id'))) }),
  }),
];

/** Every column, for documentation and tests. */
export { COLUMNS };
