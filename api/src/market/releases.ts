import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { newId } from '../db/ids.js';
import type { AppDeps } from '../deps.js';
import { HttpError, badRequest } from '../kernel/errors.js';
import { jobKind } from '../jobs/kind.js';
import { buildInThread, buildScreenedInThread, type ReleaseRecipe } from './build.js';
import { privacyScorecard, SCORECARD_KEYS, type AttackOutcome, type MarketRelease, type PrivacyScorecard, type ReleaseUtility } from './engine/index.js';
import { runInThread } from '../threads/start.js';
import { secretsKey } from '../kernel/secrets.js';
import { currencyForexMapping } from '../forex/perDollar.js';
import { collectContribution } from './participation/collect.js';
import { NO_CONTRIBUTION, type Contribution } from './participation/contribution.js';
import { loadContribution, markSubmitted, saveContribution } from './participation/store.js';
import { saveScreenings, screeningHistory } from './participation/screeningStore.js';
import { recordReleaseParticipants, releaseParticipants } from './participation/verification.js';
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

type ServerKey = AppDeps['config'];

// One per running server (tests start several in one process), keyed by that server's config: a
// request's deps is a copy whose db is its transaction, but it shares the server's config object.
const served = new WeakMap<ServerKey, ServedRelease>();
// The server's own pool: a rebuild outlives the request that noticed it is due, so never uses its transaction.
const rootDbs = new WeakMap<ServerKey, Knex>();
// Refreshes run one after another, so a publish made during a rebuild is seen by the next one.
const refreshes = new WeakMap<ServerKey, Promise<unknown>>();

// Another node may publish or pin; each node looks at the table at most this often, on a request.
const REFRESH_MS = 30_000;
const checkedAt = new WeakMap<ServerKey, number>();

export function demoRecords(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.PAYBENCH_DEMO_MARKET_RECORDS ?? DEFAULT_DEMO_RECORDS);
  return Number.isInteger(configured) && configured >= 1000 ? configured : DEFAULT_DEMO_RECORDS;
}

/** What rebuilds a release: its generator parameters and the contributions stored with it. */
async function recipeOf(row: ReleaseRow, db: Knex, dataDir: string): Promise<ReleaseRecipe> {
  const contribution = Number(row.contributed_records ?? 0) > 0 ? await loadContribution(db, row.id) : NO_CONTRIBUTION;
  const builtAt = new Date(row.built_at).toISOString();
  return { id: row.id, builtAt, seed: Number(row.source_seed), records: Number(row.source_records), contribution, disclosureKey: disclosureKey(dataDir) };
}

/**
 * Rebuilds a release from what it stored, on a worker thread. The generator is deterministic and the
 * contributions are the snapshot taken at build time, so this equals what was built.
 */
export async function rebuild(row: ReleaseRow, db: Knex, dataDir: string): Promise<MarketRelease> {
  return buildInThread(await recipeOf(row, db, dataDir));
}

/**
 * The 256-bit key published figures are moved with (engine/disclosure/): derived from the secrets
 * key, so every node answers the same figures and nobody without the key can compute or search a
 * move; the same for every release, so an unchanged cell moves the same way in each and averaging
 * releases gains nothing.
 */
export function disclosureKey(dataDir: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', secretsKey(dataDir)).update('paybench market figures').digest());
}

/** At start-up: publish the demo release on an empty table, then hold the served release in memory. */
export async function loadServedRelease(deps: AppDeps): Promise<void> {
  rootDbs.set(deps.config, deps.db);
  // The release just seeded is already in memory: keep it rather than build it a second time.
  const seeded = (await countReleases(deps.db)) === 0 ? await seedDemoRelease(deps.db, deps.log, deps.config.dataDir) : undefined;
  const row = await servedReleaseRow(deps.db);
  checkedAt.set(deps.config, Date.now());
  if (!row) return;
  // On a worker thread: the server already answers (503 while starting), so the event loop stays free.
  const release = seeded && row.id === seeded.id ? seeded : await buildInThread(await recipeOf(row, deps.db, deps.config.dataDir));
  served.set(deps.config, { row, release });
  deps.log.info({ release: row.version, records: release.recordCount }, 'market release loaded');
}

/** Serves whatever the table says should be served (after a publish or a pin); queries keep the old release meanwhile. */
export async function refreshServedRelease(deps: AppDeps): Promise<ServedRelease | undefined> {
  const key = deps.config;
  const db = rootDbs.get(key) ?? deps.db;
  const previous = refreshes.get(key) ?? Promise.resolve();
  const work = previous.catch(() => undefined).then(async () => {
    checkedAt.set(key, Date.now());
    const row = await servedReleaseRow(db);
    if (!row) return undefined;
    const current = served.get(key);
    if (current?.row.id === row.id) {
      current.row = row;
      return current;
    }
    const started = Date.now();
    const next = { row, release: await rebuild(row, db, deps.config.dataDir) };
    served.set(key, next);
    deps.log.info({ release: row.version, records: next.release.recordCount, ms: Date.now() - started }, 'market release loaded');
    return next;
  });
  refreshes.set(key, work);
  return work;
}

/**
 * The release to answer from. At most every REFRESH_MS a request starts a check for a publish or pin
 * made on another node; it answers from the release in hand while any rebuild runs on its thread.
 */
export async function currentRelease(deps: AppDeps): Promise<ServedRelease> {
  if (Date.now() - (checkedAt.get(deps.config) ?? 0) > REFRESH_MS) {
    checkedAt.set(deps.config, Date.now());
    refreshServedRelease(deps).catch((error: unknown) => deps.log.error({ err: error }, 'market release refresh failed'));
  }
  return servedRelease(deps);
}

/** The served release when no check for a newer one is due (`currentRelease` would start one); undefined otherwise. */
export function checkedServedRelease(deps: AppDeps): ServedRelease | undefined {
  return Date.now() - (checkedAt.get(deps.config) ?? 0) > REFRESH_MS ? undefined : served.get(deps.config);
}

export function servedRelease(deps: AppDeps): ServedRelease {
  const current = served.get(deps.config);
  if (!current) throw new HttpError(503, 'market_unavailable', { message: 'No market data release is published yet.' });
  return current;
}

export function servedReleaseId(deps: AppDeps): string | null {
  return served.get(deps.config)?.row.id ?? null;
}

/**
 * The release's privacy scorecard (engine/scorecard.ts), as stored: the attack battery under the
 * release's disclosure key and the utility of its figures. Computed before the release can be published.
 */
export async function scoreRelease(db: Knex, release: MarketRelease, dataDir: string, measured?: { forex: Readonly<Record<string, number>>; utility?: ReleaseUtility }): Promise<PrivacyScorecard> {
  const key = disclosureKey(dataDir);
  // The rates the build was given, not read again; the utility when the build thread measured it.
  const forex = measured?.forex ?? (await currencyForexMapping(db));
  return privacyScorecard(release, { disclosureKey: key, forex, attacks: await attackBattery(key), utility: measured?.utility });
}

/** Batteries run or running in this process, by key: the outcome depends on nothing else. */
const batteries = new Map<string, Promise<AttackOutcome[]>>();

/** The attack battery under a key, on a thread of its own (seconds of work: a starting server keeps answering 503 meanwhile). */
function attackBattery(disclosureKey: Uint8Array): Promise<AttackOutcome[]> {
  const id = Buffer.from(disclosureKey).toString('hex');
  const known = batteries.get(id);
  if (known) return known;
  const running = runInThread<AttackOutcome[]>(import.meta.url, 'attackThread', { disclosureKey, keys: SCORECARD_KEYS });
  batteries.set(id, running);
  running.catch(() => batteries.delete(id));
  return running;
}

async function seedDemoRelease(db: Knex, log: Logger, dataDir: string): Promise<MarketRelease> {
  const source = { seed: DEMO_SEED, records: demoRecords() };
  const { id, builtAt } = newIdentity();
  // With the rates, the build thread measures the scorecard's utility too, so this thread stays free.
  const forex = await currencyForexMapping(db);
  const recipe = { id, builtAt, seed: source.seed, records: source.records, contribution: NO_CONTRIBUTION, disclosureKey: disclosureKey(dataDir), forex };
  // The battery depends on the key alone: it runs on its thread while the release is built on another.
  void attackBattery(recipe.disclosureKey);
  const { release, utility } = await buildScreenedInThread(recipe);
  const scorecard = await scoreRelease(db, release, dataDir, { forex, utility });
  // The demo market is published without a person to ask: a failing scorecard stops the server instead.
  if (!scorecard.passed) throw new Error(`The demo market release fails its privacy scorecard: ${scorecard.reason}`);
  // Processes and nodes starting together take turns (SQLite: one writer at a time; Postgres: a lock),
  // and only the first publishes: another's release would be a second demo market served beside it.
  const published = await db.transaction(async (trx) => {
    if (trx.client.config.client === 'pg') await trx.raw(`select pg_advisory_xact_lock(hashtext('paybench demo market release'))`);
    if ((await countReleases(trx)) > 0) return undefined;
    const row = { ...(await draftRow(trx, source, release, NO_CONTRIBUTION)), privacy_scorecard: JSON.stringify(scorecard) };
    await insertRelease(trx, { ...row, status: 'published', published_at: new Date().toISOString() });
    return row;
  });
  if (published) log.info({ release: published.version, records: published.record_count }, 'demo market release published');
  return release;
}

function newIdentity(): { id: string; builtAt: string } {
  return { id: newId(), builtAt: new Date().toISOString() };
}

/** The row of a freshly built release: how to build it again, and what the build found. */
async function draftRow(db: Knex, source: BuildInput, release: MarketRelease, contribution: Contribution): Promise<ReleaseRow> {
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
    contributed_companies: contribution.participants.length,
    contributed_records: contribution.records.length,
    built_at: release.builtAt,
    published_at: null,
  };
}

interface BuildInput {
  seed: number;
  records: number;
}

/** A generated market needs enough records to fill its cells; 0 builds from participants alone. */
export function checkedBuildSource(source: BuildInput): BuildInput {
  if (source.records > 0 && source.records < 1000) {
    throw badRequest('Generate at least 1000 records, or 0 to build from participants alone.', [{ field: 'body.records', message: 'must be 0 or at least 1000' }]);
  }
  return source;
}

/**
 * The background job behind "build a release": take the opted-in companies' anonymised records,
 * generate and build the columns on a worker thread (the API keeps answering), and record a draft
 * with its contributions in one transaction.
 */
export const buildReleaseJob = jobKind<BuildInput>({ type: BUILD_MARKET_RELEASE, title: 'Market release build' }, (deps) => async ({ job, db, progress }) => {
    const source = job.input;
    const { id, builtAt } = newIdentity();
    await progress(2, 'collecting participants’ data');
    const forex = await currencyForexMapping(db);
    const { contribution, companyIds } = await collectContribution(db, id, forex, { disclosureKey: disclosureKey(deps.config.dataDir) });
    await progress(5, `${contribution.participants.length} participating companies, ${contribution.records.length} records`);
    // Progress is written as the thread reports it, one write at a time; a cancel stops the job after the build.
    let reported = 5;
    let reporting: Promise<void> = Promise.resolve();
    // Every contribution is screened for plausibility; what fails is held back for an internal admin's review.
    const screening = await screeningHistory(db, companyIds);
    const recipe = { id, builtAt, seed: source.seed, records: source.records, contribution, screening, disclosureKey: disclosureKey(deps.config.dataDir), forex };
    void attackBattery(recipe.disclosureKey);
    const { release, screening: screened, utility } = await buildScreenedInThread(recipe, (fraction, step) => {
      const percent = 5 + Math.floor(fraction * 85);
      if (percent <= reported) return;
      reported = percent;
      reporting = reporting.then(() => progress(percent, step));
    });
    await reporting;
    await progress(91, 'running the privacy scorecard');
    const scorecard = await scoreRelease(db, release, deps.config.dataDir, { forex, utility });
    await progress(94, 'recording the release');
    const verdicts = screened?.verdicts ?? [];
    const taken = screened?.contribution ?? contribution;
    const row = { ...(await draftRow(db, source, release, taken)), privacy_scorecard: JSON.stringify(scorecard) };
    await db.transaction(async (trx) => {
      await insertRelease(trx, row);
      await saveContribution(trx, row.id, taken);
      const takenCompanies = companyIds.filter((_, k) => verdicts[k]?.outcome !== 'quarantined');
      await markSubmitted(trx, takenCompanies, builtAt);
      await saveScreenings(trx, row.id, companyIds, verdicts);
      await recordReleaseParticipants(trx, row.id, takenCompanies);
    });
    const held = verdicts.filter((v) => v.outcome === 'quarantined').length;
    const { added, removed } = await releaseParticipants({ db }, row.id);
    const heldNote = held ? `; ${held} contribution${held === 1 ? '' : 's'} held back for review` : '';
    await progress(100, `release ${row.version} built: ${added.length} new and ${removed.length} removed participants${heldNote}`);
    return {
      releaseId: row.id,
      version: row.version,
      records: row.record_count,
      companies: row.company_count,
      contributedCompanies: row.contributed_companies,
      contributedRecords: row.contributed_records,
      heldBackCompanies: held,
    };
  });
