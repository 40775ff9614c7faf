import { defineModule } from '../kernel/modules.js';
import { offersExportJob } from './exportJob.js';
import { offersOperations } from './routes.js';
import { grant } from '../access/permissions.js';
import type { OfferUpdate } from './realtime.js';

type OfferEventPayload = { state: string; version: number };

declare module '../access/permissions.js' {
  interface Permissions { offers: true; }
}

declare module '../realtime/server.js' {
  interface RealtimeEvents {
    /** An offer the user may see changed, or its candidate acted on it. */
    emitOfferUpdate: OfferUpdate;
  }
}

declare module '../platform/events.js' {
  interface DomainEvents {
    /** A draft offer was made. */
    'offer.created': OfferEventPayload;
    /** An offer was edited (an offer past draft went back to draft with it). */
    'offer.updated': OfferEventPayload;
    /** An out-of-range offer was submitted for approval. */
    'offer.submitted': OfferEventPayload;
    /** An approver approved (or a draft within range was submitted, needing no approval). */
    'offer.approved': OfferEventPayload;
    /** An approver sent the offer back to draft. */
    'offer.rejected': OfferEventPayload;
    /** The offer was sent: its candidate has a new link. */
    'offer.sent': OfferEventPayload;
    /** The candidate opened the letter for the first time. */
    'offer.opened': OfferEventPayload;
    /** The candidate read the letter again. */
    'offer.viewed': OfferEventPayload;
    /** The candidate accepted (the employee record was made with it). */
    'offer.accepted': OfferEventPayload;
    /** The candidate declined, with a reason. */
    'offer.declined': OfferEventPayload;
    /** The expiry date passed while the letter was open. */
    'offer.expired': OfferEventPayload;
    /** The company withdrew the offer. */
    'offer.rescinded': OfferEventPayload;
    /** A draft was deleted. */
    'offer.deleted': OfferEventPayload;
    /** An admin cancelled the accepted offer's hire before its start date. */
    'offer.hireCancelled': OfferEventPayload;
  }
}

export default defineModule({
  module: 'visualOfferLetter',
  operations: offersOperations,
  permissions: ['offers'],
  jobs: [offersExportJob],
  ownPermissions: {
    offers: {
      label: 'Offers',
      group: 'pay',
      order: 30,
      description: 'view: see offers to candidates; edit: create and send offers and offer letters.',
      scopes: ['all'],
      roles: { compensation_planner: grant('edit'), people_manager: grant('view'), analyst: grant('view') },
    },
  },
  switches: {
    visualOfferLetter: { label: 'Offer letters', flag: 'offer_letters', permissions: ['offers'], order: 80 },
  },
  flags: {
    offer_letters: { default: false, segments: ['admin_saas_customers'], demo: true, order: 40 },
  },
  realtimeEvents: ['emitOfferUpdate'],
});
