import { can, secured } from '../kernel/operations.js';
import { compaRatioReport, payDistribution, payEquity, playground } from './analytics.js';
import { compTimeline, employee, equityDetailsChart, keptTable, overview, table } from './service.js';
import { teamViewSettings, updateCompanySettings, updateMySettings } from './settings.js';
import { startingSoon } from './startingSoon.js';

const viewTeam = can('team', 'view');
const viewPay = can('employeeCompensation', 'view');

export const teamOperations = [
  secured({
    operationId: 'listStartingSoon',
    access: viewTeam,
    handler: async (_input, { deps, caller }) => ({ data: await startingSoon(deps, caller) }),
  }),
  secured({
    operationId: 'getTeamOverview',
    access: viewTeam,
    handler: async ({ query }, { deps, caller }) => ({ data: await overview(deps, caller, query.status) }),
  }),
  secured({
    operationId: 'getTeamEmployeeTable',
    access: viewTeam,
    handler: async ({ query }, { deps, caller }) => table(deps, caller, query),
    kept: async ({ query }, { deps, caller }) => keptTable(deps, caller, query),
  }),
  secured({
    operationId: 'getTeamEmployee',
    access: viewTeam,
    handler: async ({ path }, { deps, caller }) => ({ data: await employee(deps, caller, path.employeeId) }),
  }),
  secured({
    operationId: 'getTeamEquityDetailsChart',
    access: viewPay,
    handler: async ({ path }, { deps, caller }) => ({ data: await equityDetailsChart(deps, caller, path.employeeId) }),
  }),
  secured({
    operationId: 'getTeamCompTimeline',
    access: viewPay,
    handler: async ({ path }, { deps, caller }) => ({ data: await compTimeline(deps, caller, path.employeeId) }),
  }),
  secured({
    operationId: 'getTeamViewSettings',
    access: viewTeam,
    handler: async (_input, { deps, caller }) => ({ data: await teamViewSettings(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateCompanyTeamViewSettings',
    access: can('team', 'edit'),
    handler: async ({ body, headers }, { deps, caller }) => ({ data: await updateCompanySettings(deps.db, caller, headers['If-Match'], body) }),
    etag: ({ data }) => data.company.version,
  }),
  secured({
    operationId: 'updateMyTeamViewSettings',
    access: viewTeam,
    handler: async ({ body, headers }, { deps, caller }) => ({ data: await updateMySettings(deps.db, caller, headers['If-Match'], body) }),
    etag: ({ data }) => data.personal.version,
  }),
  secured({
    operationId: 'getTeamCompaRatio',
    access: viewPay,
    handler: async ({ query }, { deps, caller }) => ({ data: await compaRatioReport(deps, caller, query.status) }),
  }),
  secured({
    operationId: 'getTeamPayDistribution',
    access: viewPay,
    handler: async ({ query }, { deps, caller }) => ({ data: await payDistribution(deps, caller, query.measure, query.status) }),
  }),
  secured({
    operationId: 'getTeamPayEquity',
    access: can('demographics', 'view'),
    handler: async ({ query }, { deps, caller }) => ({ data: await payEquity(deps, caller, query.attribute, query.measure) }),
  }),
  secured({
    operationId: 'getTeamPlayground',
    access: viewTeam,
    handler: async ({ query }, { deps, caller }) => ({
      data: await playground(deps, caller, { groupBy: query.groupBy, metric: query.metric, status: query.status }),
    }),
  }),
];
