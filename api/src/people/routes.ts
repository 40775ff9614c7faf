import { can, member, secured } from '../kernel/operations.js';
import { startJob } from '../jobs/service.js';
import { socketIdOf } from '../kernel/socketId.js';
import { today } from './access.js';
import { changeCandidate, createCandidate, getCandidate, listCandidates, removeCandidate } from './candidates.js';
import { addRecord, correctRecord, currentPackage, listRecords, removeRecord } from './compensation.js';
import { createEmployee, directReports, getEmployee, listEmployees, ownEmployee, presentOwn, terminateEmployee, updateEmployee } from './employees.js';
import { changeGrant, createGrant, listGrants, presentGrants, removeGrant, vestingSchedule } from './equity.js';
import { employeeCompensationExportJob } from './exportJob.js';
import { listChanges } from './changes.js';

export const peopleOperations = [
  secured({
    operationId: 'listEmployees',
    access: can('team', 'view'),
    handler: async ({ query }, ctx) => {
      const page = await listEmployees(ctx, query);
      return { data: page.employees, page: { limit: query.limit, nextCursor: page.nextCursor } };
    },
  }),
  secured({
    operationId: 'createEmployee',
    access: can('team', 'edit'),
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createEmployee(ctx, body) }),
  }),
  secured({
    operationId: 'getMyEmployeeRecord',
    access: member,
    handler: async ({ query }, ctx) => {
      const asOf = query.asOf ?? today();
      const { scope, row } = await ownEmployee(ctx);
      return { data: { employee: await presentOwn(ctx, scope, row, asOf), equityGrants: await presentGrants(ctx, scope, row, asOf) } };
    },
  }),
  secured({
    operationId: 'startEmployeeCompensationExport',
    access: can('employeeCompensation', 'view'),
    status: 202,
    handler: async ({ body }, ctx) => {
      const input = { format: body?.format ?? 'csv', status: body?.status ?? 'active', ...(body?.asOf ? { asOf: body.asOf } : {}) };
      return { data: await startJob(ctx.deps.jobs, ctx.caller, employeeCompensationExportJob, input, socketIdOf(ctx.koa.get('x-socket-id'))) };
    },
  }),
  secured({
    operationId: 'getEmployee',
    access: can('team', 'view'),
    handler: async ({ path }, ctx) => ({ data: await getEmployee(ctx, path.employeeId) }),
  }),
  secured({
    operationId: 'updateEmployee',
    access: can('team', 'edit'),
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateEmployee(ctx, path.employeeId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'terminateEmployee',
    access: can('team', 'edit'),
    handler: async ({ path, headers, body }, ctx) => ({ data: await terminateEmployee(ctx, path.employeeId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'listDirectReports',
    access: can('team', 'view'),
    handler: async ({ path, query }, ctx) => ({ data: await directReports(ctx, path.employeeId, query.status) }),
  }),
  secured({
    operationId: 'listEmployeeChanges',
    access: can('team', 'view'),
    handler: async ({ path, query }, ctx) => ({
      data: await listChanges(ctx, path.employeeId, { ...(query.entity ? { entity: query.entity } : {}), ...(query.limit ? { limit: query.limit } : {}) }),
    }),
  }),
  secured({
    operationId: 'listCompensationRecords',
    access: can('employeeCompensation', 'view'),
    handler: async ({ path, query }, ctx) => ({ data: await listRecords(ctx, path.employeeId, query.type) }),
  }),
  secured({
    operationId: 'addCompensationRecord',
    access: can('employeeCompensation', 'edit'),
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await addRecord(ctx, path.employeeId, body) }),
  }),
  secured({
    operationId: 'getCurrentCompensation',
    access: can('employeeCompensation', 'view'),
    handler: async ({ path, query }, ctx) => ({ data: await currentPackage(ctx, path.employeeId, query.asOf) }),
  }),
  secured({
    operationId: 'correctCompensationRecord',
    access: can('employeeCompensation', 'edit'),
    handler: async ({ path, headers, body }, ctx) => ({
      data: await correctRecord(ctx, { employeeId: path.employeeId, recordId: path.recordId, ifMatch: headers['If-Match'], input: body }),
    }),
  }),
  secured({
    operationId: 'deleteCompensationRecord',
    access: can('employeeCompensation', 'edit'),
    handler: async ({ path }, ctx) => ({ data: await removeRecord(ctx, path.employeeId, path.recordId) }),
  }),
  secured({
    operationId: 'listEquityGrants',
    access: can('employeeCompensation', 'view'),
    handler: async ({ path, query }, ctx) => ({ data: await listGrants(ctx, path.employeeId, query.asOf) }),
  }),
  secured({
    operationId: 'createEquityGrant',
    access: can('employeeCompensation', 'edit'),
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await createGrant(ctx, path.employeeId, body) }),
  }),
  secured({
    operationId: 'updateEquityGrant',
    access: can('employeeCompensation', 'edit'),
    handler: async ({ path, headers, body }, ctx) => ({
      data: await changeGrant(ctx, { employeeId: path.employeeId, grantId: path.grantId, ifMatch: headers['If-Match'], input: body }),
    }),
  }),
  secured({
    operationId: 'deleteEquityGrant',
    access: can('employeeCompensation', 'edit'),
    handler: async ({ path }, ctx) => ({ data: await removeGrant(ctx, path.employeeId, path.grantId) }),
  }),
  secured({
    operationId: 'getEquityVestingSchedule',
    access: can('employeeCompensation', 'view'),
    handler: async ({ path, query }, ctx) => ({ data: await vestingSchedule(ctx, path.employeeId, path.grantId, query.asOf) }),
  }),
  secured({
    operationId: 'listCandidates',
    access: can('offers', 'view'),
    handler: async ({ query }, ctx) => {
      const limit = query.limit ?? 50;
      const page = await listCandidates(ctx, { ...query, limit });
      return { data: page.candidates, page: { limit: query.limit, nextCursor: page.nextCursor } };
    },
  }),
  secured({
    operationId: 'createCandidate',
    access: can('offers', 'edit'),
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createCandidate(ctx, body) }),
  }),
  secured({
    operationId: 'getCandidate',
    access: can('offers', 'view'),
    handler: async ({ path }, ctx) => ({ data: await getCandidate(ctx, path.candidateId) }),
  }),
  secured({
    operationId: 'updateCandidate',
    access: can('offers', 'edit'),
    handler: async ({ path, headers, body }, ctx) => ({ data: await changeCandidate(ctx, path.candidateId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteCandidate',
    access: can('offers', 'edit'),
    handler: async ({ path }, ctx) => ({ data: await removeCandidate(ctx, path.candidateId) }),
  }),
];
