import { defineModule } from '../kernel/modules.js';
import { clarificationReminderJob, reminderJob, scheduleNoticeOnSwitch, yearlyNoticeJob } from './jobs.js';
import { payTransparencyOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** An employee asked for their pay information; the answer is due on `dueOn`. */
    'payInformationRequest.filed': { dueOn: string };
    /** HR changed the note delivered with the answer. */
    'payInformationRequest.noteEdited': { version: number };
    /** HR approved the answer and it reached the employee; `onTime` when on or before its due date. */
    'payInformationRequest.delivered': { dueOn: string; onTime: boolean };
    /** HR was reminded of a request still waiting two weeks before its due date (no actor). */
    'payInformationRequest.reminded': { dueOn: string };
    /** HR prepared the answer again from today's people data (the figures had changed since it was prepared). */
    'payInformationRequest.prepared': { version: number; asOf: string };
    /** The worker asked for clarification of a delivered answer (Art. 7(5)); the reply is due on `dueOn`. */
    'payInformationRequest.clarificationAsked': { clarificationId: string; dueOn: string };
    /** HR sent the reasoned reply; `withFigures` when it carries the answer prepared again. */
    'payInformationRequest.clarificationReplied': { clarificationId: string; dueOn: string; onTime: boolean; withFigures: boolean };
    /** HR was reminded of a request for clarification still without a reply (no actor). */
    'payInformationRequest.clarificationReminded': { clarificationId: string; dueOn: string };
    /** The pay-setting criteria, publication minimum or hours changed. */
    'payTransparency.settingsUpdated': { version: number; publicationMinimum: number };
    /** This year's notice of the right to information went out to every worker. */
    'payTransparency.noticeSent': { year: number; recipients: number; trigger: 'schedule' | 'button' };
  }
}

/**
 * Pay transparency: the right to information of the EU Pay Transparency Directive (Article 7), with
 * the pay-setting criteria (Article 6). Behind the pay-equity module's switch and permission.
 */
export default defineModule({
  module: 'payEquity',
  operations: payTransparencyOperations,
  permissions: ['payEquity'],
  jobs: [reminderJob, clarificationReminderJob, yearlyNoticeJob],
  subscribers: [scheduleNoticeOnSwitch],
});
