import { type Caller, companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest } from '../kernel/errors.js';
import { jobKind } from '../jobs/kind.js';
import type { JobQueue } from '../jobs/queue.js';
import { queueJobIn } from '../jobs/queue.js';
import { requireWholeCompany } from '../meritCycles/access.js';
import { findCycle, inTransaction } from '../meritCycles/store.js';
import { emit } from '../platform/events.js';
import { lettersOfCycle } from './release.js';
import { listLetters, markReminded, unconfirmedLetters } from './store.js';
import { REWARD_LETTERS_SUBJECT } from './workflow.js';
import type { ServiceContext } from '../kernel/operations.js';

/*
 * Reminders to confirm: one e-mail to each employee whose letter is released and not confirmed,
 * sent by a job now or at a chosen moment. Who is unconfirmed is read when the job sends, so someone
 * who confirms in between is not reminded; a retried job skips those it reached already.
 */

export interface RemindJobInput {
  meritCycleId: string;
  /** This sending: a letter reminded by it is not reminded again when the job is retried. */
  reminderId: string;
}

export const remindLettersJob = jobKind<RemindJobInput>({ type: 'rewardLettersRemind', title: 'Reward letter reminders' }, (deps) => async ({ job, db, progress }) => {
  const scope = { companyId: job.companyId };
  const cycle = await findCycle(db, scope, job.input.meritCycleId);
  if (!cycle) return { sent: 0, withoutEmail: 0 };
  const recipients = await unconfirmedLetters(db, scope, cycle.id);
  const mailable = recipients.filter((recipient) => recipient.email && recipient.last_reminder_id !== job.input.reminderId);
  const link = `${deps.config.publicUrl}/rewardletters/${cycle.id}`;
  let sent = 0;
  for (const recipient of mailable) {
    await deps.mailer.send({
      companyId: scope.companyId,
      to: recipient.email as string,
      subject: `Paybench: please confirm your reward letter for ${cycle.name}`,
      text: [
        `Hello ${recipient.first_name},`,
        '',
        `Your reward letter for ${cycle.name} is ready, and you have not confirmed it yet.`,
        `Please open it and confirm you have read it: ${link}`,
      ].join('\n'),
    });
    await markReminded(db, scope, recipient.letter_id, job.input.reminderId, new Date().toISOString());
    sent += 1;
    await progress(Math.floor((sent * 100) / mailable.length), `${sent} of ${mailable.length} reminders sent`);
  }
  const withoutEmail = recipients.filter((recipient) => !recipient.email).length;
  await inTransaction(db, (trx) =>
    emit(trx, {
      name: 'rewardLetters.reminded',
      companyId: scope.companyId,
      actorUserId: job.ownerUserId,
      subjectType: REWARD_LETTERS_SUBJECT,
      subjectId: cycle.id,
      payload: { meritCycleId: cycle.id, sent, withoutEmail },
    }),
  );
  await progress(100, `${sent} ${sent === 1 ? 'reminder' : 'reminders'} sent`);
  return { meritCycleId: cycle.id, sent, withoutEmail };
});

/** Plans the reminders (now, or at `sendAt`); says how many would go out if sent now. */
export async function remindLetters(ctx: Pick<ServiceContext, 'db'>, jobs: JobQueue, caller: Caller, cycleId: string, sendAt: string | undefined): Promise<components['schemas']['RewardLetterReminders']> {
  const { db } = ctx;
  const scope = companyScope(caller);
  requireWholeCompany(caller, 'Reminding employees of their reward letters');
  const at = sendAt ? new Date(sendAt) : new Date();
  if (sendAt && at.getTime() <= Date.now()) throw badRequest('Reminders are planned for a moment still to come; leave the date out to send them now.', [{ field: 'body.sendAt', message: 'must be in the future' }]);
  const found = await lettersOfCycle(db, scope, cycleId);
  const recipients = await unconfirmedLetters(db, scope, cycleId);
  const unconfirmed = recipients.filter((recipient) => recipient.email).length;
  const withoutEmail = recipients.length - unconfirmed;
  // Later, letters released meanwhile may still be unconfirmed; now, there must be someone to write to.
  const anyoneLater = sendAt !== undefined && (await listLetters(db, scope, cycleId, { enabledOnly: true })).some((letter) => !letter.confirmed_at && letter.user_id);
  if (!unconfirmed && !anyoneLater) {
    throw new HttpError(409, 'nobody_to_remind', { message: 'Nobody has a released letter left to confirm, so there is nobody to remind.' });
  }
  const job = await queueJobIn(db, remindLettersJob, {
    companyId: scope.companyId,
    ownerUserId: caller.userId,
    input: { meritCycleId: found.cycle.id, reminderId: newId() },
    runAfter: at.toISOString(),
    message: sendAt ? `Planned for ${at.toISOString()}` : 'Sending',
  });
  jobs.worker.wake();
  return { jobId: job.id, sendAt: at.toISOString(), unconfirmed, withoutEmail };
}
