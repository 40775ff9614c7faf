import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { useToasts } from '../../ui/Toasts';
import { JobsList } from '../jobs/JobsList';
import { useBenchmarkingCatalog } from './data';
import { BenchmarkingFrame, ExplorerSteps } from './Frame';
import { describeMarket } from './markets';
import { toRequest, validateSelection } from './selection';
import { useSelection } from './useSelection';
import './benchmarking.css';

/**
 * /benchmarkingsurvey/data-explorer/export: starts the export as a background job; the job then
 * shows in the list below and moves live (through the socket) until its file can be downloaded.
 */
export function ExportScreen() {
  const { filters, name } = useBenchmarkingCatalog();
  const [selection, , { query }] = useSelection(filters);
  const person = usePerson().data?.data;
  const { add } = useToasts();
  const [format, setFormat] = useState<'csv' | 'xlsx'>('xlsx');
  const { run, busy } = useMutation();
  const [jobId, setJobId] = useState<string | undefined>();
  const problems = filters && selection ? validateSelection(selection, filters) : [];

  async function start() {
    if (!filters || !selection || problems.length > 0) return;
    const body = { format, request: toRequest(selection, filters) };
    const result = await run(() => api.POST('/api/benchmarking/market-data/exports', { body }), { invalidates: '/api/me/background-jobs' });
    if (!result.ok) return;
    setJobId(result.data.data.id);
    add('info', 'The export has started. It appears in your background jobs and can be downloaded when it is done.');
  }

  return (
    <BenchmarkingFrame>
      <h1>Export</h1>
      <ExplorerSteps />
      <section className="card" aria-labelledby="export-heading">
        <h2 id="export-heading">Export the results</h2>
        {selection && (
          <p className="muted">
            {selection.jobFamilies.map(name).join(', ') || 'No job family'} · {selection.levels.map((level) => name(level.id)).join(', ') || 'no level'} ·{' '}
            {selection.compensationTypes.map(name).join(', ')} · {selection.markets.map((market) => describeMarket(market, filters, name)).join('; ')}
          </p>
        )}
        {problems.length > 0 ? (
          <>
            <p role="alert">{problems[0]?.message}</p>
            <Link href={`/benchmarkingsurvey/data-explorer${query}`} className="button primary">
              Back to the filters
            </Link>
          </>
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void start();
            }}
          >
            <fieldset className="check-group">
              <legend>File format</legend>
              <div className="pills">
                {(['xlsx', 'csv'] as const).map((option) => (
                  <label key={option} className={format === option ? 'pill checked' : 'pill'}>
                    <input type="radio" name="format" value={option} checked={format === option} onChange={() => setFormat(option)} />
                    <span>{option === 'xlsx' ? 'Excel workbook (.xlsx)' : 'CSV (.csv)'}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <button type="submit" className="primary" disabled={busy || Boolean(person?.viewAs)}>
              Start export
            </button>
            {person?.viewAs && <p className="muted">Exports cannot be started while viewing as someone else.</p>}
          </form>
        )}
      </section>
      <section className="card" aria-labelledby="jobs-heading">
        <h2 id="jobs-heading">Your background jobs</h2>
        <JobsList highlightJobId={jobId} />
      </section>
    </BenchmarkingFrame>
  );
}
