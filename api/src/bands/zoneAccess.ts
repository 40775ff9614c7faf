import type { Caller } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { HttpError } from '../kernel/errors.js';
import type { PayZoneRow } from './store.js';

/*
 * Pay-zone permissions. A `bands` grant has the scope `all` (every zone) or `zones`: its holder sees
 * and edits only the zones that name them among their viewers (`band_pay_zones.viewer_user_ids`, set on
 * the zone by someone with `bands` edit over all zones) — those zones' bands, grade bands and
 * employees. Whatever spans every zone (building, smoothing, importing, publishing a set, and changing
 * zones, jobs, grades, surveys and settings) needs the grant over `all`.
 */

export const ZONES_SCOPE = 'zones';

/** Whether the caller's `bands` grants of this authority reach every zone (a grant with the scope `all`; edit implies view). */
export function seesAllZones(caller: Caller, authority: 'view' | 'edit' = 'view'): boolean {
  return hasPermission(caller.permissions, 'bands', authority, 'all');
}

export function viewersOf(zone: Pick<PayZoneRow, 'viewer_user_ids'>): string[] {
  try {
    const parsed = JSON.parse(zone.viewer_user_ids ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** The zones the caller sees: null for every zone, else the ids of the zones that name them. */
export function zoneReach(caller: Caller, zones: readonly PayZoneRow[], authority: 'view' | 'edit' = 'view'): ReadonlySet<string> | null {
  if (seesAllZones(caller, authority)) return null;
  return new Set(zones.filter((zone) => viewersOf(zone).includes(caller.userId)).map((zone) => zone.id));
}

/** Rows in the zones reached (all of them when the reach is every zone). */
export function inReach<T extends { pay_zone_id: string }>(rows: readonly T[], reach: ReadonlySet<string> | null): T[] {
  return reach ? rows.filter((row) => reach.has(row.pay_zone_id)) : [...rows];
}

/** Refuses a change that spans every zone to a holder limited to some zones. */
export function requireAllZones(caller: Caller): void {
  if (!seesAllZones(caller, 'edit')) {
    throw new HttpError(403, 'forbidden', { message: 'Your salary-bands access is limited to some pay zones; this change spans every zone, so it needs the bands permission over all zones.' });
  }
}

/** The request's context, once a change that spans every zone is its caller's to make (routes mark those operations with it). */
export function acrossZones<C extends { caller: Caller }>(ctx: C): C {
  requireAllZones(ctx.caller);
  return ctx;
}
