import type { components } from '../contract-types.js';
import { defineModule } from '../kernel/modules.js';
import { employeeCompensationExportJob } from './exportJob.js';
import { hireStartJob } from './hireStart.js';
import { peopleOperations } from './routes.js';
import { grant } from '../access/permissions.js';

declare module '../access/permissions.js' {
  interface Permissions { employeeCompensation: true; demographics: true; }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    'employee.created': Record<string, never>;
    'employee.updated': { fields: string[] };
    'employee.terminated': { terminationDate: string; reportsMovedTo: string | null; reportsMoved: number };
    /** A future hire's start date came: they are active from today. */
    'employee.started': { startDate: string };
    /** A future hire was cancelled before their start date (the offer records who and why): their record is gone. */
    'employee.hireCancelled': { offerId: string; startDate: string };
    'equity_grant.created': { grantId: string; grantNumber: string; grantType: string; shares: number };
    'equity_grant.updated': { grantId: string; changes: components['schemas']['EquityGrantUpdate'] };
    'equity_grant.deleted': { grantId: string; grantNumber: string; shares: number };
    'candidate.created': Record<string, never>;
    'candidate.updated': { fields: string[] };
    'candidate.removed': { email: string };
    'compensation.added': { recordId: string; type: string; amount: components['schemas']['Money']; effectiveDate: string };
    'compensation.corrected': { recordId: string; from: components['schemas']['CompensationRecord']; changes: components['schemas']['CompensationRecordCorrection'] };
    'compensation.deleted': { record: components['schemas']['CompensationRecord'] };
  }
}

export default defineModule({
  operations: peopleOperations,
  permissions: ['employeeCompensation', 'offers', 'team'],
  jobs: [employeeCompensationExportJob, hireStartJob],
  ownPermissions: {
    employeeCompensation: {
      label: 'Employee pay',
      group: 'people',
      order: 20,
      description: 'view: see salaries, bonuses and equity of employees in scope; edit: change them.',
      scopes: ['all', 'reports'],
      roles: { compensation_planner: grant('edit'), people_manager: grant('view', 'reports'), analyst: grant('view') },
    },
    demographics: {
      label: 'Demographics',
      group: 'people',
      order: 30,
      description: 'view: see demographic fields for pay-equity analysis.',
      scopes: ['all'],
      roles: { compensation_planner: grant('view') },
    },
  },
});
