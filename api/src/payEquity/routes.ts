import type { Caller } from '../access/caller.js';
import { companyScope } from '../access/caller.js';
import { requireModule } from '../access/flags.js';
import { hasPermission } from '../access/permissions.js';
import { HttpError } from '../kernel/errors.js';
import { can, secured } from '../kernel/operations.js';
import { adjustedGapOf } from './adjusted.js';
import { assessments, flagCategory, updateAssessment } from './assessments.js';
import { getEvaluation, saveEvaluation } from './evaluation.js';
import { ADJUSTED_HEADER, REPORT_HEADER, adjustedRows, evaluationFile, reportPdf, reportRows, tableFile } from './files.js';
import { payEquityReport } from './report.js';
import { sendAdjustmentsToCycle } from './sendToCycle.js';

const view = can('payEquity', 'view');
const edit = can('payEquity', 'edit');

/** Anything by gender needs the demographics permission as well. */
function requireDemographics(caller: Caller): void {
  if (!hasPermission(caller.permissions, 'demographics', 'view', 'all')) {
    throw new HttpError(403, 'forbidden', { message: 'Pay gaps are figures by gender: they need the Demographics permission as well.' });
  }
}

/** A legal entity's name as part of a file name ("-acme-robotics-uk-ltd"); nothing for the group view. */
const entitySuffix = (legalEntity: string | null | undefined): string => (legalEntity ? `-${legalEntity.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}` : '');

export const payEquityOperations = [
  secured({
    operationId: 'getPayEquityReport',
    access: view,
    handler: async ({ query }, ctx) => {
      requireDemographics(ctx.caller);
      return { data: await payEquityReport(ctx, companyScope(ctx.caller), query) };
    },
  }),
  secured({
    operationId: 'getPayEquityReportFile',
    access: view,
    handler: async ({ query }, ctx) => {
      requireDemographics(ctx.caller);
      const { format, ...options } = query;
      const report = await payEquityReport(ctx, companyScope(ctx.caller), options);
      if (format === 'pdf') return reportPdf(ctx, companyScope(ctx.caller), report);
      return tableFile({ header: REPORT_HEADER, rows: reportRows(report), format, stem: `pay-gap-report-${report.year}${entitySuffix(report.legalEntity)}`, sheet: `Pay gap ${report.year}` });
    },
  }),
  secured({
    operationId: 'getPayEquityAdjustedGap',
    access: view,
    handler: async ({ query }, ctx) => {
      requireDemographics(ctx.caller);
      const withPeople = hasPermission(ctx.caller.permissions, 'employeeCompensation', 'view', 'all');
      return { data: await adjustedGapOf(ctx, companyScope(ctx.caller), { ...query, withPeople }) };
    },
  }),
  secured({
    operationId: 'getPayEquityAdjustedGapFile',
    access: view,
    handler: async ({ query }, ctx) => {
      requireDemographics(ctx.caller);
      const { format, ...options } = query;
      const withPeople = hasPermission(ctx.caller.permissions, 'employeeCompensation', 'view', 'all');
      const gap = await adjustedGapOf(ctx, companyScope(ctx.caller), { ...options, withPeople });
      const rows = adjustedRows(gap, { year: options.year, legalEntity: options.legalEntity ?? null, controls: options.controls, threshold: options.threshold });
      return tableFile({ header: ADJUSTED_HEADER, rows, format, stem: `adjusted-pay-gap-${options.year}${entitySuffix(options.legalEntity)}`, sheet: `Adjusted gap ${options.year}` });
    },
  }),
  secured({
    operationId: 'getPayEquityEvaluation',
    access: view,
    handler: async (_input, ctx) => ({ data: await getEvaluation(ctx) }),
  }),
  secured({
    operationId: 'savePayEquityEvaluation',
    access: edit,
    handler: async ({ headers, body }, ctx) => ({ data: await saveEvaluation(ctx, headers['If-Match'], body) }),
  }),
  secured({
    operationId: 'getPayEquityEvaluationFile',
    access: view,
    handler: async ({ query }, ctx) => evaluationFile(ctx, companyScope(ctx.caller), await getEvaluation(ctx), query.format),
  }),
  secured({
    operationId: 'listPayEquityAssessments',
    access: view,
    handler: async ({ query }, ctx) => ({ data: await assessments(ctx, { year: query.year, legalEntity: query.legalEntity }) }),
  }),
  secured({
    operationId: 'flagPayEquityCategory',
    access: edit,
    status: 201,
    handler: async ({ body }, ctx) => {
      requireDemographics(ctx.caller);
      return { data: await flagCategory(ctx, body) };
    },
  }),
  secured({
    operationId: 'updatePayEquityAssessment',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => ({ data: await updateAssessment(ctx, { id: path.assessmentId, ifMatch: headers['If-Match'], input: body }) }),
  }),
  secured({
    operationId: 'sendPayEquityAdjustments',
    access: edit,
    handler: async ({ path, headers, body }, ctx) => {
      requireDemographics(ctx.caller);
      requireModule('compplanning', ctx.caller.flags);
      if (!hasPermission(ctx.caller.permissions, 'employeeCompensation', 'view', 'all') || !hasPermission(ctx.caller.permissions, 'compensationPlanning', 'edit', 'all')) {
        throw new HttpError(403, 'forbidden', { message: 'Sending raises to a merit cycle needs Employee compensation view and Compensation planning edit over the whole company as well.' });
      }
      const sent = await sendAdjustmentsToCycle({ db: ctx.db, realtime: ctx.deps.realtime, afterCommit: ctx.afterCommit }, ctx.caller, {
        meritCycleId: path.meritCycleId,
        ifMatch: headers['If-Match'],
        year: body.year,
        asOf: body.asOf,
        legalEntity: body.legalEntity,
        controls: body.controls ?? 'level,family,location,tenure',
        threshold: body.threshold ?? 0,
      });
      return { data: sent };
    },
  }),
];
