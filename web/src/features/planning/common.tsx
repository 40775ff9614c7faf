import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { type CompTypeId, useCompTypes } from '../../api/compTypes';
import { invalidate } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { Badge, type Tone } from '../../ui/Badge';
import { toMajorText, toMinor } from '../../ui/format';
import { FormProblem, fieldProblems as namedFieldProblems } from '../../ui/FormProblem';
import { PageHeader } from '../../ui/Page';
import { Tabs } from '../../ui/Panels';
import { can } from '../settings/permissions';
import './planning.css';

export type Schemas = components['schemas'];
export type Money = Schemas['Money'];
export type MeritCycle = Schemas['MeritCycle'];
export type MeritCycleState = Schemas['MeritCycleState'];
export type Worksheet = Schemas['Worksheet'];
export type WorksheetState = Schemas['WorksheetState'];
export type WorksheetDetail = Schemas['WorksheetDetail'];
export type WorksheetEmployee = Schemas['WorksheetEmployee'];
export type WorksheetEmployeeEdit = Schemas['WorksheetEmployeeEdit'];
export type ColumnModes = Schemas['WorksheetColumnModes'];
export type BudgetFigures = Schemas['BudgetFigures'];
export type BudgetReport = Schemas['BudgetReport'];
export type HistoryEntry = Schemas['WorkflowHistoryEntry'];
export type GuidelineRange = Schemas['GuidelineRange'];

export { formatDate, formatMoney, formatNumber } from '../../ui/format';

// ── who may do what ──────────────────────────────────────────────────────────────────────────

/**
 * What the screens offer: whole-company planners set cycles up, launch, close and export; anyone
 * with edit plans their reach. A view-as session changes nothing. The server checks every call
 * again, and worksheets say themselves which actions the caller may take (`availableActions`).
 */
export function usePlanningAccess() {
  const person = usePerson().data?.data;
  const viewing = Boolean(person?.viewAs);
  return {
    userId: person?.id ?? null,
    viewAll: can(person, 'compensationPlanning', 'view', 'all'),
    editAll: can(person, 'compensationPlanning', 'edit', 'all') && !viewing,
    edit: can(person, 'compensationPlanning', 'edit') && !viewing,
  };
}

/** Every cached answer about merit cycles is asked again (a change to one part moves figures in others). */
export function refreshPlanning(): Promise<void> {
  return invalidate((path) => path.startsWith('/api/v2/meritCycles'));
}

/** Whether an action is among those the server says the caller may take now. */
export const allows = (subject: { availableActions: Schemas['AvailableAction'][] }, action: string): boolean => subject.availableActions.some((entry) => entry.action === action);

// ── formats ──────────────────────────────────────────────────────────────────────────────────

/** Basis points as a percent: 350 → "3.5%". */
export function formatBp(bp: number | null | undefined): string {
  if (bp === null || bp === undefined) return '—';
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 }).format(bp / 10_000);
}

/** Basis points as the number a percent input starts with: 350 → "3.5". */
export const bpToInput = (bp: number | null | undefined): string => (bp === null || bp === undefined ? '' : String(bp / 100));

/** A percent a person typed ("4", "4.5", "4,5 %") → basis points; null when it is not a number. */
export function parsePercent(text: string): number | null {
  const cleaned = text.replace(/[%\s]/g, '').replace(/^(-?\d+),(\d+)$/, '$1.$2');
  if (cleaned === '') return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? Math.round(value * 100) : null;
}

/** Major units a person typed ("5,000", "5000.50") → integer minor units of the currency; null when it is not a number. */
export const parseAmount = (text: string, currency: string): number | null => toMinor(text, currency);

/** Minor units → the plain major-unit text an input starts with. */
export const amountToInput = (money: Money | null | undefined): string => toMajorText(money);

export const formatRatio = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : value.toFixed(2));

export function formatTimestamp(value: string | null | undefined): string {
  if (!value) return '—';
  return new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** An ISO timestamp → the value of a `datetime-local` input, in the person's time zone. */
export function toLocalInput(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A `datetime-local` value (the person's time zone) → an ISO timestamp; null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

// ── states ───────────────────────────────────────────────────────────────────────────────────

const CYCLE_STATES: Record<MeritCycleState, { label: string; tone: Tone }> = {
  draft: { label: 'Draft', tone: 'info' },
  active: { label: 'Active', tone: 'success' },
  closed: { label: 'Closed', tone: 'neutral' },
  cancelled: { label: 'Cancelled', tone: 'danger' },
};

export function CycleStateBadge({ state }: { state: MeritCycleState }) {
  return <Badge tone={CYCLE_STATES[state].tone}>{CYCLE_STATES[state].label}</Badge>;
}

export const WORKSHEET_STATES: Record<WorksheetState, { label: string; tone: Tone }> = {
  planning: { label: 'Planning', tone: 'info' },
  in_review: { label: 'In review', tone: 'warning' },
  sent_back: { label: 'Sent back', tone: 'danger' },
  approved: { label: 'Approved', tone: 'success' },
  pulled_up: { label: 'Pulled up', tone: 'neutral' },
};

export function WorksheetStateBadge({ state }: { state: WorksheetState }) {
  return <Badge tone={WORKSHEET_STATES[state].tone}>{WORKSHEET_STATES[state].label}</Badge>;
}

export const COMPONENT_LABELS: Record<Schemas['MeritCycleComponent'], string> = {
  merit: 'Merit increase',
  promotion: 'Promotion',
  lumpSum: 'Lump sum',
  equityRefresh: 'Equity refresh',
};

const EQUITY_TYPES: CompTypeId[] = ['option', 'rsu', 'rsa', 'common_stock'];

/**
 * A cycle's components in the company's words (its comp type settings): a lump sum is paid as a
 * one-off bonus, so it carries the company's title for that and is left out when the company does
 * not use one-off bonuses; an equity refresh is left out when the company uses no kind of equity.
 */
export function usePlanningComponents() {
  const names = useCompTypes();
  return {
    label: (component: Schemas['MeritCycleComponent']): string => (component === 'lumpSum' ? names.label('one_off_bonus', COMPONENT_LABELS.lumpSum) : COMPONENT_LABELS[component]),
    used: (component: Schemas['MeritCycleComponent']): boolean =>
      component === 'lumpSum' ? names.enabled('one_off_bonus') : component === 'equityRefresh' ? EQUITY_TYPES.some((type) => names.enabled(type)) : true,
  };
}
export type PlanningComponents = ReturnType<typeof usePlanningComponents>;

/** A worksheet's name: its planner's, or the people without a manager. */
export const worksheetName = (worksheet: Pick<Worksheet, 'planner'>): string => (worksheet.planner ? worksheet.planner.name : 'People without a manager');

/** "Ada Admin, 12 Mar 2027, 10:04": who did something and when. */
export const actorName = (actor: Schemas['MeritCycleActor']): string => actor.name ?? 'Someone';

/** The action of a history entry, as people say it. */
const ACTION_WORDS: Record<string, string> = {
  launch: 'Started planning',
  close: 'Closed',
  cancel: 'Cancelled',
  submit: 'Submitted',
  approveStep: 'Approved (next reviewer)',
  approve: 'Approved',
  sendBack: 'Sent back',
  reopen: 'Reopened',
  pullUp: 'Pulled up',
  skipReviewers: 'Reviewers skipped',
};

/** A state history, oldest first: who moved it, when, from what to what, and why. */
export function HistoryList({ entries, label }: { entries: HistoryEntry[]; label: string }) {
  if (!entries.length) return <p className="planning-muted">Nothing has happened yet.</p>;
  return (
    <ol className="planning-history" aria-label={label}>
      {entries.map((entry) => (
        <li key={entry.id}>
          <span className="what">{ACTION_WORDS[entry.action] ?? entry.action}</span>
          <span className="who">
            {actorName(entry.actor)} · <time dateTime={entry.at}>{formatTimestamp(entry.at)}</time>
          </span>
          {entry.comment && <q className="comment">{entry.comment}</q>}
        </li>
      ))}
    </ol>
  );
}

// ── a failed call, in the server's words ─────────────────────────────────────────────────────

export const FIELD_NAMES: Record<string, string> = {
  name: 'Name',
  effectiveDate: 'Effective date',
  periodStart: 'Period start',
  periodEnd: 'Period end',
  currency: 'Currency',
  components: 'Components',
  rules: 'Rule',
  values: 'values',
  months: 'months',
  date: 'date',
  flat: 'Flat guideline',
  matrix: 'Matrix',
  cells: 'cell',
  thresholds: 'Thresholds',
  fallback: 'Fallback',
  percentBp: 'Budget %',
  overrides: 'Override',
  windows: 'Window',
  chains: 'Chain',
  reviewerUserIds: 'reviewer',
  comment: 'Comment',
  scale: 'Rating',
};

/** The fields the server named in a 400, in this area's words. */
export const fieldProblems = (error: unknown): string[] => namedFieldProblems(error, FIELD_NAMES);

/** A form's failure: the message, then each field the server named. */
export function Problem({ message, fields = [] }: { message: string | null; fields?: string[] }) {
  return <FormProblem message={message} fields={fields} className="planning-problem" />;
}

// ── frames ───────────────────────────────────────────────────────────────────────────────────

const AREA_TABS = [
  { href: '/compensationplanning', label: 'Cycles' },
  { href: '/compensationplanning/approvals', label: 'Approvals' },
];

/** The planning area's screens: the area's tabs, the one h1 and its actions. */
export function PlanningFrame({ title, description, actions, icon, eyebrow, tabs = true, children }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; icon?: LucideIcon; eyebrow?: ReactNode; tabs?: boolean; children: ReactNode }) {
  return (
    <div className="planning">
      {tabs && <Tabs label="Compensation planning" tabs={AREA_TABS} exact />}
      <PageHeader title={title} description={description} actions={actions} icon={icon} eyebrow={eyebrow} />
      {children}
    </div>
  );
}
