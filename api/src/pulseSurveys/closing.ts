import { actorFor } from '../access/caller.js';
import { updateAtVersion } from '../kernel/versions.js';
import { jobKind } from '../jobs/kind.js';
import { emit } from '../platform/events.js';
import { transition } from '../workflow/service.js';
import { findSurveyRow, surveysOf } from './store.js';
import { PULSE_SURVEY_SUBJECT, SYSTEM_ACTOR, pulseSurveyWorkflow } from './workflow.js';

const today = (): string => new Date().toISOString().slice(0, 10);

/** The day after the closing date, at 00:00 UTC: when a survey stops taking answers. */
export const closingTime = (closesOn: string): string => new Date(Date.parse(`${closesOn}T00:00:00.000Z`) + 86_400_000).toISOString();


/**
 * Queued when a survey opens, to run once its closing date is over: closes it through the
 * workflow's `expire` unless someone closed it first.
 */
export const surveyClosingJob = jobKind<{ surveyId: string }>({ type: 'pulseSurveyClosing', title: 'Pulse survey closing' }, () => async ({ job, db }) => {
  const scope = { companyId: job.companyId };
  return db.transaction(async (trx) => {
    const row = await findSurveyRow(trx, scope, job.input.surveyId);
    if (!row || row.state !== 'open') return { closed: false, reason: 'The survey was no longer open.' };
    if (row.closes_on >= today()) return { closed: false, reason: `The survey closes on ${row.closes_on}.` };
    const version = Number(row.version);
    const next = await transition(trx, scope, pulseSurveyWorkflow, { subject: { subjectType: PULSE_SURVEY_SUBJECT, subjectId: row.id, currentState: 'open', version }, action: 'expire', actor: actorFor(SYSTEM_ACTOR, scope.companyId) });
    await updateAtVersion(() => surveysOf(trx, scope).where({ id: row.id }), version, { state: next.state, updated_at: next.at }, 'this survey');
    await emit(trx, { name: 'pulseSurvey.closed', companyId: scope.companyId, actorUserId: null, subjectType: PULSE_SURVEY_SUBJECT, subjectId: row.id, payload: { title: row.title } });
    return { closed: true };
  });
});
