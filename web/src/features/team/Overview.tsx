import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { Empty, Loaded } from '../../ui/States';
import { type Schemas, TeamPage, formatMoney, formatNumber, formatRatio } from './common';

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
            <span>{entry.count}</span>
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
        <p className="team-muted">
          Converted with {payroll.rates.map((rate) => `1 ${rate.base} = ${rate.rate} ${rate.currency} (${rate.date})`).join(', ')} — {[...new Set(payroll.rates.map((rate) => rate.source))].join(', ')}.
        </p>
      )}
      {payroll.unconverted.length > 0 && <p className="team-muted">Left out of the total, with no reference rate: {payroll.unconverted.join(', ')}.</p>}
    </section>
  );
}

/** /team: headcount, where people are, and — with the pay permission — payroll and compa-ratio. */
export function TeamOverviewScreen() {
  const { data, error, mutate } = useQuery('/api/team/employees/overview');
  return (
    <TeamPage title="Team">
      <Loaded data={data?.data} error={error} retry={() => void mutate()}>
        {(overview) =>
          overview.headcount === 0 ? (
            <Empty title="No employees yet">People appear here once they are imported from your HR system or added to Paybench.</Empty>
          ) : (
            <>
              <ul className="team-stats" aria-label="Key figures">
                <li className="team-stat">
                  <span className="label">Headcount</span>
                  <span className="value" data-testid="headcount">
                    {formatNumber(overview.headcount)}
                  </span>
                </li>
                {overview.payroll && (
                  <>
                    <li className="team-stat">
                      <span className="label">Annual base payroll</span>
                      <span className="value">{formatMoney(overview.payroll.annualBase, { compact: true })}</span>
                    </li>
                    <li className="team-stat">
                      <span className="label">Annual total cash</span>
                      <span className="value">{formatMoney(overview.payroll.annualTotalCash, { compact: true })}</span>
                    </li>
                  </>
                )}
                {overview.compaRatio && (
                  <li className="team-stat">
                    <span className="label">Average compa-ratio</span>
                    <span className="value">{formatRatio(overview.compaRatio.average)}</span>
                    <span className="team-muted">
                      {overview.compaRatio.compared} priced · {overview.compaRatio.insufficientData} insufficient data
                    </span>
                  </li>
                )}
              </ul>
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
    </TeamPage>
  );
}
