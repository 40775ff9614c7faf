import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'wouter';
import type { components } from '../../../../openapi.d.ts';
import { errorMessage, useQuery } from '../../api/client';
import { usePostQuery } from '../../api/queries';
import { FullSizeSpinner } from '../../ui/Spinner';
import { formatValue, useBenchmarkingCatalog } from './data';
import { BenchmarkingFrame } from './Frame';
import { DataSource } from './ResultsTable';
import { toRequest, validateSelection } from './selection';
import { selectionAtom } from './selectionAtom';
import './benchmarking.css';

type CompareRequest = components['schemas']['CompareRequest'];
type CompareResult = components['schemas']['CompareResult'];

const CURRENT = 'current';

function CompareTable({ result, name }: { result: CompareResult; name: (id: string) => string }) {
  const [percentile, setPercentile] = useState<number>(result.percentiles.includes(50) ? 50 : (result.percentiles[0] ?? 50));
  const columnLabel = (index: number) => {
    const column = result.columns[index];
    if (!column) return '';
    return `${column.label}${result.columns.filter((other) => other.queryIndex === column.queryIndex).length > 1 ? ` · market ${column.marketFilterIndex + 1}` : ''}`;
  };
  return (
    <>
      <label className="inline-label">
        Percentile
        <select value={percentile} onChange={(event) => setPercentile(Number(event.target.value))}>
          {result.percentiles.map((p) => (
            <option key={p} value={p}>
              P{p}
            </option>
          ))}
        </select>
      </label>
      <div className="table-scroll">
        <table className="compare-table">
          <caption className="visually-hidden">Comparison at P{percentile}</caption>
          <thead>
            <tr>
              <th scope="col">Job family</th>
              <th scope="col">Level</th>
              <th scope="col">Compensation</th>
              {result.columns.map((column, index) => (
                <th scope="col" key={`${column.queryIndex}|${column.marketFilterIndex}`} className="number">
                  {columnLabel(index)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.rows.map((row) => (
              <tr
                key={`${row.jobFamilyId}|${row.levelId}|${row.compensationTypeId}|${row.equityOption ? Object.values(row.equityOption).join('/') : ''}`}
                data-row={`${row.jobFamilyId}|${row.levelId}|${row.compensationTypeId}`}
              >
                <th scope="row">{name(row.jobFamilyId)}</th>
                <td data-label="Level">{name(row.levelId)}</td>
                <td data-label="Compensation">{name(row.compensationTypeId)}</td>
                {row.cells.map((cell, index) => {
                  const label = columnLabel(index);
                  if (!cell)
                    return (
                      <td key={index} className="muted" data-label={label}>
                        Not asked
                      </td>
                    );
                  const value = cell.percentiles?.find((entry) => entry.percentile === percentile)?.value;
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
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** /benchmarkingsurvey/compare: two to four queries — saved reports or the explorer's current one — side by side. */
export function CompareScreen() {
  const { filters, name } = useBenchmarkingCatalog();
  const selection = useAtomValue(selectionAtom);
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
          <CompareTable result={result.data} name={name} />
        </section>
      )}
    </BenchmarkingFrame>
  );
}
