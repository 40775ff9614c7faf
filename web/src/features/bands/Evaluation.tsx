import { useState } from 'react';
import { Link } from 'wouter';
import { useQuery } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { DataTable } from '../../ui/DataTable';
import { Section } from '../../ui/Page';
import { SkeletonStats, SkeletonTable } from '../../ui/Skeleton';
import { StatCard, StatGrid } from '../../ui/StatCard';
import { Empty, Loaded } from '../../ui/States';
import {
  type Band,
  type BandEvaluation,
  type BandSetDetail,
  type CompanyJob,
  type JobGroup,
  type PayZone,
  formatDate,
  formatMoney,
  formatNumber,
  formatRatio,
  formatShare,
} from './common';

type Evaluated = BandEvaluation['employees'][number];
type TeamGrouping = BandEvaluation['outOfBand']['groupBy'];
type TeamEntry = BandEvaluation['outOfBand']['teams'][number];
type BandFigures = BandEvaluation['bands'][number];

interface EvaluationProps {
  bandSet: BandSetDetail;
  groups: JobGroup[];
  zones: PayZone[];
  /** Whether the person may see pay: without it the answer has no base, and nothing is shown as zero. */
  pay: boolean;
}

interface Row {
  band: Band;
  job: CompanyJob;
  zone: PayZone;
  figures: BandFigures | undefined;
  employees: Evaluated[];
}

const POSITION = { below: 'Below', inside: 'Inside', above: 'Above' } as const;

/**
 * A band's range as a bar: minimum to maximum shaded, the midpoint marked, each employee (in the
 * caller's reach, with pay) a dot by their base. The drawing is decoration; the sentence after it
 * says the same for screen readers.
 */
function RangeBar({ band, employees }: { band: Band; employees: Evaluated[] }) {
  const priced = employees.filter((employee): employee is Evaluated & { base: Band['min'] } => employee.base !== undefined);
  const values = [band.min.amount, band.max.amount, ...priced.map((employee) => employee.base.amount)];
  const low = Math.min(...values);
  const high = Math.max(...values);
  const pad = (high - low) * 0.08 || Math.max(1, band.mid.amount * 0.1);
  const from = low - pad;
  const span = high + pad - from;
  const at = (amount: number) => `${(((amount - from) / span) * 100).toFixed(2)}%`;
  const said = priced.map((employee) => `${employee.name} ${formatMoney(employee.base)}${employee.position ? `, ${POSITION[employee.position].toLowerCase()}` : ''}`);
  return (
    <span className="bands-range-host">
      <span className="bands-range" aria-hidden="true">
        <span className="bands-range-band" style={{ left: at(band.min.amount), width: `calc(${at(band.max.amount)} - ${at(band.min.amount)})` }} />
        <span className="bands-range-mid" style={{ left: at(band.mid.amount) }} />
        {priced.map((employee) => (
          <span key={employee.employeeId} className={`bands-range-dot ${employee.position ?? 'inside'}`} style={{ left: at(employee.base.amount) }} title={`${employee.name}: ${formatMoney(employee.base)}`} />
        ))}
      </span>
      <span className="visually-hidden">
        Range {formatMoney(band.min)} to {formatMoney(band.max)}, midpoint {formatMoney(band.mid)}.{' '}
        {said.length ? `${said.length} ${said.length === 1 ? 'employee' : 'employees'}: ${said.join('; ')}.` : 'No employee with pay you can see.'}
      </span>
    </span>
  );
}

function averageCompa(employees: Evaluated[]): number | null {
  const ratios = employees.flatMap((employee) => (employee.compaRatio === undefined ? [] : [employee.compaRatio]));
  return ratios.length ? ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length : null;
}

const count = (employees: Evaluated[], position: keyof typeof POSITION) => employees.filter((employee) => employee.position === position).length;

/**
 * The set measured against the company today: per band its width, the step to the next level, how
 * many people it holds and, with the pay permission, compa-ratio and who is below, inside or above
 * it; then everyone out of band, and who is in no band at all.
 */
export function Evaluation({ bandSet, groups, zones, pay }: EvaluationProps) {
  const [groupBy, setGroupBy] = useState<TeamGrouping>('department');
  const evaluation = useQuery('/api/bands/band-sets/{bandSetId}/evaluation', { params: { path: { bandSetId: bandSet.id }, query: { groupBy } } });
  return (
    <Loaded
      data={evaluation.data?.data}
      error={evaluation.error}
      retry={() => void evaluation.mutate()}
      skeleton={
        <>
          <SkeletonStats count={4} label="Measuring the company against the bands" />
          <SkeletonTable rows={6} columns={8} label="Loading the evaluation" />
        </>
      }
    >
      {(result) => (
        <>
          <EvaluationBody result={result} bandSet={bandSet} groups={groups} zones={zones} pay={pay} />
          <PricedByGrade result={result} bandSet={bandSet} zones={zones} />
          {pay && (bandSet.bands.length > 0 || bandSet.gradeBands.length > 0) && <OutOfBandByTeam outOfBand={result.outOfBand} onGroupBy={setGroupBy} />}
        </>
      )}
    </Loaded>
  );
}

/** The employees whose company job has no band in their zone, priced by their job's grade band there. */
function PricedByGrade({ result, bandSet, zones }: { result: BandEvaluation; bandSet: BandSetDetail; zones: EvaluationProps['zones'] }) {
  const byGrade = result.employees.filter((employee) => employee.source === 'grade');
  if (byGrade.length === 0 && result.gradeBands.length === 0) return null;
  const gradeBand = new Map(bandSet.gradeBands.map((band) => [band.id, band]));
  const zoneName = new Map(zones.map((zone) => [zone.id, zone.name]));
  return (
    <Section title="Priced by a grade band" id="priced-by-grade-heading">
      <p className="bands-muted">Their company job has no band of its own in their pay zone, so its comp grade’s band there prices them.</p>
      <DataTable
        caption="Grade bands measured"
        cardsOnPhone
        rows={result.gradeBands}
        rowKey={(band) => band.gradeBandId}
        columns={[
          { key: 'grade', header: 'Grade band', rowHeader: true, cell: (band) => `${gradeBand.get(band.gradeBandId)?.gradeKey ?? ''} · ${zoneName.get(band.payZoneId) ?? ''}` },
          { key: 'employees', header: 'Employees', numeric: true, cell: (band) => formatNumber(band.employeeCount) },
          { key: 'spread', header: 'Spread', numeric: true, cell: (band) => formatShare(band.spread) },
          { key: 'benchmark', header: 'Benchmark', numeric: true, cell: (band) => (band.benchmark ? `${formatMoney(band.benchmark)} (${formatNumber(band.benchmarkCount)} ${band.benchmarkCount === 1 ? 'job' : 'jobs'})` : 'Entered by hand') },
          { key: 'delta', header: 'Mid vs benchmark', numeric: true, cell: (band) => formatShare(band.deltaFromBenchmark, true) },
        ]}
      />
      {byGrade.length > 0 && (
        <DataTable
          caption="Employees priced by their job's grade band"
          captionHidden
          cardsOnPhone
          rows={byGrade}
          rowKey={(employee) => employee.employeeId}
          rowAttributes={(employee) => ({ 'data-employee-id': employee.employeeId })}
          columns={[
            { key: 'name', header: 'Employee', rowHeader: true, cell: (employee) => employee.name },
            {
              key: 'band',
              header: 'Grade band',
              cell: (employee) => {
                const band = gradeBand.get(employee.bandId);
                return band ? `${band.gradeKey} · ${zoneName.get(band.payZoneId) ?? ''} · ${formatMoney(band.min)} – ${formatMoney(band.max)}` : '';
              },
            },
            { key: 'base', header: 'Base', numeric: true, cell: (employee) => (employee.base ? formatMoney(employee.base) : '—') },
            { key: 'compa', header: 'Compa-ratio', numeric: true, cell: (employee) => formatRatio(employee.compaRatio) },
            { key: 'penetration', header: 'Range penetration', numeric: true, cell: (employee) => formatShare(employee.rangePenetration) },
            { key: 'position', header: 'Position', cell: (employee) => (employee.position ? POSITION[employee.position] : '—') },
          ]}
        />
      )}
    </Section>
  );
}

function EvaluationBody({ result, bandSet, groups, zones, pay }: EvaluationProps & { result: BandEvaluation }) {
  if (bandSet.bands.length === 0) {
    return (
      <Empty title="Nothing to measure yet" compact>
        Once the set has bands, each band shows its width, the step to the next level and the employees in it.
      </Empty>
    );
  }
  const figures = new Map(result.bands.map((entry) => [entry.bandId, entry]));
  const byBand = new Map<string, Evaluated[]>();
  for (const employee of result.employees) byBand.set(employee.bandId, [...(byBand.get(employee.bandId) ?? []), employee]);
  const bandOf = new Map(bandSet.bands.map((band) => [`${band.companyJobId}|${band.payZoneId}`, band]));
  const bandById = new Map(bandSet.bands.map((band) => [band.id, band]));
  const rows: Row[] = groups.flatMap((group) =>
    group.jobs.flatMap((job) =>
      zones.flatMap((zone) => {
        const band = bandOf.get(`${job.id}|${zone.id}`);
        return band ? [{ band, job, zone, figures: figures.get(band.id), employees: byBand.get(band.id) ?? [] }] : [];
      }),
    ),
  );
  const rowOfBand = new Map(rows.map((row) => [row.band.id, row]));
  const outOfBand = result.employees.filter((employee) => employee.position === 'below' || employee.position === 'above');
  const placed = result.bands.reduce((sum, entry) => sum + entry.employeeCount, 0);
  const unplaced = result.unplaced.noFamilyOrLevel + result.unplaced.noJobKey + result.unplaced.noCompanyJob + result.unplaced.noBand;
  const compa = averageCompa(result.employees);
  const levelName = (levelId: string | null) => (levelId ? levelId.toUpperCase() : '');

  return (
    <div className="bands-evaluation">
      <StatGrid label="The set against the company">
        <StatCard label="Employees in bands" value={formatNumber(placed)} hint={`As of ${formatDate(result.asOf)}, the whole company`} testId="placed" />
        {pay && <StatCard label="Out of band" value={formatNumber(outOfBand.length)} hint={`${formatNumber(count(result.employees, 'below'))} below · ${formatNumber(count(result.employees, 'above'))} above, in your reach`} testId="out-of-band" />}
        {pay && <StatCard label="Average compa-ratio" value={formatRatio(compa)} hint="Base ÷ band midpoint" />}
        <StatCard
          label="In no band"
          value={formatNumber(unplaced)}
          hint={`${formatNumber(result.unplaced.noFamilyOrLevel)} without family or level · ${result.unplaced.noJobKey ? `${formatNumber(result.unplaced.noJobKey)} without the title or job code matched on · ` : ''}${formatNumber(result.unplaced.noCompanyJob)} without a company job · ${formatNumber(result.unplaced.noBand)} without a band in their zone`}
          href="/bands/jobs"
          linkLabel="In no band"
          testId="unplaced"
        />
      </StatGrid>
      {!pay && <p className="bands-muted">Compa-ratios and positions need the employee compensation permission; counts are shown without pay.</p>}
      <Section title="Bands against the company" id="evaluation-heading">
        <DataTable
          caption="Each band’s width, progression and employees"
          captionHidden
          className="table-scroll bands-evaluation-table"
          regionLabel="Evaluation of each band"
          cardsOnPhone
          rows={rows}
          rowKey={(row) => row.band.id}
          rowAttributes={(row) => ({ 'data-band-id': row.band.id })}
          columns={[
            {
              key: 'job',
              header: 'Band',
              rowHeader: true,
              cell: (row) => (
                <>
                  {row.job.title}
                  <span className="bands-job-meta">{row.zone.name}</span>
                </>
              ),
            },
            { key: 'range', header: 'Range and employees', cell: (row) => <RangeBar band={row.band} employees={row.employees} /> },
            { key: 'width', header: 'Width', numeric: true, cell: (row) => formatShare(row.figures?.spread) },
            {
              key: 'progression',
              header: 'Progression',
              numeric: true,
              cell: (row) => (row.figures?.nextLevelId ? `${formatShare(row.figures.midpointProgression, true)} to ${levelName(row.figures.nextLevelId)}` : '—'),
            },
            { key: 'employees', header: 'Employees', numeric: true, cell: (row) => formatNumber(row.figures?.employeeCount ?? 0) },
            ...(pay
              ? [
                  { key: 'compa', header: 'Compa-ratio', numeric: true, cell: (row: Row) => formatRatio(averageCompa(row.employees)) },
                  {
                    key: 'positions',
                    header: 'Below / inside / above',
                    numeric: true,
                    cell: (row: Row) => `${count(row.employees, 'below')} / ${count(row.employees, 'inside')} / ${count(row.employees, 'above')}`,
                  },
                ]
              : []),
          ]}
        />
      </Section>
      {pay && (
        <Section title="Employees out of band" id="out-of-band-heading">
          {outOfBand.length === 0 ? (
            <Empty title="Everyone is inside their band" compact headingLevel={3}>
              Nobody you can see is paid below the minimum or above the maximum of their band.
            </Empty>
          ) : (
            <DataTable
              caption="Employees paid below the minimum or above the maximum of their band"
              captionHidden
              cardsOnPhone
              rows={outOfBand}
              rowKey={(employee) => employee.employeeId}
              rowAttributes={(employee) => ({ 'data-employee-id': employee.employeeId })}
              columns={[
                { key: 'name', header: 'Employee', rowHeader: true, cell: (employee) => employee.name },
                {
                  key: 'band',
                  header: 'Band',
                  cell: (employee) => {
                    const row = rowOfBand.get(employee.bandId);
                    return row ? `${row.job.title} · ${row.zone.name}` : (bandById.get(employee.bandId)?.levelId ?? '');
                  },
                },
                { key: 'base', header: 'Base', numeric: true, cell: (employee) => formatMoney(employee.base) },
                { key: 'compa', header: 'Compa-ratio', numeric: true, cell: (employee) => formatRatio(employee.compaRatio) },
                { key: 'penetration', header: 'Range penetration', numeric: true, cell: (employee) => formatShare(employee.rangePenetration) },
                {
                  key: 'position',
                  header: 'Position',
                  cell: (employee) => (employee.position ? <Badge tone={employee.position === 'below' ? 'danger' : 'warning'}>{POSITION[employee.position]}</Badge> : '—'),
                },
              ]}
            />
          )}
          {result.employees.some((employee) => employee.unpricedReason) && (
            <p className="bands-muted">
              Not measured for want of pay figures: {result.employees.filter((employee) => employee.unpricedReason).length} (
              {[...new Set(result.employees.flatMap((employee) => (employee.unpricedReason ? [employee.unpricedReason] : [])))].join(', ')}).
            </p>
          )}
          {result.exchangeRates.length > 0 && (
            <p className="bands-muted">
              <span data-testid="evaluation-rate-source">{result.rateSource.label}</span> {result.exchangeRates.map((rate) => `1 ${rate.base} = ${rate.rate} ${rate.currency}`).join(', ')}.
            </p>
          )}
        </Section>
      )}
      {unplaced > 0 && (
        <p className="bands-muted">
          {formatNumber(unplaced)} active employees are in no band. <Link href="/bands/jobs">See who, and why, under job architecture</Link>.
        </p>
      )}
    </div>
  );
}

/** The people out of band, team by team (department or manager): where to look first. */
function OutOfBandByTeam({ outOfBand, onGroupBy }: { outOfBand: BandEvaluation['outOfBand']; onGroupBy: (groupBy: TeamGrouping) => void }) {
  const teams = outOfBand.teams.filter((team) => team.employees.length > 0);
  return (
    <Section title="Out of band by team" id="out-of-band-by-team-heading">
      <label className="bands-inline-field">
        Group by{' '}
        <select value={outOfBand.groupBy} onChange={(event) => onGroupBy(event.target.value === 'manager' ? 'manager' : 'department')}>
          <option value="department">Department</option>
          <option value="manager">Manager</option>
        </select>
      </label>
      {teams.length === 0 ? (
        <Empty title="No team has anyone out of band" compact headingLevel={3}>
          Everyone you can see is paid within their band.
        </Empty>
      ) : (
        <DataTable
          caption={`Employees out of band by ${outOfBand.groupBy}`}
          captionHidden
          cardsOnPhone
          rows={teams}
          rowKey={(team: TeamEntry) => team.key ?? '—'}
          rowAttributes={(team: TeamEntry) => ({ 'data-team': team.name })}
          columns={[
            { key: 'team', header: outOfBand.groupBy === 'manager' ? 'Manager' : 'Department', rowHeader: true, cell: (team: TeamEntry) => team.name },
            { key: 'measured', header: 'Measured', numeric: true, cell: (team: TeamEntry) => formatNumber(team.pricedCount) },
            { key: 'below', header: 'Below', numeric: true, cell: (team: TeamEntry) => formatNumber(team.belowCount) },
            { key: 'above', header: 'Above', numeric: true, cell: (team: TeamEntry) => formatNumber(team.aboveCount) },
            {
              key: 'who',
              header: 'Out of band',
              cell: (team: TeamEntry) => team.employees.map((employee) => `${employee.name} (${POSITION[employee.position].toLowerCase()}, ${formatRatio(employee.compaRatio)})`).join('; '),
            },
          ]}
        />
      )}
    </Section>
  );
}
