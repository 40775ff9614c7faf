import { defineModule } from '../kernel/modules.js';
import { skipReviewersOnRemoval, skipReviewersOnRoleChange, skipReviewersOnRoles } from './lostReviewers.js';
import { payrollExportJob } from './exportJob.js';
import { notifyNextActor, notifyPlannersOfLaunch } from './notify.js';
import { meritCycleOperations } from './routes.js';
import { windowClosingJob } from './windowNotices.js';
import { grant } from '../access/permissions.js';
import type { EmployeesUpdate } from './realtime.js';

declare module '../access/permissions.js' {
  interface Permissions { compensationPlanning: true; }
}

declare module '../realtime/server.js' {
  interface RealtimeEvents {
    /**
     * Rows of a cycle the user views changed, or a worksheet moved (with the line the person is
     * told; the product itself may have moved it, with no actor).
     */
    emitMeritCycleEmployeesUpdate: Omit<EmployeesUpdate, 'actorUserId'> & { actorUserId: string | null; message?: string };
  }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A cycle was launched, closed (with the pay records written) or cancelled. Reward letters hang off `closed`. */
    'meritCycle.transitioned': { meritCycleId: string; action: string; from: string; to: string; payRecordsWritten: number };
    /** A worksheet moved in its review (or was pulled up); `notifyUserId` is the one person who acts next. */
    'meritCycle.worksheetMoved': {
      meritCycleId: string;
      cycleName: string;
      worksheetId: string;
      plannerName: string | null;
      action: string;
      from: string;
      to: string;
      comment: string | null;
      notifyUserId: string | null;
    };
    /** Base salaries and one-off bonuses a closing cycle wrote into people data, listed (one entry per type and batch of up to 500). */
    'meritCycle.payWritten': {
      meritCycleId: string;
      effectiveDate: string;
      type: 'base_salary' | 'one_off_bonus';
      records: { recordId: string; employeeId: string; amount: number; currency: string; reason: string }[];
    };
    /** Equity refreshes a closing cycle granted (one entry per batch of up to 500). */
    'meritCycle.equityGranted': {
      meritCycleId: string;
      grantDate: string;
      grants: { grantId: string; grantNumber: string; employeeId: string; shares: number }[];
    };
    /** A planned pay change to one employee (the audit of every change to pay): fields from → to, at the row's new version. */
    'meritCycle.employeePlanned': {
      meritCycleId: string;
      worksheetId: string;
      rowVersion: number;
      changes: { field: string; from: string | null; to: string | null }[];
      newBase: { amount: number; currency: string } | null;
    };
  }
}

export default defineModule({
  module: 'compplanning',
  operations: meritCycleOperations,
  permissions: ['compensationPlanning'],
  jobs: [payrollExportJob, windowClosingJob],
  subscribers: [notifyNextActor, notifyPlannersOfLaunch, skipReviewersOnRemoval, skipReviewersOnRoles, skipReviewersOnRoleChange],
  ownPermissions: {
    compensationPlanning: {
      label: 'Compensation planning',
      group: 'pay',
      order: 20,
      description: 'view: see merit cycles and worksheets in scope; edit: plan and submit recommendations.',
      scopes: ['all', 'reports'],
      roles: { compensation_planner: grant('edit'), people_manager: grant('edit', 'reports'), analyst: grant('view') },
    },
  },
  switches: {
    compplanning: { label: 'Compensation planning', flag: 'compensation_planning', permissions: ['compensationPlanning'], order: 40 },
  },
  flags: {
    compensation_planning: { default: false, segments: ['admin_saas_customers'], demo: true, order: 20 },
    budgets: { default: false, segments: ['admin_saas_customers'], order: 80 },
  },
  realtimeEvents: ['emitMeritCycleEmployeesUpdate'],
});
