import { can, internalAdmin, member, operation, secured } from '../kernel/operations.js';
import { startJob } from '../jobs/service.js';
import { socketIdOf } from '../kernel/socketId.js';
import { keptForSending } from '../http/keptJson.js';
import { benchmarkingContext } from './context.js';
import { marketDataExportJob } from './exportJob.js';
import { catalogOperations } from './catalog/routes.js';
import { executiveOperations } from './executive/routes.js';
import { insightOperations } from './insights/routes.js';
import { levellingOperations } from './levelling/routes.js';
import { participationOperations } from './participation/routes.js';
import { quarantineOperations } from './participation/quarantineRoutes.js';
import { savedQueryOperations } from './queries/routes.js';
import { reportOperations } from './reports/routes.js';
import { sharedSliceOperations } from './shares/routes.js';
import { buildReleaseJob, checkedBuildSource } from './releases.js';
import {
  benchmarkingFilters,
  benchmarkingSettings,
  checkedRequest,
  companyComposition,
  compositionPrivacyChecks,
  executiveMetadata,
  forexFor,
  jobCatalog,
  jobFamilyComposition,
  locationComposition,
  keptMarketData,
  marketData,
  pinRelease,
  publishRelease,
  releases,
  updateBenchmarkingSettings,
} from './service.js';

const viewBenchmarking = can('benchmarking', 'view');

export const marketOperations = [
  secured({
    operationId: 'listMarketReleases',
    access: internalAdmin,
    handler: async (_input, { deps }) => ({ data: await releases(deps) }),
  }),
  secured({
    operationId: 'buildMarketRelease',
    access: internalAdmin,
    status: 202,
    handler: async ({ body }, { deps, caller, koa }) => ({
      data: await startJob(deps.jobs, caller, buildReleaseJob, checkedBuildSource(body), socketIdOf(koa.get('x-socket-id'))),
    }),
  }),
  secured({
    operationId: 'publishMarketRelease',
    access: internalAdmin,
    handler: async ({ path }, { deps }) => ({ data: await publishRelease(deps, path.releaseId) }),
  }),
  secured({
    operationId: 'pinMarketRelease',
    access: internalAdmin,
    handler: async ({ path }, { deps }) => ({ data: await pinRelease(deps, path.releaseId) }),
  }),
  secured({
    operationId: 'getEmployeeCompBenchmarkingFilters',
    access: viewBenchmarking,
    handler: async (_input, { deps }) => ({ data: await benchmarkingFilters(deps, 'employee') }),
  }),
  operation({
    operationId: 'getMarketingEmployeeCompBenchmarkingFilters',
    access: { kind: 'public' },
    handler: async (_input, { deps }) => ({ data: await benchmarkingFilters(deps, 'marketing') }),
  }),
  secured({
    operationId: 'getExecutiveCompMetadata',
    access: viewBenchmarking,
    handler: async (_input, { deps }) => ({ data: await executiveMetadata(deps, 'employee') }),
  }),
  operation({
    operationId: 'getMarketingExecutiveCompMetadata',
    access: { kind: 'public' },
    handler: async (_input, { deps }) => ({ data: await executiveMetadata(deps, 'marketing') }),
  }),
  secured({
    operationId: 'getBenchmarkingContext',
    access: member,
    handler: async (_input, { deps, caller }) => ({ data: await benchmarkingContext(deps, caller) }),
  }),
  secured({
    operationId: 'getCompanyBenchmarkingSettings',
    access: viewBenchmarking,
    handler: async (_input, { deps, caller }) => ({ data: await benchmarkingSettings(deps.db, caller) }),
  }),
  secured({
    operationId: 'updateCompanyBenchmarkingSettings',
    access: can('benchmarking', 'edit'),
    handler: async ({ body }, { deps, caller }) => ({ data: await updateBenchmarkingSettings(deps.db, caller, body) }),
  }),
  secured({
    operationId: 'queryMarketData',
    access: viewBenchmarking,
    // Kept answers are shared, unchanged: sent as the bytes of their first serialisation.
    handler: async ({ body }, { deps }) => ({ data: keptForSending(await marketData(deps, checkedRequest(body))) }),
    kept: async ({ body }, { deps }) => {
      const answer = await keptMarketData(deps, checkedRequest(body));
      return answer && { data: keptForSending(answer) };
    },
  }),
  secured({
    operationId: 'startMarketDataExport',
    access: viewBenchmarking,
    status: 202,
    handler: async ({ body }, { deps, caller, koa }) => {
      const input = { format: body.format ?? 'csv', request: checkedRequest(body.request ?? {}, 'body.request') };
      // The currency is refused now, not when the job runs.
      await forexFor(deps.db, input.request.currency, 'body.request.currency');
      return { data: await startJob(deps.jobs, caller, marketDataExportJob, input, socketIdOf(koa.get('x-socket-id'))) };
    },
  }),
  secured({
    operationId: 'getDataCompositionCompanies',
    access: viewBenchmarking,
    handler: async ({ query }, { deps }) => ({ data: await companyComposition(deps, query.employmentTypes) }),
  }),
  secured({
    operationId: 'getDataCompositionPrivacyChecks',
    access: viewBenchmarking,
    handler: async (_input, { deps }) => ({ data: await compositionPrivacyChecks(deps) }),
  }),
  secured({
    operationId: 'getDataCompositionJobFamilies',
    access: viewBenchmarking,
    handler: async ({ query }, { deps }) => ({ data: await jobFamilyComposition(deps, query.employmentTypes) }),
  }),
  secured({
    operationId: 'getDataCompositionLocations',
    access: viewBenchmarking,
    handler: async ({ query }, { deps }) => ({ data: await locationComposition(deps, query.employmentTypes) }),
  }),
  secured({
    operationId: 'searchJobCatalog',
    access: viewBenchmarking,
    handler: async ({ query }, { deps }) => ({ data: await jobCatalog(deps, query.search) }),
  }),
  ...catalogOperations,
  ...savedQueryOperations,
  ...sharedSliceOperations,
  ...executiveOperations,
  ...insightOperations,
  ...levellingOperations,
  ...reportOperations,
  ...participationOperations,
  ...quarantineOperations,
];
