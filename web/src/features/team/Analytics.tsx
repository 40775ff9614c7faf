import { ChartColumn, Lock } from 'lucide-react';
import { Fragment, useId, useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { BarChart, colourOf } from '../../ui/charts';
import { DataTable } from '../../ui/DataTable';
import { SkeletonStats, SkeletonTable } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, Loaded } from '../../ui/States';
import { type Schemas, TeamPage, formatMoney, formatNumber, formatRatio, usePermissions } from './common';

function CompaRatio() {
  const { data, error, mutate } = useQuery('/api/team/analytics/compa-ratio');
  const [all, setAll] = useState(false);
  return (
    <section className="team-section" aria-labelledby="compa-ratio">
      <h2 id="compa-ratio">Compa-ratio to market</h2>
      <p className="team-muted">Base salary ÷ the market median (p50) for the person’s job family, level and location.</p>
      <Loaded data={data?.data} error={error} retry={() => void mutate()} skeleton={<SkeletonStats count={4} label="Loading the compa-ratio" />}>
        {(report) =>
          report.employees.length === 0 ? (
            <Empty title="No one to compare yet" icon={ChartColumn} headingLevel={3}>
              People are compared once they have a base salary, a job family, a level and a location.
            </Empty>
          ) : (
            <>
              <StatGrid label="Compa-ratio summary">
                <StatCard label="Average" value={formatRatio(report.average)} testId="average-compa-ratio" />
                <StatCard label="Priced" value={formatNumber(report.compared)} />
                <StatCard label="Insufficient data" value={formatNumber(report.insufficientData)} />
                <StatCard label="Not priced" value={formatNumber(report.unmatched)} hint="No base salary or no market match" />
              </StatGrid>
              <BarChart
                title="People by compa-ratio"
                data={report.bands.map((band) => ({ band: band.label, people: band.count }))}
                categoryKey="band"
                categoryLabel="Compa-ratio"
                series={[{ key: 'people', label: 'People', colour: colourOf('base') }]}
                unit={{ kind: 'count' }}
                orientation="columns"
              />
              <DataTable
                className="table-scroll compact"
                regionLabel="Compa-ratio per person"
                cardsOnPhone
                caption={`Compa-ratio per person, lowest first (market release ${report.releaseVersion})`}
                captionHidden
                rows={all ? report.employees : report.employees.slice(0, 25)}
                rowKey={(entry) => entry.employeeId}
                columns={[
                  { key: 'name', header: 'Name', rowHeader: true, cell: (entry) => <Link href={`/team/employees?employee=${entry.employeeId}`}>{entry.name}</Link> },
                  { key: 'level', header: 'Level', cell: (entry) => entry.level?.name ?? '—' },
                  { key: 'location', header: 'Location', cell: (entry) => entry.location?.name ?? '—' },
                  { key: 'base', header: 'Base', numeric: true, cell: (entry) => formatMoney(entry.baseSalary) },
                  { key: 'p50', header: 'Market p50', numeric: true, cell: (entry) => formatMoney(entry.marketP50) },
                  {
                    key: 'ratio',
                    header: 'Compa-ratio',
                    numeric: true,
                    cell: (entry) => (entry.compaRatio === null ? <span className="insufficient">{entry.label}</span> : formatRatio(entry.compaRatio)),
                  },
                ]}
              />
              {report.employees.length > 25 && (
                <button type="button" onClick={() => setAll(!all)}>
                  {all ? 'Show the first 25' : `Show all ${report.employees.length}`}
                </button>
              )}
            </>
          )
        }
      </Loaded>
    </section>
  );
}

/** A box plot in CSS: whiskers min–max, the box p25–p75, a mark at the median, on one scale for all levels. */
function Range({ level, low, high }: { level: Schemas['TeamPayDistribution']['levels'][number]; low: number; high: number }) {
  const span = Math.max(1, high - low);
  const at = (money: Schemas['Money']) => 4 + ((money.amount - low) / span) * 92;
  return (
    <div className="range" aria-hidden="true">
      <span className="whisker" style={{ left: `${at(level.min)}%`, width: `${at(level.max) - at(level.min)}%` }} />
      <span className="box" style={{ left: `${at(level.p25)}%`, width: `${Math.max(0.5, at(level.p75) - at(level.p25))}%` }} />
      <span className="median" style={{ left: `${at(level.median)}%` }} />
    </div>
  );
}

function PayDistribution() {
  const [measure, setMeasure] = useState<Schemas['TeamPayMeasure']>('base_salary');
  const select = useId();
  const { data, error, mutate } = useQuery('/api/team/analytics/pay-distribution', { params: { query: { measure } } });
  return (
    <section className="team-section" aria-labelledby="pay-distribution">
      <h2 id="pay-distribution">Pay distribution by level</h2>
      <label htmlFor={select}>Pay</label>
      <select id={select} value={measure} onChange={(event) => setMeasure(event.target.value === 'total_cash' ? 'total_cash' : 'base_salary')}>
        <option value="base_salary">Base salary</option>
        <option value="total_cash">Total cash</option>
      </select>
      <Loaded data={data?.data} error={error} retry={() => void mutate()} skeleton={<SkeletonTable rows={6} columns={7} label="Loading pay by level" />}>
        {(distribution) => {
          if (!distribution.levels.length)
            return (
              <Empty title="No pay on record yet" headingLevel={3}>
                Pay appears here once base salaries are imported for the people you may see.
              </Empty>
            );
          const low = Math.min(...distribution.levels.map((level) => level.min.amount));
          const high = Math.max(...distribution.levels.map((level) => level.max.amount));
          return (
            <DataTable
              className="table-scroll compact"
              regionLabel="Pay by level"
              caption={`Quartiles per level in ${distribution.currency}`}
              captionHidden
              rows={distribution.levels}
              rowKey={(level) => level.level?.id ?? 'none'}
              columns={[
                { key: 'level', header: 'Level', rowHeader: true, cell: (level) => level.level?.name ?? 'No level' },
                { key: 'people', header: 'People', numeric: true, cell: (level) => level.count },
                { key: 'min', header: 'Min', numeric: true, cell: (level) => formatMoney(level.min) },
                { key: 'p25', header: 'p25', numeric: true, cell: (level) => formatMoney(level.p25) },
                { key: 'median', header: 'Median', numeric: true, cell: (level) => formatMoney(level.median) },
                { key: 'p75', header: 'p75', numeric: true, cell: (level) => formatMoney(level.p75) },
                { key: 'max', header: 'Max', numeric: true, cell: (level) => formatMoney(level.max) },
                { key: 'range', header: 'Range', cell: (level) => <Range level={level} low={low} high={high} /> },
              ]}
            />
          );
        }}
      </Loaded>
    </section>
  );
}

const ATTRIBUTES: { id: Schemas['TeamDemographicAttribute']; label: string }[] = [
  { id: 'gender', label: 'Gender' },
  { id: 'ethnicity', label: 'Ethnicity' },
  { id: 'ageBand', label: 'Age band' },
];

function PayEquity() {
  const [attribute, setAttribute] = useState<Schemas['TeamDemographicAttribute']>('gender');
  const select = useId();
  const { data, error, mutate } = useQuery('/api/team/analytics/pay-equity', { params: { query: { attribute } } });
  return (
    <section className="team-section" aria-labelledby="pay-equity">
      <h2 id="pay-equity">Pay equity</h2>
      <label htmlFor={select}>Group by</label>
      <select id={select} value={attribute} onChange={(event) => setAttribute(ATTRIBUTES.find((a) => a.id === event.target.value)?.id ?? 'gender')}>
        {ATTRIBUTES.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
      <Loaded data={data?.data} error={error} retry={() => void mutate()} skeleton={<SkeletonTable rows={6} columns={4} label="Loading pay equity" />}>
        {(equity) =>
          equity.levels.length === 0 ? (
            <Empty title="No pay on record yet" headingLevel={3}>
              Pay equity is measured once base salaries and demographics are imported.
            </Empty>
          ) : (
            <>
              <p className="team-muted">Median base salary per group within each level. Groups of fewer than {equity.minimumGroupSize} people are hidden.</p>
              <div className="table-scroll compact" tabIndex={0} role="region" aria-label="Pay equity by level">
                <table>
                  <caption className="visually-hidden">Median pay by group within level</caption>
                  <thead>
                    <tr>
                      <th scope="col">Level / group</th>
                      <th scope="col" className="number">
                        People
                      </th>
                      <th scope="col" className="number">
                        Median
                      </th>
                      <th scope="col" className="number">
                        vs level median
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {equity.levels.map((level) => (
                      <Fragment key={level.level?.id ?? 'none'}>
                        <tr>
                          <th scope="row">{level.level?.name ?? 'No level'}</th>
                          <td className="number">{level.count}</td>
                          <td className="number">{formatMoney(level.median)}</td>
                          <td className="number">{level.hiddenGroups > 0 ? `${level.hiddenGroups} small group${level.hiddenGroups === 1 ? '' : 's'} hidden` : ''}</td>
                        </tr>
                        {level.groups.map((group) => (
                          <tr key={`${level.level?.id ?? 'none'}:${group.value}`}>
                            <td>· {group.label}</td>
                            <td className="number">{group.count}</td>
                            <td className="number">{formatMoney(group.median)}</td>
                            <td className="number">{formatRatio(group.ratioToLevelMedian)}</td>
                          </tr>
                        ))}
                      </Fragment>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )
        }
      </Loaded>
    </section>
  );
}

/** /team/analytics: compa-ratio, pay by level, and — with demographics — pay equity. */
export function TeamAnalyticsScreen() {
  const can = usePermissions();
  return (
    <TeamPage title="Analytics">
      {can.pay ? (
        <>
          <CompaRatio />
          <PayDistribution />
          {can.demographics && <PayEquity />}
        </>
      ) : (
        <Empty
          title="Pay analytics need the employee compensation permission"
          icon={Lock}
          action={
            <Link href="/team/analytics/playground" className="button">
              Count people in the playground
            </Link>
          }
        >
          An admin can add the permission to your role.
        </Empty>
      )}
    </TeamPage>
  );
}
