import { defineModule } from '../kernel/modules.js';
import { jobOperations } from './routes.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A background job succeeded or failed (not written for cancelled jobs: the person cancelling knows). */
    'job.ended': { type: string; title: string; status: 'succeeded' | 'failed'; message: string };
  }
}

export default defineModule({
  operations: jobOperations,
  permissions: [],
});
