import { can, secured } from '../kernel/operations.js';
import { socketIdOf } from '../kernel/socketId.js';
import { createMarketAssociation, deleteMarketAssociation, listMarketAssociations, updateMarketAssociation } from './associations.js';
import { getCompositeBenchmark, listCompositeBenchmarks } from './composite.js';
import { getBandFile, getBandImport, startBandImport, startSurveyImport, startSurveyReplace, uploadBandFile } from './imports.js';
import { createSavedSurveyMapping, deleteSavedSurveyMapping, listSavedSurveyMappings, updateSavedSurveyMapping } from './surveyMappings.js';
import { getBandSettings, updateBandSettings } from './settings.js';
import { surveyFields } from './surveyFields.js';
import { addBlsSurvey, deleteSurvey, getSurvey, listSurveys, updateSurvey } from './surveys.js';
import { buildBandSet } from './build.js';
import { evaluateBandSet } from './evaluate.js';
import { startBandSetExport } from './exportJob.js';
import { createCompanyJob, createJobsFromEmployees, deleteCompanyJob, listCompanyJobs, unmappedEmployees, updateCompanyJob } from './jobs.js';
import { decideBandSet, getBandSetApproval } from './approvals.js';
import { bandSetHistory, createBandSet, deleteBandSet, duplicateBandSet, getBandSet, listBandSets, publishBandSet, updateBand, withdrawBandSet } from './sets.js';
import { smoothBandSet, smoothingOf } from './smooth.js';
import { bandSetChanges } from './changes.js';
import { createPayZone, deletePayZone, listPayZones, updatePayZone } from './zones.js';
import { createCompGrade, createGradeBand, deleteCompGrade, deleteGradeBand, listCompGrades, updateCompGrade, updateGradeBand } from './grades.js';
import { acrossZones } from './zoneAccess.js';
import { addSuggestedZones, payZoneCheck } from './zoneCheck.js';

const view = can('bands', 'view');
const edit = can('bands', 'edit');

// A `bands` grant may be scoped to some pay zones (zoneAccess.ts): edits of one band or grade band
// check the band's zone; every other change spans all zones and passes the caller through `acrossZones`.

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
    handler: async ({ body }, { deps, caller }) => ({ data: await createPayZone(deps.db, acrossZones(caller), body) }),
  }),
  secured({
    operationId: 'updatePayZone',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updatePayZone(deps.db, acrossZones(caller), path.payZoneId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deletePayZone',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deletePayZone(deps.db, acrossZones(caller), path.payZoneId) }),
  }),
  secured({
    operationId: 'getPayZoneCheck',
    access: view,
    handler: async ({ query }, { deps, caller }) => ({ data: await payZoneCheck(deps, caller, query.marketLocationId) }),
  }),
  secured({
    operationId: 'addSuggestedPayZones',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await addSuggestedZones(deps, acrossZones(caller), body ?? {}) }),
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
    handler: async ({ body }, { deps, caller }) => ({ data: await createCompanyJob(deps.db, acrossZones(caller), body) }),
  }),
  secured({
    operationId: 'createCompanyJobsFromEmployees',
    access: edit,
    handler: async (_input, { deps, caller }) => ({ data: await createJobsFromEmployees(deps.db, acrossZones(caller)) }),
  }),
  secured({
    operationId: 'listUnmappedEmployees',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await unmappedEmployees(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateCompanyJob',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateCompanyJob(deps.db, acrossZones(caller), path.companyJobId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteCompanyJob',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteCompanyJob(deps.db, acrossZones(caller), path.companyJobId) }),
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
    handler: async ({ body }, { deps, caller }) => ({ data: await createBandSet(deps.db, acrossZones(caller), body) }),
  }),
  secured({
    operationId: 'getBandSet',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await getBandSet(deps.db, caller, path.bandSetId) }),
  }),
  secured({
    operationId: 'getBandSetChanges',
    access: view,
    handler: async ({ path, query }, { deps, caller }) => ({ data: await bandSetChanges(deps.db, caller, path.bandSetId, query.since) }),
  }),
  secured({
    operationId: 'deleteBandSet',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteBandSet(deps.db, acrossZones(caller), path.bandSetId) }),
  }),
  secured({
    operationId: 'duplicateBandSet',
    access: edit,
    status: 201,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await duplicateBandSet(deps.db, acrossZones(caller), path.bandSetId, body?.name) }),
  }),
  secured({
    operationId: 'publishBandSet',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await publishBandSet(deps.db, acrossZones(caller), path.bandSetId, headers['If-Match'], { comment: body?.comment, meritCycleId: body?.meritCycleId }) }),
  }),
  secured({
    operationId: 'withdrawBandSet',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await withdrawBandSet(deps.db, acrossZones(caller), path.bandSetId, headers['If-Match'], body?.comment) }),
  }),
  secured({
    operationId: 'getBandSetHistory',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await bandSetHistory(deps.db, caller, path.bandSetId) }),
  }),
  secured({
    operationId: 'updateBand',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateBand(deps.db, caller, { setId: path.bandSetId, bandId: path.bandId, ifMatch: headers['If-Match'], input: body }) }),
  }),
  secured({
    operationId: 'buildBandSet',
    access: edit,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await buildBandSet(deps, acrossZones(caller), path.bandSetId, body) }),
    etag: ({ data }) => data.bandSet.version,
  }),
  secured({
    operationId: 'smoothBandSet',
    access: edit,
    handler: async ({ path, body }, { deps, caller }) => ({
      data: await smoothBandSet(deps.db, acrossZones(caller), path.bandSetId, { smoothing: smoothingOf(body), apply: body.apply ?? false }),
    }),
    etag: ({ data }) => data.bandSet.version,
  }),
  secured({
    operationId: 'evaluateBandSet',
    access: view,
    handler: async ({ path, query }, { deps, caller }) => ({ data: await evaluateBandSet(deps.db, caller, path.bandSetId, query.groupBy) }),
  }),
  secured({
    operationId: 'startBandSetExport',
    access: view,
    status: 202,
    handler: async ({ path, body }, { deps, caller, koa }) => ({
      data: await startBandSetExport(deps.db, deps.jobs, caller, { bandSetId: path.bandSetId, format: body?.format ?? 'csv', socketId: socketIdOf(koa.get('x-socket-id')) }),
    }),
  }),
  secured({
    operationId: 'getBandSettings',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await getBandSettings(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateBandSettings',
    access: edit,
    handler: async ({ headers, body }, { deps, caller }) => ({ data: await updateBandSettings(deps.db, acrossZones(caller), headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'listSurveys',
    access: view,
    handler: async (_input, { deps, caller }) => listSurveys(deps, caller),
  }),
  secured({
    operationId: 'addBlsSurvey',
    access: edit,
    status: 201,
    handler: async (_input, { deps, caller }) => ({ data: await addBlsSurvey(deps.db, acrossZones(caller)) }),
  }),
  secured({
    operationId: 'getSurvey',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await getSurvey(deps.db, caller, path.surveyId) }),
  }),
  secured({
    operationId: 'updateSurvey',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateSurvey(deps.db, acrossZones(caller), path.surveyId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteSurvey',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteSurvey(deps.db, acrossZones(caller), path.surveyId) }),
  }),
  secured({
    operationId: 'listSurveyFields',
    access: view,
    handler: async () => ({ data: surveyFields() }),
  }),
  secured({
    operationId: 'uploadBandFile',
    access: edit,
    status: 201,
    handler: async ({ query, body }, { deps, caller }) => ({ data: await uploadBandFile(deps, acrossZones(caller), query, body) }),
  }),
  secured({
    operationId: 'getBandFile',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await getBandFile(deps.db, acrossZones(caller), path.bandFileId) }),
  }),
  secured({
    operationId: 'startSurveyImport',
    access: edit,
    status: 202,
    handler: async ({ body }, { deps, caller, koa, afterCommit }) => ({ data: await startSurveyImport(deps, acrossZones(caller), body, { originSocketId: socketIdOf(koa.get('x-socket-id')), afterCommit }) }),
  }),
  secured({
    operationId: 'startSurveyReplace',
    access: edit,
    status: 202,
    handler: async ({ path, headers, body }, { deps, caller, koa, afterCommit }) => ({
      data: await startSurveyReplace(deps, acrossZones(caller), path.surveyId, { ifMatch: headers['If-Match'], body }, { originSocketId: socketIdOf(koa.get('x-socket-id')), afterCommit }),
    }),
  }),
  secured({
    operationId: 'listSavedSurveyMappings',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await listSavedSurveyMappings(deps.db, caller) }),
  }),
  secured({
    operationId: 'createSavedSurveyMapping',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createSavedSurveyMapping(deps.db, acrossZones(caller), body) }),
  }),
  secured({
    operationId: 'updateSavedSurveyMapping',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateSavedSurveyMapping(deps.db, acrossZones(caller), path.surveyMappingId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteSavedSurveyMapping',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteSavedSurveyMapping(deps.db, acrossZones(caller), path.surveyMappingId) }),
  }),
  secured({
    operationId: 'startBandImport',
    access: edit,
    status: 202,
    handler: async ({ path, body }, { deps, caller, koa, afterCommit }) => ({
      data: await startBandImport(deps, acrossZones(caller), path.bandSetId, body, { originSocketId: socketIdOf(koa.get('x-socket-id')), afterCommit }),
    }),
  }),
  secured({
    operationId: 'getBandImport',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await getBandImport(deps.db, acrossZones(caller), path.bandImportId) }),
  }),
  secured({
    operationId: 'listMarketAssociations',
    access: view,
    handler: async ({ path }, { deps, caller }) => ({ data: await listMarketAssociations(deps.db, caller, path.companyJobId) }),
  }),
  secured({
    operationId: 'createMarketAssociation',
    access: edit,
    status: 201,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await createMarketAssociation(deps.db, acrossZones(caller), path.companyJobId, body) }),
  }),
  secured({
    operationId: 'updateMarketAssociation',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({
      data: await updateMarketAssociation(deps.db, acrossZones(caller), { companyJobId: path.companyJobId, id: path.marketAssociationId, ifMatch: headers['If-Match'], patch: body }),
    }),
  }),
  secured({
    operationId: 'deleteMarketAssociation',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteMarketAssociation(deps.db, acrossZones(caller), path.companyJobId, path.marketAssociationId) }),
  }),
  secured({
    operationId: 'getCompositeBenchmark',
    access: view,
    handler: async ({ path, query }, { deps, caller }) => ({ data: await getCompositeBenchmark(deps, caller, path.companyJobId, query) }),
  }),
  secured({
    operationId: 'listCompositeBenchmarks',
    access: view,
    handler: async ({ query }, { deps, caller }) => listCompositeBenchmarks(deps, caller, query),
  }),
  secured({
    operationId: 'listCompGrades',
    access: view,
    handler: async (_input, { deps, caller }) => ({ data: await listCompGrades(deps.db, caller) }),
  }),
  secured({
    operationId: 'createCompGrade',
    access: edit,
    status: 201,
    handler: async ({ body }, { deps, caller }) => ({ data: await createCompGrade(deps.db, acrossZones(caller), body) }),
  }),
  secured({
    operationId: 'updateCompGrade',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateCompGrade(deps.db, acrossZones(caller), path.gradeId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteCompGrade',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteCompGrade(deps.db, acrossZones(caller), path.gradeId) }),
  }),
  secured({
    operationId: 'createGradeBand',
    access: edit,
    status: 201,
    handler: async ({ path, body }, { deps, caller }) => ({ data: await createGradeBand(deps.db, caller, path.bandSetId, body) }),
  }),
  secured({
    operationId: 'updateGradeBand',
    access: edit,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await updateGradeBand(deps.db, caller, { setId: path.bandSetId, gradeBandId: path.gradeBandId, ifMatch: headers['If-Match'], input: body }) }),
  }),
  secured({
    operationId: 'deleteGradeBand',
    access: edit,
    handler: async ({ path }, { deps, caller }) => ({ data: await deleteGradeBand(deps.db, caller, path.bandSetId, path.gradeBandId) }),
  }),
];

const seeBands = can('bands', 'view');

/** Deciding on a band set's publication: only the approver awaited now gets through the workflow's guard. */
export const bandSetApprovalOperations = [
  secured({
    operationId: 'getBandSetApproval',
    access: seeBands,
    handler: async ({ path }, { deps, caller }) => ({ data: await getBandSetApproval(deps.db, caller, path.bandSetId) }),
  }),
  secured({
    operationId: 'approveBandSet',
    access: seeBands,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await decideBandSet(deps.db, caller, { bandSetId: path.bandSetId, ifMatch: headers['If-Match'], decision: 'approved', comment: body?.comment }) }),
  }),
  secured({
    operationId: 'rejectBandSet',
    access: seeBands,
    handler: async ({ path, headers, body }, { deps, caller }) => ({ data: await decideBandSet(deps.db, caller, { bandSetId: path.bandSetId, ifMatch: headers['If-Match'], decision: 'rejected', comment: body.comment }) }),
  }),
];
