import { type Caller, companyScope } from '../../access/caller.js';
import type { components } from '../../contract-types.js';
import { isoTimestamp } from '../../db/timestamps.js';
import type { AppDeps } from '../../deps.js';
import { presentDownload } from '../../downloads/service.js';
import { notFound } from '../../kernel/errors.js';
import { startJob } from '../../jobs/service.js';
import { MARKET_DATA_EXPORT } from '../exportJob.js';
import { servedReleaseId } from '../releases.js';
import { findRelease, listReleases } from '../store.js';
import { MARKET_DATA_REPORT, REPORTS, type MarketDataReportInput, marketDataReportJob } from './reportJob.js';
import { marketDownloads } from './store.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];

/** Every published release with the reports it offers, and the market files the company made that are still there. */
export async function marketDataReports(ctx: Pick<ServiceContext, 'deps' | 'caller'>): Promise<Schemas['MarketDataReports']> {
  const { deps, caller } = ctx;
  const serving = servedReleaseId(deps);
  const releases = (await listReleases(deps.db)).filter((row) => row.status === 'published');
  const files = await marketDownloads(deps.db, companyScope(caller), [MARKET_DATA_EXPORT, MARKET_DATA_REPORT], new Date());
  return {
    releases: releases.map((row) => ({
      releaseId: row.id,
      version: row.version,
      publishedAt: row.published_at ? isoTimestamp(row.published_at) : null,
      serving: row.id === serving,
      reports: REPORTS.flatMap((r) => (['csv', 'xlsx'] as const).map((format) => ({ report: r.report, format, title: r.title, description: r.description }))),
    })),
    files: files.map(presentDownload),
  };
}

/** Starts writing one report of a published release; an unknown or draft release is 404. */
export async function startMarketDataReport(ctx: Pick<ServiceContext, 'db'>, deps: AppDeps, caller: Caller, input: Schemas['MarketDataReportRequest'], socketId: string | undefined): Promise<Schemas['BackgroundJob']> {
  const { db } = ctx;
  const row = await findRelease(db, input.releaseId);
  if (!row || row.status !== 'published') throw notFound('Only published releases have reports.');
  const job: MarketDataReportInput = { releaseId: row.id, report: input.report, format: input.format ?? 'csv' };
  return startJob(deps.jobs, caller, marketDataReportJob, job, socketId);
}
