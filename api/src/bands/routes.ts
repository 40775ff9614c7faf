import { can, secured } from '../http/operations.js';
import { socketIdOf } from '../realtime/socketId.js';
import { buildBandSet } from './build.js';
import { evaluateBandSet } from './evaluate.js';
import { startBandSetExport } from './exportJob.js';
import { createCompanyJob, createJobsFromEmployees, deleteCompanyJob, listCompanyJobs, unmappedEmployees, updateCompanyJob } from './jobs.js';
import { bandSetHistory, createBandSet, deleteBandSet, duplicateBandSet, getBandSet, listBandSets, publishBandSet, updateBand } from './sets.js';
import { smoothBandSet } from './smooth.js';
import { createPayZone, deletePayZone, listPayZones, updatePayZone } from './zones.js';

const view = can('bands', 'view');
const edit = can('bands', 'edit');

export const bandsOperations = [
  secured({
    operationId: 'listPayZones',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await listPayZones(deps.db, caller) }),
  }),
  secured({
    operationId: 'createPayZone',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createPayZone(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'updatePayZone',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updatePayZone(deps.db, caller, path.payZoneId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deletePayZone',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deletePayZone(deps.db, caller, path.payZoneId) }),
  }),
  secured({
    operationId: 'listCompanyJobs',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await listCompanyJobs(deps.db, caller) }),
  }),
  secured({
    operationId: 'createCompanyJob',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createCompanyJob(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'createCompanyJobsFromEmployees',
    access: edit,
    handler: async (_input, { deps, caller }) => ({ data: await createJobsFromEmployees(deps.db, caller) }),
  }),
  secured({
    operationId: 'listUnmappedEmployees',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await unmappedEmployees(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateCompanyJob',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateCompanyJob(deps.db, caller, path.companyJobId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteCompanyJob',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteCompanyJob(deps.db, caller, path.companyJobId) }),
  }),
  secured({
    operationId: 'listBandSets',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await listBandSets(deps.db, caller) }),
  }),
  secured({
    operationId: 'createBandSet',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createBandSet(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'getBandSet',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await getBandSet(deps.db, caller, path.bandSetId) }),
  }),
  secured({
    operationId: 'deleteBandSet',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteBandSet(deps.db, caller, path.bandSetId) }),
  }),
  secured({
    operationId: 'duplicateBandSet',
    access: edit,
    status: 201,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await duplicateBandSet(deps.db, caller, path.bandSetId, body?.name) }),
  }),
  secured({
    operationId: 'publishBandSet',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await publishBandSet(deps.db, caller, path.bandSetId, headers['If-Match'], body?.comment) }),
  }),
  secured({
    operationId: 'getBandSetHistory',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await bandSetHistory(deps.db, caller, path.bandSetId) }),
  }),
  secured({
    operationId: 'updateBand',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateBand(deps.db, caller, path.bandSetId, path.bandId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'buildBandSet',
    access: edit,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await buildBandSet(deps, caller, path.bandSetId, body) }),
    etag: ({ data }) => data.bandSet.version,
  }),
  secured({
    operationId: 'smoothBandSet',
    access: edit,
    handler: async ({ path, body }, { deps, caller }) => ({
      data: await smoothBandSet(deps.db, caller, path.bandSetId, { progressionPercent: body.progressionPercent ?? 10, apply: body.apply ?? false }),
    }),
    etag: ({ data }) => data.bandSet.version,
  }),
  secured({
    operationId: 'evaluateBandSet',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await evaluateBandSet(deps.db, caller, path.bandSetId) }),
  }),
  secured({
    operationId: 'startBandSetExport',
    access: view,
    status: 202,
    handler: async ({ path, body }, { deps, caller, koa }) => ({
      data: await startBandSetExport(deps.db, deps.jobs, caller, path.bandSetId, body?.format ?? 'csv', socketIdOf(koa.get('x-socket-id'))),
    }),
  }),
];
