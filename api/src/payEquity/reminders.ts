import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import { parsePermissions } from '../access/store.js';
import { jobKind } from '../jobs/kind.js';
import { queueJobIn } from '../jobs/queue.js';
import { addMonths } from '../people/vesting.js';
import { emit } from '../platform/events.js';
import { assessmentsOf, findAssessment } from './store.js';

/*
 * The six-month clock of a joint pay assessment: a month before it is due, and on the day, everyone
 * holding `payEquity` edit gets an e-mail while the category is still open or in remediation.
 */

/** The e-mail addresses of the company's people whose roles grant `payEquity` edit. */
async function editorsOf(db: Knex, scope: CompanyScope): Promise<string[]> {
  const rows = (await db('user_roles as ur')
    .join('roles as r', 'r.id', 'ur.role_id')
    .join('users as u', 'u.id', 'ur.user_id')
    .where('ur.company_id', scope.companyId)
    .select('u.email', 'r.permissions')) as { email: string; permissions: string }[];
  return [...new Set(rows.filter((row) => hasPermission(parsePermissions(row), 'payEquity', 'edit', 'all')).map((row) => row.email))].sort();
}

export const assessmentReminders = jobKind<{ assessmentId: string }>({ type: 'payEquityAssessmentReminder', title: 'Joint pay assessment reminder' }, (deps) => async ({ job, db }) => {
  const scope = { companyId: job.companyId };
  const assessment = await findAssessment(db, scope, job.input.assessmentId);
  if (!assessment || !['open', 'remediation'].includes(assessment.status)) return { sent: 0 };
  const recipients = await editorsOf(db, scope);
  const due = String(assessment.due_date).slice(0, 10);
  for (const to of recipients) {
    await deps.mailer.send({
      companyId: scope.companyId,
      to,
      subject: `Joint pay assessment due ${due}: ${assessment.category_name}`,
      text: `The ${assessment.year} pay gap of ${assessment.category_name} (${Number(assessment.gap_bp) / 100} %) was flagged for a joint pay assessment. Record the objective, gender-neutral justification or carry out the remediation plan by ${due}.`,
    });
  }
  const today = new Date().toISOString().slice(0, 10);
  await assessmentsOf(db, scope).where({ id: assessment.id }).update({ reminded_on: today });
  await emit(db, { name: 'payEquity.assessment.reminded', companyId: scope.companyId, actorUserId: null, subjectType: 'payEquityAssessment', subjectId: assessment.id, payload: { dueDate: due, recipients: recipients.length }, audited: false });
  return { sent: recipients.length };
});

/** Queues the reminders of a newly flagged assessment: a month before it is due and on the day. */
export async function queueReminders(db: Knex, options: { scope: CompanyScope; ownerUserId: string; assessmentId: string; dueDate: string }): Promise<void> {
  for (const day of [addMonths(options.dueDate, -1), options.dueDate]) {
    await queueJobIn(db, assessmentReminders, { companyId: options.scope.companyId, ownerUserId: options.ownerUserId, input: { assessmentId: options.assessmentId }, runAfter: `${day}T08:00:00.000Z`, message: `Scheduled for ${day}.`, maxAttempts: 2 });
  }
}
