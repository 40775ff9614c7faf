import type { Knex } from 'knex';
import { type Caller, type CompanyScope } from '../access/caller.js';
import { moduleAvailable } from '../access/flags.js';
import { hasPermission } from '../access/permissions.js';
import { compaRatio, positionIn, rangePenetration } from '../bands/formulas.js';
import { loadBandLocator } from '../bands/placement.js';
import { findJob, findLiveSet } from '../bands/store.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { HttpError } from '../kernel/errors.js';
import { offerInsights } from '../market/insights/offers.js';
import { type Converter, today } from '../money/converter.js';
import { peerBasesForOffer } from '../people/offerHire.js';
import { approvalRouteFor } from './approvals.js';
import { postedRangeFor } from './postedRange.js';
import type { StoredAlternative, StoredPackage } from './package.js';

type Schemas = components['schemas'];
type BandCheck = Schemas['OfferBandCheck'];
type MarketCheck = Schemas['OfferMarketCheck'];

/** What the checks need of an offer, saved or not. */
export interface CheckSubject {
  jobFamilyId: string;
  levelId: string;
  department: string | null;
  locationId: string;
  countryCode: string | null;
  currency: string;
  package: StoredPackage;
  alternatives: readonly StoredAlternative[];
}

/** A band check that found no band, saying why. */
export const noBand = (label: string, partial: Partial<BandCheck> = {}): BandCheck => ({
  bandSetId: null,
  bandSetName: null,
  payZoneId: null,
  payZoneName: null,
  band: null,
  compaRatio: null,
  rangePenetration: null,
  position: null,
  label,
  ...partial,
});

interface BandPlacer {
  place(base: number, currency: string): Promise<BandCheck>;
}

/** The live band set for the offer's job × zone, read once; bases placed in it (formulas of api/src/bands). */
async function bandPlacer(db: Knex, scope: CompanyScope, caller: Caller, subject: CheckSubject, converter: Converter): Promise<BandPlacer> {
  const fixed = (check: BandCheck): BandPlacer => ({ place: () => Promise.resolve(check) });
  if (!moduleAvailable('bands', caller.flags)) return fixed(noBand('Salary bands are not switched on for your company'));
  const set = await findLiveSet(db, scope);
  if (!set) return fixed(noBand('No live band set'));
  const inSet = { bandSetId: set.id, bandSetName: set.name };
  // An offer names its family and level, whatever rule places the company's employees.
  const locator = await loadBandLocator(db, scope, set.id, 'familyLevel');
  if (!locator) return fixed(noBand('No pay zones', inSet));
  const placement = locator.locate({ job_family_id: subject.jobFamilyId, level_id: subject.levelId, title: null, job_code: null, country_code: subject.countryCode, location_id: subject.locationId });
  const zone = locator.zones.find((candidate) => candidate.id === placement.zoneId);
  const inZone = { ...inSet, payZoneId: placement.zoneId, payZoneName: zone?.name ?? null };
  if (!placement.band) return fixed(noBand(placement.unplaced === 'noCompanyJob' ? 'No company job for this family and level' : 'No band for this job or its grade in this pay zone', inZone));
  const band = placement.band;
  const [min, mid, max] = [Number(band.min_amount), Number(band.mid_amount), Number(band.max_amount)];
  const figures = { min: { amount: min, currency: band.currency }, mid: { amount: mid, currency: band.currency }, max: { amount: max, currency: band.currency } };
  const placed = { ...inZone, band: figures, ...(placement.gradeKey ? { gradeKey: placement.gradeKey } : {}) };
  return {
    async place(base, currency) {
      const converted = await converter.convert({ amount: base, currency }, band.currency);
      if (!converted) return noBand(`No reference exchange rate from ${currency} to ${band.currency}`, placed);
      return {
        ...placed,
        compaRatio: compaRatio(converted.amount, mid),
        rangePenetration: rangePenetration(converted.amount, min, max),
        position: positionIn(converted.amount, min, max),
        label: null,
      };
    },
  };
}

const percentileLabel = (p: number): string => `p${p}`;

/** Where a base sits among a published cell's percentiles: "below p10", "p50–p75", "above p90". */
function percentileBand(base: number, cell: Schemas['BenchmarkCell']): string | null {
  const points = [...(cell.percentiles ?? [])].sort((a, b) => a.percentile - b.percentile);
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return null;
  if (base < first.value) return `below ${percentileLabel(first.percentile)}`;
  if (base > last.value) return `above ${percentileLabel(last.percentile)}`;
  for (let i = 0; i < points.length - 1; i += 1) {
    const [low, high] = [points[i], points[i + 1]];
    if (low && high && base >= low.value && base <= high.value) return base === low.value ? `at ${percentileLabel(low.percentile)}` : `${percentileLabel(low.percentile)}–${percentileLabel(high.percentile)}`;
  }
  return `at ${percentileLabel(last.percentile)}`;
}

/** The market cell through the benchmarking engine (its disclosure control withholds thin cells). */
async function marketCheck(deps: AppDeps, subject: CheckSubject, converter: Converter): Promise<MarketCheck> {
  const none = (label: string): MarketCheck => ({ releaseVersion: null, base: null, totalCash: null, basePercentileBand: null, label });
  try {
    const insight = await offerInsights({ deps }, { jobFamilyId: subject.jobFamilyId, level: { type: 'level', id: subject.levelId }, locationId: subject.locationId, currency: 'local' });
    let band: string | null = null;
    const cell = insight.base;
    if (cell.status === 'published' && cell.currency) {
      const converted = await converter.convert({ amount: subject.package.base, currency: subject.currency }, cell.currency);
      if (converted) band = percentileBand(converted.amount / 10 ** converter.minorUnit(cell.currency), cell);
    }
    return { releaseVersion: insight.releaseVersion, base: insight.base, totalCash: insight.totalCash, basePercentileBand: band, label: cell.status === 'published' ? null : 'Insufficient data' };
  } catch (error) {
    if (error instanceof HttpError && (error.status === 400 || error.status === 503)) return none(error.status === 503 ? 'No market data release is published yet' : 'No market match');
    throw error;
  }
}

function median(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2);
}

/** Peers at the same family and level; their pay only for callers who may see everyone's. */
async function internalEquity(db: Knex, scope: CompanyScope, caller: Caller, subject: CheckSubject): Promise<Schemas['OfferInternalEquity']> {
  const bases = await peerBasesForOffer(db, scope, subject.jobFamilyId, subject.levelId, today());
  if (!hasPermission(caller.permissions, 'employeeCompensation', 'view', 'all')) return { peerCount: bases.length };
  const same = bases.filter((base): base is NonNullable<typeof base> => base !== null && base.currency === subject.currency).map((base) => base.amount).sort((a, b) => a - b);
  const other = bases.filter((base) => base !== null && base.currency !== subject.currency).length;
  const result: Schemas['OfferInternalEquity'] = { peerCount: bases.length, comparedCount: same.length, otherCurrencyCount: other };
  const [low, high] = [same[0], same.at(-1)];
  if (low === undefined || high === undefined) return result;
  const money = (amount: number) => ({ amount, currency: subject.currency });
  return { ...result, min: money(low), median: money(median(same)), max: money(high) };
}

const outside = (check: BandCheck): boolean => check.position === 'below' || check.position === 'above';

/** Band position, market and internal equity of the package and its alternatives, and whether approval is needed. */
export async function offerChecks(deps: AppDeps, db: Knex, caller: Caller, subject: CheckSubject, converter: Converter): Promise<Schemas['OfferChecks']> {
  const scope = { companyId: caller.companyId ?? '' };
  const placer = await bandPlacer(db, scope, caller, subject, converter);
  const band = await placer.place(subject.package.base, subject.currency);
  const alternatives = [];
  for (const alternative of subject.alternatives) alternatives.push({ id: alternative.id, label: alternative.label, band: await placer.place(alternative.package.base, subject.currency) });
  const reasons: string[] = [];
  const describe = (label: string, check: BandCheck) => {
    if (check.position === 'below') reasons.push(`${label} is below the band's minimum`);
    if (check.position === 'above') reasons.push(`${label} is above the band's maximum`);
  };
  describe('The base salary', band);
  for (const alternative of alternatives) describe(`The base salary of “${alternative.label}”`, alternative.band);
  const posted = await postedCheck(db, scope, subject, converter);
  if (posted?.position === 'below') reasons.push(`The base salary is below the range posted for ${posted.place}`);
  if (posted?.position === 'above') reasons.push(`The base salary is above the range posted for ${posted.place}`);
  const outOfRange = outside(band) || alternatives.some((alternative) => outside(alternative.band)) || posted?.position === 'below' || posted?.position === 'above';
  const route = outOfRange ? await approvalRouteFor(db, scope, { department: subject.department, locationId: subject.locationId }) : null;
  return {
    band,
    market: await marketCheck(deps, subject, converter),
    internalEquity: await internalEquity(db, scope, caller, subject),
    outOfRange,
    reasons,
    approvalRequired: route !== null,
    approvalRoute: route,
    alternatives,
    ...(posted ? { postedRange: posted } : {}),
  };
}

/** The range an open posting published for the offer's job and place, and where the base sits in it. */
async function postedCheck(db: Knex, scope: CompanyScope, subject: CheckSubject, converter: Converter): Promise<Schemas['OfferChecks']['postedRange'] | null> {
  const posted = await postedRangeFor(db, scope, subject);
  if (!posted) return null;
  const converted = await converter.convert({ amount: subject.package.base, currency: subject.currency }, posted.currency);
  const position = !converted ? null : converted.amount < posted.min ? 'below' : converted.amount > posted.max ? 'above' : 'within';
  return { postingId: posted.postingId, title: posted.title, place: posted.place, min: { amount: posted.min, currency: posted.currency }, max: { amount: posted.max, currency: posted.currency }, position };
}

/** A company job of the caller's company, for its family, level, track and title. */
export async function companyJobOf(db: Knex, scope: CompanyScope, id: string) {
  return findJob(db, scope, id);
}
