import type { Knex } from 'knex';
import { type CompanyScope, companyScope } from '../access/caller.js';
import { approverOf, usersById } from '../access/userContacts.js';
import type { components } from '../contract-types.js';
import { isoTimestamp } from '../db/timestamps.js';
import { HttpError } from '../kernel/errors.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { emit } from '../platform/events.js';
import { transition } from '../workflow/service.js';
import { makeLive, requireSet, requireSetAtVersion } from './sets.js';
import { type BandSetApprovalRow, type BandSetRow, findBandSetApproval, setsOf, updateDecisions } from './store.js';
import { BAND_SET_SUBJECT, bandSetWorkflow } from './workflow.js';
import type { ServiceContext } from '../kernel/operations.js';

/*
 * A band set's publication approval: the approvers the workflow settings named when the draft was
 * submitted (sets.ts `submitForApproval`), in order, and their decisions. The band set's own state (`pendingApproval`) moves
 * through the declared `bandSet` workflow; the last approval makes it live.
 */

type BandSetApproval = components['schemas']['BandSetApproval'];

interface Decision {
  userId: string;
  decision: 'approved' | 'rejected';
  at: string;
}

const approversOf = (row: BandSetApprovalRow | undefined): string[] => (row ? (JSON.parse(row.approver_user_ids) as string[]) : []);
const decisionsOf = (row: BandSetApprovalRow | undefined): Decision[] => (row ? (JSON.parse(row.decisions) as Decision[]) : []);

/** Whom the set waits for now: the next approver in order, while it is pending. */
function awaitedOf(set: BandSetRow, row: BandSetApprovalRow | undefined): string[] {
  if (set.status !== 'pendingApproval' || !row) return [];
  const approvers = approversOf(row);
  const approved = decisionsOf(row).filter((decision) => decision.decision === 'approved').length;
  const next = approvers[approved];
  return next ? [next] : [];
}

async function present(db: Knex, scope: CompanyScope, set: BandSetRow): Promise<BandSetApproval> {
  const row = await findBandSetApproval(db, scope, set.id);
  const approvers = approversOf(row);
  const decisions = decisionsOf(row);
  const users = await usersById(db, scope, [...approvers, ...(row ? [row.submitted_by] : [])]);
  return {
    bandSetId: set.id,
    status: set.status,
    version: Number(set.version),
    approvers: approvers.map((userId) => {
      const decided = decisions.filter((decision) => decision.userId === userId).at(-1);
      return { ...approverOf(userId, users), decision: decided?.decision ?? null, decidedAt: decided?.at ?? null };
    }),
    awaiting: awaitedOf(set, row),
    submittedBy: row ? approverOf(row.submitted_by, users) : null,
    submittedAt: row ? isoTimestamp(row.submitted_at) : null,
  };
}

export async function getBandSetApproval(ctx: Pick<ServiceContext, 'db' | 'caller'>, bandSetId: string): Promise<BandSetApproval> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  return present(db, scope, await requireSet(db, scope, bandSetId));
}

/** Approves (the last approval publishes) or rejects (back to draft) at the set's version read. */
export async function decideBandSet(ctx: Pick<ServiceContext, 'db' | 'caller'>, { bandSetId, ifMatch, decision, comment }: { bandSetId: string; ifMatch: string; decision: 'approved' | 'rejected'; comment: string | undefined }): Promise<BandSetApproval> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(ifMatch);
  await db.transaction(async (trx) => {
    const set = await requireSetAtVersion(trx, scope, { id: bandSetId, version });
    const row = await findBandSetApproval(trx, scope, set.id);
    const awaiting = awaitedOf(set, row);
    const decisions: Decision[] = [...decisionsOf(row), { userId: caller.userId, decision, at: new Date().toISOString() }];
    const subject = { subjectType: BAND_SET_SUBJECT, subjectId: set.id, currentState: set.status, version, awaiting };
    if (decision === 'rejected') {
      if (!bandSetWorkflow.transitionFrom(set.status, 'reject')) throw new HttpError(409, 'invalid_transition', { message: bandSetWorkflow.refusal(set.status, 'reject') });
      const rejected = await transition(trx, scope, bandSetWorkflow, { subject, action: 'reject', actor: caller, comment });
      await updateAtVersion(() => setsOf(trx, scope).where({ id: set.id }), version, { status: rejected.state, updated_at: new Date().toISOString() }, 'this band set');
      await updateDecisions(trx, scope, set.id, JSON.stringify(decisions));
      return;
    }
    if (!bandSetWorkflow.transitionFrom(set.status, 'approve')) throw new HttpError(409, 'invalid_transition', { message: bandSetWorkflow.refusal(set.status, 'approve') });
    const approvedCount = decisions.filter((entry) => entry.decision === 'approved').length;
    const last = approvedCount >= approversOf(row).length;
    if (last) {
      await makeLive(trx, scope, caller, set, { action: 'approve', comment, awaiting });
    } else {
      await transition(trx, scope, bandSetWorkflow, { subject, action: 'recordApproval', actor: caller, comment });
      await updateAtVersion(() => setsOf(trx, scope).where({ id: set.id }), version, { updated_at: new Date().toISOString() }, 'this band set');
    }
    // The guard has let only the awaited approver through, so the decision is theirs to record.
    await updateDecisions(trx, scope, set.id, JSON.stringify(decisions));
    if (!last) {
      const next = approversOf(row)[approvedCount] ?? null;
      await emit(trx, {
        name: 'bandSet.approvalRequested',
        companyId: scope.companyId,
        actorUserId: caller.userId,
        subjectType: BAND_SET_SUBJECT,
        subjectId: set.id,
        payload: { bandSetId: set.id, name: set.name, approverUserIds: approversOf(row), awaitingUserId: next },
      });
    }
  });
  return getBandSetApproval({ db, caller }, bandSetId);
}
