import { useEffect, useRef } from 'react';
import { useQuery } from '../../api/client';
import { BarChart, BarList, NEUTRAL, colourOf } from '../../ui/charts';
import { majorOf } from '../../ui/format';
import { Section } from '../../ui/Page';
import { SkeletonChart, SkeletonStats, SkeletonTable } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Loaded } from '../../ui/States';
import { type BudgetReport, type MeritCycle, WORKSHEET_STATES, type WorksheetState, formatBp, formatMoney, formatNumber } from './common';
import { useMeritCycleUpdates } from './liveUpdates';

const STATUS = { over: 'Over', on: 'On budget', under: 'Under' } as const;

/** The branches a chart compares: the worksheets just under the top of the org (or the tops, when they stand alone). */
function branchesOf(report: BudgetReport) {
  const tops = report.worksheets.filter((entry) => entry.parentWorksheetId === null);
  const under = report.worksheets.filter((entry) => entry.parentWorksheetId !== null && tops.some((top) => top.worksheetId === entry.parentWorksheetId));
  return under.length ? under : tops;
}

/** The cycle's dashboard: budgets allocated, used and remaining by branch, and how far planning and review have come. */
export function DashboardSection({ cycle }: { cycle: MeritCycle }) {
  const path = { meritCycleId: cycle.id };
  const budgets = useQuery('/api/v2/meritCycles/{meritCycleId}/dashboard/cycleBudgets', { params: { path } });
  const progress = useQuery('/api/v2/meritCycles/{meritCycleId}/dashboard/cycleProgress', { params: { path } });
  // Planners' edits move these figures: read them again shortly after each announced change.
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useMeritCycleUpdates(cycle.id, () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void Promise.all([budgets.mutate(), progress.mutate()]), 1_000);
  });

  return (
    <>
      <Loaded data={budgets.data?.data} error={budgets.error} retry={() => void budgets.mutate()} skeleton={<><SkeletonStats count={4} label="Loading the budgets" /><SkeletonChart label="Loading the budget chart" /></>}>
        {(report) => {
          const unit = { kind: 'money', currency: report.currency } as const;
          const branches = branchesOf(report);
          const used = report.total.allocated.amount > 0 ? (report.total.used.amount / report.total.allocated.amount) * 10_000 : null;
          return (
            <>
              <StatGrid label="The cycle’s budget">
                <StatCard label="Allocated" value={formatMoney(report.total.allocated)} hint={`${formatBp(report.percentBp)} of ${formatMoney(report.total.eligiblePayroll)} eligible payroll`} testId="dashboard-allocated" />
                <StatCard label="Used" value={formatMoney(report.total.used)} hint={used === null ? undefined : `${formatBp(Math.round(used))} of the allocation`} testId="dashboard-used" />
                <StatCard label="Remaining" value={formatMoney(report.total.remaining)} hint={report.total.overBudget ? 'Over budget' : undefined} testId="dashboard-remaining" />
                <StatCard label="Recommended" value={formatMoney(report.total.recommended)} hint="the guidelines’ targets" />
              </StatGrid>
              <Section title="Budget by branch" id="dashboard-branches">
                <BarChart
                  title={`Allocated and used by branch, in ${report.currency}`}
                  categoryKey="branch"
                  categoryLabel="Branch"
                  orientation="auto"
                  unit={unit}
                  series={[
                    { key: 'allocated', label: 'Allocated', colour: colourOf('other') },
                    { key: 'used', label: 'Used', colour: colourOf('base') },
                  ]}
                  data={branches.map((entry) => ({ branch: entry.plannerName ?? 'Without a manager', allocated: majorOf(entry.branch.allocated), used: majorOf(entry.branch.used) }))}
                />
              </Section>
              <Section title="Top-down against bottom-up" id="dashboard-versus">
                <p className="planning-muted">Each planner’s branch: what was allocated from the top, what its managers planned, and the difference, in the planner’s currency.</p>
                <div className="table-scroll" role="region" aria-label="Allocated against planned" tabIndex={0}>
                  <table className="planning-dashboard-table">
                    <caption className="visually-hidden">Top-down allocation against the bottom-up plan of each branch</caption>
                    <thead>
                      <tr>
                        <th scope="col">Planner</th>
                        <th scope="col" className="number">
                          Allocated
                        </th>
                        <th scope="col" className="number">
                          Planned
                        </th>
                        <th scope="col" className="number">
                          Difference
                        </th>
                        <th scope="col">Status</th>
                      </tr>
                    </thead>
                    <tbody>
                      {report.comparison.nodes.map((node) => (
                        <tr key={node.worksheetId} data-worksheet-id={node.worksheetId} data-status={node.status}>
                          <th scope="row" style={{ paddingInlineStart: `calc(var(--space-3) * ${node.depth + 1})` }}>
                            {node.plannerName ?? 'Without a manager'}
                          </th>
                          <td className="number">{formatMoney(node.allocated)}</td>
                          <td className="number" title={node.plannedByCurrency.map((money) => formatMoney(money)).join(' + ')}>
                            {formatMoney(node.plannedBranch)}
                          </td>
                          <td className={node.status === 'over' ? 'number planning-over' : 'number'}>{formatMoney(node.difference)}</td>
                          <td className={node.status === 'over' ? 'planning-over' : node.status === 'under' ? 'planning-under' : undefined}>{STATUS[node.status]}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </Section>
              <Section title="Every worksheet" id="dashboard-worksheets">
                <div className="table-scroll" role="region" aria-label="Budgets of every worksheet" tabIndex={0}>
                  <table className="planning-dashboard-table">
                    <caption className="visually-hidden">Each worksheet’s own budget and its branch’s, in {report.currency}</caption>
                    <thead>
                      <tr>
                        <th scope="col">Planner</th>
                        <th scope="col" className="number">
                          Allocated
                        </th>
                        <th scope="col" className="number">
                          Used
                        </th>
                        <th scope="col" className="number">
                          Remaining
                        </th>
                        <th scope="col" className="number">
                          Branch used of allocated
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {report.worksheets.map((entry) => (
                        <tr key={entry.worksheetId} data-worksheet-id={entry.worksheetId}>
                          <th scope="row">{entry.plannerName ?? 'Without a manager'}</th>
                          <td className="number">{formatMoney(entry.own.allocated)}</td>
                          <td className="number">{formatMoney(entry.own.used)}</td>
                          <td className={entry.own.overBudget ? 'number planning-over' : 'number'}>
                            {formatMoney(entry.own.remaining)}
                            {entry.own.overBudget ? ' (over)' : ''}
                          </td>
                          <td className="number">
                            {formatMoney(entry.branch.used)} of {formatMoney(entry.branch.allocated)}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </Section>
            </>
          );
        }}
      </Loaded>
      <Loaded data={progress.data?.data} error={progress.error} inline skeleton={<SkeletonTable rows={5} columns={2} label="Loading the progress" />}>
        {(data) => (
          <Section title="Progress" id="dashboard-progress">
            <StatGrid label="Progress">
              <StatCard label="Reviewed" value={`${formatNumber(data.percentReviewed, 0)}%`} hint={`${formatNumber(data.reviewed)} of ${formatNumber(data.eligible)} eligible people`} testId="dashboard-reviewed" />
              <StatCard label="With a change planned" value={formatNumber(data.changed)} />
              <StatCard label="Approved worksheets" value={`${formatNumber(data.worksheetsByState.approved)} of ${formatNumber(data.worksheets)}`} />
            </StatGrid>
            <BarList
              title="Worksheets by state"
              categoryLabel="State"
              valueLabel="Worksheets"
              unit={{ kind: 'count' }}
              bars={(Object.keys(WORKSHEET_STATES) as WorksheetState[]).map((state) => ({ label: WORKSHEET_STATES[state].label, value: data.worksheetsByState[state], colour: NEUTRAL }))}
            />
          </Section>
        )}
      </Loaded>
    </>
  );
}
