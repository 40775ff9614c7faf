import { emailsOfUsers } from '../access/usersStore.js';
import type { AppDeps } from '../deps.js';
import { subscribe } from '../platform/events.js';
import { findSurveyRow, unansweredUserIds } from './store.js';

/** The e-mail every person still waiting gets: what the survey is, until when, and the link to answer on their phone. */
function invitationText(title: string, closesOn: string, link: string, reminder: boolean): { subject: string; text: string } {
  const opening = reminder ? `A reminder: the pulse survey “${title}” is still waiting for your answer.` : `You are invited to answer a short pulse survey: “${title}”.`;
  return {
    subject: reminder ? `Paybench: a reminder to answer “${title}”` : `Paybench: a short survey about pay — “${title}”`,
    text: `${opening}\n\nIt takes a minute. Your answer is anonymous: it is stored without your name, and results are shown only for groups of at least 5 people.\n\nAnswer by ${closesOn}: ${link}`,
  };
}

/** Sends the survey to everyone in its audience who has not answered (all of them, when it has just opened). */
async function mailWaiting(surveyId: string, companyId: string | null, reminder: boolean, deps: AppDeps): Promise<void> {
  if (!companyId) return;
  const scope = { companyId };
  const survey = await findSurveyRow(deps.db, scope, surveyId);
  if (!survey || survey.state !== 'open') return;
  const emails = await emailsOfUsers(deps.db, scope, await unansweredUserIds(deps.db, scope, surveyId));
  const { subject, text } = invitationText(survey.title, survey.closes_on, `${deps.config.publicUrl}/pulse/${survey.id}`, reminder);
  for (const to of emails.values()) await deps.mailer.send({ companyId, to, subject, text });
}

export const mailOpenedSurvey = subscribe('pulseSurvey.opened', 'pulseSurveys.mailOpened', async (event, deps) => {
  if (event.subjectId) await mailWaiting(event.subjectId, event.companyId, false, deps);
});

export const mailReminder = subscribe('pulseSurvey.reminded', 'pulseSurveys.mailReminder', async (event, deps) => {
  if (event.subjectId) await mailWaiting(event.subjectId, event.companyId, true, deps);
});
