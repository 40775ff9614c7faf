import type { Knex } from 'knex';
import Fuse from 'fuse.js';
import { MINIMUM_FUZZY_SCORE, readTitle } from './titles/index.js';
import { type Caller, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { HttpError, badRequest, notFound, type FieldError } from '../kernel/errors.js';
import { FAMILY_BLEND_GROUPS, INDUSTRY_GROUPS, JOB_FAMILIES, LOCATIONS } from '../reference/catalog/index.js';
import { describeRelease, disclose, isValidBenchmarkRequest, queryRelease, type PrivacyScorecard, validateBenchmarkRequest, type BenchmarkRequest, type BenchmarkRequestInput, type BenchmarkResult, type CompositionEntry } from './engine/index.js';
import type { MarketEmploymentType } from './engine/participants.js';
import {
  presentCatalogEntry,
  presentEntry,
  presentExecutiveMetadata,
  presentFilters,
  parseScorecard,
  presentRelease,
  presentSettings,
  type BenchmarkingFilters,
} from './present.js';
import { currencyForexMapping, isCurrentMapping, ratesNamed } from '../forex/perDollar.js';
import { checkedServedRelease, currentRelease, rebuild, refreshServedRelease, scoreRelease, servedReleaseId, type ServedRelease } from './releases.js';
import { findRelease, listReleases, markPublished, pinOnly, saveScorecard, saveSettings, findSettings, type ReleaseRow } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];

export { currencyForexMapping };

// ---- releases ---------------------------------------------------------------------------------

export async function releases(ctx: Pick<ServiceContext, 'deps'>): Promise<Schemas['MarketRelease'][]> {
  const { deps } = ctx;
  const serving = servedReleaseId(deps);
  return (await listReleases(deps.db)).map((row) => presentRelease(row, serving));
}

/** Publishing freezes a draft; a published release is never written again. */
export async function publishRelease(ctx: Pick<ServiceContext, 'deps'>, releaseId: string): Promise<Schemas['MarketRelease']> {
  const { deps } = ctx;
  const row = await findRelease(deps.db, releaseId);
  if (!row) throw notFound();
  if (row.status === 'published') throw new HttpError(409, 'release_published', { message: `Release ${row.version} is already published and cannot change.` });
  const scorecard = await scorecardOf(deps, row);
  if (!scorecard.passed) {
    throw new HttpError(409, 'release_privacy_failed', { message: `Release ${row.version} fails its privacy scorecard and is not published: ${scorecard.reason}` });
  }
  await markPublished(deps.db, releaseId, new Date().toISOString());
  await refreshServedRelease(deps);
  return presentRelease((await findRelease(deps.db, releaseId)) ?? row, servedReleaseId(deps));
}

/** The release's stored scorecard; a release built before scorecards is rebuilt and scored now, and the score stored. */
async function scorecardOf(deps: AppDeps, row: ReleaseRow): Promise<PrivacyScorecard> {
  const stored = parseScorecard(row.privacy_scorecard);
  if (stored) return stored;
  const scorecard = await scoreRelease(deps.db, await rebuild(row, deps.db, deps.config.dataDir), deps.config.dataDir);
  await saveScorecard(deps.db, row.id, JSON.stringify(scorecard));
  return scorecard;
}

export async function pinRelease(ctx: Pick<ServiceContext, 'deps'>, releaseId: string): Promise<Schemas['MarketRelease']> {
  const { deps } = ctx;
  const row = await findRelease(deps.db, releaseId);
  if (!row) throw notFound();
  if (row.status !== 'published') throw badRequest('Only a published release can be pinned', [{ field: 'path.releaseId', message: 'is a draft' }]);
  await pinOnly(deps.db, releaseId);
  await refreshServedRelease(deps);
  return presentRelease((await findRelease(deps.db, releaseId)) ?? row, servedReleaseId(deps));
}

// ---- filters ----------------------------------------------------------------------------------

/** Industry groups hold the companies of their sub-industries; a company has one industry, so counts add up. */
function industryCoverage(served: ServedRelease): Map<string, CompositionEntry> {
  const subs = new Map(describeRelease(served.release).industries.map((entry) => [entry.id, entry]));
  const coverage = new Map(subs);
  for (const group of INDUSTRY_GROUPS) {
    const members = group.subIndustries.flatMap((s) => subs.get(s.upstreamId) ?? []);
    coverage.set(group.upstreamId, {
      id: group.upstreamId,
      companies: members.reduce((n, e) => n + e.companies, 0),
      employees: members.reduce((n, e) => n + e.employees, 0),
    });
  }
  return coverage;
}

export async function benchmarkingFilters(ctx: Pick<ServiceContext, 'deps'>, variant: 'employee' | 'marketing'): Promise<BenchmarkingFilters> {
  const { deps } = ctx;
  const served = await currentRelease(deps);
  const filters = presentFilters(await currencyForexMapping(deps.db), served.row.version, industryCoverage(served), variant);
  assertNoEmptySection(filters);
  return filters;
}

/** The spec: an empty section is an error, never a response. */
export function assertNoEmptySection(response: BenchmarkingFilters | Schemas['ExecutiveCompMetadata'], name = 'benchmarking filters'): void {
  for (const [section, value] of Object.entries(response)) {
    if (isEmpty(value)) throw new HttpError(500, 'filters_incomplete', { message: `${section} is empty in the ${name} response` });
  }
}

export async function executiveMetadata(ctx: Pick<ServiceContext, 'deps'>, variant: 'employee' | 'marketing'): Promise<Schemas['ExecutiveCompMetadata']> {
  const { deps } = ctx;
  const metadata = presentExecutiveMetadata(industryCoverage(await currentRelease(deps)), variant);
  assertNoEmptySection(metadata, 'executive-comp metadata');
  return metadata;
}

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value && typeof value === 'object') {
    const values = Object.values(value);
    // A section made of lists (compTypes, levels …) is empty when any of its lists is.
    return values.length === 0 || values.some((inner) => Array.isArray(inner) && inner.length === 0);
  }
  return false;
}

// ---- settings ---------------------------------------------------------------------------------

/** Candidates never load benchmarking settings, whatever their roles say. */
function refuseCandidates(caller: Caller): void {
  if (caller.isCandidate) throw new HttpError(403, 'candidate', { message: 'Candidates have no benchmarking settings.' });
}

export async function benchmarkingSettings(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<Schemas['CompanyBenchmarkingSettings']> {
  const { db, caller } = ctx;
  refuseCandidates(caller);
  return presentSettings(await findSettings(db, companyScope(caller)));
}

export async function updateBenchmarkingSettings(
  ctx: Pick<ServiceContext, 'db' | 'caller'>,
  input: Schemas['CompanyBenchmarkingSettings'],
): Promise<Schemas['CompanyBenchmarkingSettings']> {
  const { db, caller } = ctx;
  refuseCandidates(caller);
  const scope = companyScope(caller);
  await saveSettings(db, scope, {
    override_base_compensation_requirement: input.overrideBaseCompensationRequirement,
    override_equity_requirement: input.overrideEquityRequirement,
    use_synthetic_location_insights_data: input.useSyntheticLocationInsightsData,
    location: input.location,
    updated_at: new Date().toISOString(),
  });
  return presentSettings(await findSettings(db, scope));
}

// ---- data explorer ----------------------------------------------------------------------------

/** The engine's own validator answers, so every message is the spec's, word for word. */
export function checkedRequest(input: BenchmarkRequestInput, prefix = 'body'): BenchmarkRequest {
  if (isValidBenchmarkRequest(input)) return input;
  const issues = validateBenchmarkRequest(input);
  throw badRequest(issues[0]?.message ?? 'The request is not valid', issues.map((issue) => ({ field: `${prefix}.${issue.field}`, message: issue.message })));
}

/** An answer as the API gives it: the engine's, with the release's version and the rates it was converted with, named. */
export interface MarketData extends Omit<BenchmarkResult, 'convertedCurrencies'> {
  releaseVersion: string;
  exchangeRates: Schemas['MarketExchangeRate'][];
  exchangeRatesStale: boolean;
}

/** Presents an engine answer: the currencies it converted become their named, dated rates. */
export async function presentAnswer(db: Knex, { convertedCurrencies, ...result }: BenchmarkResult, releaseVersion: string): Promise<MarketData> {
  return { ...result, releaseVersion, ...(await ratesNamed(db, convertedCurrencies)) };
}

/** A currency other than local needs a reference rate to be converted into; the problem lists those there are. */
export function currencyProblem(forex: Readonly<Record<string, number>>, currency: string | undefined, field: string): FieldError | null {
  if (currency === undefined || currency === 'local' || currency === 'USD' || forex[currency] !== undefined) return null;
  return { field, message: `must be local or a currency with an exchange rate: ${Object.keys(forex).join(', ')}` };
}

/** The reference rates, once the currency asked for is known to be among them (else 400). */
export async function forexFor(ctx: Pick<ServiceContext, 'db'>, currency: string | undefined, field = 'body.currency'): Promise<Record<string, number>> {
  const { db } = ctx;
  const forex = await currencyForexMapping(db);
  const problem = currencyProblem(forex, currency, field);
  if (problem) throw badRequest(`There is no exchange rate for ${currency ?? ''}`, [problem]);
  return forex;
}

/** Market answers kept per served release: the explorer's recent questions, and the team view's per location. */
const KEPT_ANSWERS = 64;
const answersByRelease = new WeakMap<ServedRelease, Map<string, { forex: Record<string, number>; answer: Promise<MarketData> }>>();

/**
 * The answer to a benchmark request from the served release. It depends on nothing but the release,
 * the request, the reference rates and the day (whether a rate counts as stale): the engine is
 * deterministic, its disclosure keyed. So an answer is kept for the same release, request, rates
 * (the mapping a node keeps for a few minutes, `forex/perDollar.ts`) and day, and handed to every
 * asker as the same object, which none may change.
 */
export async function marketData(ctx: Pick<ServiceContext, 'deps'>, request: BenchmarkRequest, currencyField = 'body.currency'): Promise<MarketData> {
  const { deps } = ctx;
  const served = await currentRelease(deps);
  // Always needed: a market filter spanning several currencies is reported in USD even in local mode.
  const forex = await forexFor({ db: deps.db }, request.currency, currencyField);
  let answers = answersByRelease.get(served);
  if (!answers) {
    answers = new Map();
    answersByRelease.set(served, answers);
  }
  const key = answerKey(request);
  const kept = answers.get(key);
  if (kept?.forex === forex) return kept.answer;
  const answer = (async () => presentAnswer(deps.db, queryRelease(served.release, request, { forex }), served.row.version))();
  answers.delete(key);
  if (answers.size >= KEPT_ANSWERS) answers.delete(answers.keys().next().value as string);
  const entry = { forex, answer };
  answers.set(key, entry);
  // A refusal (a family or level the release does not know) is not kept.
  answer.catch(() => {
    if (answers.get(key) === entry) answers.delete(key);
  });
  return answer;
}

const answerKey = (request: BenchmarkRequest): string => `${new Date().toISOString().slice(0, 10)} ${JSON.stringify(request)}`;

/**
 * The answer `marketData` keeps for the request, when no check for a newer release is due and the
 * rates it was converted with are still the node's; undefined otherwise (`marketData` answers).
 */
export async function keptMarketData(ctx: Pick<ServiceContext, 'deps'>, request: BenchmarkRequest): Promise<MarketData | undefined> {
  const { deps } = ctx;
  const served = checkedServedRelease(deps);
  const kept = served ? answersByRelease.get(served)?.get(answerKey(request)) : undefined;
  // Kept only once its currency had a rate; one still being answered may yet be refused.
  return kept && isCurrentMapping(kept.forex) ? kept.answer.catch(() => undefined) : undefined;
}

// ---- data composition -------------------------------------------------------------------------

/**
 * Whose records a composition answer counts: employees, as the market is, unless the request names
 * contractors (as a market filter's `employmentTypes` does); every count of one answer stands on them.
 */
export type CompositionPopulation = readonly MarketEmploymentType[] | undefined;

export async function companyComposition(ctx: Pick<ServiceContext, 'deps'>, employmentTypes?: CompositionPopulation): Promise<Schemas['CompanyComposition']> {
  const { deps } = ctx;
  const served = await currentRelease(deps);
  const composition = describeRelease(served.release, employmentTypes);
  const whole = disclose({ id: 'all', ...composition });
  return {
    releaseVersion: served.row.version,
    companies: whole.companies,
    employees: whole.employees,
    industries: composition.industries.map((e) => presentEntry(e)),
    companyStages: composition.companyStages.map((e) => presentEntry(e)),
    ownershipGroups: composition.ownershipGroups.map((e) => presentEntry(e)),
  };
}

export async function jobFamilyComposition(ctx: Pick<ServiceContext, 'deps'>, employmentTypes?: CompositionPopulation): Promise<Schemas['JobFamilyComposition']> {
  const { deps } = ctx;
  const served = await currentRelease(deps);
  const composition = describeRelease(served.release, employmentTypes);
  return {
    releaseVersion: served.row.version,
    jobFamilies: composition.jobFamilies.map((e) => presentEntry(e)),
    levels: composition.levels.map((e) => presentEntry(e)),
  };
}

type GatingAttack = NonNullable<Schemas['CompositionPrivacyChecks']['checks']>['attacks'][number]['attack'];
const GATING_ATTACKS: readonly string[] = ['differencing', 'tracker', 'releases', 'reconstruction', 'key_search', 'colluders', 'dominance', 'counts', 'count_averaging', 'reimport'] satisfies GatingAttack[];
const isGatingAttack = (attack: string): attack is GatingAttack => GATING_ATTACKS.includes(attack);
const threeFigures = (value: number): number => (value === 0 ? 0 : Number(value.toPrecision(3)));

/**
 * What members may read of the served release's scorecard: when it was checked, how each gating
 * attack fared, and the utility cost. Nothing per cell, nothing of the key or the controls.
 */
export async function compositionPrivacyChecks(ctx: Pick<ServiceContext, 'deps'>): Promise<Schemas['CompositionPrivacyChecks']> {
  const { deps } = ctx;
  const served = await currentRelease(deps);
  const scorecard = parseScorecard(served.row.privacy_scorecard);
  if (!scorecard) return { releaseVersion: served.row.version, checks: null };
  const attacks = scorecard.attacks.flatMap(({ attack, gating, title, targets, recovered }) => (gating && isGatingAttack(attack) ? [{ attack, title, targets, recovered }] : []));
  return {
    releaseVersion: served.row.version,
    checks: {
      checkedAt: scorecard.computedAt,
      passed: scorecard.passed,
      attacks,
      medianRelativeMove: threeFigures(scorecard.utility.medianRelativeMove),
      p90RelativeMove: threeFigures(scorecard.utility.p90RelativeMove),
      cellsWithheldShare: threeFigures(scorecard.utility.cellsWithheldShare),
    },
  };
}

const locationNames = new Map(LOCATIONS.map((l) => [l.paybenchLocationId, l.paybenchLocationName]));

export async function locationComposition(ctx: Pick<ServiceContext, 'deps'>, employmentTypes?: CompositionPopulation): Promise<Schemas['LocationComposition']> {
  const { deps } = ctx;
  const served = await currentRelease(deps);
  return {
    releaseVersion: served.row.version,
    locations: describeRelease(served.release, employmentTypes).locations.map((e) => presentEntry(e, locationNames.get(e.id) ?? e.id)),
  };
}

// ---- job catalog ------------------------------------------------------------------------------

interface CatalogDocument {
  id: string;
  name: string;
  description: string;
  titles: string[];
}

const CATALOG_DOCUMENTS: CatalogDocument[] = [
  ...JOB_FAMILIES.map((f) => ({ id: f.id, name: f.name, description: f.description, titles: f.exampleTitles })),
  ...FAMILY_BLEND_GROUPS.map((g) => ({ id: g.id, name: g.name, description: g.description, titles: [] })),
];

// The spec's fuzzy-search constants; titles weigh most because people search by the title they hire for.
const catalogSearch = new Fuse(CATALOG_DOCUMENTS, {
  threshold: 0.6,
  distance: 100,
  ignoreLocation: false,
  includeScore: true,
  keys: [
    { name: 'name', weight: 3 },
    { name: 'titles', weight: 2 },
    { name: 'description', weight: 1 },
  ],
});

/**
 * The catalog entries a search names, best first. The title index answers first: a title it knows
 * ("backend developer", "SRE") is its family alone, and an occupation no family covers ("nurse") is
 * no match. Otherwise the fuzzy search, keeping only what scores at least MINIMUM_FUZZY_SCORE; an
 * empty list is the answer "no match".
 */
export function searchCatalog(query: string): string[] {
  const reading = readTitle(query);
  if (reading.kind === 'family') return [reading.jobFamilyId];
  if (reading.kind === 'no_family') return [];
  return catalogSearch
    .search(query)
    .filter((hit) => 1 - (hit.score ?? 1) >= MINIMUM_FUZZY_SCORE)
    .map((hit) => hit.item.id);
}

export async function jobCatalog(ctx: Pick<ServiceContext, 'deps'>, search: string | undefined): Promise<Schemas['JobCatalogEntry'][]> {
  const { deps } = ctx;
  const coverage = describeRelease((await currentRelease(deps)).release).familyCoverage;
  const query = search?.trim();
  const ids = query ? searchCatalog(query) : CATALOG_DOCUMENTS.map((d) => d.id);
  return ids.map((id) => presentCatalogEntry(id, coverage));
}
