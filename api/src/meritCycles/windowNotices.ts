import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { findUserRow } from '../access/usersStore.js';
import { newId } from '../db/ids.js';
import { jobKind } from '../jobs/kind.js';
import { queueJobIn } from '../jobs/queue.js';
import { channelsFor } from '../notifications/preferences.js';
import type { PlanningWindow } from './config.js';
import { EDITABLE_STATES } from './context.js';
import { configOf } from './present.js';
import { type CycleRow, type WorksheetRow, findCycle, insertWindowNotice, listWorksheets, windowNoticeRecipients } from './store.js';
import { currentReviewer } from './worksheets.js';

/*
 * A notice before a window closes: a job per window and close, due the cycle's lead time
 * (`closing_notice_hours`) before it (not before the window opens; at once when that moment has
 * passed). It tells the planners whose worksheet is still being planned (planning window) and the
 * reviewers whose turn it is (review window), by e-mail and in the app as each chose
 * (`windowClosing`). Each person is told once per window and close (`merit_cycle_window_notices`),
 * so the job run again sends nothing twice; a moved close date or lead time queues a new job and the
 * old one, finding the window changed, sends nothing.
 */

type Stage = PlanningWindow['stage'];

export interface WindowClosingInput {
  meritCycleId: string;
  stage: Stage;
  /** The close this notice is for (ISO 8601, UTC). */
  closesAt: string;
  /** The lead time it was armed with. */
  noticeHours: number;
}

/** When the notice of a window is due: the lead time before its close, not before it opens, not before now. */
export function noticeDue(window: PlanningWindow, hours: number, now = Date.now()): number | null {
  const closes = Date.parse(window.closesAt);
  if (hours <= 0 || closes <= now) return null;
  return Math.max(now, Date.parse(window.opensAt), closes - hours * 3_600_000);
}

/** "2026-11-27 12:00 UTC": the close as people read it. */
export const closeTimeText = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const STAGE_WORDS: Record<Stage, string> = { planning: 'planning window', review: 'review window' };

/** Who is told, with their worksheets: planners not yet submitted (planning), the reviewer whose turn it is (review). */
export function recipientsOf(stage: Stage, worksheets: readonly WorksheetRow[]): Map<string, string[]> {
  const byUser = new Map<string, string[]>();
  for (const sheet of worksheets) {
    let userId: string | null = null;
    if (stage === 'planning' && EDITABLE_STATES.has(sheet.state) && Number(sheet.sum_eligible) > 0) userId = sheet.planner_user_id;
    if (stage === 'review') userId = currentReviewer(sheet);
    if (userId) byUser.set(userId, [...(byUser.get(userId) ?? []), sheet.id]);
  }
  return byUser;
}

export const windowClosingJob = jobKind<WindowClosingInput>({ type: 'meritCycleWindowClosing', title: 'Planning window closing notice' }, (deps) => async ({ job, db }) => {
  const { meritCycleId, stage, closesAt, noticeHours } = job.input;
  const scope: CompanyScope = { companyId: job.companyId };
  const cycle = await findCycle(db, scope, meritCycleId);
  if (!cycle || cycle.state !== 'active') return { sent: 0, skipped: 'The cycle is not active.' };
  const window = configOf(cycle).windows.find((candidate) => candidate.stage === stage);
  // Moved or taken away since this notice was armed: the job armed with the new close tells.
  if (!window || window.closesAt !== closesAt || Number(cycle.closing_notice_hours) !== noticeHours) return { sent: 0, skipped: 'The window changed since this notice was planned.' };
  if (Date.parse(closesAt) <= Date.now()) return { sent: 0, skipped: 'The window has closed.' };
  const told = new Set(await windowNoticeRecipients(db, scope, meritCycleId, stage, closesAt));
  const what = STAGE_WORDS[stage];
  const line = `The ${what} of the merit cycle “${cycle.name}” closes at ${closeTimeText(closesAt)}.`;
  const todo = stage === 'planning' ? 'Your worksheet is not submitted yet: plan and submit it before then; after the close it is read-only.' : 'A worksheet waits for your review: approve it or send it back before then.';
  let sent = 0;
  for (const [userId, worksheetIds] of recipientsOf(stage, await listWorksheets(db, scope, meritCycleId))) {
    if (told.has(userId)) continue;
    const person = await findUserRow(db, userId);
    if (!person || person.company_id !== scope.companyId || person.status !== 'active') continue;
    const channels = await channelsFor(db, scope, userId, 'windowClosing');
    if (channels.email) {
      await deps.mailer.send({ companyId: scope.companyId, to: person.email, subject: `Paybench: ${line}`, text: `${line}\n\n${todo}\n\nOpen ${deps.config.publicUrl}/compensationplanning/cycles/${cycle.id}/worksheets to see it.` });
    }
    if (channels.inApp) {
      deps.realtime.toUser(userId, 'emitMeritCycleEmployeesUpdate', { meritCycleId, worksheetIds, employees: [], actorUserId: job.ownerUserId, originSocketId: null, reason: 'moved', message: `${line} ${todo}` });
    }
    // Recorded once told; a second run of this notice (or a retry) passes them by.
    await insertWindowNotice(db, { id: newId(), company_id: scope.companyId, cycle_id: meritCycleId, stage, closes_at: closesAt, user_id: userId, sent_at: new Date().toISOString() });
    sent += 1;
  }
  return { sent };
});

/**
 * Queues the notices an active cycle's windows need, in the change's transaction: every window
 * whose close (or the lead time) differs from `before` (all of them at launch). Returns how many.
 */
export async function armWindowNotices(
  trx: Knex,
  cycle: Pick<CycleRow, 'id' | 'company_id' | 'name'>,
  ownerUserId: string,
  after: { windows: readonly PlanningWindow[]; hours: number },
  before: { windows: readonly PlanningWindow[]; hours: number } | null,
): Promise<number> {
  let armed = 0;
  for (const window of after.windows) {
    const previous = before?.windows.find((candidate) => candidate.stage === window.stage);
    if (before && previous && previous.closesAt === window.closesAt && before.hours === after.hours) continue;
    const due = noticeDue(window, after.hours);
    if (due === null) continue;
    await queueJobIn(trx, windowClosingJob, {
      companyId: cycle.company_id,
      ownerUserId,
      input: { meritCycleId: cycle.id, stage: window.stage, closesAt: window.closesAt, noticeHours: after.hours },
      runAfter: new Date(due).toISOString(),
      message: `Tells who still has to act that the ${STAGE_WORDS[window.stage]} of “${cycle.name}” closes at ${closeTimeText(window.closesAt)}.`,
      maxAttempts: 3,
    });
    armed += 1;
  }
  return armed;
}
