import { ApiError } from '../client.js';
import { RejectedInput } from '../output.js';
import type { components } from '../../../openapi.js';

type ImportPlan = components['schemas']['ImportPlan'];

/** `rows[12].email` (the service) or `body.rows.12.email` (the contract check) → row 12, field `email`. */
function rowField(field: string): { index: number; name: string } | undefined {
  const match = /^(?:body\.)?rows(?:\[(\d+)\]|\.(\d+))\.?(.*)$/.exec(field);
  if (!match) return undefined;
  return { index: Number(match[1] ?? match[2]), name: match[3] || 'row' };
}

/** Turns the server's refusal of a file into `line N: field: message`, one per problem. */
export function rejectedRows(error: unknown, lines: number[], noun: string): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.body.errors?.length) return error;
  const printed = error.body.errors.map((problem) => {
    const where = rowField(problem.field);
    if (!where) return `${problem.field}: ${problem.message}`;
    const message = problem.message.replace(/^line \d+: /, '');
    return `line ${lines[where.index] ?? '?'}: ${where.name}: ${message}`;
  });
  const count = printed.length;
  return new RejectedInput(`The ${noun} file has ${count} problem${count === 1 ? '' : 's'}; nothing was written.`, printed);
}

/** "3 created, 1 updated, 0 unchanged"; with `invited` (invitations asked for) "; 3 invited" ("3 to invite" on a dry run). */
export function planSummary(plan: ImportPlan, { invited: showInvited = false } = {}): string {
  const invited = !showInvited || plan.invited === undefined ? '' : plan.dryRun ? `; ${plan.invited} to invite` : `; ${plan.invited} invited`;
  return plan.dryRun
    ? `${plan.create} to create, ${plan.update} to update, ${plan.unchanged} unchanged${invited}`
    : `${plan.create} created, ${plan.update} updated, ${plan.unchanged} unchanged${invited}`;
}
