import { findUserRow } from '../access/usersStore.js';
import { subscribe } from '../platform/events.js';

/**
 * Only the person who acts next hears of a worksheet's move: the next reviewer when it is submitted
 * or approved to the next step, the planner when it is sent back, approved or reopened. By e-mail
 * (SMTP or the outbox) and in the app through their sockets.
 */
export const notifyNextActor = subscribe('meritCycle.worksheetMoved', 'compplanning.notifyNextActor', async (event, { db, mailer, realtime, config }) => {
  const moved = event.payload;
  if (!event.companyId || !moved.notifyUserId) return;
  const person = await findUserRow(db, moved.notifyUserId);
  if (!person || person.company_id !== event.companyId || person.status !== 'active') return;
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
  await mailer.send({ companyId: event.companyId, to: person.email, subject: `Paybench: ${line}`, text });
  realtime.toUser(moved.notifyUserId, 'emitMeritCycleEmployeesUpdate', { meritCycleId: moved.meritCycleId, worksheetIds: [moved.worksheetId], employees: [], actorUserId: event.actorUserId, originSocketId: null, reason: 'moved', message: line });
});
