import { operation, publicAccess } from '../kernel/operations.js';
import { acceptLetter, declineLetter, getLetter, getLetterPdf } from '../offers/letters.js';

export const offerLetterOperations = [
  operation({
    operationId: 'getOfferLetter',
    access: publicAccess,
    handler: async ({ path }, { deps, afterCommit }) => ({ data: await getLetter({ deps, afterCommit }, path.letterToken) }),
  }),
  operation({
    operationId: 'acceptOfferLetter',
    access: publicAccess,
    handler: async ({ path, body }, { deps, afterCommit }) => ({ data: await acceptLetter({ deps, afterCommit }, path.letterToken, body) }),
  }),
  operation({
    operationId: 'declineOfferLetter',
    access: publicAccess,
    handler: async ({ path, body }, { deps, afterCommit }) => ({ data: await declineLetter({ deps, afterCommit }, path.letterToken, body) }),
  }),
  operation({
    operationId: 'getOfferLetterPdf',
    access: publicAccess,
    handler: async ({ path }, { deps, afterCommit }) => getLetterPdf({ deps, afterCommit }, path.letterToken),
  }),
];
