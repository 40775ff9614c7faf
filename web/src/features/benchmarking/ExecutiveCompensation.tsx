import { type FormEvent, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { errorMessage, useQuery } from '../../api/client';
import { useReportedFailure } from '../../api/errorReporting';
import { usePostQuery } from '../../api/queries';
import { useDebounced } from '../../ui/hooks';
import { SkeletonTable } from '../../ui/Skeleton';
import { FullSizeSpinner } from '../../ui/Spinner';
import { Pills } from './Choices';
import { formatValue, sampleText, useBenchmarkingCatalog } from './data';
import { BenchmarkingFrame } from './Frame';
import { DataSource, PercentileCells } from './ResultsTable';
import { ShareExecutive } from './Saving';
import { PICKER_PERCENTILES, offeredGroups, TOTAL_EQUITY, defaultPercentiles, samePercentiles, toggle } from './selection';
import './benchmarking.css';

type Metadata = components['schemas']['ExecutiveCompMetadata'];
type ExecutiveTitle = components['schemas']['ExecutiveTitle'];
type ExecutiveRequest = components['schemas']['ExecutiveCompRequest'];
type ExecutiveResult = components['schemas']['ExecutiveCompResult'];
type MarketPercentile = components['schemas']['MarketPercentile'];

/** Compensation types an executive query reports unless the person changes them (the server's defaults). */
const DEFAULT_TYPES = ['base', 'annual_bonus', 'total_cash', TOTAL_EQUITY];

interface ExecutiveChoice {
  titles: ExecutiveTitle[];
  founderTypes: string[];
  locations: string[];
  industries: string[];
  companyStages: string[];
  compensationTypes: string[];
  percentiles: MarketPercentile[];
  currency: 'local' | 'USD';
}

/** The metadata's defaults (spec: filterDefaults, defaultTitle, defaultIndustry) and the default percentile codes. */
function defaultChoice(metadata: Metadata): ExecutiveChoice {
  const compensationTypes = DEFAULT_TYPES.filter((id) => [...metadata.compTypes.cash, ...metadata.compTypes.equity].some((type) => type.id === id));
  return {
    titles: [metadata.defaultTitle],
    founderTypes: [metadata.filterDefaults.founderType],
    locations: [metadata.filterDefaults.locationId],
    industries: [metadata.defaultIndustry.upstreamId],
    companyStages: [metadata.filterDefaults.companyStage.value],
    compensationTypes,
    percentiles: defaultPercentiles(compensationTypes, metadata),
    currency: 'local',
  };
}

/** The spec's executive rules (§5), in the server's words, before asking it. */
function problemsOf(choice: ExecutiveChoice): string[] {
  const problems: string[] = [];
  if (choice.founderTypes.length === 0) problems.push('Please select at least one founder type');
  if (choice.titles.length === 0) problems.push('Please select at least one job title');
  if (choice.locations.length === 0) problems.push('Please select at least one location');
  if (choice.industries.length === 0) problems.push('Please select at least one industry');
  if (choice.companyStages.length === 0) problems.push('Please select at least one company stage');
  if (choice.compensationTypes.length === 0) problems.push('Please select at least one compensation type');
  return problems;
}

function toRequest(choice: ExecutiveChoice): ExecutiveRequest {
  return {
    founderTypes: choice.founderTypes,
    jobTitles: choice.titles.map((title) => title.id),
    marketFilters: [{ locations: choice.locations, industries: choice.industries, companyStages: choice.companyStages }],
    compensationTypes: choice.compensationTypes,
    percentiles: [...choice.percentiles].sort((a, b) => a - b),
    currency: choice.currency,
  };
}

/** Titles found by what someone typed (the server's fuzzy search of titles and the ways people write them). */
function TitleSearch({ chosen, onToggle }: { chosen: ExecutiveTitle[]; onToggle: (title: ExecutiveTitle) => void }) {
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), 200);
  const found = useQuery('/api/benchmarking/executive-comp/titles', search ? { params: { query: { search } } } : null);
  const matches = found.data?.data ?? [];
  return (
    <>
      <label className="search">
        Search executive titles
        <input type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="e.g. Head of Engineering" />
      </label>
      {found.error && <p role="alert">{errorMessage(found.error)}</p>}
      {search && found.data && matches.length === 0 && <p className="muted">No executive title matches “{search}”.</p>}
      {search && matches.length > 0 && (
        <ul className="title-matches" aria-label="Executive titles found" data-search={found.data ? search : undefined}>
          {matches.slice(0, 8).map((match) => {
            const selected = chosen.some((title) => title.id === match.titleId);
            return (
              <li key={match.titleId}>
                <button
                  type="button"
                  className={selected ? 'small selected' : 'small'}
                  aria-pressed={selected}
                  onClick={() => onToggle({ id: match.titleId, title: match.title, section: match.section, jobFamilyId: match.jobFamilyId, levelId: match.levelId })}
                >
                  {match.title}
                </button>
                <span className="muted small-text">
                  {match.section}
                  {match.matchedText !== match.title ? ` · matched “${match.matchedText}”` : ''}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}

function ExecutiveTable({ result, name }: { result: ExecutiveResult; name: (id: string) => string }) {
  return (
    <div className="table-scroll" tabIndex={0} aria-label="Executive compensation results table">
      <table className="results-table executive-table">
        <caption className="visually-hidden">Executive compensation by title and compensation type</caption>
        <thead>
          <tr>
            <th scope="col" className="col-family">
              Title
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
          </tr>
        </thead>
        <tbody>
          {result.rows.flatMap((row) =>
            row.cells.map((cell) => (
              <tr key={`${row.titleId}|${cell.compensationTypeId}|${cell.marketFilterIndex}`} data-row={`${row.titleId}|${cell.compensationTypeId}`} data-status={cell.status}>
                <th scope="row" className="col-family">
                  {row.title}
                </th>
                <td data-label="Compensation" className="col-comp">
                  {name(cell.compensationTypeId)}
                  {cell.currency && cell.unit === 'currency' && <span className="muted small-text"> {cell.currency}</span>}
                </td>
                <PercentileCells cell={cell} percentiles={result.percentiles} />
                <td className="sample-cell col-sample" data-label="Sample">
                  {sampleText(cell.sample)}
                  <DataSource share={cell.syntheticShare} />
                </td>
                <td data-label="Consistency" className="col-consistency">
                  {cell.consistency ? (
                    <span className={`consistency level-${cell.consistency.consistencyLevel}`} title={cell.medianUncertainty ? `95% interval of the median: ${formatValue(cell.medianUncertainty.lower, cell.unit, cell.currency)} to ${formatValue(cell.medianUncertainty.upper, cell.unit, cell.currency)}` : undefined}>
                      {cell.consistency.consistencyLabel}
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}

function ExecutiveForm({ metadata, name, held }: { metadata: Metadata; name: (id: string) => string; held: ReadonlySet<string> }) {
  const [choice, setChoice] = useState<ExecutiveChoice>(() => defaultChoice(metadata));
  const [request, setRequest] = useState<ExecutiveRequest | null>(null);
  const [tried, setTried] = useState(false);
  const answer = usePostQuery('/api/benchmarking/executive-comp/market-data', request);
  const problems = problemsOf(choice);
  const update = (change: Partial<ExecutiveChoice>) => setChoice((current) => ({ ...current, ...change }));
  const compTypes = [...metadata.compTypes.cash.filter((type) => !type.isDisabled), ...metadata.compTypes.equity.filter((type) => type.id === TOTAL_EQUITY)];

  function setCompensationTypes(next: string[]) {
    // Percentiles still at the defaults follow the types (cash P25, equity P50); chosen ones stay.
    const untouched = samePercentiles(choice.percentiles, defaultPercentiles(choice.compensationTypes, metadata));
    update({ compensationTypes: next, percentiles: untouched ? defaultPercentiles(next, metadata) : choice.percentiles });
  }

  function run(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (problems.length === 0) setRequest(toRequest(choice));
  }

  const result = answer.data?.data;
  return (
    <>
      <form className="picker" onSubmit={run}>
        <section className="card" aria-labelledby="exec-titles-heading">
          <h2 id="exec-titles-heading">Job titles</h2>
          <TitleSearch chosen={choice.titles} onToggle={(title) => update({ titles: toggle(choice.titles, title, (a, b) => a.id === b.id) })} />
          {choice.titles.length === 0 ? (
            <p className="muted">No title chosen yet. Search for the executive roles you price.</p>
          ) : (
            <ul className="chips" aria-label="Chosen titles">
              {choice.titles.map((title) => (
                <li key={title.id} className="chip">
                  {title.title}
                  <button type="button" aria-label={`Remove ${title.title}`} onClick={() => update({ titles: choice.titles.filter((other) => other.id !== title.id) })}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card" aria-labelledby="exec-market-heading">
          <h2 id="exec-market-heading">Market</h2>
          <Pills
            legend="Founder type"
            options={metadata.founderStatusesWithIds.map((option) => ({ id: option.id, label: option.displayString }))}
            chosen={choice.founderTypes}
            onToggle={(id) => update({ founderTypes: toggle(choice.founderTypes, id) })}
          />
          <Pills legend="Locations" options={offeredGroups(held, choice.locations).flatMap((group) => group.ids).map((id) => ({ id, label: name(id) }))} chosen={choice.locations} onToggle={(id) => update({ locations: toggle(choice.locations, id) })} />
          <Pills
            legend="Industries"
            options={metadata.industriesWithIds.map((industry) => ({ id: industry.upstreamId, label: industry.displayString }))}
            chosen={choice.industries}
            onToggle={(id) => update({ industries: toggle(choice.industries, id) })}
          />
          <button type="button" className="small" onClick={() => update({ industries: metadata.industriesWithIds.map((industry) => industry.upstreamId) })}>
            Every industry
          </button>
          <Pills
            legend="Company stages"
            options={metadata.companyStagesWithIds.map((stage) => ({ id: stage.id, label: stage.displayString }))}
            chosen={choice.companyStages}
            onToggle={(id) => update({ companyStages: toggle(choice.companyStages, id) })}
          />
          <button type="button" className="small" onClick={() => update({ companyStages: metadata.companyStagesWithIds.map((stage) => stage.id) })}>
            Every stage
          </button>
        </section>
        <section className="card" aria-labelledby="exec-view-heading">
          <h2 id="exec-view-heading">Compensation, percentiles and currency</h2>
          <Pills legend="Compensation types" options={compTypes.map((type) => ({ id: type.id, label: type.title }))} chosen={choice.compensationTypes} onToggle={(id) => setCompensationTypes(toggle(choice.compensationTypes, id))} />
          <Pills
            legend="Percentiles"
            options={PICKER_PERCENTILES.map((p) => ({ id: String(p), label: `P${p}` }))}
            chosen={choice.percentiles.map(String)}
            onToggle={(id) => {
              const picked = PICKER_PERCENTILES.find((p) => String(p) === id);
              if (picked === undefined) return;
              const next = toggle(choice.percentiles, picked);
              if (next.length > 0) update({ percentiles: next });
            }}
          />
          <Pills
            legend="Currency"
            type="radio"
            name="executive-currency"
            options={[
              { id: 'local', label: 'Local currency' },
              { id: 'USD', label: 'US dollars' },
            ]}
            chosen={[choice.currency]}
            onToggle={(id) => update({ currency: id === 'USD' ? 'USD' : 'local' })}
          />
        </section>
        <div className="actions sticky-actions">
          {tried && problems.length > 0 && (
            <p role="alert" className="problem-summary">
              {problems[0]}
              {problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}
            </p>
          )}
          <button type="submit" className="primary">
            Price these titles
          </button>
          <button type="button" onClick={() => setChoice(defaultChoice(metadata))}>
            Start over
          </button>
        </div>
      </form>
      <section aria-labelledby="exec-results-heading" className="executive-results">
        <h2 id="exec-results-heading">Results</h2>
        {!request && <p className="muted">Choose titles and a market, then price them.</p>}
        {answer.error && <p role="alert">{errorMessage(answer.error)}</p>}
        {request && !result && !answer.error && <SkeletonTable rows={4} columns={5} label="Pricing the titles" />}
        {result && (
          <>
            <p className="lede">
              {result.rows.length} {result.rows.length === 1 ? 'title' : 'titles'} from market release {result.releaseVersion}, in {result.currencyMode === 'local' ? 'local currency' : 'US dollars'}.
            </p>
            {result.rows.every((row) => row.cells.every((cell) => cell.status !== 'published')) && (
              <p className="muted" data-testid="all-withheld">
                Every figure is withheld (Insufficient data): too few companies match. Widen the market — more stages, industries, locations or founder types — to see figures.
              </p>
            )}
            <ExecutiveTable result={result} name={name} />
            {request && <ShareExecutive request={request} />}
          </>
        )}
      </section>
    </>
  );
}

/** /benchmarkingsurvey/executive-compensation: executives priced by title, founder type and market. */
export function ExecutiveCompensationScreen() {
  const metadata = useQuery('/api/benchmarking/executive-comp/metadata');
  useReportedFailure('The executive-compensation metadata', metadata.error);
  const { name, locations, error } = useBenchmarkingCatalog();
  const failure = metadata.error ?? error;
  // The locations the served release has records in; the form waits for them.
  const held = locations ? new Set(locations.map((entry) => entry.id)) : null;
  return (
    <BenchmarkingFrame>
      <h1>Executive compensation</h1>
      <p className="lede">Price executive roles by title: founders apart from the executives companies hire, in the industries, stages and locations you choose.</p>
      {failure && <p role="alert">{errorMessage(failure)}</p>}
      {!failure && (!metadata.data || !held) && <FullSizeSpinner loading label="Loading executive titles" />}
      {metadata.data && held && <ExecutiveForm metadata={metadata.data.data} name={name} held={held} />}
    </BenchmarkingFrame>
  );
}
