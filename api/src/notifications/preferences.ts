import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { isoTimestampOrNull } from '../db/timestamps.js';
import { updateAtVersion, versionConflict, versionOf } from '../kernel/versions.js';
import { type StoredChoices, findPreferences, insertPreferences, preferencesRow } from './preferencesStore.js';
import type { ServiceContext } from '../kernel/operations.js';

/*
 * Notification preferences: per planning event, whether a person is e-mailed and told in the app.
 * Every event is on until the person turns it off, so someone who never opened the settings hears
 * of everything that waits for them. Saved as one versioned document per person (If-Match).
 */

type Schemas = components['schemas'];
export type PlanningNotificationEvent = Schemas['PlanningNotificationEvent'];
export type NotificationPreferences = Schemas['NotificationPreferences'];
export type Channels = { email: boolean; inApp: boolean };

/** Every planning event, in the order the settings list them. */
export const PLANNING_EVENTS: readonly PlanningNotificationEvent[] = ['worksheetSubmitted', 'worksheetSentBack', 'worksheetApproved', 'worksheetReopened', 'cycleLaunched', 'windowClosing'];

const ALL_ON: Channels = { email: true, inApp: true };

const parse = (text: string | undefined): StoredChoices => (text ? (JSON.parse(text) as StoredChoices) : {});

function present(choices: StoredChoices, version: number, updatedAt: string | null): NotificationPreferences {
  return { version, updatedAt, events: PLANNING_EVENTS.map((event) => ({ event, ...(choices[event] ?? ALL_ON) })) };
}

export async function getPreferences(ctx: Pick<ServiceContext, 'db' | 'caller'>): Promise<NotificationPreferences> {
  const { db, caller } = ctx;
  const row = await findPreferences(db, companyScope(caller), caller.userId);
  return row ? present(parse(row.preferences), Number(row.version), isoTimestampOrNull(row.updated_at)) : present({}, 0, null);
}

/** The listed events are set, the others keep their choice; only at the version the caller read. */
export async function updatePreferences(ctx: Pick<ServiceContext, 'db' | 'caller'>, ifMatch: string, input: Schemas['NotificationPreferencesInput']): Promise<NotificationPreferences> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  const current = await findPreferences(db, scope, caller.userId);
  const stored = current ? Number(current.version) : 0;
  if (stored !== version) throw versionConflict('your notification preferences', stored);
  const choices = parse(current?.preferences);
  for (const { event, email, inApp } of input.events) choices[event] = { email, inApp };
  const updatedAt = new Date().toISOString();
  const changes = { preferences: JSON.stringify(choices), updated_at: updatedAt };
  // Two first saves racing both insert; the second is a unique violation, answered 409.
  if (!current) await insertPreferences(db, { company_id: scope.companyId, user_id: caller.userId, version: 1, ...changes });
  else await updateAtVersion(() => preferencesRow(db, scope, caller.userId), version, changes, 'your notification preferences');
  return present(choices, version + 1, updatedAt);
}

/** How a person wants to hear of one planning event (both on unless they turned one off). */
export async function channelsFor(db: Knex, scope: CompanyScope, userId: string, event: PlanningNotificationEvent): Promise<Channels> {
  const row = await findPreferences(db, scope, userId);
  return parse(row?.preferences)[event] ?? ALL_ON;
}
