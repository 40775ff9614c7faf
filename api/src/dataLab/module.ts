import { defineModule } from '../kernel/modules.js';
import { insightSubscribers, insightsJob, nightlyInsightsJob } from './jobs.js';
import { dataLabOperations } from './routes.js';
import { grant } from '../access/permissions.js';
import { queueJobIn } from '../jobs/queue.js';
import { type DataLabFeature, saveDataLabFeatures } from './subscription.js';

declare module '../access/permissions.js' {
  interface Permissions { dataLab: true; }
}

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
  ownPermissions: {
    dataLab: {
      label: 'Data lab',
      group: 'pay',
      order: 60,
      description:
        'view: use the data lab (insights, bookmarks, the insights agent, pulse-survey results); edit: create and close pulse surveys, share bookmarks.',
      scopes: ['all'],
      roles: { compensation_planner: grant('edit'), analyst: grant('view') },
    },
  },
  // The demo has the whole data lab (insights, the insights agent and pulse surveys) and opens with
  // insights: the first computation runs as soon as the worker starts.
  async demo(trx, { companyId, adminUserId }) {
    await saveDataLabFeatures(trx, companyId, { insights: true, agent: true, pulseSurveys: true }, 'demo');
    await queueJobIn(trx, insightsJob, { companyId, ownerUserId: adminUserId, input: { reason: 'demo' } });
  },
});
