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
    handler: async ({ query }, { deps, caller }) => {
      const page = await listEmployees(deps.db, caller, query);
      return { data: page.employees, page: { limit: query.limit, nextCursor: page.nextCursor } };
    },
  }),
  secured({
    operationId: 'createEmployee',
    access: can('team', 'edit'),
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createEmployee(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'getMyEmployeeRecord',
    access: member,
    handler: async ({ query }, { deps, caller }) => {
      const asOf = query.asOf ?? today();
      const { scope, row } = await ownEmployee(deps.db, caller);
      return { data: { employee: await presentOwn(deps.db, caller, scope, row, asOf), equityGrants: await presentGrants(deps.db, scope, row, asOf) } };
    },
  }),
  secured({
    operationId: 'startEmployeeCompensationExport',
    access: can('employeeCompensation', 'view'),
    status: 202,
    handler: async ({ body }, { deps, caller, koa }) => {
      const input = { format: body?.format ?? 'csv', status: body?.status ?? 'active', ...(body?.asOf ? { asOf: body.asOf } : {}) };
      return { data: await startJob(deps.jobs, caller, employeeCompensationExportJob, input, socketIdOf(koa.get('x-socket-id'))) };
    },
  }),
  secured({
    operationId: 'getEmployee',
    access: can('team', 'view'),
    handler: async ({ path }, { deps, caller }) => ({ data: await getEmployee(deps.db, caller, path.employeeId) }),
  }),
  secured({
    operationId: 'updateEmployee',
    access: can('team', 'edit'),
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateEmployee(deps.db, caller, path.employeeId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'terminateEmployee',
    access: can('team', 'edit'),
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await terminateEmployee(deps.db, caller, path.employeeId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'listDirectReports',
    access: can('team', 'view'),
    handler: async ({ path, query }, { deps, caller }) => ({ data: await directReports(deps.db, caller, path.employeeId, query.status) }),
  }),
  secured({
    operationId: 'listEmployeeChanges',
    access: can('team', 'view'),
    handler: async ({ path, query }, { deps, caller }) => ({
      data: await listChanges(deps.db, caller, path.employeeId, { ...(query.entity ? { entity: query.entity } : {}), ...(query.limit ? { limit: query.limit } : {}) }),
    }),
  }),
  secured({
    operationId: 'listCompensationRecords',
    access: can('employeeCompensation', 'view'),
    handler: async ({ path, query }, { deps, caller }) => ({ data: await listRecords(deps.db, caller, path.employeeId, query.type) }),
  }),
  secured({
    operationId: 'addCompensationRecord',
    access: can('employeeCompensation', 'edit'),
    status: 201,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await addRecord(deps.db, caller, path.employeeId, body) }),
  }),
  secured({
    operationId: 'getCurrentCompensation',
    access: can('employeeCompensation', 'view'),
    handler: async ({ path, query }, { deps, caller }) => ({ data: await currentPackage(deps.db, caller, path.employeeId, query.asOf) }),
  }),
  secured({
    operationId: 'correctCompensationRecord',
    access: can('employeeCompensation', 'edit'),
    handler: async ({ path, headers, body }, { deps, caller }) => ({
      data: await correctRecord(deps.db, caller, { employeeId: path.employeeId, recordId: path.recordId, ifMatch: headers['If-Match'], input: body }),
    }),
  }),
  secured({
    operationId: 'deleteCompensationRecord',
    access: can('employeeCompensation', 'edit'),
    handler: async ({ path }, { deps, caller }) => ({ data: await removeRecord(deps.db, caller, path.employeeId, path.recordId) }),
  }),
  secured({
    operationId: 'listEquityGrants',
    access: can('employeeCompensation', 'view'),
    handler: async ({ path, query }, { deps, caller }) => ({ data: await listGrants(deps.db, caller, path.employeeId, query.asOf) }),
  }),
  secured({
    operationId: 'createEquityGrant',
    access: can('employeeCompensation', 'edit'),
    status: 201,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await createGrant(deps.db, caller, path.employeeId, body) }),
  }),
  secured({
    operationId: 'updateEquityGrant',
    access: can('employeeCompensation', 'edit'),
    handler: async ({ path, headers, body }, { deps, caller }) => ({
      data: await changeGrant(deps.db, caller, { employeeId: path.employeeId, grantId: path.grantId, ifMatch: headers['If-Match'], input: body }),
    }),
  }),
  secured({
    operationId: 'deleteEquityGrant',
    access: can('employeeCompensation', 'edit'),
    handler: async ({ path }, { deps, caller }) => ({ data: await removeGrant(deps.db, caller, path.employeeId, path.grantId) }),
  }),
  secured({
    operationId: 'getEquityVestingSchedule',
    access: can('employeeCompensation', 'view'),
    handler: async ({ path, query }, { deps, caller }) => ({ data: await vestingSchedule(deps.db, caller, path.employeeId, path.grantId, query.asOf) }),
  }),
  secured({
    operationId: 'listCandidates',
    access: can('offers', 'view'),
    handler: async ({ query }, { deps, caller }) => {
      const limit = query.limit ?? 50;
      const page = await listCandidates(deps.db, caller, { ...query, limit });
      return { data: page.candidates, page: { limit: query.limit, nextCursor: page.nextCursor } };
    },
  }),
  secured({
    operationId: 'createCandidate',
    access: can('offers', 'edit'),
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createCandidate(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'getCandidate',
    access: can('offers', 'view'),
    handler: async ({ path }, { deps, caller }) => ({ data: await getCandidate(deps.db, caller, path.candidateId) }),
  }),
  secured({
    operationId: 'updateCandidate',
    access: can('offers', 'edit'),
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await changeCandidate(deps.db, caller, path.candidateId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteCandidate',
    access: can('offers', 'edit'),
    handler: async ({ path }, { deps, caller }) => ({ data: await removeCandidate(deps.db, caller, path.candidateId) }),
  }),
];
