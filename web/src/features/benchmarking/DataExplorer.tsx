import { type ReactNode, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { errorMessage, useQuery } from '../../api/client';
import { FullSizeSpinner } from '../../ui/Spinner';
import { useBenchmarkingCatalog } from './data';
import { BenchmarkingFrame, ExplorerSteps } from './Frame';
import {
  type BenchmarkingFilters,
  FOUNDER_LEVEL,
  LOCATION_GROUPS,
  LOCATION_HINTS,
  WITH_CONTRACTORS,
  type MarketSelection,
  type NamedLocation,
  PICKER_PERCENTILES,
  type Selection,
  UNVESTED_EQUITY,
  defaultMarket,
  defaultSelection,
  includesContractors,
  matchingCountries,
  needsEquityOptions,
  offeredGroups,
  regionsAndCountries,
  toggle,
  validateSelection,
  withCompensationTypes,
} from './selection';
import { useSelection } from './useSelection';
import './benchmarking.css';

interface CheckOption {
  id: string;
  label: string;
  hint?: string;
}

/** A group of checkboxes drawn as pills; wraps on narrow screens. */
function CheckGroup({ legend, options, chosen, onToggle, hint }: { legend: string; options: CheckOption[]; chosen: string[]; onToggle: (id: string) => void; hint?: ReactNode }) {
  return (
    <fieldset className="check-group">
      <legend>{legend}</legend>
      {hint && <p className="muted small-text">{hint}</p>}
      <div className="pills">
        {options.map((option) => (
          <label key={option.id} className={chosen.includes(option.id) ? 'pill checked' : 'pill'} title={option.hint}>
            <input type="checkbox" checked={chosen.includes(option.id)} onChange={() => onToggle(option.id)} />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** From this many countries on, a search narrows the list. */
const COUNTRY_SEARCH_FROM = 12;

/** Regions and countries the served release holds: a region's pills, then the countries by name, searchable when many. */
function CountryPicker({ regions, countries, chosen, onToggle }: { regions: NamedLocation[]; countries: NamedLocation[]; chosen: string[]; onToggle: (id: string) => void }) {
  const [text, setText] = useState('');
  const shown = matchingCountries(countries, text, chosen);
  return (
    <>
      {regions.length > 0 && <CheckGroup legend="Regions" options={regions.map((region) => ({ id: region.id, label: region.name }))} chosen={chosen} onToggle={onToggle} />}
      {countries.length >= COUNTRY_SEARCH_FROM && (
        <label className="search">
          Find a country
          <input type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="e.g. Spain" />
        </label>
      )}
      <CheckGroup legend="Countries" options={shown.map((country) => ({ id: country.id, label: country.name }))} chosen={chosen} onToggle={onToggle} />
      {shown.length === 0 && <p className="muted">{countries.length ? `No country matches “${text.trim()}”.` : 'No other country holds data yet.'}</p>}
    </>
  );
}

function Problems({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul className="field-problems">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

function MarketEditor({
  market,
  index,
  count,
  filters,
  name,
  held,
  metros,
  areas,
  founderOptions,
  problems,
  onChange,
  onRemove,
}: {
  market: MarketSelection;
  index: number;
  count: number;
  filters: BenchmarkingFilters;
  name: (id: string) => string;
  /** Every location the served release has records in. */
  held: ReadonlySet<string>;
  metros: { id: string; name: string }[];
  /** Regions, and countries beyond the groups above, that the served release holds. */
  areas: { regions: NamedLocation[]; countries: NamedLocation[] };
  /** Present when E9 is chosen, which makes a founder type necessary. */
  founderOptions: CheckOption[] | null;
  problems: string[];
  onChange: (market: MarketSelection) => void;
  onRemove: () => void;
}) {
  const headingId = useId();
  const set = (key: 'locations' | 'industries' | 'companyStages' | 'companyOwnershipGroups' | 'founderTypes', id: string) => onChange({ ...market, [key]: toggle(market[key], id) });
  return (
    <section className="card market" aria-labelledby={headingId}>
      <header className="section-head">
        <h3 id={headingId}>{count > 1 ? `Market ${index + 1}` : 'Market'}</h3>
        {count > 1 && (
          <button type="button" className="small" onClick={onRemove}>
            Remove market {index + 1}
          </button>
        )}
      </header>
      <Problems messages={problems} />
      {offeredGroups(held, market.locations).map((group) => (
        <CheckGroup
          key={group.title}
          legend={`Locations: ${group.title}`}
          options={group.ids.map((id) => ({ id, label: name(id), hint: LOCATION_HINTS[id] }))}
          chosen={market.locations}
          onToggle={(id) => set('locations', id)}
        />
      ))}
      <details>
        <summary>Metro areas ({market.locations.filter((id) => metros.some((metro) => metro.id === id)).length} chosen)</summary>
        <CheckGroup legend="Metro areas" options={metros.map((metro) => ({ id: metro.id, label: metro.name }))} chosen={market.locations} onToggle={(id) => set('locations', id)} />
      </details>
      <details>
        <summary>
          Regions and other countries ({market.locations.filter((id) => [...areas.regions, ...areas.countries].some((area) => area.id === id)).length} chosen)
        </summary>
        <CountryPicker regions={areas.regions} countries={areas.countries} chosen={market.locations} onToggle={(id) => set('locations', id)} />
      </details>
      <CheckGroup
        legend="Industries"
        options={filters.industriesAndSubIndustriesWithIds.map((industry) => ({ id: industry.upstreamId, label: industry.displayString, hint: industry.description }))}
        chosen={market.industries}
        onToggle={(id) => set('industries', id)}
      />
      <details>
        <summary>Sub-industries</summary>
        {filters.industriesAndSubIndustriesWithIds.map((industry) => (
          <CheckGroup
            key={industry.upstreamId}
            legend={industry.displayString}
            options={industry.subIndustries.map((sub) => ({ id: sub.upstreamId, label: sub.displayString, hint: sub.description }))}
            chosen={market.industries}
            onToggle={(id) => set('industries', id)}
          />
        ))}
      </details>
      <CheckGroup
        legend="Company stages"
        options={filters.companyStagesWithIds.map((stage) => ({ id: stage.id, label: stage.displayString, hint: stage.description }))}
        chosen={market.companyStages}
        onToggle={(id) => set('companyStages', id)}
      />
      <CheckGroup
        legend="Ownership"
        options={filters.companyOwnershipGroupsWithIds.map((group) => ({ id: group.id, label: group.displayString, hint: group.description }))}
        chosen={market.companyOwnershipGroups}
        onToggle={(id) => set('companyOwnershipGroups', id)}
      />
      <fieldset className="check-group">
        <legend>Whose pay</legend>
        <p className="muted small-text">The market is employees’ pay; contractors of participating companies are included on request.</p>
        <div className="pills">
          <label className={includesContractors(market) ? 'pill checked' : 'pill'}>
            <input
              type="checkbox"
              checked={includesContractors(market)}
              onChange={() => onChange({ ...market, employmentTypes: includesContractors(market) ? [] : [...WITH_CONTRACTORS] })}
            />
            <span>Include contractors</span>
          </label>
        </div>
      </fieldset>
      {founderOptions && (
        <CheckGroup
          legend="Founder type (needed for E9)"
          options={founderOptions}
          chosen={market.founderTypes}
          onToggle={(id) => set('founderTypes', id)}
        />
      )}
    </section>
  );
}

/** /benchmarkingsurvey/data-explorer: the filter picker. */
export function DataExplorerScreen() {
  const { filters, catalog, locations, name, error, isLoading } = useBenchmarkingCatalog();
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
  const metros = locations.filter((entry) => !groupIds.has(entry.id) && entry.id.includes('_') && !/^\d/.test(entry.id)).map((entry) => ({ id: entry.id, name: entry.name }));
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
