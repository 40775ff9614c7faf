import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { errorMessage } from '../../api/client';
import { BarChart, type Unit, colourOf, groupOf, shadeOpacity } from '../../ui/charts';
import { SkeletonTable } from '../../ui/Skeleton';
import { useBenchmark, useBenchmarkingCatalog } from './data';
import { marketLabeller } from './markets';
import { BenchmarkingFrame, ExplorerSteps } from './Frame';
import { ExchangeRatesNote, ResultsTable } from './ResultsTable';
import { SaveAndShare } from './Saving';
import { type BenchmarkResult, toRequest, validateSelection } from './selection';
import { useSelection } from './useSelection';
import './benchmarking.css';

/**
 * One chart per compensation type and market: the percentiles of every family × level side by side,
 * in the compensation type's colour group, lighter for the lower percentiles.
 */
function ResultsChart({ result, name, marketLabel }: { result: BenchmarkResult; name: (id: string) => string; marketLabel: (index: number) => string }) {
  const series = useMemo(() => {
    const keys = new Map<string, { compType: string; market: number; equity: string }>();
    for (const cell of result.cells) {
      const equity = cell.equityOption ? Object.values(cell.equityOption).join('/') : '';
      keys.set(`${cell.compensationTypeId}|${cell.marketFilterIndex}|${equity}`, { compType: cell.compensationTypeId, market: cell.marketFilterIndex, equity });
    }
    return [...keys.entries()];
  }, [result]);
  const [chosen, setChosen] = useState(series[0]?.[0] ?? '');
  const current = series.find(([key]) => key === chosen) ?? series[0];
  if (!current) return null;
  const [, which] = current;
  const cells = result.cells.filter(
    (cell) => cell.compensationTypeId === which.compType && cell.marketFilterIndex === which.market && (cell.equityOption ? Object.values(cell.equityOption).join('/') : '') === which.equity,
  );
  const published = cells.filter((cell) => cell.status === 'published' && cell.percentiles);
  const withheld = cells.length - published.length;
  const unit = published[0]?.unit ?? 'currency';
  const currency = published[0]?.currency ?? null;
  const oneFamily = new Set(published.map((cell) => cell.jobFamilyId)).size === 1;
  const data = published.map((cell) => ({
    name: oneFamily ? name(cell.levelId) : `${name(cell.jobFamilyId)} · ${name(cell.levelId)}`,
    ...Object.fromEntries((cell.percentiles ?? []).map((entry) => [`P${entry.percentile}`, entry.value])),
  }));
  const describe = (key: string) => {
    const info = series.find(([k]) => k === key)?.[1];
    if (!info) return key;
    return [name(info.compType), new Set(series.map(([, s]) => s.market)).size > 1 ? marketLabel(info.market) : '', info.equity.split('/').filter(Boolean).map(name).join(' · ')].filter(Boolean).join(' — ');
  };
  return (
    <section className="card chart-card" aria-labelledby="chart-heading">
      <header className="section-head">
        <h2 id="chart-heading">Chart{oneFamily && published[0] ? `: ${name(published[0].jobFamilyId)}` : ''}</h2>
        {series.length > 1 && (
          <label className="inline-label">
            Show
            <select value={current[0]} onChange={(event) => setChosen(event.target.value)}>
              {series.map(([key]) => (
                <option key={key} value={key}>
                  {describe(key)}
                </option>
              ))}
            </select>
          </label>
        )}
      </header>
      {data.length === 0 ? (
        <p className="muted">Every cell of {describe(current[0])} is withheld: Insufficient data.</p>
      ) : (
        <BarChart
          className="chart"
          title={`${describe(current[0])}: percentiles ${result.percentiles.map((p) => `P${p}`).join(', ')} for ${data.length} job family and level combinations`}
          data={data}
          categoryKey="name"
          categoryLabel={oneFamily ? 'Level' : 'Job family · level'}
          series={result.percentiles.map((p, index) => ({ key: `P${p}`, label: `P${p}`, colour: colourOf(groupOf(which.compType)), opacity: shadeOpacity(index, result.percentiles.length) }))}
          unit={unitOf(unit, currency)}
          orientation={data.length > 8 ? 'rows' : 'columns'}
          height={data.length > 8 ? undefined : Math.max(260, Math.min(420, data.length * 60))}
        />
      )}
      {withheld > 0 && data.length > 0 && (
        <p className="muted small-text">
          {withheld} of {cells.length} combinations are not charted: Insufficient data.
        </p>
      )}
    </section>
  );
}

/** The chart's unit for a result's unit: money in its currency (local results have one per market), or a number. */
function unitOf(unit: string, currency: string | null): Unit {
  if (unit === 'currency' && currency) return { kind: 'money', currency };
  if (unit === 'percent') return { kind: 'percent' };
  return { kind: 'number', digits: 2 };
}

/** /benchmarkingsurvey/data-explorer/results: the table and the chart of the current selection. */
export function ResultsScreen() {
  const { filters, name, error: catalogError } = useBenchmarkingCatalog();
  const [selection, , { query }] = useSelection(filters);
  const problems = filters && selection ? validateSelection(selection, filters) : [];
  const request = filters && selection && problems.length === 0 ? toRequest(selection, filters) : null;
  const benchmark = useBenchmark(request);
  const { error, isLoading } = benchmark;
  const data = benchmark.data?.data;
  const marketLabel = marketLabeller(selection?.markets, name);
  let body;
  if (catalogError || error) body = <p role="alert">{errorMessage(catalogError ?? error)}</p>;
  else if (problems.length > 0)
    body = (
      <div className="panel">
        <p role="alert">{problems[0]?.message}</p>
        <Link href={`/benchmarkingsurvey/data-explorer${query}`} className="button primary">
          Back to the filters
        </Link>
      </div>
    );
  else if (isLoading || !data) body = <SkeletonTable rows={6} columns={6} label="Running the benchmark" />;
  else {
    const withheld = data.cells.filter((cell) => cell.status !== 'published').length;
    body = (
      <>
        <p className="lede">
          {data.cells.length} results from market release {data.releaseVersion}, in {data.currencyMode === 'local' ? 'local currency' : data.currencyMode === 'USD' ? 'US dollars' : data.currencyMode}
          {withheld > 0 ? ` · ${withheld} withheld for privacy (Insufficient data)` : ''}.
        </p>
        <div className="actions">
          <Link href={`/benchmarkingsurvey/data-explorer${query}`} className="button">
            Change filters
          </Link>
          <Link href={`/benchmarkingsurvey/data-explorer/export${query}`} className="button primary">
            Export
          </Link>
          {request && <SaveAndShare request={request} />}
        </div>
        <ResultsTable result={data} name={name} marketLabel={marketLabel} />
        <ExchangeRatesNote result={data} />
        <ResultsChart result={data} name={name} marketLabel={marketLabel} />
        <p className="muted small-text">
          Percentiles are PERCENTILE.INC over the participants’ records, each moved off the records it is made of by at most half the gap around them, so that no one’s pay can be worked out by comparing two answers; the same slice always gives the same figures. Participants’ pay is aged to the release’s build date at 3.5% a year, and pay set more than 24 months before it is left out. Samples are shown as ranges. A cell is withheld as “Insufficient data” when it has too few companies or
          employees, or one company dominates it. Consistency is measured from each cell’s own values: ± is the
          95% interval of the median (distribution-free), and the label promises at most its error — Very high up to 2%, High 5%, Moderate 10%, Low 20% for cash (5, 10,
          20, 40% for equity), Very low beyond.
        </p>
      </>
    );
  }
  return (
    <BenchmarkingFrame>
      <h1>Results</h1>
      <ExplorerSteps />
      {body}
    </BenchmarkingFrame>
  );
}
