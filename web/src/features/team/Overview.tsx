import { Users } from 'lucide-react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { usePerson } from '../../app/Guard';
import { colourOf } from '../../ui/charts';
import { DataTable } from '../../ui/DataTable';
import { SkeletonStats } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, Loaded } from '../../ui/States';
import { type Schemas, TeamPage, formatMoney, formatNumber, formatRatio, usePermissions } from './common';
import { StartingSoon } from './StartingSoon';

function Breakdown({ title, entries, filter }: { title: string; entries: Schemas['TeamBreakdown'][]; filter: string }) {
  const top = entries.slice(0, 8);
  const max = Math.max(1, ...top.map((entry) => entry.count));
  return (
    <section className="team-section" aria-labelledby={`by-${filter}`}>
      <h2 id={`by-${filter}`}>{title}</h2>
      <ul className="team-bars">
        {top.map((entry) => (
          <li key={entry.id ?? 'none'}>
            <Link href={`/team/employees?${filter}=${encodeURIComponent(entry.id ?? 'none')}`}>{entry.label}</Link>
            <span className="team-bar-count">{entry.count}</span>
            <span className="bar" aria-hidden="true">
              <span style={{ width: `${(entry.count / max) * 100}%` }} />
            </span>
          </li>
        ))}
      </ul>
      {entries.length > top.length && <p className="team-muted">and {entries.length - top.length} more</p>}
    </section>
  );
}

function Payroll({ payroll }: { payroll: Schemas['TeamPayroll'] }) {
  return (
    <section className="team-section" aria-labelledby="payroll">
      <h2 id="payroll">Payroll</h2>
      <DataTable
        className="table-scroll compact"
        regionLabel="Payroll by currency"
        caption="Annual payroll by pay currency"
        captionHidden
        rows={payroll.byCurrency}
        rowKey={(line) => line.currency}
        columns={[
          { key: 'currency', header: 'Currency', rowHeader: true, cell: (line) => line.currency },
          { key: 'people', header: 'People', numeric: true, cell: (line) => line.employees },
          { key: 'base', header: 'Base', numeric: true, cell: (line) => formatMoney(line.annualBase) },
          { key: 'converted', header: `In ${payroll.annualBase.currency}`, numeric: true, cell: (line) => (line.convertedAnnualBase ? formatMoney(line.convertedAnnualBase) : 'No rate') },
        ]}
      />
      {payroll.rates.length > 0 && (
        <p className={payroll.rateSource.stale ? 'team-muted rates-stale' : 'team-muted'} data-testid="payroll-rate-source" role={payroll.rateSource.stale ? 'status' : undefined}>
          {payroll.rateSource.label} {payroll.rates.map((rate) => `1 ${rate.base} = ${rate.rate} ${rate.currency}`).join(', ')}.
        </p>
      )}
      {payroll.unconverted.length > 0 && <p className="team-muted">Left out of the total, with no exchange rate: {payroll.unconverted.join(', ')}.</p>}
    </section>
  );
}

/** /team: headcount, where people are, and — with the pay permission — payroll and compa-ratio. */
export function TeamOverviewScreen() {
  const { data, error, mutate } = useQuery('/api/team/employees/overview');
  const can = usePermissions();
  const integrations = usePerson().data?.data.modules.some((entry) => entry.module === 'integrations' && entry.authorized) ?? false;
  return (
    <TeamPage title="Team" description="Everyone you may see: where they are, what they cost and how their pay compares to the market.">
      <Loaded data={data?.data} error={error} retry={() => void mutate()} skeleton={<SkeletonStats count={can.pay ? 4 : 1} label="Loading the team" />}>
        {(overview) =>
          overview.headcount === 0 ? (
            <Empty
              title="No employees yet"
              icon={Users}
              action={
                integrations ? (
                  <Link href="/integrations" className="button primary">
                    Import people
                  </Link>
                ) : undefined
              }
            >
              People appear here once they are imported from a file or your HR system.
            </Empty>
          ) : (
            <>
              <StatGrid label="Key figures">
                <StatCard label="Headcount" value={formatNumber(overview.headcount)} href="/team/employees" linkLabel="Headcount" testId="headcount" icon={Users} />
                {overview.payroll && (
                  <>
                    <StatCard label="Annual base payroll" value={formatMoney(overview.payroll.annualBase, { compact: true })} hint={`In ${overview.payroll.annualBase.currency}`} swatch={colourOf('base')} />
                    <StatCard label="Annual total cash" value={formatMoney(overview.payroll.annualTotalCash, { compact: true })} hint={`In ${overview.payroll.annualTotalCash.currency}`} swatch={colourOf('total_cash')} />
                  </>
                )}
                {overview.compaRatio && (
                  <StatCard
                    label="Average compa-ratio"
                    value={formatRatio(overview.compaRatio.average)}
                    hint={`${overview.compaRatio.compared} priced · ${overview.compaRatio.insufficientData} insufficient data`}
                    href="/team/analytics"
                  />
                )}
              </StatGrid>
              <div className="team-columns">
                <Breakdown title="By department" entries={overview.byDepartment} filter="department" />
                <Breakdown title="By level" entries={overview.byLevel} filter="level" />
                <Breakdown title="By location" entries={overview.byLocation} filter="location" />
              </div>
              {overview.payroll && <Payroll payroll={overview.payroll} />}
            </>
          )
        }
      </Loaded>
      <StartingSoon />
    </TeamPage>
  );
}
