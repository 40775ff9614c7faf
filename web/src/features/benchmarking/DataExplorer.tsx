import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { errorMessage, useQuery } from '../../api/client';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useBenchmarkingCatalog, useLocationCoverage } from './data';
import { BenchmarkingFrame, ExplorerSteps } from './Frame';
import { FOUNDER_LEVEL, LOCATION_GROUPS, PICKER_PERCENTILES, type Selection, UNVESTED_EQUITY, defaultMarket, defaultSelection, needsEquityOptions, regionsAndCountries, toggle, validateSelection, withCompensationTypes } from './selection';
import { useSelection } from './useSelection';
import { CheckGroup, MarketEditor, Problems } from './MarketEditor';
import './benchmarking.css';

export function DataExplorerScreen() {
  const { filters, catalog, locations, name, error, isLoading } = useBenchmarkingCatalog();
  const coverage = useLocationCoverage();
  const [selection, setSelection, { query, preferredLocation }] = useSelection(filters);
  const [, navigate] = useLocation();
  const [tried, setTried] = useState(false);
  const founderRequired = selection?.levels.some((level) => level.id === FOUNDER_LEVEL) ?? false;
  const executive = useQuery('/api/benchmarking/executive-comp/metadata', founderRequired ? {} : null);
  const founderOptions = founderRequired
    ? (executive.data?.data.founderStatusesWithIds ?? []).map((option) => ({ id: option.id, label: option.displayString, hint: option.description }))
    : null;
  if (error) return <p role="alert">{errorMessage(error)}</p>;
  if (isLoading || !filters || !selection || !catalog || !locations) return <FullSizeSpinner loading label="Loading the filters" />;
  const problems = validateSelection(selection, filters);
  const problemsOf = (section: string) => (tried ? problems.filter((problem) => problem.section === section).map((problem) => problem.message) : []);
  const update = (change: Partial<Selection>) => setSelection({ ...selection, ...change });
  const groupIds = new Set(LOCATION_GROUPS.flatMap((group) => group.ids));
  // The composition lists only the locations the served release has records in: the pickers offer those.
  const held = new Set(locations.map((entry) => entry.id));
  const metros = locations.filter((entry) => !groupIds.has(entry.id) && entry.id.includes('_') && !/^\d/.test(entry.id)).map((entry) => ({ id: entry.id, name: entry.name, hint: coverage.get(entry.id) }));
  const areas = regionsAndCountries(locations);
  const showEquity = needsEquityOptions(selection, filters);
  const toggleLevel = (type: 'level' | 'levelBlend', id: string) => update({ levels: toggle(selection.levels, { type, id }, (a, b) => a.id === b.id && a.type === b.type) });
  const levelIds = selection.levels.map((level) => level.id);

  function run() {
    setTried(true);
    if (problems.length === 0) navigate(`/benchmarkingsurvey/data-explorer/results${query}`);
  }

  return (
    <BenchmarkingFrame>
      <h1>Data explorer</h1>
      <ExplorerSteps />
      <form
        className="picker"
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        <section className="card" aria-labelledby="families-heading">
          <header className="section-head">
            <h2 id="families-heading">Job families</h2>
            <Link href={`/benchmarkingsurvey/data-explorer/search${query}`} className="button small">
              Search job families
            </Link>
          </header>
          <Problems messages={problemsOf('jobFamilies')} />
          {selection.jobFamilies.length === 0 ? (
            <p className="muted">No job family chosen yet. Search by family or by a title you hire for.</p>
          ) : (
            <ul className="chips" aria-label="Chosen job families">
              {selection.jobFamilies.map((id) => (
                <li key={id} className="chip">
                  {name(id)}
                  <button type="button" aria-label={`Remove ${name(id)}`} onClick={() => update({ jobFamilies: selection.jobFamilies.filter((family) => family !== id) })}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="card" aria-labelledby="levels-heading">
          <h2 id="levels-heading">Levels</h2>
          <Problems messages={problemsOf('levels')} />
          {filters.levelsWithIds.levelTracks.map((track) => (
            <CheckGroup
              key={track.id}
              legend={track.displayString}
              options={track.levels.map((level) => ({ id: level.id, label: level.displayString, hint: level.description }))}
              chosen={levelIds}
              onToggle={(id) => toggleLevel('level', id)}
            />
          ))}
          <CheckGroup
            legend="Level blends"
            hint="Two neighbouring levels, or the professional and management tracks at the same rank, as one market."
            options={filters.levelsWithIds.levelBlends.map((blend) => ({ id: blend.id, label: blend.displayString, hint: blend.description }))}
            chosen={levelIds}
            onToggle={(id) => toggleLevel('levelBlend', id)}
          />
        </section>

        <section aria-labelledby="markets-heading" className="markets">
          <header className="section-head">
            <h2 id="markets-heading">Markets</h2>
            {selection.markets.length < 10 && (
              <button type="button" className="small" onClick={() => update({ markets: [...selection.markets, defaultMarket(filters, preferredLocation)] })}>
                Add a market
              </button>
            )}
          </header>
          <Problems messages={problemsOf('markets')} />
          {selection.markets.map((market, index) => (
            <MarketEditor
              key={index}
              market={market}
              index={index}
              count={selection.markets.length}
              filters={filters}
              name={name}
              held={held}
              metros={metros}
              coverage={coverage}
              areas={areas}
              founderOptions={founderOptions}
              problems={problemsOf(`markets.${index}`)}
              onChange={(next) => update({ markets: selection.markets.map((m, i) => (i === index ? next : m)) })}
              onRemove={() => update({ markets: selection.markets.filter((_, i) => i !== index) })}
            />
          ))}
        </section>

        <section className="card" aria-labelledby="comp-heading">
          <h2 id="comp-heading">Compensation types</h2>
          <Problems messages={problemsOf('compensationTypes')} />
          <CheckGroup
            legend="Cash"
            options={filters.compTypes.cash.filter((type) => !type.isDisabled).map((type) => ({ id: type.id, label: type.title, hint: type.description }))}
            chosen={selection.compensationTypes}
            onToggle={(id) => setSelection(withCompensationTypes(selection, toggle(selection.compensationTypes, id), filters))}
          />
          <CheckGroup
            legend="Equity"
            options={filters.compTypes.equity.filter((type) => !type.isDisabled).map((type) => ({ id: type.id, label: type.title, hint: type.description }))}
            chosen={selection.compensationTypes}
            onToggle={(id) => setSelection(withCompensationTypes(selection, toggle(selection.compensationTypes, id), filters))}
          />
          {showEquity && (
            <div className="equity-options">
              <Problems messages={problemsOf('equity')} />
              <CheckGroup
                legend="Intended or actual value"
                options={filters.equityIntendedVsActualOptions.map((option) => ({ id: option.value, label: option.label, hint: option.description }))}
                chosen={selection.equity.intendedVsActual}
                onToggle={(id) => update({ equity: { ...selection.equity, intendedVsActual: toggle(selection.equity.intendedVsActual, id) } })}
              />
              <CheckGroup
                legend="Equity view"
                options={filters.equityViewOptions.map((view) => ({ id: view.value, label: view.isPremium ? `${view.label} (premium)` : view.label, hint: view.description }))}
                chosen={selection.equity.views}
                onToggle={(id) => update({ equity: { ...selection.equity, views: toggle(selection.equity.views, id) } })}
              />
              {selection.compensationTypes.some((id) => id !== UNVESTED_EQUITY && id !== 'total_equity' && filters.compTypes.equity.some((type) => type.id === id)) && (
                <CheckGroup
                  legend="Timeframe"
                  options={filters.equityTimeframeOptions.map((option) => ({ id: option.value, label: option.label, hint: option.description }))}
                  chosen={selection.equity.timeframes}
                  onToggle={(id) => update({ equity: { ...selection.equity, timeframes: toggle(selection.equity.timeframes, id) } })}
                />
              )}
              {selection.compensationTypes.includes(UNVESTED_EQUITY) && (
                <CheckGroup
                  legend="Unvested timeframe"
                  options={filters.unvestedEquityTimeframeOptions.map((option) => ({ id: option.value, label: option.label, hint: option.description }))}
                  chosen={selection.equity.unvestedTimeframes}
                  onToggle={(id) => update({ equity: { ...selection.equity, unvestedTimeframes: toggle(selection.equity.unvestedTimeframes, id) } })}
                />
              )}
            </div>
          )}
        </section>

        <section className="card" aria-labelledby="view-heading">
          <h2 id="view-heading">Percentiles and currency</h2>
          <CheckGroup
            legend="Percentiles"
            options={PICKER_PERCENTILES.map((p) => ({ id: String(p), label: `P${p}` }))}
            chosen={selection.percentiles.map(String)}
            onToggle={(id) => {
              const chosen = PICKER_PERCENTILES.find((p) => String(p) === id);
              if (chosen === undefined) return;
              const next = toggle(selection.percentiles, chosen);
              update({ percentiles: next.length > 0 ? next : selection.percentiles });
            }}
          />
          <fieldset className="check-group">
            <legend>Currency</legend>
            <div className="pills">
              {(['local', 'USD'] as const).map((currency) => (
                <label key={currency} className={selection.currency === currency ? 'pill checked' : 'pill'}>
                  <input type="radio" name="currency" checked={selection.currency === currency} onChange={() => update({ currency })} />
                  <span>{currency === 'local' ? 'Local currency' : 'US dollars'}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </section>

        <div className="actions sticky-actions">
          {tried && problems.length > 0 && (
            <p role="alert" className="problem-summary">
              {problems[0]?.message}
              {problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}
            </p>
          )}
          <button type="submit" className="primary">
            Run benchmark
          </button>
          <button type="button" onClick={() => setSelection(defaultSelection(filters, preferredLocation))}>
            Start over
          </button>
        </div>
      </form>
    </BenchmarkingFrame>
  );
}
