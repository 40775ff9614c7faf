import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import type { ServiceContext } from '../kernel/operations.js';

type Kind = 'track' | 'identify' | 'page';
type Payload = components['schemas']['TrackEvent'] | components['schemas']['IdentifyEvent'] | components['schemas']['PageEvent'];

/** Stores one analytics event as received; the contract has already bounded its size and shape. */
export async function recordEvent(ctx: Pick<ServiceContext, 'db'>, kind: Kind, payload: Payload): Promise<{ id: string }> {
  const { db } = ctx;
  const id = newId();
  const receivedAt = new Date().toISOString();
  const name = 'event' in payload ? payload.event : 'name' in payload ? payload.name : null;
  await db('analytics_events').insert({
    id,
    kind,
    anonymous_id: payload.anonymousId,
    user_id: payload.userId ?? null,
    name,
    payload: JSON.stringify(payload),
    occurred_at: payload.timestamp ?? receivedAt,
    received_at: receivedAt,
  });
  return { id };
}
