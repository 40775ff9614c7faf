import { defineModule } from '../kernel/modules.js';
import { offersExportJob } from './exportJob.js';
import { offersOperations } from './routes.js';

type OfferEventPayload = { state: string; version: number };

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
});
