import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { loadBandLocator } from '../bands/placement.js';
import { findLiveSet } from '../bands/store.js';
import type { AppDeps } from '../deps.js';
import { HttpError } from '../kernel/errors.js';
import { findJobFamily, findLocation } from '../reference/catalog/index.js';
import { offerInsights } from '../market/insights/offers.js';
import { budgetTree } from '../meritCycles/budgets.js';
import { listCycles, listWorksheets } from '../meritCycles/store.js';
import { Converter } from '../money/converter.js';
import { type DataLabEmployee, dataLabEmployees, dataLabGrants } from './peopleReads.js';
import {
  type BandPlacement,
  type ComputedInsight,
  type CyclePacing,
  type MarketComparison,
  bandInsights,
  budgetPacingInsights,
  compressionInsight,
  dataQualityInsights,
  equityRefreshInsight,
  marketInsight,
  median,
  payEquityInsight,
} from './kinds.js';

/* Reads what each insight needs (people through the people module, bands, the market engine, merit cycles) and computes them all. */

async function bandPlacements(db: Knex, scope: CompanyScope, employees: readonly DataLabEmployee[], converter: Converter): Promise<{ set: { id: string; name: string }; placements: BandPlacement[] } | null> {
  const set = await findLiveSet(db, scope);
  const locator = set ? await loadBandLocator(db, scope, set.id) : null;
  if (!set || !locator) return null;
  const placements: BandPlacement[] = [];
  for (const employee of employees) {
    if (!employee.base) continue;
    const placed = locator.locate({
      job_family_id: employee.jobFamilyId,
      level_id: employee.levelId,
      title: employee.title,
      job_code: employee.jobCode,
      country_code: employee.countryCode,
      location_id: employee.locationId,
    });
    if (!placed.band) continue;
    const band = placed.band;
    const converted = await converter.convert({ amount: employee.base.amount, currency: employee.base.currency }, band.currency);
    if (!converted) continue;
    placements.push({ employeeId: employee.id, base: converted.amount, min: Number(band.min_amount), max: Number(band.max_amount), currency: band.currency });
  }
  return { set: { id: set.id, name: set.name }, placements };
}

/** The company's employees by family × level × location against the market cell, through the engine's disclosure control. */
async function marketComparisons(deps: AppDeps, employees: readonly DataLabEmployee[], converter: Converter): Promise<{ comparisons: MarketComparison[]; releaseVersion: string } | null> {
  const groups = new Map<string, DataLabEmployee[]>();
  for (const e of employees) {
    if (!e.jobFamilyId || !e.levelId || !e.locationId || !e.base) continue;
    const key = `${e.jobFamilyId}|${e.levelId}|${e.locationId}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const comparisons: MarketComparison[] = [];
  let releaseVersion = '';
  for (const [key, people] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
    const [jobFamilyId = '', levelId = '', locationId = ''] = key.split('|');
    let insight;
    try {
      insight = await offerInsights({ deps }, { jobFamilyId, level: { type: 'level', id: levelId }, locationId, currency: 'local' });
    } catch (error) {
      if (error instanceof HttpError && error.status === 503) return null;
      if (error instanceof HttpError && error.status === 400) continue;
      throw error;
    }
    releaseVersion = insight.releaseVersion;
    const cell = insight.base;
    const currency = cell.currency ?? people[0]?.base?.currency ?? 'USD';
    const bases: number[] = [];
    for (const person of people) {
      const converted = person.base ? await converter.convert({ amount: person.base.amount, currency: person.base.currency }, currency) : null;
      if (converted) bases.push(converted.amount / 10 ** converter.minorUnit(currency));
    }
    if (!bases.length) continue;
    const p50 = cell.status === 'published' ? (cell.percentiles?.find((p) => p.percentile === 50)?.value ?? null) : null;
    comparisons.push({
      label: `${findJobFamily(jobFamilyId)?.name ?? jobFamilyId} ${levelId.toUpperCase()} · ${findLocation(locationId)?.paybenchLocationName ?? locationId}`,
      employees: bases.length,
      companyMedian: median(bases),
      currency,
      marketP50: p50,
      marketCompanies: p50 === null ? null : cell.sample.companies,
      marketEmployees: p50 === null ? null : cell.sample.employees,
    });
  }
  return { comparisons, releaseVersion };
}

const SUBMITTED = new Set(['in_review', 'approved']);

async function cyclePacing(db: Knex, scope: CompanyScope): Promise<CyclePacing[]> {
  const out: CyclePacing[] = [];
  for (const cycle of (await listCycles(db, scope)).filter((row) => row.state === 'active')) {
    const worksheets = (await listWorksheets(db, scope, cycle.id)).filter((w) => w.state !== 'pulled_up');
    const tree = budgetTree(worksheets);
    const ids = new Set(worksheets.map((w) => w.id));
    let allocated = 0;
    let used = 0;
    for (const worksheet of worksheets) {
      if (worksheet.parent_worksheet_id && ids.has(worksheet.parent_worksheet_id)) continue;
      const figures = tree.branch.get(worksheet.id);
      allocated += figures?.allocated ?? 0;
      used += figures?.used ?? 0;
    }
    out.push({ cycleId: cycle.id, name: cycle.name, currency: cycle.currency, allocated, used, worksheets: worksheets.length, submitted: worksheets.filter((w) => SUBMITTED.has(w.state)).length });
  }
  return out;
}

/** Every insight of the company on `day`, most severe first. */
export async function computeInsights(deps: AppDeps, db: Knex, scope: CompanyScope, day: string): Promise<ComputedInsight[]> {
  const employees = await dataLabEmployees(db, scope, day);
  // Pay against bands is the company's own money (its own rates); against the market, the reference rates.
  const converter = await Converter.open(db, day, { scope });
  const insights: ComputedInsight[] = [];
  const bands = await bandPlacements(db, scope, employees, converter);
  const rates = converter.rateSource();
  if (bands) insights.push(...bandInsights(bands.placements, bands.set, rates.source === 'none' ? '' : rates.label));
  const market = await marketComparisons(deps, employees, converter.market());
  const marketFinding = market ? marketInsight(market.comparisons, market.releaseVersion) : null;
  if (marketFinding) insights.push(marketFinding);
  const compression = compressionInsight(employees, day);
  if (compression) insights.push(compression);
  const equity = payEquityInsight(employees);
  if (equity) insights.push(equity);
  const refresh = equityRefreshInsight(employees, await dataLabGrants(db, scope), day);
  if (refresh) insights.push(refresh);
  insights.push(...budgetPacingInsights(await cyclePacing(db, scope)));
  insights.push(...dataQualityInsights(employees, day));
  const rank = { high: 0, medium: 1, low: 2 };
  return insights.sort((a, b) => rank[a.severity] - rank[b.severity] || a.key.localeCompare(b.key));
}
