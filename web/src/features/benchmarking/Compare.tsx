import { useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { errorMessage, useQuery } from '../../api/client';
import { usePostQuery } from '../../api/queries';
import { BarChart, NEUTRAL, type Unit, colourOf, groupOf, shadeOpacity } from '../../ui/charts';
import { FullSizeSpinner } from '../../ui/Spinner';
import { formatValue, useBenchmarkingCatalog } from './data';
import { BenchmarkingFrame } from './Frame';
import { DataSource } from './ResultsTable';
import { type BenchmarkCell, toRequest, validateSelection } from './selection';
import { useLastSelection } from './useSelection';
import './benchmarking.css';

type CompareRequest = components['schemas']['CompareRequest'];
type CompareResult = components['schemas']['CompareResult'];
type CompareRow = components['schemas']['CompareRow'];

const CURRENT = 'current';

/** The percentiles shown first: the quartiles the answer holds, else its first. */
function initialPercentiles(available: readonly number[]): number[] {
  const quartiles = available.filter((p) => p === 25 || p === 50 || p === 75);
  return quartiles.length > 0 ? quartiles : available.slice(0, 1);
}

/** A published cell's value at a percentile, or undefined when withheld or not asked. */
function valueAt(cell: BenchmarkCell | null | undefined, percentile: number): number | undefined {
  if (!cell || cell.status !== 'published') return undefined;
  return cell.percentiles?.find((entry) => entry.percentile === percentile)?.value;
}

export interface Difference {
  amount: number;
  /** Relative to the first column, in percent; null when the first is zero. */
  percent: number | null;
}

/**
 * How far a column is from the first one at a percentile: both published, in the same unit and
 * currency. Amounts in two currencies (local currency, two countries) have no difference.
 */
export function differenceOf(first: BenchmarkCell | null | undefined, other: BenchmarkCell | null | undefined, percentile: number): Difference | 'not comparable' | undefined {
  const a = valueAt(first, percentile);
  const b = valueAt(other, percentile);
  if (a === undefined || b === undefined || !first || !other) return undefined;
  if (first.unit !== other.unit || first.currency !== other.currency) return 'not comparable';
  return { amount: b - a, percent: a === 0 ? null : ((b - a) / a) * 100 };
}

function signed(text: string, value: number): string {
  return value > 0 ? `+${text}` : value < 0 ? `−${text.replace('-', '')}` : text;
}

function DifferenceCell({ first, other, percentile, label }: { first: BenchmarkCell | null | undefined; other: BenchmarkCell | null | undefined; percentile: number; label: string }) {
  const difference = differenceOf(first, other, percentile);
  if (difference === undefined)
    return (
      <td className="muted difference" data-label={label}>
        —
      </td>
    );
  if (difference === 'not comparable')
    return (
      <td className="muted difference" data-label={label}>
        Different currencies
      </td>
    );
  const unit = other?.unit ?? 'currency';
  const amount = signed(formatValue(Math.abs(difference.amount), unit, other?.currency ?? null), difference.amount);
  return (
    <td className={`number difference ${difference.amount > 0 ? 'up' : difference.amount < 0 ? 'down' : ''}`} data-difference={difference.amount} data-label={label}>
      {amount}
      {difference.percent !== null && <span className="sample-line">{signed(`${Math.abs(difference.percent).toFixed(1)}%`, difference.percent)}</span>}
    </td>
  );
}

const rowKey = (row: CompareRow) => `${row.jobFamilyId}|${row.levelId}|${row.compensationTypeId}|${row.equityOption ? Object.values(row.equityOption).join('/') : ''}`;

function CompareTable({ result, name, percentiles }: { result: CompareResult; name: (id: string) => string; percentiles: number[] }) {
  const columnLabel = (index: number) => {
    const column = result.columns[index];
    if (!column) return '';
    return `${column.label}${result.columns.filter((other) => other.queryIndex === column.queryIndex).length > 1 ? ` · market ${column.marketFilterIndex + 1}` : ''}`;
  };
  const first = columnLabel(0);
  const differenceLabel = (index: number) => `${columnLabel(index)} − ${first}`;
  return (
    <div className="table-scroll">
      <table className="compare-table">
        <caption className="visually-hidden">Comparison at {percentiles.map((p) => `P${p}`).join(', ')}, with the difference from {first}</caption>
        <thead>
          <tr>
            <th scope="col">Job family</th>
            <th scope="col">Level</th>
            <th scope="col">Compensation</th>
            <th scope="col">Percentile</th>
            {result.columns.map((column, index) => (
              <th scope="col" key={`${column.queryIndex}|${column.marketFilterIndex}`} className="number">
                {columnLabel(index)}
              </th>
            ))}
            {result.columns.slice(1).map((column, offset) => (
              <th scope="col" key={`difference|${column.queryIndex}|${column.marketFilterIndex}`} className="number">
                {result.columns.length > 2 ? `Difference: ${differenceLabel(offset + 1)}` : 'Difference'}
                <span className="sample-line">from {first}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.flatMap((row) =>
            percentiles.map((percentile) => (
              <tr key={`${rowKey(row)}|${percentile}`} data-row={`${row.jobFamilyId}|${row.levelId}|${row.compensationTypeId}`} data-percentile={percentile}>
                <th scope="row">{name(row.jobFamilyId)}</th>
                <td data-label="Level">{name(row.levelId)}</td>
                <td data-label="Compensation">{name(row.compensationTypeId)}</td>
                <td data-label="Percentile">P{percentile}</td>
                {row.cells.map((cell, index) => {
                  const label = columnLabel(index);
                  if (!cell)
                    return (
                      <td key={index} className="muted" data-label={label}>
                        Not asked
                      </td>
                    );
                  const value = valueAt(cell, percentile);
                  if (cell.status !== 'published' || value === undefined) {
                    return (
                      <td key={index} className="insufficient" data-label={label}>
                        <strong>{cell.label ?? 'Insufficient data'}</strong>
                        {cell.insufficientReason && <span className="reason">{cell.insufficientReason}</span>}
                      </td>
                    );
                  }
                  return (
                    <td key={index} className="number" data-value={value} data-label={label}>
                      {formatValue(value, cell.unit, cell.currency)}
                      <span className="sample-line">
                        {cell.sample.companyBucket.label} cos · {cell.consistency?.consistencyLabel ?? '—'}
                      </span>
                      <DataSource share={cell.syntheticShare} />
                    </td>
                  );
                })}
                {row.cells.slice(1).map((cell, offset) => (
                  <DifferenceCell key={`difference|${offset}`} first={row.cells[0]} other={cell} percentile={percentile} label={result.columns.length > 2 ? `Difference: ${differenceLabel(offset + 1)}` : 'Difference'} />
                ))}
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The comparison as bars: each row and percentile a category, each query a series; only in one currency. */
function CompareChart({ result, name, percentiles }: { result: CompareResult; name: (id: string) => string; percentiles: number[] }) {
  const cells = result.rows.flatMap((row) => row.cells.filter((cell): cell is BenchmarkCell => cell !== null && cell.status === 'published'));
  const units = new Set(cells.map((cell) => `${cell.unit}|${cell.currency ?? ''}`));
  const compTypes = new Set(result.rows.map((row) => row.compensationTypeId));
  if (cells.length === 0) return <p className="muted">Nothing to chart: every cell is withheld (Insufficient data).</p>;
  if (units.size > 1) return <p className="muted">The chart needs one currency and unit: compare in US dollars to chart these queries.</p>;
  const sample = cells[0];
  const unit: Unit = sample?.unit === 'percent' ? { kind: 'percent' } : sample?.currency ? { kind: 'money', currency: sample.currency } : { kind: 'number', digits: 0 };
  const oneComp = compTypes.size === 1 ? [...compTypes][0] : undefined;
  const colour = oneComp ? colourOf(groupOf(oneComp)) : NEUTRAL;
  const series = result.columns.map((column, index) => ({ key: `c${index}`, label: column.label + (result.columns.filter((other) => other.queryIndex === column.queryIndex).length > 1 ? ` · market ${column.marketFilterIndex + 1}` : ''), colour, opacity: shadeOpacity(index, result.columns.length) }));
  const data = result.rows.flatMap((row) =>
    percentiles.map((percentile) => ({
      category: [name(row.jobFamilyId), name(row.levelId), oneComp ? '' : name(row.compensationTypeId), percentiles.length > 1 ? `P${percentile}` : ''].filter(Boolean).join(' · '),
      ...Object.fromEntries(row.cells.map((cell, index) => [`c${index}`, valueAt(cell, percentile) ?? null])),
    })),
  );
  return (
    <BarChart
      className="chart"
      title={`Comparison of ${series.map((item) => item.label).join(', ')} at ${percentiles.map((p) => `P${p}`).join(', ')}`}
      data={data}
      categoryKey="category"
      categoryLabel="Job family · level · percentile"
      series={series}
      unit={unit}
      orientation={data.length > 6 ? 'rows' : 'auto'}
    />
  );
}

function ComparePercentiles({ result, name }: { result: CompareResult; name: (id: string) => string }) {
  const [percentiles, setPercentiles] = useState<number[]>(() => initialPercentiles(result.percentiles));
  const shown = result.percentiles.filter((p) => percentiles.includes(p));
  const toggle = (p: number) => setPercentiles((list) => (list.includes(p) ? (list.length > 1 ? list.filter((entry) => entry !== p) : list) : [...list, p]));
  return (
    <>
      <fieldset className="check-group">
        <legend>Percentiles</legend>
        <div className="pills">
          {result.percentiles.map((p) => (
            <label key={p} className={shown.includes(p) ? 'pill checked' : 'pill'}>
              <input type="checkbox" checked={shown.includes(p)} onChange={() => toggle(p)} />
              <span>P{p}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <CompareTable result={result} name={name} percentiles={shown} />
      {result.columns.length > 0 && (
        <section className="card chart-card" aria-labelledby="compare-chart-heading">
          <h2 id="compare-chart-heading">Chart</h2>
          <CompareChart result={result} name={name} percentiles={shown} />
        </section>
      )}
    </>
  );
}

/** /benchmarkingsurvey/compare: two to four queries — saved reports or the explorer's current one — side by side. */
export function CompareScreen() {
  const { filters, name } = useBenchmarkingCatalog();
  const selection = useLastSelection(filters);
  const saved = useQuery('/api/benchmarking/saved-queries');
  const [chosen, setChosen] = useState<string[]>([]);
  const [currency, setCurrency] = useState<'local' | 'USD'>('USD');
  const currentUsable = Boolean(filters && selection && validateSelection(selection, filters).length === 0);
  const queries: CompareRequest['queries'] = chosen.flatMap((id): CompareRequest['queries'] => {
    if (id === CURRENT) return filters && selection && currentUsable ? [{ label: 'Current explorer query', request: toRequest(selection, filters) }] : [];
    const query = saved.data?.data.find((entry) => entry.id === id);
    return query ? [{ label: query.name, savedQueryId: query.id }] : [];
  });
  const ready = queries.length >= 2 && queries.length <= 4;
  const body: CompareRequest | null = ready ? { queries, currency } : null;
  const compared = usePostQuery('/api/benchmarking/compare', body);
  const result = { data: compared.data?.data, error: compared.error };
  const options = [
    ...(currentUsable ? [{ id: CURRENT, label: 'Current explorer query' }] : []),
    ...(saved.data?.data.map((query) => ({ id: query.id, label: query.name })) ?? []),
  ];
  const toggle = (id: string) => setChosen((list) => (list.includes(id) ? list.filter((entry) => entry !== id) : list.length >= 4 ? list : [...list, id]));
  return (
    <BenchmarkingFrame>
      <h1>Compare</h1>
      <p className="lede">Choose two to four queries; the same job family, level and compensation type line up in one row.</p>
      {saved.error && <p role="alert">{errorMessage(saved.error)}</p>}
      {options.length < 2 && saved.data && (
        <p className="muted">
          Comparing needs at least two queries: run one in the <Link href="/benchmarkingsurvey/data-explorer">data explorer</Link> and save reports under{' '}
          <Link href="/market-data-reports">Reports</Link>.
        </p>
      )}
      <fieldset className="check-group">
        <legend>Queries ({chosen.length} of at most 4)</legend>
        <div className="pills">
          {options.map((option) => (
            <label key={option.id} className={chosen.includes(option.id) ? 'pill checked' : 'pill'}>
              <input type="checkbox" checked={chosen.includes(option.id)} onChange={() => toggle(option.id)} />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="check-group">
        <legend>Currency</legend>
        <div className="pills">
          {(['USD', 'local'] as const).map((option) => (
            <label key={option} className={currency === option ? 'pill checked' : 'pill'}>
              <input type="radio" name="compare-currency" checked={currency === option} onChange={() => setCurrency(option)} />
              <span>{option === 'USD' ? 'US dollars' : 'Local currency'}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {result.error && <p role="alert">{errorMessage(result.error)}</p>}
      {body && !result.data && !result.error && <FullSizeSpinner loading label="Comparing" />}
      {result.data && (
        <section aria-label="Comparison">
          <p className="muted">Market release {result.data.releaseVersion}.</p>
          <ComparePercentiles key={result.data.percentiles.join(',')} result={result.data} name={name} />
        </section>
      )}
    </BenchmarkingFrame>
  );
}
