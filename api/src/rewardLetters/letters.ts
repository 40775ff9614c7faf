import type { Knex } from 'knex';
import type { CompanyScope } from '../access/caller.js';
import { newId } from '../db/ids.js';
import type { AmountRow, Branding } from '../documents/content.js';
import { type TemplateInput, companyBranding, ensureTemplate, renderDocuments } from '../documents/service.js';
import type { VariableKind, Variables } from '../documents/template.js';
import { documentLogo } from '../totalRewards/branding.js';
import { type EmployeeRowOfCycle, type CycleRow, listRows, listWorksheets } from '../meritCycles/store.js';
import { formatMoney } from '../money/format.js';
import { type LetterCycleRow, type LetterRow, findLetterCycle, insertLetterCycleIfAbsent, insertLetters, isEnabled, listLetters, repointLetters } from './store.js';

/*
 * What a letter says: the variables a cycle's template may use, their values for one employee
 * (computed from the cycle's rows as they were closed), and rendering every letter of a cycle
 * through the documents module as new, immutable document versions.
 */

/** The variables a reward letter offers, with what each holds (shown beside the template editor). */
export const LETTER_VARIABLES = {
  firstName: { kind: 'text', description: 'The employee’s first name.' },
  lastName: { kind: 'text', description: 'The employee’s last name.' },
  jobTitle: { kind: 'text', description: 'Their job title in the cycle.' },
  cycleName: { kind: 'text', description: 'The merit cycle’s name.' },
  effectiveDate: { kind: 'text', description: 'When the new pay starts (“1 April 2027”).' },
  oldBase: { kind: 'text', description: 'The base salary before the cycle.' },
  newBase: { kind: 'text', description: 'The base salary from the effective date.' },
  changePercent: { kind: 'text', description: 'The change of base in percent, one decimal (“4.0%”).' },
  increase: { kind: 'text', description: 'The change of base as an amount.' },
  managerName: { kind: 'text', description: 'Their manager in the cycle (or the company’s name when they have none).' },
  companyName: { kind: 'text', description: 'The company’s name.' },
  message: { kind: 'text', description: 'The message written for this cycle’s letters.' },
  payChanges: { kind: 'rows', description: 'The table: old base, merit, promotion, new base, and the one-time bonus and equity refresh where there are any.' },
} as const satisfies Record<string, { kind: VariableKind; description: string }>;

export type LetterVariable = keyof typeof LETTER_VARIABLES;

export const OFFERED: Readonly<Record<string, VariableKind>> = Object.fromEntries(Object.entries(LETTER_VARIABLES).map(([name, spec]) => [name, spec.kind]));

export const DEFAULT_MESSAGE = 'Thank you for everything you have contributed this year.';

export const templateKeyOf = (cycleId: string): string => `rewardLetter.${cycleId}`;

export const defaultTemplate = (cycleId: string): TemplateInput => ({
  key: templateKeyOf(cycleId),
  title: 'Reward letter — {{firstName}} {{lastName}}',
  body: [
    'Dear {{firstName}},',
    '',
    'Following the {{cycleName}} review, we are pleased to confirm your pay from {{effectiveDate}}: your base salary changes by {{changePercent}}, from {{oldBase}} to {{newBase}}.',
    '',
    '# Your pay',
    '{{table payChanges}}',
    '',
    '{{message}}',
    '',
    'If you have any questions, {{managerName}} is happy to talk them through with you.',
    '',
    'Kind regards,',
    '{{companyName}}',
  ].join('\n'),
});

/**
 * An amount as people read it in a letter: "$104,000", or "$104,000.50" when it has cents — a
 * letter states the new salary exactly.
 */
export const moneyText = (amount: number, currency: string): string => formatMoney({ amount, currency }, 'exact');

/** The change in percent to one decimal place, from the exact minor units: 100,000 → 104,000 is "4.0". */
export function changePercentOf(oldBase: number, newBase: number): string {
  if (oldBase === 0) return '0.0';
  const tenths = Math.round(((newBase - oldBase) * 1000) / oldBase);
  const sign = tenths < 0 ? '-' : '';
  const whole = Math.abs(tenths);
  return `${sign}${Math.floor(whole / 10)}.${whole % 10}`;
}

/** "2027-04-01" → "1 April 2027" (the date as written in a letter; no time zone can move it). */
const LONG_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export function longDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return LONG_DATE.format(new Date(Date.UTC(year, month - 1, day)));
}

/** What a closed cycle gives one employee, read from their row. */
export interface LetterFacts {
  row: EmployeeRowOfCycle;
  oldBase: number;
  newBase: number;
  merit: number;
  promotion: number;
  lumpSum: number;
  equityRefresh: number;
  /** Whether the cycle changed their pay: a new base, a one-time bonus or an equity refresh. */
  changesPay: boolean;
}

const amount = (value: number | string | null): number => (value === null ? 0 : Number(value));

/**
 * Every eligible row with a base: each may have a letter. Whether it goes out by default is
 * `changesPay` (a new base, a one-time bonus or an equity refresh); a planner switches it.
 */
export function lettersFromRows(rows: readonly EmployeeRowOfCycle[]): LetterFacts[] {
  const facts: LetterFacts[] = [];
  for (const row of rows) {
    if (row.eligibility !== 'eligible' || row.current_base === null) continue;
    const merit = amount(row.merit_amount);
    const promotion = amount(row.promotion_amount);
    const lumpSum = amount(row.lump_sum_amount);
    const equityRefresh = amount(row.equity_refresh_amount);
    const oldBase = Number(row.current_base);
    const changesPay = merit + promotion !== 0 || lumpSum !== 0 || equityRefresh !== 0;
    facts.push({ row, oldBase, newBase: oldBase + merit + promotion, merit, promotion, lumpSum, equityRefresh, changesPay });
  }
  return facts;
}

export interface LetterContext {
  branding: Branding;
  cycle: Pick<CycleRow, 'name' | 'effective_date'>;
  companyName: string;
  message: string;
  /** Each employee's manager's name, from the cycle's own tree. */
  managerNameOf: (row: EmployeeRowOfCycle) => string | null;
}

export function letterVariables(facts: LetterFacts, context: LetterContext): Variables & Record<LetterVariable, string | AmountRow[]> {
  const { row } = facts;
  const money = (value: number) => moneyText(value, row.currency);
  const payChanges: AmountRow[] = [{ label: 'Base salary before', amount: money(facts.oldBase) }];
  if (facts.merit) payChanges.push({ label: 'Merit increase', amount: money(facts.merit) });
  if (facts.promotion) payChanges.push({ label: 'Promotion increase', amount: money(facts.promotion) });
  payChanges.push({ label: `New base salary from ${longDate(context.cycle.effective_date)}`, amount: money(facts.newBase), emphasis: true });
  if (facts.lumpSum) payChanges.push({ label: 'One-time bonus', amount: money(facts.lumpSum) });
  if (facts.equityRefresh) payChanges.push({ label: 'Equity refresh (grant value)', amount: money(facts.equityRefresh) });
  return {
    firstName: row.first_name,
    lastName: row.last_name,
    jobTitle: row.title,
    cycleName: context.cycle.name,
    effectiveDate: longDate(context.cycle.effective_date),
    oldBase: money(facts.oldBase),
    newBase: money(facts.newBase),
    changePercent: `${changePercentOf(facts.oldBase, facts.newBase)}%`,
    increase: money(facts.newBase - facts.oldBase),
    managerName: context.managerNameOf(row) ?? context.companyName,
    companyName: context.companyName,
    message: context.message,
    payChanges,
  };
}

/** Manager names from the cycle's rows (the managers as they were), else the worksheet's planner. */
export async function managerNames(db: Knex, scope: CompanyScope, cycleId: string, rows: readonly EmployeeRowOfCycle[]): Promise<(row: EmployeeRowOfCycle) => string | null> {
  const names = new Map(rows.map((row) => [row.employee_id, [row.first_name, row.last_name].filter(Boolean).join(' ')]));
  const planners = new Map((await listWorksheets(db, scope, cycleId)).map((sheet) => [sheet.id, sheet.planner_name]));
  return (row) => (row.manager_id ? (names.get(row.manager_id) ?? null) : null) ?? (row.worksheet_id ? (planners.get(row.worksheet_id) ?? null) : null);
}

export async function letterContext(db: Knex, scope: CompanyScope, cycle: CycleRow, message: string, rows: readonly EmployeeRowOfCycle[]): Promise<LetterContext> {
  // The logo as it is now: each letter's version names it, so its PDF keeps drawing it after a change.
  const logo = await documentLogo(db, scope);
  const branding = await companyBranding(db, scope, logo ? { logoSha256: logo.sha256 } : {});
  return { cycle, branding, companyName: branding.companyName, message, managerNameOf: await managerNames(db, scope, cycle.id, rows) };
}

export const LETTER_SUBJECT = 'rewardLetter';

/**
 * Issues the letters of a closed cycle with `db` (one transaction with the change that asked): the
 * first time, a letter row per eligible employee with a base, switched on where the cycle changed
 * their pay, and a document version for each one switched on; after a template edit, the letters
 * switched on pointed at new versions (those switched off stay unwritten). Returns how many go out.
 */
export async function renderCycleLetters(db: Knex, scope: CompanyScope, cycle: CycleRow, createdBy: string | null): Promise<number> {
  const now = new Date().toISOString();
  await insertLetterCycleIfAbsent(db, {
    cycle_id: cycle.id,
    company_id: scope.companyId,
    state: 'draft',
    template_id: null,
    message: DEFAULT_MESSAGE,
    letters: 0,
    rendered_at: null,
    released_to_managers_at: null,
    released_at: null,
    version: 1,
    created_at: now,
    updated_at: now,
  } satisfies LetterCycleRow);
  const letterCycle = await findLetterCycle(db, scope, cycle.id);
  if (!letterCycle) throw new Error(`reward letters of cycle ${cycle.id} vanished while they were made`);
  const template = await ensureTemplate(db, scope, defaultTemplate(cycle.id), { variables: OFFERED });
  const rows = await listRows(db, scope, cycle.id);
  const context = await letterContext(db, scope, cycle, letterCycle.message, rows);
  const facts = lettersFromRows(rows);
  const existing = new Map((await listLetters(db, scope, cycle.id)).map((letter) => [letter.employee_id, letter]));
  const ids = facts.map((fact) => existing.get(fact.row.employee_id)?.id ?? newId());
  // A letter goes out as it was switched (a planner's choice), else where the cycle changed their pay.
  const enabled = facts.map((fact) => {
    const letter = existing.get(fact.row.employee_id);
    return letter ? isEnabled(letter) : fact.changesPay;
  });
  const toRender = facts.flatMap((fact, index) => (enabled[index] ? [index] : []));
  const versions = await renderDocuments(db, scope, {
    templateKey: template.key,
    branding: context.branding,
    createdBy,
    documents: toRender.map((index) => ({ subjectType: LETTER_SUBJECT, subjectId: ids[index] as string, variables: letterVariables(facts[index] as LetterFacts, context) })),
  });
  const versionOf = new Map(toRender.map((index, at) => [index, (versions[at] as { id: string }).id]));
  const fresh: LetterRow[] = [];
  const repointed = new Map<string, string>();
  facts.forEach((fact, index) => {
    const id = ids[index] as string;
    const versionId = versionOf.get(index) ?? null;
    if (existing.has(fact.row.employee_id)) {
      if (versionId) repointed.set(id, versionId);
      return;
    }
    fresh.push({
      id,
      company_id: scope.companyId,
      cycle_id: cycle.id,
      employee_id: fact.row.employee_id,
      user_id: fact.row.user_id,
      manager_employee_id: fact.row.manager_id,
      manager_name: context.managerNameOf(fact.row),
      first_name: fact.row.first_name,
      last_name: fact.row.last_name,
      title: fact.row.title,
      currency: fact.row.currency,
      old_base: fact.oldBase,
      new_base: fact.newBase,
      enabled: enabled[index] as boolean,
      changes_pay: fact.changesPay,
      version: 1,
      document_version_id: versionId,
      viewed_at: null,
      confirmed_at: null,
      released_at: null,
      reminded_at: null,
      reminders: 0,
      last_reminder_id: null,
      created_at: now,
      updated_at: now,
    });
  });
  await insertLetters(db, fresh);
  await repointLetters(db, scope, repointed, now);
  await db('reward_letter_cycles')
    .where({ company_id: scope.companyId, cycle_id: cycle.id })
    .update({ template_id: template.id, letters: toRender.length, rendered_at: now, updated_at: now });
  return toRender.length;
}

/** Writes one letter now (switched on before release): a new document version from the cycle's stored template. */
export async function renderOneLetter(
  db: Knex,
  scope: CompanyScope,
  { cycle, message, letterId, employeeId, createdBy }: { cycle: CycleRow; message: string; letterId: string; employeeId: string; createdBy: string },
): Promise<string> {
  const rows = await listRows(db, scope, cycle.id);
  const facts = lettersFromRows(rows.filter((row) => row.employee_id === employeeId))[0];
  if (!facts) throw new Error(`employee ${employeeId} has no letter in cycle ${cycle.id}`);
  const context = await letterContext(db, scope, cycle, message, rows);
  const [version] = await renderDocuments(db, scope, {
    templateKey: templateKeyOf(cycle.id),
    branding: context.branding,
    createdBy,
    documents: [{ subjectType: LETTER_SUBJECT, subjectId: letterId, variables: letterVariables(facts, context) }],
  });
  if (!version) throw new Error(`the letter of employee ${employeeId} was not written`);
  return version.id;
}
