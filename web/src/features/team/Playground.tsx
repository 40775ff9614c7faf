import { ChartColumn } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import { useQuery } from '../../api/client';
import { BarChart, type ColourGroup, NEUTRAL, type Unit, colourOf } from '../../ui/charts';
import { type Column, DataTable } from '../../ui/DataTable';
import { SkeletonChart } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { type Schemas, TeamPage, formatMoney, formatNumber, formatRatio, usePermissions } from './common';

type Dimension = Schemas['TeamDimension'];
type Metric = Schemas['TeamMetric'];
type PlaygroundRow = Schemas['TeamPlayground']['rows'][number];

const DIMENSIONS: { id: Dimension; label: string; demographic?: boolean; pay?: boolean }[] = [
  { id: 'department', label: 'Department' },
  { id: 'level', label: 'Level' },
  { id: 'track', label: 'Track' },
  { id: 'jobFamily', label: 'Job family' },
  { id: 'location', label: 'Location' },
  { id: 'country', label: 'Country' },
  { id: 'manager', label: 'Manager' },
  { id: 'employmentType', label: 'Employment type' },
  { id: 'status', label: 'Status' },
  { id: 'startYear', label: 'Start year' },
  { id: 'performanceRating', label: 'Performance rating', pay: true },
  { id: 'gender', label: 'Gender', demographic: true },
  { id: 'ethnicity', label: 'Ethnicity', demographic: true },
  { id: 'ageBand', label: 'Age band', demographic: true },
];

/** Each measure, and the compensation colour group its chart is drawn in (counts in the neutral accent). */
const METRICS: { id: Metric; label: string; pay?: boolean; group?: ColourGroup }[] = [
  { id: 'headcount', label: 'Headcount' },
  { id: 'averageTenureMonths', label: 'Average tenure (months)' },
  { id: 'averageBase', label: 'Average base salary', pay: true, group: 'base' },
  { id: 'medianBase', label: 'Median base salary', pay: true, group: 'base' },
  { id: 'totalBase', label: 'Total base salary', pay: true, group: 'base' },
  { id: 'averageTotalCash', label: 'Average total cash', pay: true, group: 'total_cash' },
  { id: 'medianTotalCash', label: 'Median total cash', pay: true, group: 'total_cash' },
  { id: 'averageCompaRatio', label: 'Average compa-ratio', pay: true, group: 'base' },
  { id: 'totalGrantedShares', label: 'Granted shares', pay: true, group: 'future.equity' },
];

function unitOf(result: Schemas['TeamPlayground']): Unit {
  if (result.unit === 'money' && result.currency) return { kind: 'money', currency: result.currency };
  if (result.unit === 'ratio') return { kind: 'ratio' };
  if (result.unit === 'months') return { kind: 'number', digits: 1 };
  return { kind: 'count' };
}

function formatValue(result: Schemas['TeamPlayground'], row: PlaygroundRow): string {
  if (row.value === null) return '—';
  if (result.unit === 'money') return row.money ? formatMoney(row.money) : formatNumber(row.value);
  if (result.unit === 'ratio') return formatRatio(row.value);
  return formatNumber(row.value, result.unit === 'months' ? 1 : 0);
}

/** /team/analytics/playground: pick what to group by (one or two fields) and what to measure. */
export function TeamPlaygroundScreen() {
  const can = usePermissions();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const dimensions = DIMENSIONS.filter((d) => (can.demographics || !d.demographic) && (can.pay || !d.pay));
  const metrics = METRICS.filter((m) => can.pay || !m.pay);
  const first = dimensions.find((d) => d.id === params.get('groupBy'))?.id ?? 'department';
  const second = dimensions.find((d) => d.id === params.get('thenBy') && d.id !== first)?.id;
  const metric = metrics.find((m) => m.id === params.get('metric'))?.id ?? 'headcount';
  function set(name: string, value: string) {
    const next = new URLSearchParams(window.location.search);
    if (value) next.set(name, value);
    else next.delete(name);
    navigate(`${location}?${next.toString()}`, { replace: true });
  }
  const groupBy = second ? [first, second] : [first];
  const { data, error, mutate } = useQuery('/api/team/analytics/playground', { params: { query: { groupBy, metric } } });
  return (
    <TeamPage title="Playground">
      <div className="team-filters playground">
        <label>
          Group by
        <select value={first} onChange={(event) => set('groupBy', event.target.value)}>
          {dimensions.map((d) => (
            <option key={d.id} value={d.id}>
              {d.label}
            </option>
          ))}
        </select>
        </label>
        <label>
          Then by
        <select value={second ?? ''} onChange={(event) => set('thenBy', event.target.value)}>
          <option value="">Nothing</option>
          {dimensions
            .filter((d) => d.id !== first)
            .map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
        </select>
        </label>
        <label>
          Measure
        <select value={metric} onChange={(event) => set('metric', event.target.value)}>
          {metrics.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
        </label>
      </div>
      <Loaded data={data?.data} error={error} retry={() => void mutate()} skeleton={<SkeletonChart label="Loading the result" />}>
        {(result) =>
          result.rows.length === 0 ? (
            <Empty title="Nothing to show" icon={ChartColumn}>
              {result.hiddenGroups > 0 ? 'Every group is smaller than the minimum size and hidden: group by something broader.' : 'There is no one in your team yet.'}
            </Empty>
          ) : (
            <section className="team-section" aria-label="Result">
              <BarChart
                title={`${METRICS.find((m) => m.id === metric)?.label ?? metric} by ${groupBy.map((dimension) => DIMENSIONS.find((d) => d.id === dimension)?.label ?? dimension).join(' and ')}`}
                data={result.rows.slice(0, 30).map((row) => ({ group: row.keys.map((key) => key.label).join(' · '), value: row.value }))}
                categoryKey="group"
                categoryLabel={groupBy.map((dimension) => DIMENSIONS.find((d) => d.id === dimension)?.label ?? dimension).join(' · ')}
                series={[{ key: 'value', label: METRICS.find((m) => m.id === metric)?.label ?? metric, colour: (() => { const group = METRICS.find((m) => m.id === metric)?.group; return group ? colourOf(group) : NEUTRAL; })() }]}
                unit={unitOf(result)}
              />
              <DataTable
                className="table-scroll compact"
                regionLabel="Result table"
                caption="Result table"
                captionHidden
                rows={result.rows}
                rowKey={(row) => row.keys.map((key) => key.id ?? '∅').join('|')}
                columns={[
                  ...groupBy.map((dimension, index): Column<PlaygroundRow> => ({
                    key: dimension,
                    header: DIMENSIONS.find((d) => d.id === dimension)?.label,
                    cell: (row) => row.keys[index]?.label,
                  })),
                  { key: 'people', header: 'People', numeric: true, cell: (row) => row.count },
                  ...(metric !== 'headcount'
                    ? [{ key: 'value', header: METRICS.find((m) => m.id === metric)?.label, numeric: true, cell: (row: PlaygroundRow) => formatValue(result, row) }]
                    : []),
                ]}
              />
              {result.hiddenGroups > 0 && (
                <p className="team-muted">
                  {result.hiddenGroups} group{result.hiddenGroups === 1 ? '' : 's'} of fewer than {result.minimumGroupSize} people hidden.
                </p>
              )}
              {result.currency && <p className="team-muted">Amounts in {result.currency}.</p>}
            </section>
          )
        }
      </Loaded>
    </TeamPage>
  );
}
