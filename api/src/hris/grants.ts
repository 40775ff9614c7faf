import { newId } from '../db/ids.js';
import type { MappedRow, PeopleImportPlan } from './rows.js';
import type { MinorUnits } from '../money/minorUnits.js';
import { Pacer } from '../kernel/pace.js';
import { planOf } from './rows.js';
import type { GrantRow } from '../people/importRows.js';
import { parseChoice, parseDate, parseWholeNumber } from '../kernel/files/cells.js';
import { parseAmount } from '../money/parse.js';

export interface GrantContext {
  companyId: string;
  companyCurrency: string;
  currencies: MinorUnits;
  /** Employee number → employee id. */
  employees: Map<string, string>;
  existing: GrantRow[];
  now: string;
  source: 'cap_table_import' | 'integration';
}

const GRANT_TYPES: Record<string, GrantRow['grant_type']> = {
  option: 'option', options: 'option', stockoption: 'option', stockoptions: 'option', iso: 'option', nso: 'option', nqso: 'option', isonso: 'option',
  rsu: 'rsu', rsus: 'rsu', restrictedstockunit: 'rsu', restrictedstockunits: 'rsu',
  rsa: 'rsa', rsas: 'rsa', restrictedstockaward: 'rsa', restrictedstock: 'rsa', restrictedstockawards: 'rsa',
  commonstock: 'common_stock', common: 'common_stock', commonshares: 'common_stock', stock: 'common_stock',
};
const FREQUENCIES: Record<string, GrantRow['vesting_frequency']> = {
  monthly: 'monthly', month: 'monthly', quarterly: 'quarterly', quarter: 'quarterly', annually: 'annually', annual: 'annually', yearly: 'annually', year: 'annually',
};
const REASONS: Record<string, string> = {
  newhire: 'new_hire', hire: 'new_hire', initial: 'new_hire', refresher: 'refresher', refresh: 'refresher',
  promotion: 'promotion', performance: 'performance', merit: 'performance', other: 'other',
};

const COMPARED: (keyof GrantRow)[] = [
  'employee_id', 'grant_type', 'reason', 'shares', 'exercise_price', 'currency', 'grant_date', 'vesting_start_date', 'vesting_months', 'cliff_months', 'vesting_frequency',
];

/** Checks every row of a cap-table file and works out which grants it creates or changes, by grant id. */
export async function planGrants(rows: MappedRow[], ctx: GrantContext, dryRun: boolean): Promise<{ plan: PeopleImportPlan; writes: GrantRow[] }> {
  const existing = new Map(ctx.existing.map((grant) => [grant.grant_number, grant]));
  const firstLine = new Map<string, number>();
  const changes: PeopleImportPlan['changes'] = [];
  const writes: GrantRow[] = [];
  const pacer = new Pacer();
  for (const row of rows) {
    if (pacer.due) await pacer.pause();
    const number = row.cell('grantId') ?? '';
    if (!number) row.problem('grantId', 'is required');
    else if (number.length > 128) row.problem('grantId', 'is longer than 128 characters');
    else if (firstLine.has(number)) row.problem('grantId', `grant id ${number} is already on line ${firstLine.get(number)}`);
    const duplicate = firstLine.has(number);
    if (number && !duplicate) firstLine.set(number, row.line);

    const holder = row.cell('employeeId') ?? '';
    const employeeId = holder ? ctx.employees.get(holder) : undefined;
    if (!holder) row.problem('employeeId', 'is required');
    else if (!employeeId) row.problem('employeeId', `${holder} is not an employee of this company (import the HRIS file first)`);

    const stored = existing.get(number);
    const grantType = row.parse('grantType', (text) => parseChoice(text, GRANT_TYPES, 'a grant type (option, rsu, rsa, common_stock)'));
    if (grantType === null && row.cell('grantType') === '') row.problem('grantType', 'is required');
    const shares = row.parse('shares', (text) => parseWholeNumber(text, 1, 1_000_000_000_000));
    if (shares === null && row.cell('shares') === '') row.problem('shares', 'is required');
    const grantDate = row.parse('grantDate', parseDate);
    if (grantDate === null && row.cell('grantDate') === '') row.problem('grantDate', 'is required');
    const currencyCell = row.parse('currency', (text) => (ctx.currencies.has(text.toUpperCase()) ? { value: text.toUpperCase() } : { error: `"${text}" is not an ISO 4217 currency code` }));
    const currency = currencyCell ?? stored?.currency ?? ctx.companyCurrency;
    const exercisePrice = row.parse('exercisePrice', (text) => parseAmount(text, currency, ctx.currencies.of(currency)));
    const type = grantType ?? stored?.grant_type;
    const price = exercisePrice === undefined ? (stored?.exercise_price ?? null) : exercisePrice;
    if (type === 'option' && price === null && exercisePrice !== null) row.problem('exercisePrice', 'is required for options');
    else if (type === 'option' && exercisePrice === null && row.cell('exercisePrice') === '') row.problem('exercisePrice', 'is required for options');
    if (type === 'rsu' && exercisePrice) row.problem('exercisePrice', 'RSUs have no exercise price');
    const vestingStart = row.parse('vestingStartDate', parseDate);
    const months = row.parse('vestingMonths', (text) => parseWholeNumber(text, 0, 240));
    const cliff = row.parse('cliffMonths', (text) => parseWholeNumber(text, 0, 240));
    const vestingMonths = months ?? stored?.vesting_months ?? 48;
    const cliffMonths = cliff ?? stored?.cliff_months ?? Math.min(12, vestingMonths);
    if (cliffMonths > vestingMonths) row.problem(cliff !== null && cliff !== undefined ? 'cliffMonths' : 'vestingMonths', `the cliff (${cliffMonths} months) is longer than the vesting (${vestingMonths} months)`);
    const frequency = row.parse('vestingFrequency', (text) => parseChoice(text, FREQUENCIES, 'a vesting frequency (monthly, quarterly, annually)'));
    const reason = row.parse('grantReason', (text) => parseChoice(text, REASONS, 'a grant reason (new_hire, refresher, promotion, performance, other)'));

    if (!number || duplicate || !employeeId || !type || !shares || !(grantDate ?? stored?.grant_date)) continue;
    const date = grantDate ?? stored?.grant_date ?? '';
    const target: GrantRow = {
      id: stored?.id ?? newId(),
      company_id: ctx.companyId,
      employee_id: employeeId,
      grant_number: number,
      grant_type: type,
      reason: reason ?? stored?.reason ?? 'new_hire',
      shares,
      exercise_price: type === 'rsu' ? null : price,
      currency,
      grant_date: date,
      vesting_start_date: vestingStart ?? (row.has('vestingStartDate') ? date : (stored?.vesting_start_date ?? date)),
      vesting_months: vestingMonths,
      cliff_months: cliffMonths,
      vesting_frequency: frequency ?? stored?.vesting_frequency ?? 'monthly',
      source: ctx.source,
      created_at: stored?.created_at ?? ctx.now,
      updated_at: ctx.now,
    };
    const changed = !stored || COMPARED.some((column) => String(stored[column] ?? '') !== String(target[column] ?? ''));
    if (!changed) continue;
    changes.push({ line: row.line, key: number, action: stored ? 'update' : 'create' });
    writes.push(target);
  }
  return { plan: planOf(dryRun, rows.length, changes, { add: 0, update: 0 }), writes };
}
