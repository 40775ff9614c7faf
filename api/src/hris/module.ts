import { defineModule } from '../kernel/modules.js';
import { peopleImportJob } from './jobs.js';
import { hrisOperations } from './routes.js';

/** What a people-data import wrote. */
interface ImportCounts {
  rows: number;
  create: number;
  update: number;
  unchanged: number;
  compensationRecords?: { add: number; update: number } | undefined;
}

declare module '../platform/events.js' {
  interface DomainEvents {
    'employees.imported': ImportCounts;
    'equityGrants.imported': ImportCounts;
  }
}

export default defineModule({
  operations: hrisOperations,
  permissions: ['team'],
  jobs: [peopleImportJob],
});
