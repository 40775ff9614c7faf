import { defineModule } from '../kernel/modules.js';
import { insightSubscribers, insightsJob, nightlyInsightsJob } from './jobs.js';
import { dataLabOperations } from './routes.js';
import type { DataLabFeature } from './subscription.js';

declare module '../platform/events.js' {
  interface DomainEvents {
    /** An internal admin set which data-lab features the company has. */
    'dataLab.subscription.set': { from: Record<DataLabFeature, boolean>; to: Record<DataLabFeature, boolean> };
  }
}

/**
 * The data lab's core: the company's data-lab subscription, insights computed in the background
 * from its data (after the changes that move them, and nightly), and bookmarks. The insights
 * agent and pulse surveys are areas of their own that check the same subscription.
 */
export default defineModule({
  operations: dataLabOperations,
  permissions: ['dataLab'],
  jobs: [insightsJob, nightlyInsightsJob],
  subscribers: insightSubscribers,
});
