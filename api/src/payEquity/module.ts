import { defineModule } from '../kernel/modules.js';
import { assessmentReminders } from './reminders.js';
import { payEquityOperations } from './routes.js';
import { grant } from '../access/permissions.js';

declare module '../access/permissions.js' {
  interface Permissions { payEquity: true; }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    /** The job evaluation that forms the categories of workers was saved. */
    'payEquity.evaluation.saved': { version: number; jobs: number; weights: Record<string, number> };
    /** A category of a reference year was flagged for a joint pay assessment (Art. 10). */
    'payEquity.assessment.flagged': { year: number; legalEntity: string | null; categoryId: string; gap: number; dueDate: string };
    /** A flagged category's justification, remediation plan or status was recorded. */
    'payEquity.assessment.updated': { status: string; justification: boolean; remediationPlan: boolean };
    /** The reminder that an assessment's six months end soon went out. */
    'payEquity.assessment.reminded': { dueDate: string; recipients: number };
    /** The cost to close was sent to a merit cycle as pay equity adjustments (the cycle audits each row). */
    'payEquity.adjustments.sent': { year: number; sent: number; notSent: number; removed: number };
  }
}

/**
 * Pay equity: categories of workers from a point-factor job evaluation (Directive Art. 4), the
 * Article 9 report and the UK gender pay gap figures from one engine, and Article 10 joint pay
 * assessments with their six-month clock. docs/pay-equity.md has the method.
 */
export default defineModule({
  module: 'payEquity',
  operations: payEquityOperations,
  permissions: ['payEquity'],
  jobs: [assessmentReminders],
  ownPermissions: {
    payEquity: {
      label: 'Pay equity',
      group: 'pay',
      order: 70,
      description:
        'view: see pay-gap reports, the job evaluation and joint pay assessments (figures by gender also need demographics); edit: evaluate jobs, flag categories and record justifications and remediation plans; with `compensationPlanning` edit and `employeeCompensation` view over the whole company, send the cost to close to a running merit cycle as pay equity adjustments. Also HR’s side of pay transparency: view the requests for pay information and their answers; edit: review and deliver them, set the pay-setting criteria, send the yearly notice.',
      scopes: ['all'],
      roles: { compensation_planner: grant('edit') },
    },
  },
  switches: {
    payEquity: { label: 'Pay equity and pay transparency', flag: 'pay_equity', permissions: ['payEquity'], order: 100 },
  },
  flags: {
    pay_equity: { default: false, demo: true, order: 120 },
  },
});
