import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { Realtime } from '../realtime/server.js';
import { offerViewers } from './store.js';

/*
 * Live updates for recruiters: when an offer changes, or its candidate opens, views, accepts or
 * declines it, every active user of the company whose roles let them see offers hears
 * `emitOfferUpdate` after the commit. It names the offer, its state and version and what happened,
 * never pay: a client reads the offer again with its own access.
 */

export type OfferUpdateEvent = 'created' | 'updated' | 'submitted' | 'approved' | 'rejected' | 'sent' | 'opened' | 'viewed' | 'accepted' | 'declined' | 'expired' | 'rescinded' | 'deleted' | 'hireCancelled';

export interface OfferUpdate {
  offerId: string;
  state: string;
  version: number;
  event: OfferUpdateEvent;
  at: string;
}

/** Reads the audience in the change's transaction; sends after the commit. */
export async function announceOfferUpdate(
  db: Knex,
  scope: CompanyScope,
  realtime: Realtime | undefined,
  afterCommit: (task: () => Promise<unknown>) => void,
  update: OfferUpdate,
): Promise<void> {
  if (!realtime) return;
  const audience = await offerViewers(db, scope);
  afterCommit(async () => {
    for (const userId of audience) realtime.toUser(userId, 'emitOfferUpdate', { ...update });
  });
}
