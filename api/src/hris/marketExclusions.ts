import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import type { components } from '../contract-types.js';
import { currencyForexMapping } from '../forex/perDollar.js';
import { EXCLUSION_FIXES, EXCLUSION_REASONS, type ExclusionReason, exclusionsAmong } from '../market/participation/collect.js';
import type { MinorUnits } from '../money/minorUnits.js';
import { Pacer } from '../kernel/pace.js';
import { type PayRow, payOn } from '../people/reads/contributions.js';
import type { CompensationRow, EmployeeRow } from '../people/importRows.js';

type MarketExclusions = components['schemas']['PeopleImportMarketExclusions'];

const CASH_TYPES = new Set(['base_salary', 'variable_pay', 'commission', 'bonus_target']);

/** The pay in force on `day` once the planned records are written: a planned record replaces an older or same-day one. Paced. */
async function payAfter(stored: PayRow[], planned: CompensationRow[], day: string, pacer = new Pacer()): Promise<PayRow[]> {
  const inForce = new Map<string, PayRow>();
  for (const row of stored) {
    inForce.set(`${row.employee_id}|${row.type}`, row);
    if (pacer.due) await pacer.pause();
  }
  for (const record of planned) {
    if (pacer.due) await pacer.pause();
    if (!CASH_TYPES.has(record.type) || record.effective_date > day) continue;
    const key = `${record.employee_id}|${record.type}`;
    const current = inForce.get(key);
    if (current && String(current.effective_date).slice(0, 10) > record.effective_date) continue;
    inForce.set(key, { employee_id: record.employee_id, type: record.type, amount: record.amount, currency: record.currency, effective_date: record.effective_date });
  }
  return [...inForce.values()];
}

/**
 * How many of a file's active employees a market release built today would leave out, and why,
 * with the fix for each — by the participation's own rules (`exclusionsAmong`), applied to the
 * employees and pay as they will be once the file is applied.
 */
export async function marketExclusionsOf(
  db: Knex,
  scope: CompanyScope,
  planned: { inFile: EmployeeRow[]; compensation: CompensationRow[]; minor: MinorUnits; day: string },
): Promise<MarketExclusions> {
  const active = planned.inFile.filter((employee) => employee.status === 'active');
  const ids = new Set(active.map((employee) => employee.id));
  const stored = active.length ? (await payOn(db, [scope.companyId], planned.day)).filter((row) => ids.has(row.employee_id)) : [];
  const excluded = exclusionsAmong({
    employees: active,
    pay: await payAfter(
      stored,
      planned.compensation.filter((record) => ids.has(record.employee_id)),
      planned.day,
    ),
    minor: planned.minor,
    forex: await currencyForexMapping(db),
    day: planned.day,
  });
  const reasons = [...excluded]
    .map(([reason, employees]: [ExclusionReason, number]) => ({ reason, employees, description: EXCLUSION_REASONS[reason], fix: EXCLUSION_FIXES[reason] }))
    .sort((a, b) => b.employees - a.employees || a.reason.localeCompare(b.reason));
  return { activeEmployees: active.length, employees: reasons.reduce((sum, entry) => sum + entry.employees, 0), reasons };
}
