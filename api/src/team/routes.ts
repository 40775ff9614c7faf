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
    handler: async (_input, ctx) => ({ data: await startingSoon(ctx) }),
  }),
  secured({
    operationId: 'getTeamOverview',
    access: viewTeam,
    handler: async ({ query }, ctx) => ({ data: await overview(ctx, query.status) }),
  }),
  secured({
    operationId: 'getTeamEmployeeTable',
    access: viewTeam,
    handler: async ({ query }, ctx) => table(ctx, query),
    kept: async ({ query }, ctx) => keptTable(ctx, query),
  }),
  secured({
    operationId: 'getTeamEmployee',
    access: viewTeam,
    handler: async ({ path }, ctx) => ({ data: await employee(ctx, path.employeeId) }),
  }),
  secured({
    operationId: 'getTeamEquityDetailsChart',
    access: viewPay,
    handler: async ({ path }, ctx) => ({ data: await equityDetailsChart(ctx, path.employeeId) }),
  }),
  secured({
    operationId: 'getTeamCompTimeline',
    access: viewPay,
    handler: async ({ path }, ctx) => ({ data: await compTimeline(ctx, path.employeeId) }),
  }),
  secured({
    operationId: 'getTeamViewSettings',
    access: viewTeam,
    handler: async (_input, ctx) => ({ data: await teamViewSettings(ctx) }),
  }),
  secured({
    operationId: 'updateCompanyTeamViewSettings',
    access: can('team', 'edit'),
    handler: async ({ body, headers }, ctx) => ({ data: await updateCompanySettings(ctx, headers['If-Match'], body) }),
    etag: ({ data }) => data.company.version,
  }),
  secured({
    operationId: 'updateMyTeamViewSettings',
    access: viewTeam,
    handler: async ({ body, headers }, ctx) => ({ data: await updateMySettings(ctx, headers['If-Match'], body) }),
    etag: ({ data }) => data.personal.version,
  }),
  secured({
    operationId: 'getTeamCompaRatio',
    access: viewPay,
    handler: async ({ query }, ctx) => ({ data: await compaRatioReport(ctx, query.status) }),
  }),
  secured({
    operationId: 'getTeamPayDistribution',
    access: viewPay,
    handler: async ({ query }, ctx) => ({ data: await payDistribution(ctx, query.measure, query.status) }),
  }),
  secured({
    operationId: 'getTeamPayEquity',
    access: can('demographics', 'view'),
    handler: async ({ query }, ctx) => ({ data: await payEquity(ctx, query.attribute, query.measure) }),
  }),
  secured({
    operationId: 'getTeamPlayground',
    access: viewTeam,
    handler: async ({ query }, ctx) => ({
      data: await playground(ctx, { groupBy: query.groupBy, metric: query.metric, status: query.status }),
    }),
  }),
];
