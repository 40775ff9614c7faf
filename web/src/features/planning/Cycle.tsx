import { ClipboardList } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'wouter';
import { api, useQuery } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { DataTable } from '../../ui/DataTable';
import { Section } from '../../ui/Page';
import { Tabs } from '../../ui/Panels';
import { SkeletonTable, SkeletonText } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { useQueryParam } from '../../ui/urlState';
import { BulkMoves } from './BulkMoves';
import { CloseSection } from './Close';
import { COMPONENT_LABELS, CycleStateBadge, HistoryList, type MeritCycle, PlanningFrame, type Worksheet, WorksheetStateBadge, allows, formatBp, formatDate, formatMoney, formatNumber, formatTimestamp, refreshPlanning, usePlanningAccess, worksheetName } from './common';
import { DashboardSection } from './Dashboard';
import { EligibilitySection } from './Eligibility';
import { SettingsSection } from './SetupSettings';
import { RecommendationSection } from './SetupRecommendations';
import { BudgetSection } from './SetupBudget';
import { WindowsSection } from './SetupWindows';
import { ChainsSection } from './SetupChains';
import { SECTIONS, type SectionProps, hrefOf } from './sections';
import { TRANSITION_WORDS, TransitionDialog } from './Transition';

/** /compensationplanning/cycles/:meritCycleId[/:section]: one cycle, its setup steps and, once active, its worksheets, dashboard and close. */
export function CycleScreen() {
  const { meritCycleId = '', section = 'overview' } = useParams<{ meritCycleId: string; section?: string }>();
  const access = usePlanningAccess();
  const reply = useQuery('/api/v2/meritCycles/{meritCycleId}', { params: { path: { meritCycleId } } });
  const cycle = reply.data?.data;

  async function onSaved(saved: MeritCycle) {
    await reply.mutate({ data: saved }, { revalidate: false });
    await refreshPlanning();
  }

  const sections = SECTIONS.filter((entry) => (!entry.wholeCompany || access.viewAll) && (!entry.live || (cycle && cycle.state !== 'draft')));
  const current = sections.find((entry) => entry.id === section);
  return (
    <PlanningFrame
      title={cycle?.name ?? 'Merit cycle'}
      icon={ClipboardList}
      eyebrow={
        cycle ? (
          <>
            <Link href="/compensationplanning">Merit cycles</Link> · <CycleStateBadge state={cycle.state} />
          </>
        ) : (
          <Link href="/compensationplanning">Merit cycles</Link>
        )
      }
      description={cycle ? `Effective ${formatDate(cycle.effectiveDate)} · performance period ${formatDate(cycle.periodStart)} to ${formatDate(cycle.periodEnd)} · ${cycle.currency}` : undefined}
    >
      <Loaded data={cycle} error={reply.error} retry={() => void reply.mutate()} skeleton={<SkeletonText lines={4} label="Loading the cycle" />}>
        {(loaded) => (
          <>
            <Tabs label="Cycle sections" exact tabs={sections.map((entry) => ({ href: hrefOf(loaded.id, entry.id), label: entry.label }))} />
            {current ? (
              <SectionBody id={current.id} cycle={loaded} onSaved={onSaved} />
            ) : (
              <Empty title="This part of the cycle is not here" action={<Link href={hrefOf(loaded.id, 'overview')}>Back to the overview</Link>}>
                {cycle?.state === 'draft' ? 'Worksheets, the dashboard and closing come once planning starts.' : 'It may need more access than you have.'}
              </Empty>
            )}
          </>
        )}
      </Loaded>
    </PlanningFrame>
  );
}

function SectionBody({ id, cycle, onSaved }: { id: string } & SectionProps): ReactNode {
  switch (id) {
    case 'settings':
      return <SettingsSection cycle={cycle} onSaved={onSaved} />;
    case 'eligibility':
      return <EligibilitySection cycle={cycle} onSaved={onSaved} />;
    case 'recommendations':
      return <RecommendationSection cycle={cycle} onSaved={onSaved} />;
    case 'budget':
      return <BudgetSection cycle={cycle} onSaved={onSaved} />;
    case 'windows':
      return <WindowsSection cycle={cycle} onSaved={onSaved} />;
    case 'chains':
      return <ChainsSection cycle={cycle} onSaved={onSaved} />;
    case 'worksheets':
      return <WorksheetsSection cycle={cycle} />;
    case 'dashboard':
      return <DashboardSection cycle={cycle} />;
    case 'close':
      return <CloseSection cycle={cycle} onSaved={onSaved} />;
    default:
      return <Overview cycle={cycle} onSaved={onSaved} />;
  }
}

// ── overview: what the cycle is, its moves and its history ───────────────────────────────────


function Overview({ cycle, onSaved }: SectionProps) {
  const access = usePlanningAccess();
  const history = useQuery('/api/v2/meritCycles/{meritCycleId}/history', { params: { path: { meritCycleId: cycle.id } } });
  const windows = useQuery('/api/v2/meritCycles/{meritCycleId}/planningWindows', { params: { path: { meritCycleId: cycle.id } } });
  const [moving, setMoving] = useState<string | null>(null);
  const moves = cycle.availableActions.filter((entry) => entry.action === 'launch' || entry.action === 'cancel');
  const planning = windows.data?.data.find((window) => window.stage === 'planning');
  const recommendation = cycle.recommendation;
  return (
    <>
      {cycle.state === 'draft' ? (
        <StatGrid label="The cycle’s setup">
          <StatCard label="Components" value={formatNumber(cycle.components.length)} hint={cycle.components.map((component) => COMPONENT_LABELS[component]).join(', ')} href={hrefOf(cycle.id, 'settings')} linkLabel="Components (settings)" />
          <StatCard
            label="Guideline"
            value={recommendation.kind === 'flat' ? formatBp(recommendation.flat?.targetBp) : recommendation.kind === 'variables' ? 'Several variables' : 'Merit matrix'}
            hint={recommendation.guidelines.mode === 'enforced' ? 'Enforced' : 'Advisory'}
            href={hrefOf(cycle.id, 'recommendations')}
            linkLabel="Guideline (recommendations)"
          />
          <StatCard label="Budget" value={formatBp(cycle.budget.percentBp)} hint="of eligible payroll" href={hrefOf(cycle.id, 'budget')} linkLabel="Budget" />
          <StatCard label="Planning window" value={cycle.planningWindows.find((window) => window.stage === 'planning') ? 'Set' : 'Open while active'} href={hrefOf(cycle.id, 'windows')} linkLabel="Planning window" />
        </StatGrid>
      ) : (
        <StatGrid label="The cycle in numbers">
          <StatCard label="Eligible" value={formatNumber(cycle.counts.eligible)} hint={`of ${formatNumber(cycle.counts.employees)} people; ${formatNumber(cycle.counts.ineligible)} ineligible, ${formatNumber(cycle.counts.excluded)} excluded`} testId="cycle-eligible" />
          <StatCard label="Worksheets" value={formatNumber(cycle.counts.worksheets)} href={hrefOf(cycle.id, 'worksheets')} linkLabel="Worksheets" />
          <StatCard label="Planning window" value={planning ? (planning.open ? 'Open' : 'Closed') : '—'} hint={planning?.closesAt ? `until ${formatTimestamp(planning.closesAt)}` : undefined} />
          {cycle.state === 'closed' && <StatCard label="Pay records written" value={formatNumber(cycle.payRecordsWritten)} hint={`effective ${formatDate(cycle.effectiveDate)}`} />}
        </StatGrid>
      )}
      {cycle.exchangeRates.length > 0 && (
        <p className="planning-muted">
          {/* Each rate named by its own source and date as stored, not the day the cycle asked for (a rate can be months older). */}
          Conversions into {cycle.currency} use the latest rates published on or before {formatDate(cycle.ratesAsOf)}:{' '}
          {cycle.exchangeRates.map((rate) => `1 ${rate.base} = ${rate.rate} ${rate.currency} (${rate.source}, rate of ${formatDate(rate.date)})`).join('; ')}.
        </p>
      )}
      {access.editAll && moves.length > 0 && (
        <div className="actions">
          {moves.map((entry) => (
            <button key={entry.action} type="button" className={entry.action === 'launch' ? 'primary' : 'danger'} onClick={() => setMoving(entry.action)}>
              {TRANSITION_WORDS[entry.action]?.button ?? entry.action}
            </button>
          ))}
        </div>
      )}
      <Section title="History" id="cycle-history">
        <Loaded data={history.data?.data} error={history.error} inline skeleton={<SkeletonText lines={2} label="Loading the history" />}>
          {(entries) => <HistoryList entries={entries} label="The cycle’s history" />}
        </Loaded>
      </Section>
      {moving && <TransitionDialog cycle={cycle} action={moving} onSaved={onSaved} onClose={() => setMoving(null)} />}
    </>
  );
}

// ── worksheets ───────────────────────────────────────────────────────────────────────────────

/** The worksheets the caller plans, reviews or reaches, top of the org first; `?open=1` shows those not yet approved. */
function WorksheetsSection({ cycle }: { cycle: MeritCycle }) {
  const worksheets = useQuery('/api/v2/meritCycles/{meritCycleId}/worksheets', { params: { path: { meritCycleId: cycle.id } } });
  const access = usePlanningAccess();
  const [openOnly, setOpenOnly] = useQueryParam('open');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  return (
    <Loaded data={worksheets.data?.data} error={worksheets.error} retry={() => void worksheets.mutate()} skeleton={<SkeletonTable rows={5} columns={6} label="Loading the worksheets" />}>
      {(list) => {
        const all = list.filter((worksheet) => worksheet.state !== 'pulled_up');
        // As closing counts them: worksheets with people to plan, not yet approved.
        const visible = openOnly ? all.filter((worksheet) => worksheet.state !== 'approved' && worksheet.counts.eligible > 0) : all;
        if (!all.length) {
          return (
            <Empty title="No worksheets for you" action={<Link href="/compensationplanning">Back to the merit cycles</Link>}>
              Worksheets belong to managers of people in the cycle, and to their reviewers.
            </Empty>
          );
        }
        const mine = visible.filter((worksheet) => worksheet.planner?.userId === access.userId);
        return (
          <>
            {mine.length > 0 && (
              <div className="actions">
                {mine.map((worksheet) => (
                  <Link key={worksheet.id} className="button primary" href={`/compensationplanning/cycles/${cycle.id}/worksheets/${worksheet.id}`}>
                    Open my worksheet
                  </Link>
                ))}
              </div>
            )}
            {openOnly && (
              <p className="planning-muted">
                Showing the {formatNumber(visible.length)} not yet approved.{' '}
                <button type="button" className="link" onClick={() => setOpenOnly(null)}>
                  Show every worksheet
                </button>
              </p>
            )}
            {cycle.state === 'active' && access.edit && <BulkMoves cycle={cycle} list={visible} selected={selected} onClear={() => setSelected(new Set())} />}
            <WorksheetTable cycle={cycle} list={visible} selected={access.edit && cycle.state === 'active' ? selected : null} onSelect={setSelected} />
          </>
        );
      }}
    </Loaded>
  );
}

function WorksheetTable({ cycle, list, selected, onSelect }: { cycle: MeritCycle; list: Worksheet[]; selected: Set<string> | null; onSelect: (next: Set<string>) => void }) {
  const every = selected !== null && list.length > 0 && list.every((worksheet) => selected.has(worksheet.id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  };
  return (
    <DataTable
      caption="Worksheets"
      captionHidden
      cardsOnPhone
      rows={list}
      rowKey={(worksheet) => worksheet.id}
      rowAttributes={(worksheet) => ({ 'data-worksheet-id': worksheet.id })}
      columns={[
        ...(selected
          ? [
              {
                key: 'select',
                header: <input type="checkbox" aria-label="Select every worksheet shown" checked={every} onChange={(event) => onSelect(event.target.checked ? new Set(list.map((worksheet) => worksheet.id)) : new Set())} />,
                label: 'Select',
                cell: (worksheet: Worksheet) => (
                  <input type="checkbox" aria-label={`Select ${worksheetName(worksheet)}’s worksheet`} checked={selected.has(worksheet.id)} onChange={(event) => toggle(worksheet.id, event.target.checked)} />
                ),
              },
            ]
          : []),
        { key: 'planner', header: 'Planner', rowHeader: true, cell: (worksheet) => <Link href={`/compensationplanning/cycles/${cycle.id}/worksheets/${worksheet.id}`}>{worksheetName(worksheet)}</Link> },
        { key: 'state', header: 'State', cell: (worksheet) => <WorksheetStateBadge state={worksheet.state} /> },
        { key: 'eligible', header: 'Eligible', numeric: true, cell: (worksheet) => formatNumber(worksheet.counts.eligible) },
        { key: 'reviewed', header: 'Reviewed', numeric: true, cell: (worksheet) => formatNumber(worksheet.counts.reviewed) },
        { key: 'used', header: 'Used of budget', numeric: true, cell: (worksheet) => `${formatMoney(worksheet.budget.used)} of ${formatMoney(worksheet.budget.allocated)}` },
        { key: 'errors', header: 'Errors', numeric: true, cell: (worksheet) => formatNumber(worksheet.counts.flaggedErrors) },
        { key: 'actions', header: <span className="visually-hidden">Actions</span>, label: 'Actions', cell: (worksheet) => (allows(worksheet, 'pullUp') ? <PullUp cycle={cycle} worksheet={worksheet} /> : null) },
      ]}
    />
  );
}

/** A manager takes over a report manager's worksheet: its rows move into the manager's own. */
function PullUp({ cycle, worksheet }: { cycle: MeritCycle; worksheet: Worksheet }) {
  const { add } = useToasts();
  const { save, busy } = useVersionedSave((ifMatch) =>
    api.POST('/api/v2/meritCycles/{meritCycleId}/worksheets/{worksheetId}/pullUp', { params: { path: { meritCycleId: cycle.id, worksheetId: worksheet.id }, header: { 'If-Match': ifMatch } } }),
  );
  async function pullUp() {
    const result = await save(worksheet.version);
    await refreshPlanning();
    if (result.ok) add('success', `${worksheetName(worksheet)}’s rows are now in ${worksheetName(result.data.data)}’s worksheet.`);
  }
  return (
    <button type="button" className="small" disabled={busy} onClick={() => void pullUp()} aria-label={`Pull up ${worksheetName(worksheet)}’s worksheet`}>
      Pull up
    </button>
  );
}

