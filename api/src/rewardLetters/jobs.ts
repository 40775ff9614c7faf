import { HttpError } from '../kernel/errors.js';
import { jobKind } from '../jobs/kind.js';
import { findCycle, inTransaction } from '../meritCycles/store.js';
import { subscribe } from '../platform/events.js';
import { renderCycleLetters } from './letters.js';
import { findLetterCycle } from './store.js';

export interface RenderLettersInput {
  meritCycleId: string;
}

/**
 * Renders a closed cycle's letters, all in one transaction (a failed job leaves none). A job that
 * runs again (retried, or a second close event delivered) finds the letters there and stops.
 */
export const renderLettersJob = jobKind<RenderLettersInput>({ type: 'rewardLettersRender', title: 'Reward letters' }, () => async ({ job, db, progress }) => {
  const scope = { companyId: job.companyId };
  const letters = await inTransaction(db, async (trx) => {
    const cycle = await findCycle(trx, scope, job.input.meritCycleId);
    if (!cycle) throw new Error('This merit cycle no longer exists.');
    if (cycle.state !== 'closed') throw new HttpError(409, 'cycle_not_closed', { message: 'Reward letters are written once the cycle is closed.' });
    const done = await findLetterCycle(trx, scope, cycle.id);
    if (done?.rendered_at) return { letters: Number(done.letters), rendered: false };
    return { letters: await renderCycleLetters(trx, scope, cycle, job.ownerUserId), rendered: true };
  });
  await progress(100, `${letters.letters} letters written`);
  return { meritCycleId: job.input.meritCycleId, ...letters };
});

/** A cycle that closes has its letters rendered in the background, owned by whoever closed it. */
export const renderOnClose = subscribe('meritCycle.transitioned', 'rewardLetters.renderOnClose', async (event, { jobs }) => {
  if (event.payload.to !== 'closed' || !event.companyId || !event.actorUserId) return;
  await jobs.start(renderLettersJob, { companyId: event.companyId, ownerUserId: event.actorUserId, input: { meritCycleId: event.payload.meritCycleId } });
});
