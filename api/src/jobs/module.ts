import { defineModule } from '../kernel/modules.js';
import { jobOperations } from './routes.js';
import type { JobStatus } from './store.js';

declare module '../realtime/server.js' {
  interface RealtimeEvents {
    /** A job of the user's moved on: its state and progress (0–100). */
    emitBackgroundJobStatusUpdate: { jobId: string; status: JobStatus; progress: number };
  }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A background job succeeded or failed (not written for cancelled jobs: the person cancelling knows). */
    'job.ended': { type: string; title: string; status: 'succeeded' | 'failed'; message: string };
  }
}

export default defineModule({
  operations: jobOperations,
  permissions: [],
  flags: {
    release_job_manager_page: { default: true, order: 90 },
  },
  realtimeEvents: ['emitBackgroundJobStatusUpdate'],
});
