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
    handler: async ({ query }, { deps, caller }) => ({ data: await myStatement(deps.db, caller, query.asOf) }),
  }),
  secured({
    operationId: 'getMyTotalRewardsStatementPdf',
    access: viewStatements,
    handler: async ({ query }, { deps, caller }) => myStatementPdf(deps.db, caller, query.asOf, query.currency),
  }),
  secured({
    operationId: 'getTotalRewardsStatement',
    access: viewStatements,
    handler: async ({ path, query }, { deps, caller }) => ({ data: await employeeStatement(deps.db, caller, path.employeeId, query.asOf) }),
  }),
  secured({
    operationId: 'getTotalRewardsStatementPdf',
    access: viewStatements,
    handler: async ({ path, query }, { deps, caller }) => employeeStatementPdf(deps.db, caller, path.employeeId, query.asOf, query.currency),
  }),
  secured({
    operationId: 'previewTotalRewardsStatement',
    access: editSettings,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await previewStatement(deps.db, caller, path.employeeId, body) }),
  }),
  secured({
    operationId: 'listTotalRewardsPreviewEmployees',
    access: viewStatements,
    handler: async ({ query }, { deps, caller }) => ({ data: await previewEmployeeList(deps.db, caller, query.search, query.limit) }),
  }),
  secured({
    operationId: 'listMyIssuedStatements',
    access: viewStatements,
    handler: async (_input, { deps, caller }) => ({ data: await myIssuedStatements(deps.db, caller) }),
  }),
  secured({
    operationId: 'issueTotalRewardsStatements',
    access: editSettings,
    status: 202,
    handler: async ({ body }, { deps, caller, koa }) => ({ data: await issueStatements(deps.db, deps.jobs, caller, body, socketIdOf(koa.get('x-socket-id'))) }),
  }),
  secured({
    operationId: 'listIssuedTotalRewardsStatements',
    access: viewStatements,
    handler: async ({ query }, { deps, caller }) => issuedStatementRecords(deps.db, caller, query),
  }),
  secured({
    operationId: 'getMyIssuedStatementPdf',
    access: viewStatements,
    handler: async ({ path }, { deps, caller }) => myIssuedStatementPdf(deps.db, caller, path.issuedStatementId),
  }),
  secured({
    operationId: 'getIssuedStatementPdf',
    access: viewStatements,
    handler: async ({ path }, { deps, caller }) => issuedStatementPdf(deps.db, caller, path.issuedStatementId),
  }),
  secured({
    operationId: 'getCommunicateSettings',
    access: viewStatements,
    handler: async (_input, { deps, caller }) => ({ data: await communicateSettings(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateCommunicateSettings',
    access: editSettings,
    handler: async ({ headers, body }, { deps, caller }) => ({ data: await updateCommunicateSettings(deps.db, caller, headers['If-Match'], body) }),
  }),
];
