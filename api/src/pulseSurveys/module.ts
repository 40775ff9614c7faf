import { defineModule } from '../kernel/modules.js';
import { surveyClosingJob } from './closing.js';
import { mailOpenedSurvey, mailReminder } from './notify.js';
import { pulseSurveyOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A draft survey was made. */
    'pulseSurvey.created': { title: string };
    /** A draft's questions, target or dates changed. */
    'pulseSurvey.updated': { title: string };
    /** A draft opened: its audience is fixed and e-mailed. */
    'pulseSurvey.opened': { title: string; audienceSize: number };
    /** An open survey closed (by someone, or on its own after its closing date: no actor). */
    'pulseSurvey.closed': { title: string };
    /** Everyone who had not answered is e-mailed a reminder. */
    'pulseSurvey.reminded': { title: string };
  }
}

// Answers record no event on purpose: an audit entry names who acted and when.
export default defineModule({
  operations: pulseSurveyOperations,
  permissions: ['dataLab'],
  jobs: [surveyClosingJob],
  subscribers: [mailOpenedSurvey, mailReminder],
});
