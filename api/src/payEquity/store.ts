import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';

/* The pay-equity tables: the company's job evaluation and its Article 10 assessments. */

export interface EvaluationRow {
  id: string;
  company_id: string;
  factors: string;
  jobs: string;
  version: number;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface AssessmentRow {
  id: string;
  company_id: string;
  year: number;
  /** The employer whose report showed the gap; '' for the group view (every legal entity together). */
  legal_entity: string;
  category_id: string;
  category_name: string;
  gap_bp: number;
  status: string;
  justification: string | null;
  remediation_plan: string | null;
  due_date: string;
  reminded_on: string | null;
  version: number;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

export const evaluationOf = (db: Knex, scope: CompanyScope) => db<EvaluationRow>('pay_equity_evaluations').where({ company_id: scope.companyId });

export async function findEvaluation(db: Knex, scope: CompanyScope): Promise<EvaluationRow | undefined> {
  return (await evaluationOf(db, scope).first()) as EvaluationRow | undefined;
}

export async function insertEvaluation(db: Knex, row: EvaluationRow): Promise<void> {
  await db('pay_equity_evaluations').insert(row);
}

export const assessmentsOf = (db: Knex, scope: CompanyScope) => db<AssessmentRow>('pay_equity_assessments').where({ company_id: scope.companyId });

export async function listAssessments(db: Knex, scope: CompanyScope, filter: { year?: number; legalEntity?: string | null } = {}): Promise<AssessmentRow[]> {
  const query = assessmentsOf(db, scope);
  if (filter.year !== undefined) query.where({ year: filter.year });
  if (filter.legalEntity !== undefined) query.where({ legal_entity: filter.legalEntity ?? '' });
  return (await query.orderBy([{ column: 'year', order: 'desc' }, { column: 'legal_entity' }, { column: 'category_id' }])) as AssessmentRow[];
}

export async function findAssessment(db: Knex, scope: CompanyScope, id: string): Promise<AssessmentRow | undefined> {
  return (await assessmentsOf(db, scope).where({ id }).first()) as AssessmentRow | undefined;
}

export async function insertAssessment(db: Knex, row: AssessmentRow): Promise<void> {
  await db('pay_equity_assessments').insert(row);
}

/** Open assessments due within `days` of `today` not yet reminded today, across companies (the reminder job). */
export async function assessmentsToRemind(db: Knex, options: { today: string; until: string }): Promise<AssessmentRow[]> {
  return (await db('pay_equity_assessments')
    .whereIn('status', ['open', 'remediation'])
    .where('due_date', '<=', options.until)
    .where((q) => q.whereNull('reminded_on').orWhere('reminded_on', '<', options.today))
    .select()) as AssessmentRow[];
}
