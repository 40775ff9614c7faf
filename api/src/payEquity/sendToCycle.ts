import type { Knex } from 'knex';
import type { Caller } from '../access/caller.js';
import { companyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { planEquityAdjustments } from '../meritCycles/equityAdjustments.js';
import { minorOf } from '../money/format.js';
import { emit } from '../platform/events.js';
import type { Realtime } from '../realtime/server.js';
import { adjustedGapOf } from './adjusted.js';

type Sent = components['schemas']['PayEquityAdjustmentsSent'];

export interface SendOptions {
  meritCycleId: string;
  ifMatch: string;
  year: number;
  asOf?: string;
  /** Fit within this employer only; every legal entity together when absent. */
  legalEntity?: string;
  controls: string;
  threshold: number;
}

/** Why a raise is planned, as the planner reads it on the row. */
export function reasonOf(entry: { residual: number; pay: number; predicted: number }, context: { year: number; currency: string }): string {
  const whole = (value: number) => Math.round(value).toLocaleString('en-US');
  return `Pay equity adjustment (${context.year}): paid ${whole(entry.pay)} ${context.currency} against ${whole(entry.predicted)} predicted, residual ${entry.residual.toFixed(4)}.`;
}

/**
 * Sends the cost to close to a merit cycle: each raise (company currency) becomes the person's pay
 * equity adjustment in the cycle, through the cycle's own planning service.
 */
export async function sendAdjustmentsToCycle(
  deps: { db: Knex; realtime: Realtime | undefined; afterCommit: (task: () => Promise<unknown>) => void },
  caller: Caller,
  options: SendOptions,
): Promise<Sent> {
  const gap = await adjustedGapOf({ db: deps.db }, companyScope(caller), { year: options.year, asOf: options.asOf, legalEntity: options.legalEntity, controls: options.controls, threshold: options.threshold, withPeople: true });
  const raised = (gap?.people ?? []).filter((entry) => entry.raise > 0);
  const names = new Map(raised.map((entry) => [entry.employeeId, entry.name]));
  const scope = companyScope(caller);
  return deps.db.transaction(async (trx) => {
    const outcome = await planEquityAdjustments({ ...deps, db: trx }, caller, {
      cycleId: options.meritCycleId,
      ifMatch: options.ifMatch,
      adjustments: raised.map((entry) => ({
        employeeId: entry.employeeId,
        amount: { amount: minorOf(entry.raise, gap?.currency ?? ''), currency: gap?.currency ?? '' },
        reason: reasonOf(entry, { year: options.year, currency: gap?.currency ?? '' }),
      })),
    });
    await emit(trx, {
      name: 'payEquity.adjustments.sent',
      companyId: scope.companyId,
      actorUserId: caller.userId,
      subjectType: 'meritCycle',
      subjectId: options.meritCycleId,
      payload: { year: options.year, sent: outcome.sent.length, notSent: outcome.notSent.length, removed: outcome.removed },
    });
    return {
      meritCycleId: options.meritCycleId,
      year: options.year,
      sent: outcome.sent,
      notSent: outcome.notSent.map((entry) => ({ ...entry, name: entry.name ?? names.get(entry.employeeId) ?? '' })),
      removed: outcome.removed,
    };
  });
}
