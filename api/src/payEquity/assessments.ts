import type { Knex } from 'knex';
import { companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { newId } from '../db/ids.js';
import { HttpError, badRequest, notFound } from '../kernel/errors.js';
import { updateAtVersion, versionOf } from '../kernel/versions.js';
import { companyBranding, issueComposedDocuments, type TemplateInput } from '../documents/service.js';
import { emit } from '../platform/events.js';
import { addMonths } from '../people/vesting.js';
import { ASSESSMENT_THRESHOLD, payEquityReport } from './report.js';
import { queueReminders } from './reminders.js';
import { type AssessmentRow, assessmentsOf, findAssessment, insertAssessment, listAssessments } from './store.js';
import type { ServiceContext } from '../kernel/operations.js';

/*
 * Article 10 joint pay assessments: a category of a reference year whose gap is 5 % or more is
 * flagged; the company records the objective, gender-neutral justification or the remediation plan;
 * six months after flagging it is due (reminders before, from the `payEquityAssessmentReminders` job).
 */

type Schemas = components['schemas'];

const ASSESSMENT_TEMPLATE: TemplateInput = {
  key: 'payEquity.assessment',
  title: 'Joint pay assessment',
  body: 'A joint pay assessment as recorded: its content is composed from the assessment, not from this template.',
};

/**
 * A new version of the assessment's document — the analysis, the reasons, the measures and the
 * follow-up (Art. 10(2)) — written with the change that made it, so each state is kept as it was.
 */
async function issueAssessmentDocument(db: Knex, scope: { companyId: string }, row: AssessmentRow, createdBy: string): Promise<void> {
  const status: Record<string, string> = { open: 'Open: to be justified or remedied', justified: 'Justified by objective, gender-neutral criteria', remediation: 'Remediation under way', closed: 'Closed' };
  await issueComposedDocuments(db, scope, {
    template: ASSESSMENT_TEMPLATE,
    createdBy,
    documents: [
      {
        subjectType: 'payEquityAssessment',
        subjectId: row.id,
        variables: { year: row.year, legalEntity: row.legal_entity, categoryId: row.category_id, status: row.status },
        content: {
          title: `Joint pay assessment — ${row.category_name} (${row.legal_entity || 'all legal entities'}, ${row.year})`,
          branding: await companyBranding(db, scope),
          blocks: [
            { kind: 'paragraph', lines: [row.legal_entity ? `Employer: ${row.legal_entity}.` : 'Every legal entity of the company together (group view).'] },
            { kind: 'heading', text: 'Analysis' },
            { kind: 'paragraph', lines: [`In the ${row.year} pay gap report${row.legal_entity ? ` of ${row.legal_entity}` : ''}, the category ${row.category_name} shows a mean gap of pay between women and men of ${Number(row.gap_bp) / 100} %, at or above the 5 % of Article 10(1)(a) of Directive (EU) 2023/970.`] },
            { kind: 'heading', text: 'Reasons' },
            { kind: 'paragraph', lines: [row.justification ?? 'No justification recorded yet.'] },
            { kind: 'heading', text: 'Measures' },
            { kind: 'paragraph', lines: [row.remediation_plan ?? 'No remediation plan recorded yet.'] },
            { kind: 'heading', text: 'Follow-up' },
            { kind: 'table', rows: [{ label: 'Status', amount: status[row.status] ?? row.status }, { label: 'Flagged', amount: new Date(row.created_at).toISOString().slice(0, 10) }, { label: 'Due (six months)', amount: String(row.due_date).slice(0, 10) }] },
          ],
        },
      },
    ],
  });
}

export function presentAssessment(row: AssessmentRow): Schemas['PayEquityAssessment'] {
  return {
    id: row.id,
    year: Number(row.year),
    legalEntity: row.legal_entity || null,
    categoryId: row.category_id,
    categoryName: row.category_name,
    gap: Number(row.gap_bp) / 100,
    status: row.status as Schemas['PayEquityAssessment']['status'],
    justification: row.justification,
    remediationPlan: row.remediation_plan,
    flaggedOn: new Date(row.created_at).toISOString().slice(0, 10),
    dueDate: String(row.due_date).slice(0, 10),
    version: Number(row.version),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export async function assessments(ctx: Pick<ServiceContext, 'db' | 'caller'>, filter: { year?: number; legalEntity?: string }): Promise<Schemas['PayEquityAssessment'][]> {
  const { db, caller } = ctx;
  return (await listAssessments(db, companyScope(caller), filter)).map(presentAssessment);
}

/**
 * Flags a category of the year's report for one employer (as the admin ran it: `legalEntity`, the
 * group view when absent) whose mean gap, annual or hourly, is 5 % or more.
 */
export async function flagCategory(ctx: Pick<ServiceContext, 'db' | 'caller'>, input: { year: number; categoryId: string; legalEntity?: string; hoursPerWeek?: number; minimumGroup?: number }): Promise<Schemas['PayEquityAssessment']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const report = await payEquityReport({ db }, scope, { year: input.year, hoursPerWeek: input.hoursPerWeek ?? 40, minimumGroup: input.minimumGroup ?? 5, legalEntity: input.legalEntity });
  const category = report.categories.find((entry) => entry.categoryId === input.categoryId);
  const employer = input.legalEntity ? ` of ${input.legalEntity}` : '';
  if (!category) throw badRequest(`No category ${input.categoryId} in the ${input.year} report${employer}.`, [{ field: 'body.categoryId', message: 'is not a category of the report' }]);
  if (category.suppressed || !category.annual || !category.hourly) throw badRequest('This category has too few women or men for its gap to be published.', [{ field: 'body.categoryId', message: 'is withheld' }]);
  const gaps = [category.annual.total.meanGap, category.hourly.total.meanGap].filter((gap): gap is number => gap !== null);
  const gap = gaps.reduce((worst, value) => (Math.abs(value) > Math.abs(worst) ? value : worst), 0);
  if (Math.abs(gap) < ASSESSMENT_THRESHOLD) throw badRequest(`The category's gap is under ${ASSESSMENT_THRESHOLD} %: no joint pay assessment is needed.`, [{ field: 'body.categoryId', message: `gap ${gap} %` }]);
  const now = new Date().toISOString();
  const row: AssessmentRow = {
    id: newId(),
    company_id: scope.companyId,
    year: input.year,
    legal_entity: input.legalEntity ?? '',
    category_id: category.categoryId,
    category_name: category.categoryName,
    gap_bp: Math.round(gap * 100),
    status: 'open',
    justification: null,
    remediation_plan: null,
    due_date: addMonths(now.slice(0, 10), 6),
    reminded_on: null,
    version: 1,
    updated_by: caller.userId,
    created_at: now,
    updated_at: now,
  };
  await db.transaction(async (trx) => {
    if (await assessmentsOf(trx, scope).where({ year: input.year, legal_entity: row.legal_entity, category_id: category.categoryId }).first('id')) {
      throw new HttpError(409, 'already_flagged', { message: `This category is already flagged for that year${employer}.` });
    }
    await insertAssessment(trx, row);
    await emit(trx, { name: 'payEquity.assessment.flagged', companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'payEquityAssessment', subjectId: row.id, payload: { year: row.year, legalEntity: row.legal_entity || null, categoryId: row.category_id, gap, dueDate: row.due_date } });
    await queueReminders(trx, { scope, ownerUserId: caller.userId, assessmentId: row.id, dueDate: row.due_date });
    await issueAssessmentDocument(trx, scope, row, caller.userId);
  });
  return presentAssessment(row);
}

/** Records the justification, the remediation plan or the status at the version read, audited. */
export async function updateAssessment(ctx: Pick<ServiceContext, 'db' | 'caller'>, options: { id: string; ifMatch: string; input: { status?: Schemas['PayEquityAssessment']['status']; justification?: string | null; remediationPlan?: string | null } }): Promise<Schemas['PayEquityAssessment']> {
  const { db, caller } = ctx;
  const scope = companyScope(caller);
  const version = versionOf(options.ifMatch);
  const { input } = options;
  const changes: Record<string, unknown> = { updated_at: new Date().toISOString(), updated_by: caller.userId };
  if (input.justification !== undefined) changes.justification = input.justification?.trim() || null;
  if (input.remediationPlan !== undefined) changes.remediation_plan = input.remediationPlan?.trim() || null;
  if (input.status !== undefined) changes.status = input.status;
  await db.transaction(async (trx) => {
    const stored = await findAssessment(trx, scope, options.id);
    if (!stored) throw notFound();
    const justification = (changes.justification as string | null | undefined) ?? (input.justification === undefined ? stored.justification : null);
    const plan = (changes.remediation_plan as string | null | undefined) ?? (input.remediationPlan === undefined ? stored.remediation_plan : null);
    if (input.status === 'justified' && !justification) throw badRequest('A justified category needs its objective, gender-neutral justification.', [{ field: 'body.justification', message: 'is required to mark it justified' }]);
    if (input.status === 'remediation' && !plan) throw badRequest('A remediation needs its plan.', [{ field: 'body.remediationPlan', message: 'is required to mark it in remediation' }]);
    await updateAtVersion(() => assessmentsOf(trx, scope).where({ id: options.id }), version, changes, 'this assessment');
    const updated = await findAssessment(trx, scope, options.id);
    if (updated) await issueAssessmentDocument(trx, scope, updated, caller.userId);
    await emit(trx, { name: 'payEquity.assessment.updated', companyId: scope.companyId, actorUserId: caller.userId, subjectType: 'payEquityAssessment', subjectId: options.id, payload: { status: input.status ?? stored.status, justification: input.justification !== undefined, remediationPlan: input.remediationPlan !== undefined } });
  });
  const saved = await findAssessment(db, scope, options.id);
  if (!saved) throw notFound();
  return presentAssessment(saved);
}
