import { ClipboardList, Compass, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { DataTable } from '../../ui/DataTable';
import { Modal } from '../../ui/Modal';
import { SkeletonTable } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, Loaded } from '../../ui/States';
import { COMPONENT_LABELS, CycleStateBadge, type MeritCycle, PlanningFrame, Problem, type Schemas, formatDate, formatNumber, refreshPlanning, usePlanningAccess, usePlanningComponents, FIELD_NAMES } from './common';
import { CurrencyOptions } from '../../ui/CurrencyOptions';

const ALL_COMPONENTS = Object.keys(COMPONENT_LABELS) as Schemas['MeritCycleComponent'][];

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Sensible first dates: a year's performance period ending today, effective on the first of next month. */
function defaultDates() {
  const now = new Date();
  const effective = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const start = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), now.getUTCDate() + 1));
  return { effectiveDate: isoDay(effective), periodStart: isoDay(start), periodEnd: isoDay(now) };
}

/** The band sets a cycle can read positions from, when the company has bands. */
export function useBandSets() {
  const person = usePerson().data?.data;
  const hasBands = person?.modules.some((entry) => entry.module === 'bands' && entry.authorized) ?? false;
  return useQuery('/api/bands/band-sets', hasBands ? {} : null);
}

/** A new draft cycle: its name, dates, currency, components and band set; the rest is set up on its tabs. */
function CreateCycle({ onClose }: { onClose: () => void }) {
  const [, navigate] = useLocation();
  const bandSets = useBandSets();
  const dates = defaultDates();
  const [components, setComponents] = useState<Schemas['MeritCycleComponent'][]>(['merit']);
  const names = usePlanningComponents();
  const { run, busy, problem } = useMutation({ failure: 'problem', fieldNames: FIELD_NAMES });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const body: Schemas['MeritCycleInput'] = {
      name: text('name'),
      effectiveDate: text('effectiveDate'),
      periodStart: text('periodStart'),
      periodEnd: text('periodEnd'),
      components,
      plannerMode: text('plannerMode') === 'allBelow' ? 'allBelow' : 'ownReports',
      ...(text('currency') ? { currency: text('currency') } : {}),
      ...(text('bandSetId') ? { bandSetId: text('bandSetId') } : {}),
    };
    const answer = await run(() => api.POST('/api/v2/meritCycles', { body }));
    if (!answer.ok) return;
    await refreshPlanning();
    navigate(`/compensationplanning/cycles/${answer.data.data.id}/settings`);
  }

  const toggle = (component: Schemas['MeritCycleComponent']) =>
    setComponents((current) => (current.includes(component) ? current.filter((entry) => entry !== component) : ALL_COMPONENTS.filter((entry) => entry === component || current.includes(entry))));

  return (
    <Modal title="Create a merit cycle" onClose={onClose}>
      <form className="settings-form" aria-label="New merit cycle" onSubmit={(event) => void submit(event)}>
        <label>
          Name
          <input name="name" required maxLength={200} placeholder="2027 merit cycle" autoComplete="off" />
        </label>
        <div className="planning-row">
          <label>
            Performance period from
            <input name="periodStart" type="date" required defaultValue={dates.periodStart} />
          </label>
          <label>
            to
            <input name="periodEnd" type="date" required defaultValue={dates.periodEnd} />
          </label>
        </div>
        <label>
          Effective date (new pay starts)
          <input name="effectiveDate" type="date" required defaultValue={dates.effectiveDate} />
        </label>
        <label>
          Cycle currency
          <select name="currency" defaultValue="">
            <option value="">The company’s currency</option>
            <CurrencyOptions />
          </select>
        </label>
        <fieldset className="check-group">
          <legend>Components</legend>
          {ALL_COMPONENTS.filter((component) => names.used(component) || components.includes(component)).map((component) => (
            <label key={component} className="check">
              <input type="checkbox" checked={components.includes(component)} onChange={() => toggle(component)} />
              {names.label(component)}
            </label>
          ))}
        </fieldset>
        <label>
          Band set
          <select name="bandSetId" defaultValue={bandSets.data?.data.find((set) => set.status === 'live')?.id ?? ''} key={bandSets.data ? 'loaded' : 'loading'}>
            <option value="">No band set</option>
            {(bandSets.data?.data ?? []).map((set) => (
              <option key={set.id} value={set.id}>
                {set.name} ({set.status})
              </option>
            ))}
          </select>
        </label>
        <label>
          Managers plan
          <select name="plannerMode" defaultValue="ownReports">
            <option value="ownReports">Their own reports</option>
            <option value="allBelow">Everyone below them</option>
          </select>
        </label>
        <Problem message={problem?.message ?? null} fields={problem?.fields} />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy || components.length === 0}>
            Create draft
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** /compensationplanning: every merit cycle, newest first, with its state; whole-company planners create them. */
export function CyclesScreen() {
  const access = usePlanningAccess();
  const cycles = useQuery('/api/v2/meritCycles');
  const [creating, setCreating] = useState(false);
  const create = access.editAll ? (
    <button type="button" className="primary" onClick={() => setCreating(true)}>
      <Plus size={18} aria-hidden="true" /> Create a cycle
    </button>
  ) : undefined;

  return (
    <PlanningFrame
      title="Compensation planning"
      icon={ClipboardList}
      description="Merit cycles: who is eligible, what the guidelines recommend, the budget, each manager’s worksheet and its approval."
      actions={cycles.data?.data.length ? create : undefined}
    >
      <Loaded data={cycles.data?.data} error={cycles.error} retry={() => void cycles.mutate()} skeleton={<SkeletonTable rows={4} columns={6} label="Loading the merit cycles" />}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No merit cycles yet" icon={ClipboardList} action={create}>
              {access.editAll
                ? 'Create a cycle, set who is eligible, the guidelines, the budget and the approval chain, then start planning.'
                : 'A compensation planner sets cycles up; yours appear here once planning starts.'}
            </Empty>
          ) : (
            <CycleList list={list} />
          )
        }
      </Loaded>
      {creating && <CreateCycle onClose={() => setCreating(false)} />}
    </PlanningFrame>
  );
}

function CycleList({ list }: { list: MeritCycle[] }) {
  const active = list.filter((cycle) => cycle.state === 'active');
  return (
    <>
      <StatGrid label="Merit cycles">
        <StatCard label="Active cycles" value={formatNumber(active.length)} hint={active[0] ? `${active[0].name}, effective ${formatDate(active[0].effectiveDate)}` : 'None is being planned'} />
        <StatCard label="Drafts" value={formatNumber(list.filter((cycle) => cycle.state === 'draft').length)} />
        <StatCard label="Closed" value={formatNumber(list.filter((cycle) => cycle.state === 'closed').length)} />
      </StatGrid>
      <DataTable
        caption="Merit cycles, newest first"
        captionHidden
        cardsOnPhone
        rows={list}
        rowKey={(cycle) => cycle.id}
        rowAttributes={(cycle) => ({ 'data-cycle-id': cycle.id })}
        columns={[
          { key: 'name', header: 'Name', rowHeader: true, cell: (cycle) => <Link href={`/compensationplanning/cycles/${cycle.id}`}>{cycle.name}</Link> },
          { key: 'state', header: 'State', cell: (cycle) => <CycleStateBadge state={cycle.state} /> },
          { key: 'effective', header: 'Effective', cell: (cycle) => formatDate(cycle.effectiveDate) },
          { key: 'currency', header: 'Currency', cell: (cycle) => cycle.currency },
          { key: 'eligible', header: 'Eligible', numeric: true, cell: (cycle) => (cycle.state === 'draft' ? '—' : `${formatNumber(cycle.counts.eligible)} of ${formatNumber(cycle.counts.employees)}`) },
          { key: 'worksheets', header: 'Worksheets', numeric: true, cell: (cycle) => (cycle.state === 'draft' ? '—' : formatNumber(cycle.counts.worksheets)) },
        ]}
      />
    </>
  );
}

/** Any other address under /compensationplanning: says so, with the way back. */
export function PlanningNotFoundScreen() {
  return (
    <PlanningFrame title="Not found" icon={Compass}>
      <Empty title="There is no such planning page" icon={Compass} action={<Link href="/compensationplanning">Back to the merit cycles</Link>}>
        The address may be mistyped, or the page may have moved.
      </Empty>
    </PlanningFrame>
  );
}
