import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { HttpError } from '../kernel/errors.js';
import { newId } from '../db/ids.js';
import { jobKind } from '../jobs/kind.js';
import { queueJobIn } from '../jobs/queue.js';
import { employeeNames, noticeRecipients } from './peopleReads.js';
import { emit, subscribe } from '../platform/events.js';
import { dayOf, nextNoticeRun } from './dates.js';
import { type NotifyPorts, answeringUsers, mailClarificationReminder, mailReminder, noticeText } from './notify.js';
import { type NoticeRow, clarificationsOf, findClarificationById, findNotice, findRequest, insertNotice, requestsOf } from './store.js';

/*
 * The two clocks of pay transparency, as durable jobs: a request's reminder to HR two weeks before
 * its due date (queued when the request is filed), and the yearly notice of the right to every
 * worker on 15 January (queued for the next 15 January when the company first saves its settings or
 * sends a notice, then by each run for the year after). Both take `now` from the caller, so what
 * they do on a given day is the same in a test with a fixed clock as in production.
 */

export type ReminderOutcome = { reminded: true; to: number } | { reminded: false; reason: string };

/**
 * Reminds HR of a request still waiting for review once its reminder day has come: every user with
 * `payEquity` edit is e-mailed, once (`reminded_at`), and the reminder is audited.
 */
export async function remindIfDue(ports: NotifyPorts, options: { companyId: string; requestId: string; now: Date }): Promise<ReminderOutcome> {
  const scope = { companyId: options.companyId };
  const claimed = await ports.db.transaction(async (trx) => {
    const row = await findRequest(trx, scope, options.requestId);
    if (!row) return { reason: 'The request no longer exists.' };
    if (row.state !== 'review') return { reason: 'The answer was delivered.' };
    if (row.reminded_at) return { reason: 'HR was reminded already.' };
    if (dayOf(options.now) < row.reminder_on) return { reason: `The reminder is due on ${row.reminder_on}.` };
    const at = options.now.toISOString();
    const updated = await requestsOf(trx, scope).andWhere({ id: row.id }).whereNull('reminded_at').update({ reminded_at: at });
    if (updated !== 1) return { reason: 'HR was reminded already.' };
    await emit(trx, { name: 'payInformationRequest.reminded', companyId: scope.companyId, actorUserId: null, subjectType: 'payInformationRequest', subjectId: row.id, payload: { dueOn: row.due_on } });
    return { row };
  });
  if (!('row' in claimed) || !claimed.row) return { reminded: false, reason: claimed.reason ?? 'Nothing to do.' };
  const row = claimed.row;
  const to = (await answeringUsers(ports.db, scope)).map((user) => user.email);
  const names = await employeeNames(ports.db, scope, [row.employee_id]);
  await mailReminder(ports, to, { companyId: scope.companyId, employeeName: names.get(row.employee_id) ?? 'An employee', dueOn: row.due_on, requestId: row.id });
  return { reminded: true, to: to.length };
}

export const reminderJob = jobKind<{ requestId: string }>({ type: 'payInformationReminder', title: 'Pay information reminder' }, (deps) => async ({ job }) =>
  remindIfDue({ db: deps.db, mailer: deps.mailer, publicUrl: deps.config.publicUrl }, { companyId: job.companyId, requestId: job.input.requestId, now: new Date() }),
);

/** Queues the reminder of a request for 08:00 UTC on its reminder day, with the connection of the change that filed it. */
export async function queueReminder(db: Knex, options: { companyId: string; ownerUserId: string; requestId: string; reminderOn: string }): Promise<void> {
  await queueJobIn(db, reminderJob, {
    companyId: options.companyId,
    ownerUserId: options.ownerUserId,
    input: { requestId: options.requestId },
    runAfter: `${options.reminderOn}T08:00:00.000Z`,
    message: `Scheduled for ${options.reminderOn}.`,
    maxAttempts: 3,
  });
}

/**
 * Reminds HR of a request for clarification still without a reply once its reminder day has come
 * (two weeks before its due date), once, audited.
 */
export async function remindClarificationIfDue(ports: NotifyPorts, options: { companyId: string; clarificationId: string; now: Date }): Promise<ReminderOutcome> {
  const scope = { companyId: options.companyId };
  const claimed = await ports.db.transaction(async (trx) => {
    const row = await findClarificationById(trx, scope, options.clarificationId);
    if (!row) return { reason: 'The request for clarification no longer exists.' };
    if (row.state !== 'open') return { reason: 'The reply was sent.' };
    if (row.reminded_at) return { reason: 'HR was reminded already.' };
    if (dayOf(options.now) < row.reminder_on) return { reason: `The reminder is due on ${row.reminder_on}.` };
    const updated = await clarificationsOf(trx, scope).andWhere({ id: row.id }).whereNull('reminded_at').update({ reminded_at: options.now.toISOString() });
    if (updated !== 1) return { reason: 'HR was reminded already.' };
    const request = await findRequest(trx, scope, row.request_id);
    await emit(trx, { name: 'payInformationRequest.clarificationReminded', companyId: scope.companyId, actorUserId: null, subjectType: 'payInformationRequest', subjectId: row.request_id, payload: { clarificationId: row.id, dueOn: row.due_on } });
    return { row, employeeId: request?.employee_id ?? '' };
  });
  if (!('row' in claimed) || !claimed.row) return { reminded: false, reason: claimed.reason ?? 'Nothing to do.' };
  const to = (await answeringUsers(ports.db, scope)).map((user) => user.email);
  const names = await employeeNames(ports.db, scope, [claimed.employeeId]);
  await mailClarificationReminder(ports, to, { companyId: scope.companyId, employeeName: names.get(claimed.employeeId) ?? 'An employee', dueOn: claimed.row.due_on, requestId: claimed.row.request_id });
  return { reminded: true, to: to.length };
}

export const clarificationReminderJob = jobKind<{ clarificationId: string }>({ type: 'payInformationClarificationReminder', title: 'Pay information clarification reminder' }, (deps) => async ({ job }) =>
  remindClarificationIfDue({ db: deps.db, mailer: deps.mailer, publicUrl: deps.config.publicUrl }, { companyId: job.companyId, clarificationId: job.input.clarificationId, now: new Date() }),
);

export async function queueClarificationReminder(db: Knex, options: { companyId: string; ownerUserId: string; clarificationId: string; reminderOn: string }): Promise<void> {
  await queueJobIn(db, clarificationReminderJob, {
    companyId: options.companyId,
    ownerUserId: options.ownerUserId,
    input: { clarificationId: options.clarificationId },
    runAfter: `${options.reminderOn}T08:00:00.000Z`,
    message: `Scheduled for ${options.reminderOn}.`,
    maxAttempts: 3,
  });
}

// ── the yearly notice ───────────────────────────────────────────────────────────────────────

export interface SentNotice {
  notice: NoticeRow;
  recipients: { userId: string; email: string }[];
}

/**
 * Records this year's notice (once per company and year: 409 `already_sent` on a second time) with
 * `db`, and audits it; the caller e-mails the recipients after the commit (`mailNotice`).
 */
export async function recordNotice(db: Knex, scope: CompanyScope, options: { year: number; trigger: 'schedule' | 'button'; actorUserId: string | null; now: Date }): Promise<SentNotice> {
  const existing = await findNotice(db, scope, options.year);
  if (existing) {
    throw new HttpError(409, 'already_sent', { message: `This year's notice went out on ${new Date(existing.sent_at).toISOString().slice(0, 10)}; it is sent once a year.` });
  }
  const recipients = await noticeRecipients(db, scope);
  const notice: NoticeRow = {
    id: newId(),
    company_id: scope.companyId,
    year: options.year,
    trigger: options.trigger,
    sent_by: options.actorUserId,
    recipients: recipients.length,
    sent_at: options.now.toISOString(),
  };
  await insertNotice(db, notice);
  await emit(db, { name: 'payTransparency.noticeSent', companyId: scope.companyId, actorUserId: options.actorUserId, subjectType: 'payTransparencyNotice', subjectId: notice.id, payload: { year: options.year, recipients: recipients.length, trigger: options.trigger } });
  return { notice, recipients };
}

export async function mailNotice(ports: NotifyPorts, companyId: string, sent: SentNotice): Promise<void> {
  const { subject, text } = noticeText(Number(sent.notice.year), `${ports.publicUrl}/pay-information`);
  for (const recipient of sent.recipients) await ports.mailer.send({ companyId, to: recipient.email, subject, text });
}

/** The scheduled run: this year's notice unless it went out already (by the button), then the next year's run. */
export async function runYearlyNotice(ports: NotifyPorts, options: { companyId: string; ownerUserId: string; now: Date }): Promise<{ sent: boolean; recipients: number; next: string }> {
  const scope = { companyId: options.companyId };
  const year = options.now.getUTCFullYear();
  const sent = await ports.db.transaction(async (trx) => {
    const next = await ensureYearlyNotice(trx, { ...options, after: options.now });
    if (await findNotice(trx, scope, year)) return { next };
    return { next, notice: await recordNotice(trx, scope, { year, trigger: 'schedule', actorUserId: null, now: options.now }) };
  });
  if (sent.notice) await mailNotice(ports, options.companyId, sent.notice);
  return { sent: Boolean(sent.notice), recipients: sent.notice?.recipients.length ?? 0, next: sent.next };
}

export const yearlyNoticeJob = jobKind<Record<string, never>>({ type: 'payTransparencyYearlyNotice', title: 'Yearly pay-transparency notice' }, (deps) => async ({ job }) =>
  runYearlyNotice({ db: deps.db, mailer: deps.mailer, publicUrl: deps.config.publicUrl }, { companyId: job.companyId, ownerUserId: job.ownerUserId, now: new Date() }),
);

/**
 * Keeps one yearly-notice run queued for the company, at the next 15 January after `after` (a run
 * queueing its successor finds none queued: its own row is running).
 */
export async function ensureYearlyNotice(db: Knex, options: { companyId: string; ownerUserId: string; after: Date }): Promise<string> {
  const runAfter = nextNoticeRun(options.after);
  const queued = (await db('jobs').where({ company_id: options.companyId, type: yearlyNoticeJob.type, status: 'queued' }).first('id', 'run_after')) as { id: string; run_after: string | Date } | undefined;
  if (queued) return new Date(queued.run_after).toISOString();
  await queueJobIn(db, yearlyNoticeJob, { companyId: options.companyId, ownerUserId: options.ownerUserId, input: {}, runAfter, message: `Scheduled for ${runAfter.slice(0, 10)}.`, maxAttempts: 3 });
  return runAfter;
}

/**
 * Switching the module on schedules the company's yearly notice at once (owned by one of the people
 * who answer requests; none yet: it is scheduled when the settings are first saved).
 */
export const scheduleNoticeOnSwitch = subscribe('release_flag.set', 'payTransparency.scheduleNotice', async (event, deps) => {
  if (!event.companyId || event.subjectId !== 'pay_equity' || !event.payload.enabled) return;
  const owner = (await answeringUsers(deps.db, { companyId: event.companyId }))[0];
  if (owner) await ensureYearlyNotice(deps.db, { companyId: event.companyId, ownerUserId: owner.id, after: new Date() });
});
