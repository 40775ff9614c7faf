import { findUserRow } from '../access/usersStore.js';
import { subscribe } from '../platform/events.js';

/**
 * Only the approver a band set waits for now hears of it: on submission, and after each approval
 * but the last. By e-mail (SMTP or the outbox), with the set's address in the app.
 */
export const tellBandSetApprover = subscribe('bandSet.approvalRequested', 'bands.tellBandSetApprover', async (event, { db, mailer, config }) => {
  const request = event.payload;
  if (!event.companyId || !request.awaitingUserId) return;
  const person = await findUserRow(db, request.awaitingUserId);
  if (!person || person.company_id !== event.companyId || person.status !== 'active') return;
  const line = `The band set “${request.name}” waits for your approval before it goes live.`;
  await mailer.send({ companyId: event.companyId, to: person.email, subject: `Paybench: ${line}`, text: `${line}\n\nOpen ${config.publicUrl}/bands/sets/${request.bandSetId} to approve it or send it back.` });
});
