import { isoTimestamp } from '../db/timestamps.js';
import type { WorkflowHistoryListRow } from './store.js';

/** One change of a subject's state, as modules will show it. */
export interface WorkflowHistoryEntry {
  id: string;
  workflow: string;
  action: string;
  from: string;
  to: string;
  /** The subject's version the actor saw, when the module gave it. */
  subjectVersion: number | null;
  comment: string | null;
  actor: { userId: string; name: string | null };
  at: string;
}

function actorName(row: WorkflowHistoryListRow): string | null {
  const name = [row.actor_first_name, row.actor_last_name].filter(Boolean).join(' ');
  return name || null;
}

export function presentHistory(row: WorkflowHistoryListRow): WorkflowHistoryEntry {
  return {
    id: row.id,
    workflow: row.workflow,
    action: row.action,
    from: row.from_state,
    to: row.to_state,
    subjectVersion: row.subject_version === null ? null : Number(row.subject_version),
    comment: row.comment,
    actor: { userId: row.actor_user_id, name: actorName(row) },
    at: isoTimestamp(row.created_at),
  };
}
