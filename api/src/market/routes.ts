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
    handler: async (_input, ctx) => ({ data: await releases(ctx) }),
  }),
  secured({
    operationId: 'buildMarketRelease',
    access: internalAdmin,
    status: 202,
    handler: async ({ body }, ctx) => ({
      data: await startJob(ctx.deps.jobs, ctx.caller, buildReleaseJob, checkedBuildSource(body), socketIdOf(ctx.koa.get('x-socket-id'))),
    }),
  }),
  secured({
    operationId: 'publishMarketRelease',
    access: internalAdmin,
    handler: async ({ path }, ctx) => ({ data: await publishRelease(ctx, path.releaseId) }),
  }),
  secured({
    operationId: 'pinMarketRelease',
    access: internalAdmin,
    handler: async ({ path }, ctx) => ({ data: await pinRelease(ctx, path.releaseId) }),
  }),
  secured({
    operationId: 'getEmployeeCompBenchmarkingFilters',
    access: viewBenchmarking,
    handler: async (_input, ctx) => ({ data: await benchmarkingFilters(ctx, 'employee') }),
  }),
  operation({
    operationId: 'getMarketingEmployeeCompBenchmarkingFilters',
    access: { kind: 'public' },
    handler: async (_input, ctx) => ({ data: await benchmarkingFilters(ctx, 'marketing') }),
  }),
  secured({
    operationId: 'getExecutiveCompMetadata',
    access: viewBenchmarking,
    handler: async (_input, ctx) => ({ data: await executiveMetadata(ctx, 'employee') }),
  }),
  operation({
    operationId: 'getMarketingExecutiveCompMetadata',
    access: { kind: 'public' },
    handler: async (_input, ctx) => ({ data: await executiveMetadata(ctx, 'marketing') }),
  }),
  secured({
    operationId: 'getBenchmarkingContext',
    access: member,
    handler: async (_input, ctx) => ({ data: await benchmarkingContext(ctx) }),
  }),
  secured({
    operationId: 'getCompanyBenchmarkingSettings',
    access: viewBenchmarking,
    handler: async (_input, ctx) => ({ data: await benchmarkingSettings(ctx) }),
  }),
  secured({
    operationId: 'updateCompanyBenchmarkingSettings',
    access: can('benchmarking', 'edit'),
    handler: async ({ body }, ctx) => ({ data: await updateBenchmarkingSettings(ctx, body) }),
  }),
  secured({
    operationId: 'queryMarketData',
    access: viewBenchmarking,
    // Kept answers are shared, unchanged: sent as the bytes of their first serialisation.
    handler: async ({ body }, ctx) => ({ data: keptForSending(await marketData(ctx, checkedRequest(body))) }),
    kept: async ({ body }, ctx) => {
      const answer = await keptMarketData(ctx, checkedRequest(body));
      return answer && { data: keptForSending(answer) };
    },
  }),
  secured({
    operationId: 'startMarketDataExport',
    access: viewBenchmarking,
    status: 202,
    handler: async ({ body }, ctx) => {
      const input = { format: body.format ?? 'csv', request: checkedRequest(body.request ?? {}, 'body.request') };
      // The currency is refused now, not when the job runs.
      await forexFor(ctx, input.request.currency, 'body.request.currency');
      return { data: await startJob(ctx.deps.jobs, ctx.caller, marketDataExportJob, input, socketIdOf(ctx.koa.get('x-socket-id'))) };
    },
  }),
  secured({
    operationId: 'getDataCompositionCompanies',
    access: viewBenchmarking,
    handler: async ({ query }, ctx) => ({ data: await companyComposition(ctx, query.employmentTypes) }),
  }),
  secured({
    operationId: 'getDataCompositionPrivacyChecks',
    access: viewBenchmarking,
    handler: async (_input, ctx) => ({ data: await compositionPrivacyChecks(ctx) }),
  }),
  secured({
    operationId: 'getDataCompositionJobFamilies',
    access: viewBenchmarking,
    handler: async ({ query }, ctx) => ({ data: await jobFamilyComposition(ctx, query.employmentTypes) }),
  }),
  secured({
    operationId: 'getDataCompositionLocations',
    access: viewBenchmarking,
    handler: async ({ query }, ctx) => ({ data: await locationComposition(ctx, query.employmentTypes) }),
  }),
  secured({
    operationId: 'searchJobCatalog',
    access: viewBenchmarking,
    handler: async ({ query }, ctx) => ({ data: await jobCatalog(ctx, query.search) }),
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
