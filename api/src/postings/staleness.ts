import { findUserRow } from '../access/usersStore.js';
import { findJob } from '../bands/store.js';
import { emit, subscribe } from '../platform/events.js';
import { formatMoney } from '../money/format.js';
import { type StoredLocation, liveBands, rebandLocation } from './proposal.js';
import { locationsOf } from './service.js';
import { livePostingRows, markStale } from './store.js';

/*
 * A new live band set can leave a posted range behind: a place whose range is no longer within its
 * band (or has no band any more) makes its posting stale. The posting is listed (`stale=true`), says
 * why, and its owner hears of it by e-mail. Editing the places (ranges proposed again from the live
 * set) clears it.
 */

const range = (location: StoredLocation, figures: { min: number; max: number }) => `${formatMoney({ amount: figures.min, currency: location.currency })} – ${formatMoney({ amount: figures.max, currency: location.currency })}`;

/** Why a posted place no longer matches its band under the new set; null when it still does. */
export function mismatch(before: StoredLocation, after: StoredLocation): string | null {
  if (!before.range) return null;
  if (!after.band) return `${before.name}: no band any more`;
  if (after.currency !== before.currency) return `${before.name}: the band is now in ${after.currency}`;
  if (before.range.min < after.band.min || before.range.max > after.band.max) return `${before.name}: ${range(before, before.range)} is outside the new band ${range(after, after.band)}`;
  return null;
}

export const flagPostingsOnBandPublish = subscribe('bandSet.published', 'postings.flagStaleRanges', async (event, { db, mailer, config }) => {
  if (!event.companyId) return;
  const scope = { companyId: event.companyId };
  const rows = await livePostingRows(db, scope);
  if (!rows.length) return;
  const live = await liveBands(db, scope, null);
  if (live.set?.id !== event.payload.bandSetId) return;
  for (const row of rows) {
    if (row.band_set_id === live.set.id) continue;
    const job = await findJob(db, scope, row.company_job_id);
    if (!job) continue;
    const reasons = locationsOf(row)
      .map((location) => mismatch(location, rebandLocation(live, job, location)))
      .filter((reason): reason is string => reason !== null);
    if (!reasons.length) continue;
    const reason = `The live band set “${live.set.name}” no longer holds: ${reasons.join('; ')}.`;
    await db.transaction(async (trx) => {
      await markStale(trx, scope, row.id, new Date().toISOString(), reason);
      await emit(trx, { name: 'posting.stale', companyId: event.companyId, actorUserId: null, subjectType: 'jobPosting', subjectId: row.id, payload: { bandSetId: live.set?.id ?? '', reasons } });
    });
    const owner = await findUserRow(db, row.owner_user_id);
    if (owner && owner.company_id === event.companyId && owner.status === 'active') {
      const line = `The pay ranges of your posting “${row.title}” no longer match the live bands.`;
      await mailer.send({ companyId: event.companyId, to: owner.email, subject: `Paybench: ${line}`, text: `${line}\n\n${reason}\n\nOpen ${config.publicUrl}/postings/${row.id} to propose the ranges again.` });
    }
  }
});
