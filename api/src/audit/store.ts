import type { Knex } from 'knex';
import { newId } from '../db/ids.js';

export interface AuditEvent {
  companyId: string | null;
  actorUserId: string | null;
  action: string;
  subjectType?: string;
  subjectId?: string;
  details?: unknown;
}

/** An append-only record of who changed what: compensation changes, access changes, view-as sessions. */
export async function recordAudit(db: Knex, event: AuditEvent): Promise<void> {
  await db('audit_events').insert({
    id: newId(),
    company_id: event.companyId,
    actor_user_id: event.actorUserId,
    action: event.action,
    subject_type: event.subjectType ?? null,
    subject_id: event.subjectId ?? null,
    details: JSON.stringify(event.details ?? {}),
    created_at: new Date().toISOString(),
  });
}
