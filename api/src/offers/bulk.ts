import type { Caller } from '../access/caller.js';
import { companyScope } from '../access/caller.js';
import { hasPermission } from '../access/permissions.js';
import type { components } from '../contract-types.js';
import { HttpError, badRequest } from '../kernel/errors.js';
import { sendAt } from './letters.js';
import { type CandidateNames, presentSummary } from './present.js';
import { type OfferContext, approveAt, candidateNames, expireDue, rescindAt, submitAt } from './service.js';
import type { OfferRow } from './store.js';

type Schemas = components['schemas'];
type BulkRequest = Schemas['OfferBulkActionRequest'];
type BulkResult = Schemas['OfferBulkActionResult'];
type Action = BulkRequest['action'];

const ACTIONS: Record<Action, (ctx: OfferContext, caller: Caller, id: string, version: number, comment: string | undefined) => Promise<OfferRow>> = {
  submit: submitAt,
  approve: approveAt,
  send: async (ctx, caller, id, version, comment) => (await sendAt(ctx, caller, id, version, comment)).row,
  rescind: rescindAt,
};

const PAST: Record<Action, string> = { submit: 'Submitting', approve: 'Approving', send: 'Sending', rescind: 'Rescinding' };

/**
 * One action over several offers, each at the version its caller read. Every offer is changed in
 * its own transaction (a savepoint inside the request's), so a refusal — changed meanwhile, in the
 * wrong state, not awaiting this approver, a bad expiry — is reported beside its offer and leaves
 * the others to go ahead, as the same single actions would one by one.
 */
export async function bulkOfferAction(ctx: OfferContext, caller: Caller, input: BulkRequest): Promise<BulkResult> {
  const db = ctx.deps.db;
  const scope = companyScope(caller);
  if (input.action !== 'approve' && !hasPermission(caller.permissions, 'offers', 'edit', undefined)) {
    throw new HttpError(403, 'forbidden', { message: `${PAST[input.action]} offers needs the offers permission (edit).` });
  }
  const comment = input.comment?.trim() || undefined;
  if (input.action === 'rescind' && !comment) throw badRequest('Say why the offers are rescinded: the comment is kept in each offer’s history.', [{ field: 'comment', message: 'is required to rescind' }]);
  const ids = new Set<string>();
  for (const [index, offer] of input.offers.entries()) {
    if (ids.has(offer.id)) throw badRequest('Each offer can be named once.', [{ field: `offers/${index}/id`, message: 'is named twice' }]);
    ids.add(offer.id);
  }
  await expireDue(db, scope, ctx);
  const act = ACTIONS[input.action];
  const names = new Map<string, CandidateNames | undefined>();
  const results: BulkResult['results'] = [];
  for (const offer of input.offers) {
    try {
      const row = await act(ctx, caller, offer.id, offer.version, comment);
      if (!names.has(row.candidate_id)) names.set(row.candidate_id, await candidateNames(db, scope, row.candidate_id));
      results.push({ offerId: offer.id, outcome: 'done', offer: presentSummary(row, names.get(row.candidate_id)) });
    } catch (error) {
      // Only a refusal of this one offer is reported beside it; anything else fails the request.
      if (!(error instanceof HttpError) || error.status >= 500) throw error;
      const stored = error.code === 'version_conflict' ? Number(/"(\d+)"/.exec(error.headers.ETag ?? '')?.[1]) : Number.NaN;
      results.push({ offerId: offer.id, outcome: 'refused', code: error.code, message: error.message, ...(Number.isInteger(stored) ? { currentVersion: stored } : {}) });
    }
  }
  const done = results.filter((result) => result.outcome === 'done').length;
  return { action: input.action, done, refused: results.length - done, results };
}
