import { defineModule } from '../kernel/modules.js';
import { postingsExportJob } from './exportJob.js';
import { postingsOperations } from './routes.js';
import { flagPostingsOnBandPublish } from './staleness.js';
import { grant } from '../access/permissions.js';

/** The ranges a change wrote or an opening published, kept in the audit entry. */
export interface PostingRangesRecord {
  bandSetId: string | null;
  bandSetVersion: number | null;
  ranges: { place: string; currency: string; min: number | null; max: number | null }[];
}

type PostingEventPayload = { state: string; version: number } & Partial<PostingRangesRecord>;

declare module '../access/permissions.js' {
  interface Permissions { postings: true; }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A job posting was drafted, its ranges from the live band set. */
    'posting.created': PostingEventPayload;
    /** A posting was changed. */
    'posting.updated': PostingEventPayload;
    /** An open or waiting posting was changed beyond its bands and went back to draft. */
    'posting.reopenedAsDraft': PostingEventPayload;
    /** A posting with every range within its band opened. */
    'posting.opened': PostingEventPayload;
    /** A posting with a range beyond its band waits for approval. */
    'posting.submitted': PostingEventPayload;
    /** An approver approved a posting's range beyond its band (it opens once enough have). */
    'posting.approved': PostingEventPayload;
    /** A posting was closed. */
    'posting.closed': PostingEventPayload;
    /** A new live band set no longer holds some of a posting's ranges. */
    'posting.stale': { bandSetId: string; reasons: string[] };
  }
}

export default defineModule({
  module: 'visualOfferLetter',
  operations: postingsOperations,
  permissions: ['postings'],
  jobs: [postingsExportJob],
  subscribers: [flagPostingsOnBandPublish],
  ownPermissions: {
    postings: {
      label: 'Job postings',
      group: 'pay',
      order: 40,
      description: 'view: see job postings, their pay ranges and rule checks, and export them; edit: create, change, open and close postings.',
      scopes: ['all'],
      roles: { compensation_planner: grant('edit'), analyst: grant('view') },
    },
  },
});
