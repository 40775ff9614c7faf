import type { Knex } from 'knex';
import { hasPermission } from '../access/permissions.js';
import { parsePermissions, rolesOfUsers } from '../access/store.js';
import { writeAtVersion } from '../kernel/versions.js';
import { subscribe } from '../platform/events.js';
import { recordNote } from '../workflow/service.js';
import { usersById } from '../access/userContacts.js';
import { parse } from './config.js';
import { lostReviewersNote, skipLostReviewers } from './reviewers.js';
import { type CycleRow, type WorksheetRow, cyclesOf, inTransaction, worksheetsOf } from './store.js';
import { WORKSHEET_SUBJECT, worksheetWorkflow } from './workflow.js';
import { cycleOwner } from './worksheets.js';

/**
 * Worksheets waiting in review on someone who can no longer review (their planning role taken
 * away, removed from the company) move on to the next reviewer of their chain, else the cycle's
 * owner, with a note in their history by whoever took the access away. Run after every change
 * of who may review; a worksheet already moved on is left as it is, so running twice is harmless.
 */
export async function skipReviewersWithoutAccess(db: Knex, companyId: string, actorUserId: string | null): Promise<number> {
  const scope = { companyId };
  return inTransaction(db, async (trx) => {
    const cycles = (await cyclesOf(trx, scope).where({ state: 'active' }).select('*')) as CycleRow[];
    if (!cycles.length) return 0;
    const waiting = (await worksheetsOf(trx, scope).whereIn('cycle_id', cycles.map((cycle) => cycle.id)).where({ state: 'in_review' }).select('*')) as WorksheetRow[];
    const everyone = [...new Set([...waiting.flatMap((sheet) => parse<string[]>(sheet.reviewers)), ...cycles.map(cycleOwner).filter((id): id is string => Boolean(id))])];
    if (!everyone.length) return 0;
    const users = await usersById(trx, scope, everyone);
    const roles = await rolesOfUsers(trx, scope, everyone);
    const mayReview = (userId: string) =>
      Boolean(users.get(userId)?.active) && (roles.get(userId) ?? []).some((role) => hasPermission(parsePermissions(role), 'compensationPlanning', 'edit', undefined));
    const nameOf = (userId: string) => users.get(userId)?.name ?? 'A former user';
    const byId = new Map(cycles.map((cycle) => [cycle.id, cycle]));
    let moved = 0;
    for (const sheet of waiting) {
      const step = sheet.review_step ?? 1;
      const resolved = skipLostReviewers({ reviewers: parse<string[]>(sheet.reviewers), step, mayReview, ownerUserId: cycleOwner(byId.get(sheet.cycle_id) as CycleRow) });
      if (!resolved) continue;
      const version = Number(sheet.version);
      const now = new Date().toISOString();
      const updated = await writeAtVersion(() => worksheetsOf(trx, scope).where({ id: sheet.id }), version, { reviewers: JSON.stringify(resolved.reviewers), updated_at: now });
      if (!updated) continue;
      const subject = { subjectType: WORKSHEET_SUBJECT, subjectId: sheet.id, currentState: 'in_review' as const, version: version + 1 };
      // By whoever took the access away; a change nobody made in the app (an import's system run) by the owner.
      const actor = actorUserId ?? cycleOwner(byId.get(sheet.cycle_id) as CycleRow);
      if (actor) await recordNote(trx, scope, worksheetWorkflow, subject, { action: 'skipReviewers', actor: { userId: actor }, comment: lostReviewersNote(resolved, step, nameOf) });
      moved += 1;
    }
    return moved;
  });
}

export const skipReviewersOnRemoval = subscribe('user.removed', 'compplanning.skipRemovedReviewer', async (event, { db }) => {
  if (event.companyId) await skipReviewersWithoutAccess(db, event.companyId, event.actorUserId);
});

export const skipReviewersOnRoles = subscribe('user.roles.set', 'compplanning.skipReviewerWithoutRole', async (event, { db }) => {
  if (event.companyId) await skipReviewersWithoutAccess(db, event.companyId, event.actorUserId);
});

export const skipReviewersOnRoleChange = subscribe('role.updated', 'compplanning.skipReviewerOfChangedRole', async (event, { db }) => {
  if (event.companyId) await skipReviewersWithoutAccess(db, event.companyId, event.actorUserId);
});
