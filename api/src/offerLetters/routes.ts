import { operation, publicAccess } from '../kernel/operations.js';
import { acceptLetter, declineLetter, getLetter, getLetterPdf } from '../offers/letters.js';

export const offerLetterOperations = [
  operation({
    operationId: 'getOfferLetter',
    access: publicAccess,
    handler: async ({ path }, ctx) => ({ data: await getLetter({ deps: ctx.deps, afterCommit: ctx.afterCommit }, path.letterToken) }),
  }),
  operation({
    operationId: 'acceptOfferLetter',
    access: publicAccess,
    handler: async ({ path, body }, ctx) => ({ data: await acceptLetter({ deps: ctx.deps, afterCommit: ctx.afterCommit }, path.letterToken, body) }),
  }),
  operation({
    operationId: 'declineOfferLetter',
    access: publicAccess,
    handler: async ({ path, body }, ctx) => ({ data: await declineLetter({ deps: ctx.deps, afterCommit: ctx.afterCommit }, path.letterToken, body) }),
  }),
  operation({
    operationId: 'getOfferLetterPdf',
    access: publicAccess,
    handler: async ({ path }, ctx) => getLetterPdf({ deps: ctx.deps, afterCommit: ctx.afterCommit }, path.letterToken),
  }),
];
