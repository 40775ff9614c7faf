import { Fragment, Suspense, lazy, useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { type CompTypeId, useCompTypes } from '../../api/compTypes';
import { usePerson } from '../../app/Guard';
import { holds } from '../people/common';
import { Sheet } from '../../ui/Modal';
import { EquityChart } from './charts/EquityChart';
import { SkeletonText } from '../../ui/Skeleton';
import { DataTable } from '../../ui/DataTable';
import { Empty, Loaded } from '../../ui/States';
import { type Schemas, bandPositionText, formatDate, formatMoney, formatNumber, formatPrice, formatRatio, humanise, useTeamSettings } from './common';


const TYPE_LABELS: Record<string, string> = {
  base_salary: 'Base salary',
  bonus_target: 'Bonus target',
  variable_pay: 'Variable pay',
  commission: 'Commission',
  benefits: 'Benefits',
  option: 'Stock options',
  rsu: 'RSUs',
  rsa: 'Restricted stock',
  common_stock: 'Common stock',
};

const isCompType = (type: string): type is CompTypeId => Object.hasOwn(TYPE_LABELS, type) || type === 'one_off_bonus';

const today = () => new Date().toISOString().slice(0, 10);

// The correction panels load only when someone opens them.
const RecordPanels = lazy(() => import('../people/EmployeeRecord').then((m) => ({ default: m.EmployeeRecordPanels })));

/** For those who may change people records: the record, pay and grants to correct, and their history, in the drawer. */
function Corrections({ employeeId }: { employeeId: string }) {
  const person = usePerson().data?.data;
  const [open, setOpen] = useState(false);
  if (!holds(person, 'team', 'edit') && !holds(person, 'employeeCompensation', 'edit')) return null;
  return (
    <section className="team-section" aria-label="Correct the records">
      <div className="team-toolbar">
        <button type="button" aria-expanded={open} onClick={() => setOpen((current) => !current)}>
          {open ? 'Hide corrections' : 'Correct records'}
        </button>
        <Link href={`/people/${employeeId}`}>Open the employee page</Link>
      </div>
      {open && (
        <Suspense fallback={<SkeletonText lines={6} label="Loading the record" />}>
          <RecordPanels employeeId={employeeId} />
        </Suspense>
      )}
    </section>
  );
}

function CompTimeline({ employeeId, settings }: { employeeId: string; settings: Schemas['TeamCompTimelineSettings'] }) {
  const { data, error, mutate } = useQuery('/api/team/employees/{employeeId}/comp-timeline', { params: { path: { employeeId } } });
  const compTypes = useCompTypes();
  return (
    <section className="team-section" aria-labelledby="comp-timeline">
      <h3 id="comp-timeline">Compensation timeline</h3>
      <Loaded data={data?.data} error={error} retry={() => void mutate()}>
        {(timeline) => {
          const entries = timeline.entries.filter((entry) =>
            (entry.kind === 'equity_grant' ? settings.showEquityGrants : (settings.types as string[]).includes(entry.type)) && (!isCompType(entry.type) || compTypes.enabled(entry.type)),
          );
          if (settings.order === 'newest_first') entries.reverse();
          if (!entries.length) return <Empty title="No pay history yet" />;
          return (
            <ol className="timeline">
              {entries.map((entry) => (
                <li key={entry.id} className={entry.date > today() ? 'future' : undefined}>
                  <span>{formatDate(entry.date)}</span>
                  <span>
                    <span className="what">{isCompType(entry.type) ? compTypes.label(entry.type, TYPE_LABELS[entry.type] ?? humanise(entry.type)) : humanise(entry.type)}</span>{' '}
                    {entry.kind === 'equity_grant' ? `${formatNumber(entry.shares)} shares` : formatMoney(entry.amount)}
                    {entry.percentOfBase !== null && ` (${entry.percentOfBase}% of base)`}
                    {entry.changePercent !== null && ` · ${entry.changePercent > 0 ? '+' : ''}${entry.changePercent}%`}
                    {entry.reason && ` · ${humanise(entry.reason)}`}
                    {entry.date > today() && ' · scheduled'}
                  </span>
                </li>
              ))}
            </ol>
          );
        }}
      </Loaded>
    </section>
  );
}

function EquityDetails({ employeeId, settings }: { employeeId: string; settings: Schemas['TeamEquityDetailsSettings'] }) {
  const { data, error, mutate } = useQuery('/api/team/employees/{employeeId}/equity-details-chart', { params: { path: { employeeId } } });
  return (
    <section className="team-section" aria-labelledby="equity-details">
      <h3 id="equity-details">Equity details</h3>
      <Loaded data={data?.data} error={error} retry={() => void mutate()}>
        {(chart) =>
          chart.grants.length === 0 ? (
            <Empty title="No equity grants" />
          ) : (
            <>
              <p className="team-muted">
                Today: {formatNumber(chart.today.vestedShares)} vested ({formatMoney(chart.today.vestedValue)}), {formatNumber(chart.today.unvestedShares)} unvested (
                {formatMoney(chart.today.unvestedValue)}) at {formatPrice(chart.sharePrice, chart.currency)} a share.
              </p>
              <EquityChart chart={chart} settings={settings} />
              <DataTable
                className="table-scroll compact"
                regionLabel="Grants"
                caption="Grants"
                captionHidden
                rows={chart.grants}
                rowKey={(grant) => grant.id}
                columns={[
                  {
                    key: 'grant',
                    header: 'Grant',
                    rowHeader: true,
                    cell: (grant) => (
                      <>
                        {TYPE_LABELS[grant.grantType]} {grant.grantNumber}
                        {grant.exercisePrice !== null && ` at ${formatPrice(grant.exercisePrice, grant.currency)}`}
                      </>
                    ),
                  },
                  { key: 'shares', header: 'Shares', numeric: true, cell: (grant) => formatNumber(grant.shares) },
                  { key: 'vested', header: 'Vested', numeric: true, cell: (grant) => formatNumber(grant.today.vestedShares) },
                  { key: 'fully', header: 'Fully vested', cell: (grant) => formatDate(grant.fullyVestedOn) },
                ]}
              />
            </>
          )
        }
      </Loaded>
    </section>
  );
}

const FIELDS: { key: keyof Schemas['TeamEmployeeRow']; label: string }[] = [
  { key: 'title', label: 'Title' },
  { key: 'department', label: 'Department' },
  { key: 'level', label: 'Level' },
  { key: 'jobFamily', label: 'Job family' },
  { key: 'location', label: 'Location' },
  { key: 'manager', label: 'Manager' },
  { key: 'startDate', label: 'Start date' },
  { key: 'employmentType', label: 'Employment' },
  { key: 'email', label: 'E-mail' },
];

function fieldText(employee: Schemas['TeamEmployeeRow'], key: keyof Schemas['TeamEmployeeRow']): string {
  const value = employee[key];
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object' && 'name' in value) return value.name;
  if (key === 'startDate' && typeof value === 'string') return formatDate(value);
  if (key === 'employmentType' && typeof value === 'string') return humanise(value);
  return String(value);
}

/** One employee: a side panel (a full sheet on phones) with their record, pay history and equity. */
export function EmployeeDrawer({ employeeId, onClose }: { employeeId: string; onClose: () => void }) {
  const { data, error, mutate } = useQuery('/api/team/employees/{employeeId}', { params: { path: { employeeId } } });
  const settings = useTeamSettings().data?.data.effective;
  return (
    <Sheet title={data?.data.employee.name ?? 'Employee'} onClose={onClose} className="team-drawer">
      <Loaded data={data?.data} error={error} retry={() => void mutate()} skeleton={<SkeletonText lines={8} label="Loading the employee" />}>
        {(detail) => (
          <>
            <Corrections employeeId={employeeId} />
            <section className="team-section" aria-label="Record">
              <dl>
                {FIELDS.map((field) => (
                  <Fragment key={field.key}>
                    <dt>{field.label}</dt>
                    <dd>{fieldText(detail.employee, field.key)}</dd>
                  </Fragment>
                ))}
                <dt>Direct reports</dt>
                <dd>{detail.directReports}</dd>
                {detail.payVisible && (
                  <>
                    <dt>Base salary</dt>
                    <dd>{formatMoney(detail.employee.baseSalary)}</dd>
                    <dt>Total cash</dt>
                    <dd>{formatMoney(detail.employee.totalCash)}</dd>
                    <dt>Compa-ratio</dt>
                    <dd>
                      {detail.employee.compaRatio?.ratio !== null && detail.employee.compaRatio?.ratio !== undefined
                        ? `${formatRatio(detail.employee.compaRatio.ratio)} (market median ${formatMoney(detail.employee.compaRatio.marketP50)})`
                        : (detail.employee.compaRatio?.label ?? '—')}
                    </dd>
                    {detail.employee.bandPosition && (
                      <>
                        <dt>Band position</dt>
                        <dd>
                          {bandPositionText(detail.employee.bandPosition)}
                          {detail.employee.bandPosition.band && (
                            <span className="band-range">
                              {` (${detail.employee.bandPosition.bandSetName}${detail.employee.bandPosition.gradeKey ? `, grade ${detail.employee.bandPosition.gradeKey} band` : ''}: ${formatMoney(detail.employee.bandPosition.band.min)} – ${formatMoney(detail.employee.bandPosition.band.max)}, midpoint ${formatMoney(detail.employee.bandPosition.band.mid)})`}
                            </span>
                          )}
                        </dd>
                      </>
                    )}
                  </>
                )}
              </dl>
            </section>
            {detail.payVisible && settings ? (
              <>
                <CompTimeline employeeId={employeeId} settings={settings.compTimeline} />
                <EquityDetails employeeId={employeeId} settings={settings.equityDetails} />
              </>
            ) : (
              !detail.payVisible && <p className="pay-note">Pay is shown to people with the employee compensation permission for this person.</p>
            )}
          </>
        )}
      </Loaded>
    </Sheet>
  );
}
