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
    handler: async (_input, ctx) => ({ data: await listPayZones(ctx) }),
  }),
  secured({
    operationId: 'createPayZone',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createPayZone(acrossZones(ctx), body) }),
  }),
  secured({
    operationId: 'updatePayZone',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updatePayZone(acrossZones(ctx), path.payZoneId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deletePayZone',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deletePayZone(acrossZones(ctx), path.payZoneId) }),
  }),
  secured({
    operationId: 'getPayZoneCheck',
    access: view,
    handler: async ({ query }, ctx) => ({ data: await payZoneCheck(ctx, query.marketLocationId) }),
  }),
  secured({
    operationId: 'addSuggestedPayZones',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await addSuggestedZones(acrossZones(ctx), body ?? {}) }),
  }),
  secured({
    operationId: 'listCompanyJobs',
    access: view,
    handler: async (_input, ctx) => ({ data: await listCompanyJobs(ctx) }),
  }),
  secured({
    operationId: 'createCompanyJob',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createCompanyJob(acrossZones(ctx), body) }),
  }),
  secured({
    operationId: 'createCompanyJobsFromEmployees',
    access: edit,
    handler: async (_input, ctx) => ({ data: await createJobsFromEmployees(acrossZones(ctx)) }),
  }),
  secured({
    operationId: 'listUnmappedEmployees',
    access: view,
    handler: async (_input, ctx) => ({ data: await unmappedEmployees(ctx) }),
  }),
  secured({
    operationId: 'updateCompanyJob',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateCompanyJob(acrossZones(ctx), path.companyJobId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteCompanyJob',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deleteCompanyJob(acrossZones(ctx), path.companyJobId) }),
  }),
  secured({
    operationId: 'listBandSets',
    access: view,
    handler: async (_input, ctx) => ({ data: await listBandSets(ctx) }),
  }),
  secured({
    operationId: 'createBandSet',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createBandSet(acrossZones(ctx), body) }),
  }),
  secured({
    operationId: 'getBandSet',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await getBandSet(ctx, path.bandSetId) }),
  }),
  secured({
    operationId: 'getBandSetChanges',
    access: view,
    handler: async ({ path, query }, ctx) => ({ data: await bandSetChanges(ctx, path.bandSetId, query.since) }),
  }),
  secured({
    operationId: 'deleteBandSet',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deleteBandSet(acrossZones(ctx), path.bandSetId) }),
  }),
  secured({
    operationId: 'duplicateBandSet',
    access: edit,
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await duplicateBandSet(acrossZones(ctx), path.bandSetId, body?.name) }),
  }),
  secured({
    operationId: 'publishBandSet',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await publishBandSet(acrossZones(ctx), path.bandSetId, headers['If-Match'], { comment: body?.comment, meritCycleId: body?.meritCycleId }) }),
  }),
  secured({
    operationId: 'withdrawBandSet',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await withdrawBandSet(acrossZones(ctx), path.bandSetId, headers['If-Match'], body?.comment) }),
  }),
  secured({
    operationId: 'getBandSetHistory',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await bandSetHistory(ctx, path.bandSetId) }),
  }),
  secured({
    operationId: 'updateBand',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateBand(ctx, { setId: path.bandSetId, bandId: path.bandId, ifMatch: headers['If-Match'], input: body }) }),
  }),
  secured({
    operationId: 'buildBandSet',
    access: edit,
    handler: async ({ path, body }, ctx) => ({ data: await buildBandSet(acrossZones(ctx), path.bandSetId, body) }),
    etag: ({ data }) => data.bandSet.version,
  }),
  secured({
    operationId: 'smoothBandSet',
    access: edit,
    handler: async ({ path, body }, ctx) => ({
      data: await smoothBandSet(acrossZones(ctx), path.bandSetId, { smoothing: smoothingOf(body), apply: body.apply ?? false }),
    }),
    etag: ({ data }) => data.bandSet.version,
  }),
  secured({
    operationId: 'evaluateBandSet',
    access: view,
    handler: async ({ path, query }, ctx) => ({ data: await evaluateBandSet(ctx, path.bandSetId, query.groupBy) }),
  }),
  secured({
    operationId: 'startBandSetExport',
    access: view,
    status: 202,
    handler: async ({ path, body }, ctx) => ({
      data: await startBandSetExport(ctx, ctx.deps.jobs, ctx.caller, { bandSetId: path.bandSetId, format: body?.format ?? 'csv', socketId: socketIdOf(ctx.koa.get('x-socket-id')) }),
    }),
  }),
  secured({
    operationId: 'getBandSettings',
    access: view,
    handler: async (_input, ctx) => ({ data: await getBandSettings(ctx) }),
  }),
  secured({
    operationId: 'updateBandSettings',
    access: edit,
    handler: async ({ headers, body }, ctx) => ({ data: await updateBandSettings(acrossZones(ctx), headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'listSurveys',
    access: view,
    handler: async (_input, ctx) => listSurveys(ctx),
  }),
  secured({
    operationId: 'addBlsSurvey',
    access: edit,
    status: 201,
    handler: async (_input, ctx) => ({ data: await addBlsSurvey(acrossZones(ctx)) }),
  }),
  secured({
    operationId: 'getSurvey',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await getSurvey(ctx, path.surveyId) }),
  }),
  secured({
    operationId: 'updateSurvey',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateSurvey(acrossZones(ctx), path.surveyId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteSurvey',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deleteSurvey(acrossZones(ctx), path.surveyId) }),
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
    handler: async ({ query, body }, ctx) => ({ data: await uploadBandFile(acrossZones(ctx), query, body) }),
  }),
  secured({
    operationId: 'getBandFile',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await getBandFile(acrossZones(ctx), path.bandFileId) }),
  }),
  secured({
    operationId: 'startSurveyImport',
    access: edit,
    status: 202,
    handler: async ({ body }, ctx) => ({ data: await startSurveyImport(acrossZones(ctx), body, { originSocketId: socketIdOf(ctx.koa.get('x-socket-id')), afterCommit: ctx.afterCommit }) }),
  }),
  secured({
    operationId: 'startSurveyReplace',
    access: edit,
    status: 202,
    handler: async ({ path, headers, body }, ctx) => ({
      data: await startSurveyReplace(acrossZones(ctx), path.surveyId, { ifMatch: headers['If-Match'], body }, { originSocketId: socketIdOf(ctx.koa.get('x-socket-id')), afterCommit: ctx.afterCommit }),
    }),
  }),
  secured({
    operationId: 'listSavedSurveyMappings',
    access: view,
    handler: async (_input, ctx) => ({ data: await listSavedSurveyMappings(ctx) }),
  }),
  secured({
    operationId: 'createSavedSurveyMapping',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createSavedSurveyMapping(acrossZones(ctx), body) }),
  }),
  secured({
    operationId: 'updateSavedSurveyMapping',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateSavedSurveyMapping(acrossZones(ctx), path.surveyMappingId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteSavedSurveyMapping',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deleteSavedSurveyMapping(acrossZones(ctx), path.surveyMappingId) }),
  }),
  secured({
    operationId: 'startBandImport',
    access: edit,
    status: 202,
    handler: async ({ path, body }, ctx) => ({
      data: await startBandImport(acrossZones(ctx), path.bandSetId, body, { originSocketId: socketIdOf(ctx.koa.get('x-socket-id')), afterCommit: ctx.afterCommit }),
    }),
  }),
  secured({
    operationId: 'getBandImport',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await getBandImport(acrossZones(ctx), path.bandImportId) }),
  }),
  secured({
    operationId: 'listMarketAssociations',
    access: view,
    handler: async ({ path }, ctx) => ({ data: await listMarketAssociations(ctx, path.companyJobId) }),
  }),
  secured({
    operationId: 'createMarketAssociation',
    access: edit,
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await createMarketAssociation(acrossZones(ctx), path.companyJobId, body) }),
  }),
  secured({
    operationId: 'updateMarketAssociation',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({
      data: await updateMarketAssociation(acrossZones(ctx), { companyJobId: path.companyJobId, id: path.marketAssociationId, ifMatch: headers['If-Match'], patch: body }),
    }),
  }),
  secured({
    operationId: 'deleteMarketAssociation',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deleteMarketAssociation(acrossZones(ctx), path.companyJobId, path.marketAssociationId) }),
  }),
  secured({
    operationId: 'getCompositeBenchmark',
    access: view,
    handler: async ({ path, query }, ctx) => ({ data: await getCompositeBenchmark(ctx, path.companyJobId, query) }),
  }),
  secured({
    operationId: 'listCompositeBenchmarks',
    access: view,
    handler: async ({ query }, ctx) => listCompositeBenchmarks(ctx, query),
  }),
  secured({
    operationId: 'listCompGrades',
    access: view,
    handler: async (_input, ctx) => ({ data: await listCompGrades(ctx) }),
  }),
  secured({
    operationId: 'createCompGrade',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => ({ data: await createCompGrade(acrossZones(ctx), body) }),
  }),
  secured({
    operationId: 'updateCompGrade',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateCompGrade(acrossZones(ctx), path.gradeId, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'deleteCompGrade',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deleteCompGrade(acrossZones(ctx), path.gradeId) }),
  }),
  secured({
    operationId: 'createGradeBand',
    access: edit,
    status: 201,
    handler: async ({ path, body }, ctx) => ({ data: await createGradeBand(ctx, path.bandSetId, body) }),
  }),
  secured({
    operationId: 'updateGradeBand',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateGradeBand(ctx, { setId: path.bandSetId, gradeBandId: path.gradeBandId, ifMatch: headers['If-Match'], input: body }) }),
  }),
  secured({
    operationId: 'deleteGradeBand',
    access: edit,
    handler: async ({ path }, ctx) => ({ data: await deleteGradeBand(ctx, path.bandSetId, path.gradeBandId) }),
  }),
];

const seeBands = can('bands', 'view');

/** Deciding on a band set's publication: only the approver awaited now gets through the workflow's guard. */
export const bandSetApprovalOperations = [
  secured({
    operationId: 'getBandSetApproval',
    access: seeBands,
    handler: async ({ path }, ctx) => ({ data: await getBandSetApproval(ctx, path.bandSetId) }),
  }),
  secured({
    operationId: 'approveBandSet',
    access: seeBands,
    handler: async ({ path, headers, body }, ctx) => ({ data: await decideBandSet(ctx, { bandSetId: path.bandSetId, ifMatch: headers['If-Match'], decision: 'approved', comment: body?.comment }) }),
  }),
  secured({
    operationId: 'rejectBandSet',
    access: seeBands,
    handler: async ({ path, headers, body }, ctx) => ({ data: await decideBandSet(ctx, { bandSetId: path.bandSetId, ifMatch: headers['If-Match'], decision: 'rejected', comment: body.comment }) }),
  }),
];
