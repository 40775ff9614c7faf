import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { moveVersionOn, updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { findLocation } from '../reference/catalog/index.js';
import { currencyForexMapping } from '../market/service.js';
import { requireMinorUnit } from '../money/minorUnits.js';
import { type PayZone, type PayZoneRule, isAnchor, isCatchAll, parseRules, presentZone } from './present.js';
import { type PayZoneRow, bandsUsingZone, deleteZone, findZone, gradeBandsUsingZone, insertZone, listZones, zonesOf } from './store.js';
import { zoneReach } from './zoneAccess.js';
import { usersById } from '../access/userContacts.js';
import type { ServiceContext } from '../kernel/operations.js';

/** The zone a company without zones starts with: everyone, at the anchor's pay. */
export const DEFAULT_ZONE_NAME = 'Everywhere';

/**
 * The company's zones, creating the default catch-all anchor zone on first use, so bands work out of
 * the box. Two first uses at once: one insert wins (unique name), the other reads it.
 */
export async function ensureZones(db: Knex, scope: CompanyScope): Promise<PayZoneRow[]> {
  const zones = await listZones(db, scope);
  if (zones.length) return zones;
  const now = new Date().toISOString();
  try {
    // A savepoint on Postgres (the request's transaction survives a lost race); IMMEDIATE on SQLite.
    await db.transaction(async (trx) => {
      if ((await listZones(trx, scope)).length) return;
      await insertZone(trx, {
        id: newId(),
        company_id: scope.companyId,
        name: DEFAULT_ZONE_NAME,
        differential_bp: 0,
        is_anchor: true,
        is_catch_all: true,
        rules: '[]',
        position: 0,
        currency: null,
        viewer_user_ids: '[]',
        version: 1,
        updated_by: null,
        created_at: now,
        updated_at: now,
      });
    });
  } catch (error) {
    if (!/unique|duplicate/i.test(String(error))) throw error;
  }
  return listZones(db, scope);
}

// ---- matching ---------------------------------------------------------------------------------

const locationTexts = new Map<string, string[]>();

/** What a metro rule can name for a location: its id, name and aliases, and those of the tiers it is in. */
function textsOf(locationId: string): string[] {
  let texts = locationTexts.get(locationId);
  if (!texts) {
    const found = new Set<string>([locationId.toLowerCase()]);
    for (let location = findLocation(locationId); location; location = location.parentId ? findLocation(location.parentId) : undefined) {
      if (location.kind === 'country' || location.kind === 'region') break;
      for (const text of [location.paybenchLocationId, location.paybenchLocationName, ...location.locationAliases]) found.add(text.toLowerCase());
    }
    texts = [...found];
    locationTexts.set(locationId, texts);
  }
  return texts;
}

interface CompiledRule {
  zoneId: string;
  country: string;
  metros: Set<string> | null;
}

/** Who is in which zone: the first rule naming metros that matches, then the first country rule, else the catch-all. */
export function zoneMatcher(zones: readonly PayZoneRow[]): (employee: { country_code: string | null; location_id: string | null }) => string {
  const catchAll = zones.find(isCatchAll) ?? zones[0];
  if (!catchAll) throw new Error('a company with bands always has a catch-all zone');
  const specific: CompiledRule[] = [];
  const countryWide: CompiledRule[] = [];
  for (const zone of zones) {
    if (isCatchAll(zone)) continue;
    for (const rule of parseRules(zone.rules)) {
      if (rule.metros?.length) specific.push({ zoneId: zone.id, country: rule.country, metros: new Set(rule.metros.map((metro) => metro.trim().toLowerCase())) });
      else countryWide.push({ zoneId: zone.id, country: rule.country, metros: null });
    }
  }
  return (employee) => {
    const country = employee.country_code?.toUpperCase() ?? '';
    if (country) {
      if (employee.location_id) {
        const texts = textsOf(employee.location_id);
        const hit = specific.find((rule) => rule.country === country && texts.some((text) => rule.metros?.has(text)));
        if (hit) return hit.zoneId;
      }
      const wide = countryWide.find((rule) => rule.country === country);
      if (wide) return wide.zoneId;
    }
    return catchAll.id;
  };
}

// ---- checks -----------------------------------------------------------------------------------

/** Rules as stored: metros trimmed, repeats dropped, an empty list of metros dropped. */
function normaliseRules(rules: readonly PayZoneRule[]): PayZoneRule[] {
  const out: PayZoneRule[] = [];
  const seen = new Set<string>();
  for (const rule of rules) {
    const byKey = new Map<string, string>();
    for (const metro of rule.metros ?? []) if (metro.trim() && !byKey.has(metro.trim().toLowerCase())) byKey.set(metro.trim().toLowerCase(), metro.trim());
    const metros = [...byKey.values()];
    const key = `${rule.country}|${metros.map((m) => m.toLowerCase()).sort().join('|')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(metros.length ? { country: rule.country, metros } : { country: rule.country });
  }
  return out;
}

const ruleKeys = (rules: readonly PayZoneRule[]): string[] =>
  rules.flatMap((rule) => (rule.metros?.length ? rule.metros.map((metro) => `${rule.country} ${metro.toLowerCase()}`) : [rule.country]));

/** A country or metro belongs to one zone: naming it in a second would leave who is where to order alone. */
function checkRules(rules: PayZoneRule[], catchAll: boolean, others: readonly PayZoneRow[]): void {
  if (catchAll && rules.length) throw badRequest('The catch-all zone holds everyone no other zone matches; it has no rules.', [{ field: 'body.rules', message: 'must be empty for the catch-all zone' }]);
  if (!catchAll && !rules.length) throw badRequest('A pay zone needs at least one rule (a country, optionally with metros or cities).', [{ field: 'body.rules', message: 'must name at least one country' }]);
  const taken = new Map<string, string>();
  for (const other of others) for (const key of ruleKeys(parseRules(other.rules))) taken.set(key.toLowerCase(), other.name);
  for (const key of ruleKeys(rules)) {
    const owner = taken.get(key.toLowerCase());
    if (owner) throw badRequest(`${key} is already matched by the zone “${owner}”.`, [{ field: 'body.rules', message: `${key} belongs to ${owner}` }]);
  }
}

function checkAnchorDifferential(anchor: boolean, differentialBp: number): void {
  if (anchor && differentialBp !== 0) {
    throw badRequest('The anchor zone is the reference: its differential is 0.', [{ field: 'body.differentialBp', message: 'must be 0 for the anchor zone' }]);
  }
}

// ---- operations -------------------------------------------------------------------------------

/** The zones the caller sees: every zone, or (a `bands` grant scoped to `zones`) the zones that name them. */
export async function listPayZones(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<PayZone[]> {
  const { db, caller } = ctx;
  const zones = await ensureZones(db, companyScope(caller));
  const reach = zoneReach(caller, zones);
  return zones.filter((zone) => !reach || reach.has(zone.id)).map(presentZone);
}

interface ZoneInput {
  name: string;
  differentialBp?: number;
  anchor?: boolean;
  rules?: PayZoneRule[];
  currency?: string | null;
  viewerUserIds?: string[];
}

/** A zone's own currency: an ISO 4217 code the reference rates cover, since its bands are converted into it. */
async function zoneCurrency(db: Knex, currency: string | null | undefined): Promise<string | null> {
  if (!currency) return null;
  await requireMinorUnit(db, currency, 'body.currency');
  if (currency !== 'USD' && (await currencyForexMapping(db))[currency] === undefined) {
    throw badRequest(`There is no reference exchange rate for ${currency}, so bands cannot be converted into it.`, [{ field: 'body.currency', message: `${currency} has no reference rate` }]);
  }
  return currency;
}

/** "Who can see this zone": users of the company (400 naming any other id). */
async function viewersText(db: Knex, scope: CompanyScope, ids: readonly string[]): Promise<string> {
  const found = await usersById(db, scope, ids);
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw badRequest('Only people of the company can be given a pay zone.', unknown.map((id) => ({ field: 'body.viewerUserIds', message: `${id} is not a user of the company` })));
  return JSON.stringify([...new Set(ids)]);
}

export async function createPayZone(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: ZoneInput): Promise<PayZone> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  await ensureZones(db, scope);
  const id = newId();
  await db.transaction(async (trx) => {
    const zones = await listZones(trx, scope);
    const rules = normaliseRules(input.rules ?? []);
    const anchor = input.anchor ?? false;
    const differential = input.differentialBp ?? 0;
    checkRules(rules, false, zones);
    checkAnchorDifferential(anchor, differential);
    const now = new Date().toISOString();
    if (anchor) await passRole(trx, scope, zones, 'is_anchor', caller.userId);
    await insertZone(trx, {
      id,
      company_id: scope.companyId,
      name: input.name.trim(),
      differential_bp: differential,
      is_anchor: anchor,
      is_catch_all: false,
      rules: JSON.stringify(rules),
      position: Math.max(0, ...zones.map((zone) => Number(zone.position))) + 1,
      currency: await zoneCurrency(trx, input.currency),
      viewer_user_ids: await viewersText(trx, scope, input.viewerUserIds ?? []),
      version: 1,
      updated_by: caller.userId,
      created_at: now,
      updated_at: now,
    });
  });
  return presentZone((await findZone(db, scope, id)) as PayZoneRow);
}

/** The zone that held the anchor role gives it up (its version moves on). */
async function passRole(trx: Knex, scope: CompanyScope, zones: readonly PayZoneRow[], column: 'is_anchor', userId: string): Promise<void> {
  for (const zone of zones.filter(isAnchor)) {
    await moveVersionOn(() => zonesOf(trx, scope).where({ id: zone.id }), { [column]: false, updated_by: userId, updated_at: new Date().toISOString() });
  }
}

export async function updatePayZone(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string, ifMatch: string, patch: Omit<Partial<ZoneInput>, 'name'> & { name?: string }): Promise<PayZone> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await ensureZones(db, scope);
  await db.transaction(async (trx) => {
    const zone = await findZone(trx, scope, id);
    if (!zone) throw notFound();
    const others = (await listZones(trx, scope)).filter((other) => other.id !== id);
    const catchAll = isCatchAll(zone);
    const wasAnchor = isAnchor(zone);
    const anchor = patch.anchor ?? wasAnchor;
    if (wasAnchor && patch.anchor === false) {
      throw badRequest('There is always one anchor zone: make another zone the anchor instead.', [{ field: 'body.anchor', message: 'cannot be cleared on the anchor zone' }]);
    }
    const differential = patch.differentialBp ?? Number(zone.differential_bp);
    checkAnchorDifferential(anchor, differential);
    const changes: Partial<PayZoneRow> = { differential_bp: differential, updated_by: caller.userId, updated_at: new Date().toISOString() };
    if (patch.name !== undefined) changes.name = patch.name.trim();
    if (patch.viewerUserIds !== undefined) changes.viewer_user_ids = await viewersText(trx, scope, patch.viewerUserIds);
    if (patch.currency !== undefined) changes.currency = await zoneCurrency(trx, patch.currency);
    if (patch.rules !== undefined) {
      const rules = normaliseRules(patch.rules);
      checkRules(rules, catchAll, others);
      changes.rules = JSON.stringify(rules);
    }
    if (anchor && !wasAnchor) {
      // The version check comes first, so a stale caller moves nothing.
      if (Number(zone.version) !== version) throw versionConflict('this pay zone', Number(zone.version));
      await passRole(trx, scope, others, 'is_anchor', caller.userId);
      changes.is_anchor = true;
    }
    await updateAtVersion(() => zonesOf(trx, scope).where({ id }), version, changes, 'this pay zone');
  });
  return presentZone((await findZone(db, scope, id)) as PayZoneRow);
}

export async function deletePayZone(ctx: Pick<ServiceContext, 'db' | 'caller'>, id: string): Promise<PayZone> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return db.transaction(async (trx) => {
    const zone = await findZone(trx, scope, id);
    if (!zone) throw notFound();
    if (isCatchAll(zone)) throw new HttpError(409, 'zone_required', { message: 'The catch-all zone cannot be deleted: every employee must be in a zone.' });
    if (isAnchor(zone)) throw new HttpError(409, 'zone_required', { message: 'The anchor zone cannot be deleted: make another zone the anchor first.' });
    const used = (await bandsUsingZone(trx, scope, id)) + (await gradeBandsUsingZone(trx, scope, id));
    if (used) throw new HttpError(409, 'zone_in_use', { message: `${used} band${used === 1 ? '' : 's'} use this zone; delete or rebuild those band sets first.` });
    await deleteZone(trx, scope, id);
    return presentZone(zone);
  });
}
