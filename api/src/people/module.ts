import type { components } from '../contract-types.js';
import { defineModule } from '../kernel/modules.js';
import { employeeCompensationExportJob } from './exportJob.js';
import { hireStartJob } from './hireStart.js';
import { peopleOperations } from './routes.js';

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
});
