import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { formatDate, formatNumber } from '../../ui/format';
import { BELOW_THRESHOLD, formatValue, sampleText } from './data';
import type { BenchmarkCell, BenchmarkResult } from './selection';
import type { components } from '../../../../openapi.d.ts';
import './benchmarking.css';

type ExecutiveCompResult = components['schemas']['ExecutiveCompResult'];

export const cellKey = (cell: BenchmarkCell) =>
  [cell.jobFamilyId, cell.levelId, cell.compensationTypeId, cell.marketFilterIndex, cell.equityOption ? Object.values(cell.equityOption).join('/') : ''].join('|');

/** A withheld cell says so and states the privacy rule, the same words whichever part of it failed. */
export function PercentileCells({ cell, percentiles }: { cell: BenchmarkCell; percentiles: readonly number[] }) {
  if (cell.status !== 'published' || !cell.percentiles) {
    return (
      <td colSpan={percentiles.length} className="insufficient" data-status={cell.status} data-label="Percentiles">
        <strong>{cell.label ?? 'Insufficient data'}</strong>
        {cell.insufficientReason && <span className="reason">{cell.insufficientReason}</span>}
      </td>
    );
  }
  const values = new Map<number, number>(cell.percentiles.map((entry) => [entry.percentile, entry.value]));
  return (
    <>
      {percentiles.map((p) => {
        const value = values.get(p);
        return (
          <td key={p} className="number" data-percentile={p} data-value={value} data-label={`P${p}`}>
            {value === undefined ? '—' : formatValue(value, cell.unit, cell.currency)}
          </td>
        );
      })}
    </>
  );
}

/** The results as a table: one row per cell, withheld cells saying so; virtualised past 150 rows. */
export function ResultsTable({ result, name, marketLabel }: { result: BenchmarkResult; name: (id: string) => string; marketLabel: (index: number) => string }) {
  const rows = result.cells;
  const showMarket = new Set(rows.map((cell) => cell.marketFilterIndex)).size > 1;
  const showEquity = rows.some((cell) => cell.equityOption);
  const scroller = useRef<HTMLDivElement>(null);
  // Thousands of cells stay smooth: only the rows in view are in the page.
  const virtual = rows.length > 150;
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 45, overscan: 12, enabled: virtual });
  const items = virtual ? virtualizer.getVirtualItems() : rows.map((_, index) => ({ index, start: 0, end: 0, key: index }));
  const padTop = virtual && items.length ? (items[0]?.start ?? 0) : 0;
  const padBottom = virtual && items.length ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const columns = 6 + result.percentiles.length + (showEquity ? 1 : 0);
  return (
    <div className={virtual ? 'table-scroll results-scroll virtual' : 'table-scroll results-scroll'} ref={scroller} tabIndex={0} aria-label="Benchmark results table">
      <table className="results-table">
        <caption className="visually-hidden">Market percentiles by job family, level, market and compensation type</caption>
        <thead>
          <tr>
            <th scope="col" className="col-family">
              Job family
            </th>
            <th scope="col" className="col-level">
              Level
            </th>
            <th scope="col" className="col-market">
              {showMarket ? 'Market' : 'Location'}
            </th>
            <th scope="col" className="col-comp">
              Compensation
            </th>
            {result.percentiles.map((p) => (
              <th scope="col" key={p} className="number">
                P{p}
              </th>
            ))}
            <th scope="col" className="col-sample">
              Sample
            </th>
            <th scope="col" className="col-consistency">
              Consistency
            </th>
            {showEquity && <th scope="col">Equity option</th>}
          </tr>
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns} style={{ height: padTop, padding: 0 }} />
            </tr>
          )}
          {items.map((item) => {
            const cell = rows[item.index];
            if (!cell) return null;
            return (
              <tr key={cellKey(cell)} data-row={cellKey(cell)} data-family={cell.jobFamilyId} data-level={cell.levelId} data-comp-type={cell.compensationTypeId}>
                <th scope="row" className="col-family">
                  {name(cell.jobFamilyId)}
                </th>
                <td data-label="Level" className="col-level">
                  {name(cell.levelId)}
                </td>
                <td data-label={showMarket ? 'Market' : 'Location'} className="col-market">
                  {marketLabel(cell.marketFilterIndex)}
                </td>
                <td data-label="Compensation" className="col-comp">
                  {name(cell.compensationTypeId)}
                  {cell.currency && cell.unit === 'currency' && <span className="muted small-text"> {cell.currency}</span>}
                </td>
                <PercentileCells cell={cell} percentiles={result.percentiles} />
                <td className="sample-cell col-sample" data-label="Sample">
                  {cell.sample.companyBucket.id === BELOW_THRESHOLD ? (
                    sampleText(cell.sample)
                  ) : (
                    <>
                      {cell.sample.companyBucket.label} companies
                      <br />
                      {cell.sample.employeeBucket.label} employees
                    </>
                  )}
                  <DataSource share={cell.syntheticShare} />
                </td>
                <td data-label="Consistency" className="col-consistency">
                  <Consistency cell={cell} />
                </td>
                {showEquity && <td data-label="Equity option">{cell.equityOption ? Object.values(cell.equityOption).map(name).join(' · ') : '—'}</td>}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={columns} style={{ height: padBottom, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Generated demo records are never shown as real: a cell made of them, or partly, says so. */
export function DataSource({ share }: { share: number | null }) {
  if (share === null || share === 0) return null;
  const text = share === 1 ? 'Demo data' : `Mixed: ${formatNumber(share * 100, 0)}% demo`;
  return (
    <>
      <br />
      <span className="badge demo-data" data-synthetic-share={share} title="Generated records calibrated to public wage statistics, not any company’s pay">
        {text}
      </span>
    </>
  );
}

/** The label, and the measured error it stands on: the median's 95% interval, as ± and in the tooltip. */
function Consistency({ cell }: { cell: BenchmarkCell }) {
  if (!cell.consistency) return <>—</>;
  const interval = cell.medianUncertainty;
  const error = interval?.relativeError ?? null;
  const title = interval ? `95% interval of the median: ${formatValue(interval.lower, cell.unit, cell.currency)} to ${formatValue(interval.upper, cell.unit, cell.currency)}` : undefined;
  return (
    <span title={title}>
      <span className={`consistency level-${cell.consistency.consistencyLevel}`}>{cell.consistency.consistencyLabel}</span>
      {error !== null && <span className="muted small-text consistency-error"> ±{formatNumber(error * 100, 1)}%</span>}
    </span>
  );
}

/** Which reference rates converted the answer, and their date; a warning when they are old. */
export function ExchangeRatesNote({ result }: { result: BenchmarkResult }) {
  if (!result.exchangeRates.length) return null;
  const dates = [...new Set(result.exchangeRates.map((rate) => rate.date))].sort();
  const quoted = result.exchangeRates.filter((rate) => rate.currency !== 'USD').map((rate) => `1 USD = ${formatNumber(rate.perUsd, 4)} ${rate.currency}`);
  return (
    <p className={result.exchangeRatesStale ? 'rates-note stale' : 'rates-note muted small-text'} data-testid="exchange-rates" role={result.exchangeRatesStale ? 'status' : undefined}>
      Converted through US dollars with the ECB euro reference rates of {dates.map(formatDate).join(' and ')}
      {quoted.length ? `: ${quoted.join(', ')}` : ''}.
      {result.exchangeRatesStale && ' These rates are more than 30 days old; an internal admin can load newer ECB rates with paybench rates import.'}
    </p>
  );
}

/** Executive compensation by title, one row per title and compensation type, withheld cells saying so. */
export function ExecutiveResultsTable({ result, name }: { result: ExecutiveCompResult; name: (id: string) => string }) {
  return (
    <div className="table-scroll">
      <table className="results-table">
        <caption className="visually-hidden">Executive compensation by title</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Compensation</th>
            {result.percentiles.map((p) => (
              <th scope="col" key={p} className="number">
                P{p}
              </th>
            ))}
            <th scope="col">Sample</th>
          </tr>
        </thead>
        <tbody>
          {result.rows.flatMap((row) =>
            row.cells.map((cell) => (
              <tr key={`${row.titleId}|${cell.compensationTypeId}|${cell.marketFilterIndex}`} data-row={`${row.titleId}|${cell.compensationTypeId}`}>
                <th scope="row">{row.title}</th>
                <td data-label="Compensation">{name(cell.compensationTypeId)}</td>
                <PercentileCells cell={cell} percentiles={result.percentiles} />
                <td className="sample-cell" data-label="Sample">
                  {sampleText(cell.sample)}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}
