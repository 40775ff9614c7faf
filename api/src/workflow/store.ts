import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

export interface WorkflowHistoryRow {
  id: string;
  company_id: string;
  workflow: string;
  subject_type: string;
  subject_id: string;
  subject_version: number | null;
  from_state: string;
  to_state: string;
  action: string;
  actor_user_id: string;
  comment: string | null;
  created_at: string | Date;
}

/** The row with the actor's name, when they are still a user of the company. */
export interface WorkflowHistoryListRow extends WorkflowHistoryRow {
  actor_first_name: string | null;
  actor_last_name: string | null;
}

/** Written with the caller's transaction: the history commits or rolls back with the change itself. */
export async function insertHistory(db: Knex, row: WorkflowHistoryRow): Promise<void> {
  await db('workflow_history').insert(row);
}

export async function listHistory(db: Knex, scope: CompanyScope, subjectType: string, subjectId: string): Promise<WorkflowHistoryListRow[]> {
  return db('workflow_history')
    .where({ 'workflow_history.company_id': scope.companyId, 'workflow_history.subject_type': subjectType, 'workflow_history.subject_id': subjectId })
    .leftJoin('users as actor', function joinActor() {
      this.on('actor.id', '=', 'workflow_history.actor_user_id').andOn('actor.company_id', '=', 'workflow_history.company_id');
    })
    .select('workflow_history.*', 'actor.first_name as actor_first_name', 'actor.last_name as actor_last_name')
    .orderBy([{ column: 'workflow_history.created_at' }, { column: 'workflow_history.id' }]);
}
