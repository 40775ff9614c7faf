import { defineModule } from '../kernel/modules.js';
import { offerLetterOperations } from './routes.js';

/*
 * The candidate's side of offers: the letter opened by its link. Public (a candidate has no account
 * of the company), so it cannot sit behind the `visualOfferLetter` switch the router applies from a
 * caller's flags; the offers service checks the offer's company has offer letters instead. The
 * code lives with offers (api/src/offers/letters.ts).
 */
export default defineModule({
  operations: offerLetterOperations,
  permissions: [],
});
