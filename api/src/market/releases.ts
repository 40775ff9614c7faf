import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { newId } from '../db/ids.js';
import type { AppDeps } from '../deps.js';
import { HttpError } from '../http/errors.js';
import type { JobHandler } from '../jobs/worker.js';
import { buildRelease, type MarketRelease } from './engine/index.js';
import { buildDemoRelease, generateMarket } from './generator/index.js';
import { countReleases, insertRelease, servedReleaseRow, type ReleaseRow } from './store.js';

/** Seed of the demo market every fresh install publishes. */
export const DEMO_SEED = 20261122;
/** Big enough for realistic coverage (hundreds of companies), small enough to start in seconds. */
export const DEFAULT_DEMO_RECORDS = 150_000;
export const BUILD_MARKET_RELEASE = 'buildMarketRelease';

/** The release a node answers queries from, with its row. */
export interface ServedRelease {
  row: ReleaseRow;
  release: MarketRelease;
}

// One per running server (tests start several in one process), keyed by that server's deps.
const served = new WeakMap<AppDeps, ServedRelease>();

// Another node may publish or pin; each node looks at the table at most this often, on a request.
const REFRESH_MS = 30_000;
const checkedAt = new WeakMap<AppDeps, number>();

export function demoRecords(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.PAYBENCH_DEMO_MARKET_RECORDS ?? DEFAULT_DEMO_RECORDS);
  return Number.isInteger(configured) && configured >= 1000 ? configured : DEFAULT_DEMO_RECORDS;
}

/** Rebuilds a release from its stored parameters: the generator is deterministic, so this equals what was built. */
export function rebuild(row: ReleaseRow): MarketRelease {
  return buildDemoRelease({ seed: Number(row.source_seed), employees: Number(row.source_records), id: row.id, builtAt: new Date(row.built_at).toISOString() });
}

/** At start-up: publish the demo release on an empty table, then hold the served release in memory. */
export async function loadServedRelease(deps: AppDeps): Promise<void> {
  // The release just seeded is already in memory: keep it rather than build it a second time.
  const seeded = (await countReleases(deps.db)) === 0 ? await seedDemoRelease(deps.db, deps.log) : undefined;
  const row = await servedReleaseRow(deps.db);
  if (seeded && row?.id === seeded.id) {
    served.set(deps, { row, release: seeded });
    checkedAt.set(deps, Date.now());
    return;
  }
  await refreshServedRelease(deps);
}

/** Serves whatever the table says should be served (after a publish or a pin). */
export async function refreshServedRelease(deps: AppDeps): Promise<ServedRelease | undefined> {
  const row = await servedReleaseRow(deps.db);
  if (!row) return undefined;
  const current = served.get(deps);
  if (current?.row.id === row.id) {
    current.row = row;
    return current;
  }
  checkedAt.set(deps, Date.now());
  const started = Date.now();
  const next = { row, release: rebuild(row) };
  served.set(deps, next);
  deps.log.info({ release: row.version, records: next.release.recordCount, ms: Date.now() - started }, 'market release loaded');
  return next;
}

/** The release to answer from, noticing within REFRESH_MS a publish or pin made on another node. */
export async function currentRelease(deps: AppDeps): Promise<ServedRelease> {
  if (Date.now() - (checkedAt.get(deps) ?? 0) > REFRESH_MS) {
    checkedAt.set(deps, Date.now());
    await refreshServedRelease(deps);
  }
  return servedRelease(deps);
}

export function servedRelease(deps: AppDeps): ServedRelease {
  const current = served.get(deps);
  if (!current) throw new HttpError(503, 'market_unavailable', { message: 'No market data release is published yet.' });
  return current;
}

export function servedReleaseId(deps: AppDeps): string | null {
  return served.get(deps)?.row.id ?? null;
}

async function seedDemoRelease(db: Knex, log: Logger): Promise<MarketRelease> {
  const source = { seed: DEMO_SEED, records: demoRecords() };
  const { id, builtAt } = newIdentity();
  const release = buildDemoRelease({ seed: source.seed, employees: source.records, id, builtAt });
  const row = await draftRow(db, source, release);
  const now = new Date().toISOString();
  try {
    await insertRelease(db, { ...row, status: 'published', published_at: now });
  } catch (error) {
    // Another node seeded first; its release is as good as ours.
    if ((await countReleases(db)) === 0) throw error;
  }
  log.info({ release: row.version, records: row.record_count }, 'demo market release published');
  return release;
}

function newIdentity(): { id: string; builtAt: string } {
  return { id: newId(), builtAt: new Date().toISOString() };
}

/** The row of a freshly built release: how to build it again, and what the build found. */
async function draftRow(db: Knex, source: BuildInput, release: MarketRelease): Promise<ReleaseRow> {
  const sequence = (await countReleases(db)) + 1;
  return {
    id: release.id,
    version: `${release.builtAt.slice(0, 10)}.${sequence}`,
    status: 'draft',
    pinned: false,
    source_kind: 'demo',
    source_seed: source.seed,
    source_records: source.records,
    record_count: release.recordCount,
    company_count: release.companies.count,
    built_at: release.builtAt,
    published_at: null,
  };
}

interface BuildInput {
  seed: number;
  records: number;
}

/** The background job behind "build a release": generate, build the columns, and record a draft. */
export function buildReleaseJob(): JobHandler {
  return async ({ job, db, progress }) => {
    const source = job.input as BuildInput;
    const { id, builtAt } = newIdentity();
    await progress(5, 'generating the market');
    const market = generateMarket({ seed: source.seed, employees: source.records });
    await progress(50, 'building the columns');
    const release = buildRelease(market, { id, builtAt });
    await progress(90, 'recording the release');
    const row = await draftRow(db, source, release);
    await insertRelease(db, row);
    await progress(100, `release ${row.version} built`);
    return { releaseId: row.id, version: row.version, records: row.record_count, companies: row.company_count };
  };
}
