import { findUserRow } from '../access/usersStore.js';
import { type PlanningNotificationEvent, channelsFor } from '../notifications/preferences.js';
import { subscribe } from '../platform/events.js';
import { findCycle, listWorksheets } from './store.js';

/** Which of a person's notification preferences a worksheet's move falls under. */
function preferenceOf(action: string, to: string): PlanningNotificationEvent | null {
  if (action === 'submit') return 'worksheetSubmitted';
  if (action === 'approve') return to === 'approved' ? 'worksheetApproved' : 'worksheetSubmitted';
  if (action === 'sendBack') return 'worksheetSentBack';
  if (action === 'reopen' || action === 'pullUp') return 'worksheetReopened';
  return null;
}

/**
 * Only the person who acts next hears of a worksheet's move: the next reviewer when it is submitted
 * or approved to the next step, the planner when it is sent back, approved or reopened. By e-mail
 * (SMTP or the outbox) and in the app through their sockets, each as their preferences say.
 */
export const notifyNextActor = subscribe('meritCycle.worksheetMoved', 'compplanning.notifyNextActor', async (event, { db, mailer, realtime, config }) => {
  const moved = event.payload;
  if (!event.companyId || !moved.notifyUserId) return;
  const person = await findUserRow(db, moved.notifyUserId);
  if (!person || person.company_id !== event.companyId || person.status !== 'active') return;
  const preference = preferenceOf(moved.action, moved.to);
  const channels = preference ? await channelsFor(db, { companyId: event.companyId }, person.id, preference) : { email: true, inApp: true };
  const whose = moved.plannerName ? `${moved.plannerName}’s worksheet` : 'The top-level worksheet';
  const what: Record<string, string> = {
    submit: `${whose} was submitted and waits for your review`,
    approve: moved.to === 'approved' ? `${whose} was approved` : `${whose} was approved at the previous step and waits for your review`,
    sendBack: `${whose} was sent back to you`,
    reopen: `${whose} was reopened for planning`,
    pullUp: `${whose} was pulled up into the worksheet above`,
  };
  const line = `${what[moved.action] ?? `${whose} changed`} in the merit cycle “${moved.cycleName}”.`;
  const text = `${line}${moved.comment ? `\n\nComment: ${moved.comment}` : ''}\n\nOpen ${config.publicUrl}/compensationplanning to see it.`;
  if (channels.email) await mailer.send({ companyId: event.companyId, to: person.email, subject: `Paybench: ${line}`, text });
  if (channels.inApp) {
    realtime.toUser(moved.notifyUserId, 'emitMeritCycleEmployeesUpdate', { meritCycleId: moved.meritCycleId, worksheetIds: [moved.worksheetId], employees: [], actorUserId: event.actorUserId, originSocketId: null, reason: 'moved', message: line });
  }
});

/** When a cycle is launched, every planner with a worksheet in it hears that their worksheet is open. */
export const notifyPlannersOfLaunch = subscribe('meritCycle.transitioned', 'compplanning.notifyPlannersOfLaunch', async (event, { db, mailer, realtime, config }) => {
  if (!event.companyId || event.payload.action !== 'launch') return;
  const scope = { companyId: event.companyId };
  const cycle = await findCycle(db, scope, event.payload.meritCycleId);
  if (!cycle) return;
  const worksheetsByPlanner = new Map<string, string[]>();
  for (const sheet of await listWorksheets(db, scope, cycle.id)) {
    if (sheet.planner_user_id) worksheetsByPlanner.set(sheet.planner_user_id, [...(worksheetsByPlanner.get(sheet.planner_user_id) ?? []), sheet.id]);
  }
  const line = `The merit cycle “${cycle.name}” was launched; your worksheet is open for planning.`;
  for (const [userId, worksheetIds] of worksheetsByPlanner) {
    const person = await findUserRow(db, userId);
    if (!person || person.company_id !== event.companyId || person.status !== 'active') continue;
    const channels = await channelsFor(db, scope, userId, 'cycleLaunched');
    if (channels.email) await mailer.send({ companyId: event.companyId, to: person.email, subject: `Paybench: ${line}`, text: `${line}\n\nOpen ${config.publicUrl}/compensationplanning to plan it.` });
    if (channels.inApp) realtime.toUser(userId, 'emitMeritCycleEmployeesUpdate', { meritCycleId: cycle.id, worksheetIds, employees: [], actorUserId: event.actorUserId, originSocketId: null, reason: 'moved', message: line });
  }
});
