import type { Knex } from 'knex';
import { type Caller, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import type { AppDeps } from '../deps.js';
import { countryLocation, findLocation } from '../reference/catalog/index.js';
import { nearestIndex } from '../market/insights/locations.js';
import { currentRelease } from '../market/releases.js';
import { currencyForexMapping } from '../market/service.js';
import { type BandEmployeeRow, activeEmployeesForBands, activeIdsWithinReach } from './peopleReads.js';
import { employeeReach } from '../people/visibility.js';
import { isAnchor, isCatchAll, parseRules } from './present.js';
import { callerZoneReach } from './sets.js';
import { marketLocationFor } from './zonePricing.js';
import type { PayZoneRow } from './store.js';
import { createPayZone, ensureZones, zoneMatcher } from './zones.js';
import type { ServiceContext } from '../kernel/operations.js';

type Schemas = components['schemas'];
type PayZoneCheck = Schemas['PayZoneCheck'];
type Mismatch = PayZoneCheck['groups'][number];
type Suggestion = Mismatch['suggestion'];

/*
 * Zone checks: a zone is priced for the countries its rules name; the catch-all, which names none, for
 * the country of the market location the bands are built from (the anchor's). Someone whose country
 * is not what their zone is priced for — Londoners in a catch-all priced in the US — gets another
 * country's pay as their band, so they are listed with a zone for their country, priced from the
 * market as the location insights price places: the country's pay index against the market location.
 */

const nameOf = (employee: BandEmployeeRow): string => [employee.first_name, employee.last_name].filter(Boolean).join(' ');

/** The countries a zone is priced for: its rules' countries, or the market location's for the catch-all. */
function pricedFor(zone: PayZoneRow, marketCountry: string | null): Set<string> {
  if (isCatchAll(zone)) return new Set(marketCountry ? [marketCountry] : []);
  return new Set(parseRules(zone.rules).map((rule) => rule.country.toUpperCase()));
}

interface Market {
  locationId: string;
  index: (countryLocationId: string) => { index: number; area: string } | null;
  hasRate: (currency: string) => boolean;
}

async function marketOf(deps: AppDeps, locationId: string): Promise<Market> {
  const [served, forex] = await Promise.all([currentRelease(deps), currencyForexMapping(deps.db)]);
  return {
    locationId,
    index: (countryLocationId) => nearestIndex(served.release, forex, 'base', locationId, countryLocationId),
    hasRate: (currency) => currency === 'USD' || forex[currency] !== undefined,
  };
}

/** A zone for the whole country, its differential the country's pay index against the market location (to the basis point). */
function suggestionFor(country: string, market: Market, takenNames: ReadonlySet<string>): Suggestion {
  const location = countryLocation(country);
  const countryName = location?.paybenchLocationName ?? country;
  const name = takenNames.has(countryName.toLowerCase()) ? `${countryName} (${country})` : countryName;
  const found = location ? market.index(location.paybenchLocationId) : null;
  const currency = location && market.hasRate(location.currencyCode) ? location.currencyCode : null;
  if (!found) {
    return { name, rules: [{ country }], differentialBp: null, currency, payIndex: null, basis: null, reason: `The market publishes too little for ${countryName} to price a zone; add one with a differential of your own.` };
  }
  return {
    name,
    rules: [{ country }],
    differentialBp: Math.round((found.index - 1) * 10_000),
    currency,
    payIndex: Math.round(found.index * 10_000) / 10_000,
    basis: found.area,
    reason: null,
  };
}

interface Group {
  zone: PayZoneRow;
  country: string;
  people: BandEmployeeRow[];
}

/** The people in zones priced for another country, by zone and country; names only within the caller's team reach. */
async function checkZones(deps: AppDeps, caller: Caller, input: { zones: readonly PayZoneRow[]; marketLocationId: string }): Promise<PayZoneCheck> {
  const { db } = deps;
  const scope = companyScope(caller);
  const location = findLocation(input.marketLocationId);
  const marketCountry = location?.country ?? null;
  const [employees, zoneReach, teamReach] = await Promise.all([activeEmployeesForBands(db, scope), callerZoneReach(db, scope, caller), employeeReach(db, scope, caller, 'team')]);
  const zoneOf = zoneMatcher(input.zones);
  const byId = new Map(input.zones.map((zone) => [zone.id, zone]));
  const groups = new Map<string, Group>();
  for (const employee of employees) {
    const country = employee.country_code?.toUpperCase();
    if (!country) continue;
    const zone = byId.get(zoneOf(employee));
    if (!zone || (zoneReach && !zoneReach.has(zone.id)) || pricedFor(zone, marketCountry).has(country)) continue;
    const key = `${zone.id}|${country}`;
    const group = groups.get(key) ?? { zone, country, people: [] };
    group.people.push(employee);
    groups.set(key, group);
  }
  const visible = groups.size ? await activeIdsWithinReach(db, scope, teamReach) : null;
  const market = groups.size ? await marketOf(deps, input.marketLocationId) : null;
  const takenNames = new Set(input.zones.map((zone) => zone.name.trim().toLowerCase()));
  const list: Mismatch[] = [...groups.values()].map((group) => present(group, { visible, market: market as Market, takenNames }));
  list.sort((a, b) => b.count - a.count || a.countryName.localeCompare(b.countryName));
  return {
    marketLocation: { id: input.marketLocationId, name: location?.paybenchLocationName ?? input.marketLocationId, country: marketCountry },
    total: list.reduce((sum, group) => sum + group.count, 0),
    groups: list,
  };
}

function present(group: Group, context: { visible: ReadonlySet<string> | null; market: Market; takenNames: ReadonlySet<string> }): Mismatch {
  const countryName = countryLocation(group.country)?.paybenchLocationName ?? group.country;
  const metros = new Map<string | null, { locationId: string | null; name: string; count: number }>();
  for (const person of group.people) {
    const place = person.location_id ? findLocation(person.location_id) : undefined;
    const metro = place?.kind === 'metro' ? place : undefined;
    const key = metro?.paybenchLocationId ?? null;
    const entry = metros.get(key) ?? { locationId: key, name: metro?.paybenchLocationName ?? `Elsewhere in ${countryName}`, count: 0 };
    entry.count += 1;
    metros.set(key, entry);
  }
  const named = group.people.filter((person) => !context.visible || context.visible.has(person.id));
  return {
    zoneId: group.zone.id,
    zoneName: group.zone.name,
    catchAll: isCatchAll(group.zone),
    country: group.country,
    countryName,
    count: group.people.length,
    metros: [...metros.values()].sort((a, b) => b.count - a.count || (a.locationId === null ? 1 : 0) - (b.locationId === null ? 1 : 0) || a.name.localeCompare(b.name)),
    employees: named.map((person) => {
      const place = person.location_id ? findLocation(person.location_id) : undefined;
      return { employeeId: person.id, name: nameOf(person), locationName: place?.paybenchLocationName ?? null };
    }),
    suggestion: suggestionFor(group.country, context.market, context.takenNames),
  };
}

/** The check against the zones as they are, priced from the market location a build would use now (the anchor's). */
export async function payZoneCheck(ctx: Pick<ServiceContext, 'deps' | 'caller'>, marketLocationId?: string): Promise<PayZoneCheck> {
  const { deps, caller } = ctx;
  const zones = await ensureZones(deps.db, companyScope(caller));
  return checkZones(deps, caller, { zones, marketLocationId: marketLocationFor(marketLocationId, zones.find(isAnchor)) });
}

/**
 * Adds the suggested zones (all, or those of `countries`) in one transaction, each priced as the check
 * suggests it now; a country the market cannot price is left out. Answers the zones made and the check after.
 */
export async function addSuggestedZones(ctx: Pick<ServiceContext, 'deps' | 'caller'>, input: { countries?: string[]; marketLocationId?: string }): Promise<Schemas['SuggestedZonesResult']> {
  const { deps, caller } = ctx;
  const before = await payZoneCheck({ deps, caller }, input.marketLocationId);
  const wanted = input.countries ? new Set(input.countries.map((country) => country.trim().toUpperCase())) : null;
  const seen = new Set<string>();
  const suggestions = before.groups
    .map((group) => group.suggestion)
    .filter((suggestion) => {
      const country = suggestion.rules[0]?.country ?? '';
      if (suggestion.differentialBp === null || seen.has(country) || (wanted && !wanted.has(country))) return false;
      seen.add(country);
      return true;
    });
  const created = await deps.db.transaction(async (trx: Knex) => {
    const made: Schemas['PayZone'][] = [];
    for (const suggestion of suggestions) {
      made.push(await createPayZone({ db: trx, caller }, { name: suggestion.name, rules: suggestion.rules, differentialBp: suggestion.differentialBp ?? 0, currency: suggestion.currency }));
    }
    return made;
  });
  return { created, zoneCheck: await payZoneCheck({ deps, caller }, input.marketLocationId) };
}

/** The check a build reports: the zones it priced, from the market location of its philosophy. */
export function buildZoneCheck(deps: AppDeps, caller: Caller, zones: readonly PayZoneRow[], marketLocationId: string): Promise<PayZoneCheck> {
  return checkZones(deps, caller, { zones, marketLocationId });
}
