import { can, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import { issueStatements, issuedStatementPdf, issuedStatementRecords, myIssuedStatementPdf, myIssuedStatements } from './issued.js';
import { communicateSettings, updateCommunicateSettings } from './settings.js';
import { employeeStatement, employeeStatementPdf, myStatement, myStatementPdf, previewEmployeeList, previewStatement } from './service.js';

const viewStatements = can('totalRewards', 'view');
const editSettings = can('totalRewards', 'edit');

export const totalRewardsOperations = [
  secured({
    operationId: 'getMyTotalRewardsStatement',
    access: viewStatements,
    handler: async ({ query }, ctx) => ({ data: await myStatement(ctx, query.asOf) }),
  }),
  secured({
    operationId: 'getMyTotalRewardsStatementPdf',
    access: viewStatements,
    handler: async ({ query }, ctx) => myStatementPdf(ctx, query.asOf, query.currency),
  }),
  secured({
    operationId: 'getTotalRewardsStatement',
    access: viewStatements,
    handler: async ({ path, query }, ctx) => ({ data: await employeeStatement(ctx, path.employeeId, query.asOf) }),
  }),
  secured({
    operationId: 'getTotalRewardsStatementPdf',
    access: viewStatements,
    handler: async ({ path, query }, ctx) => employeeStatementPdf(ctx, path.employeeId, query.asOf, query.currency),
  }),
  secured({
    operationId: 'previewTotalRewardsStatement',
    access: editSettings,
    handler: async ({ path, body }, ctx) => ({ data: await previewStatement(ctx, path.employeeId, body) }),
  }),
  secured({
    operationId: 'listTotalRewardsPreviewEmployees',
    access: viewStatements,
    handler: async ({ query }, ctx) => ({ data: await previewEmployeeList(ctx, query.search, query.limit) }),
  }),
  secured({
    operationId: 'listMyIssuedStatements',
    access: viewStatements,
    handler: async (_input, ctx) => ({ data: await myIssuedStatements(ctx) }),
  }),
  secured({
    operationId: 'issueTotalRewardsStatements',
    access: editSettings,
    status: 202,
    handler: async ({ body }, ctx) => ({ data: await issueStatements(ctx, ctx.deps.jobs, ctx.caller, body, socketIdOf(ctx.koa.get('x-socket-id'))) }),
  }),
  secured({
    operationId: 'listIssuedTotalRewardsStatements',
    access: viewStatements,
    handler: async ({ query }, ctx) => issuedStatementRecords(ctx, query),
  }),
  secured({
    operationId: 'getMyIssuedStatementPdf',
    access: viewStatements,
    handler: async ({ path }, ctx) => myIssuedStatementPdf(ctx, path.issuedStatementId),
  }),
  secured({
    operationId: 'getIssuedStatementPdf',
    access: viewStatements,
    handler: async ({ path }, ctx) => issuedStatementPdf(ctx, path.issuedStatementId),
  }),
  secured({
    operationId: 'getCommunicateSettings',
    access: viewStatements,
    handler: async (_input, ctx) => ({ data: await communicateSettings(ctx) }),
  }),
  secured({
    operationId: 'updateCommunicateSettings',
    access: editSettings,
    handler: async ({ headers, body }, ctx) => ({ data: await updateCommunicateSettings(ctx, headers['If-Match'], body) }),
  }),
];
