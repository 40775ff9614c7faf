import { companyScope } from '../../access/caller.js';
import type { components } from '../../contract-types.js';
import { type MinorUnits, minorUnits } from '../../money/minorUnits.js';
import { employeeReach } from '../../people/visibility.js';
import {
  COMPANY_STAGES,
  FOUNDER_TYPES,
  OWNERSHIP_GROUPS,
  countryLocation,
  findJobFamily,
  findLevel,
  findLocation,
  type JobFamily,
  type LevelType,
} from '../../reference/catalog/index.js';
import { queryRelease, type MarketRelease } from '../engine/index.js';
import { currentRelease } from '../releases.js';
import { currencyForexMapping } from '../service.js';
import { baseSalariesOn, employeesInReach, idsWithinReach, type BaseSalary, type LevellingEmployeeRow } from './peopleReads.js';
import { levelFromTitle, levelsOfTrack, readFamilyOfTitle, type TitleLevel } from './titles.js';
import type { ServiceContext } from '../../kernel/operations.js';

type Schemas = components['schemas'];
type Levelled = Schemas['LevelledEmployee'];

/** Levels whose market pay a title's level is read against: its own track (executives share one ladder). */
function ladderOf(levelId: string): string[] {
  const track = findLevel(levelId)?.track ?? 'tr_p';
  return track === 'tr_vp' || track === 'tr_c' ? [...levelsOfTrack('tr_vp'), ...levelsOfTrack('tr_c')] : levelsOfTrack(track);
}

interface LadderPay {
  locationId: string;
  currency: string;
  /** Published market medians of base pay by level, in the ladder's order. */
  medians: { levelId: string; p50: number }[];
}

/** A ladder needs at least two published levels to place anyone on it. */
const MIN_LADDER_LEVELS = 2;

/**
 * Market medians of base pay along a ladder in a location, all companies. A metro too thin to
 * publish a ladder is read at the tier or country it belongs to.
 */
function ladderPay(release: MarketRelease, forex: Readonly<Record<string, number>>, family: string, ladder: string[], locationId: string): LadderPay | null {
  for (let id: string | null | undefined = locationId; id; id = findLocation(id)?.parentId) {
    const result = queryRelease(
      release,
      {
        compensationTypes: ['base'],
        marketFilters: [{ companyStages: COMPANY_STAGES.map((s) => s.id), companyOwnershipGroups: OWNERSHIP_GROUPS.map((o) => o.id), locations: [id], industries: ['ind_all'], founderTypes: FOUNDER_TYPES.map((f) => f.id) }],
        jobFamilies: [family],
        levels: ladder.map((levelId) => ({ type: 'level' as LevelType, id: levelId })),
        percentiles: [50],
      },
      { forex },
    );
    const medians = result.cells.flatMap((cell) => (cell.status === 'published' && cell.percentiles?.[0] ? [{ levelId: cell.levelId, p50: cell.percentiles[0].value }] : []));
    if (medians.length >= MIN_LADDER_LEVELS) return { locationId: id, currency: result.cells[0]?.currency ?? 'USD', medians };
  }
  return null;
}

interface PayReading {
  levelId: string;
  reason: string;
}

const money = (value: number, currency: string): string => `${Math.round(value).toLocaleString('en-US')} ${currency}`;
const display = (levelId: string): string => findLevel(levelId)?.displayString ?? levelId.toUpperCase();

/** The level whose market median is nearest the salary (on a log scale: 10% over and 10% under are as far). */
function readPay(salary: number, currency: string, ladder: LadderPay): PayReading {
  let nearest = ladder.medians[0]!;
  for (const m of ladder.medians) if (Math.abs(Math.log(salary / m.p50)) < Math.abs(Math.log(salary / nearest.p50))) nearest = m;
  const index = ladder.medians.indexOf(nearest);
  const below = salary < nearest.p50 ? ladder.medians[index - 1] : nearest;
  const above = salary < nearest.p50 ? nearest : ladder.medians[index + 1];
  const place = findLocation(ladder.locationId)?.paybenchLocationName ?? ladder.locationId;
  const where =
    below && above && below !== above
      ? `between the market medians of ${display(below.levelId)} (${money(below.p50, ladder.currency)}) and ${display(above.levelId)} (${money(above.p50, ladder.currency)})`
      : `nearest the market median of ${display(nearest.levelId)} (${money(nearest.p50, ladder.currency)})`;
  return { levelId: nearest.levelId, reason: `Base salary of ${money(salary, currency)} sits ${where} in ${place}` };
}

/** An amount in another currency through the USD mapping (units per USD); null when a rate is missing. */
function convert(amount: number, from: string, to: string, forex: Readonly<Record<string, number>>): number | null {
  if (from === to) return amount;
  const fromRate = from === 'USD' ? 1 : forex[from];
  const toRate = to === 'USD' ? 1 : forex[to];
  return fromRate && toRate ? (amount / fromRate) * toRate : null;
}

function confidenceLabel(confidence: number): 'high' | 'medium' | 'low' {
  return confidence >= 0.75 ? 'high' : confidence >= 0.5 ? 'medium' : 'low';
}

const rankOf = (levelId: string): number => findLevel(levelId)?.levelRank ?? 0;

interface Context {
  release: MarketRelease;
  forex: Readonly<Record<string, number>>;
  ladders: Map<string, LadderPay | null>;
  minor: MinorUnits;
}

/**
 * Where an employee's pay is read: their catalog location, else the country their code names. Every
 * ISO 3166-1 country is a market location, so Spain's or India's people are read there (and, where
 * too thin, in their region), not left out.
 */
export function marketLocation(row: Pick<LevellingEmployeeRow, 'location_id' | 'country_code'>): string | null {
  if (row.location_id && findLocation(row.location_id)) return row.location_id;
  return row.country_code ? (countryLocation(row.country_code)?.paybenchLocationId ?? null) : null;
}

/**
 * A suggested level from the title's words and from where the base salary sits among the market's
 * levels of that family and place. Agreeing signals give high confidence; a title without level
 * words defers to pay; pay is read only when the caller may see it.
 */
function levelOne(row: LevellingEmployeeRow, salary: BaseSalary | undefined, payVisible: boolean, ctx: Context): Levelled {
  const reasons: string[] = [];
  const current = { jobFamilyId: row.job_family_id, levelId: row.level_id, locationId: row.location_id };
  const recorded = row.job_family_id ? findJobFamily(row.job_family_id) : undefined;
  const read = recorded ? null : readFamilyOfTitle(row.title);
  const matched = read?.family ? read : null;
  const family: JobFamily | undefined = recorded ?? matched?.family;
  const base = { employeeId: row.id, employeeNumber: row.employee_number, version: Number(row.version), name: [row.first_name, row.last_name].filter(Boolean).join(' '), title: row.title, current };
  if (!family) {
    if (read && read.family === null) reasons.push(`No job family in the catalog matches the title “${row.title}”: it names an occupation the catalog does not cover (“${read.matched}”)`);
    else reasons.push(row.title.trim() ? `No job family in the catalog matches the title “${row.title}”` : 'The employee has no title and no job family');
    return { ...base, suggestion: null, signals: { familyFrom: null, titleLevelId: null, payLevelId: null, payConsidered: false }, reasons };
  }
  let familyConfidence = 1;
  if (recorded) reasons.push(`Job family from the employee’s record: ${family.name}`);
  else if (matched) {
    familyConfidence = 0.6 + 0.4 * matched.score;
    reasons.push(`Title “${row.title}” matches ${family.name} (like “${matched.matched}”)`);
  }
  const worded: TitleLevel = levelFromTitle(row.title, family);
  // A title without level words that the title index knows a level for ("Engineering Manager") says it.
  const title: TitleLevel = worded.strength === 'default' && matched?.levelId ? { levelId: matched.levelId, strength: 'explicit', phrase: matched.matched } : worded;
  if (title.strength === 'explicit') reasons.push(`The title says ${display(title.levelId)} (“${title.phrase ?? ''}”)`);
  else reasons.push(`The title has no level words; ${display(title.levelId)} is the usual level for it`);

  let pay: PayReading | null = null;
  const location = marketLocation(row);
  if (!payVisible) reasons.push('Pay not considered: you may not see this employee’s pay');
  else if (!salary) reasons.push('Pay not considered: no base salary on record');
  else if (!location) reasons.push('Pay not considered: the employee’s location is not in the market');
  else {
    const ladder = ladderOf(title.levelId);
    const key = `${family.id}|${ladder.join(',')}|${location}`;
    if (!ctx.ladders.has(key)) ctx.ladders.set(key, ladderPay(ctx.release, ctx.forex, family.id, ladder, location));
    const market = ctx.ladders.get(key) ?? null;
    const major = salary.amount / 10 ** ctx.minor.of(salary.currency);
    const inMarketCurrency = market ? convert(major, salary.currency, market.currency, ctx.forex) : null;
    if (!market) reasons.push(`Pay not considered: too little market data for ${family.name} here`);
    else if (inMarketCurrency === null) reasons.push(`Pay not considered: no exchange rate for ${salary.currency}`);
    else {
      pay = readPay(inMarketCurrency, market.currency, market);
      reasons.push(pay.reason);
    }
  }

  let levelId = title.levelId;
  let confidence: number;
  if (pay && title.strength === 'explicit') {
    const apart = Math.abs(rankOf(pay.levelId) - rankOf(title.levelId));
    confidence = apart === 0 ? 0.9 : apart === 1 ? 0.65 : 0.4;
    reasons.push(apart === 0 ? 'Title and pay agree' : `Pay points to ${display(pay.levelId)}; the title decides, with less confidence`);
  } else if (pay) {
    levelId = pay.levelId;
    confidence = 0.6;
    reasons.push(`Pay decides: ${display(pay.levelId)}`);
  } else {
    confidence = title.strength === 'explicit' ? 0.55 : 0.3;
  }
  confidence = Math.round(confidence * familyConfidence * 100) / 100;
  const level = findLevel(levelId);
  return {
    ...base,
    suggestion: {
      jobFamilyId: family.id,
      jobFamilyName: family.name,
      levelId,
      levelDisplay: level?.extendedDisplayString ?? display(levelId),
      confidence,
      confidenceLabel: confidenceLabel(confidence),
      matchesCurrent: row.job_family_id === family.id && row.level_id === levelId,
    },
    signals: { familyFrom: recorded ? 'record' : 'title', titleLevelId: title.levelId, payLevelId: pay?.levelId ?? null, payConsidered: pay !== null },
    reasons,
  };
}

export interface LevellingPage {
  data: Schemas['LevelYourEmployees'];
  page: { limit: number; nextCursor: string | null };
}

/**
 * Suggested levels for the employees the caller may see in the team view, one page at a time. Pay
 * counts only for those whose compensation the caller may see too.
 */
export async function levelYourEmployees(context: Pick<ServiceContext, 'deps' | 'caller'>, query: { limit: number; cursor?: string }): Promise<LevellingPage> {
  const { deps, caller } = context;
  const scope = companyScope(caller);
  const teamReach = await employeeReach(deps.db, scope, caller, 'team');
  const rows = await employeesInReach(deps.db, scope, teamReach, query.limit + 1, query.cursor);
  const page = rows.slice(0, query.limit);
  const payReach = await employeeReach(deps.db, scope, caller, 'employeeCompensation');
  const payVisible = await idsWithinReach(deps.db, scope, payReach, page.map((row) => row.id));
  const salaries = await baseSalariesOn(deps.db, scope, [...payVisible], new Date().toISOString().slice(0, 10));
  const served = await currentRelease(deps);
  const ctx: Context = {
    release: served.release,
    forex: await currencyForexMapping(deps.db),
    ladders: new Map(),
    minor: await minorUnits(deps.db),
  };
  return {
    data: {
      releaseId: served.release.id,
      releaseVersion: served.row.version,
      employees: page.map((row) => levelOne(row, salaries.get(row.id), payVisible.has(row.id), ctx)),
    },
    page: { limit: query.limit, nextCursor: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null },
  };
}
