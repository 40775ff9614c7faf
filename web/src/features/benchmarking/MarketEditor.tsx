import { type ReactNode, useId, useState } from 'react';
import { type BenchmarkingFilters, LOCATION_HINTS, type MarketSelection, type NamedLocation, includesContractors, matchingCountries, offeredGroups, toggle, WITH_CONTRACTORS } from './selection';

interface CheckOption {
  id: string;
  label: string;
  hint?: string;
}

/** A group of checkboxes drawn as pills; wraps on narrow screens. */
export function CheckGroup({ legend, options, chosen, onToggle, hint }: { legend: string; options: CheckOption[]; chosen: string[]; onToggle: (id: string) => void; hint?: ReactNode }) {
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
export function CountryPicker({ regions, countries, chosen, onToggle }: { regions: NamedLocation[]; countries: NamedLocation[]; chosen: string[]; onToggle: (id: string) => void }) {
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

export function Problems({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul className="field-problems">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

export function MarketEditor({
  market,
  index,
  count,
  filters,
  name,
  held,
  metros,
  coverage,
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
  metros: { id: string; name: string; hint?: string }[];
  /** The served release's coverage of each location, in words. */
  coverage: ReadonlyMap<string, string>;
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
          options={group.ids.map((id) => ({ id, label: name(id), hint: [LOCATION_HINTS[id], coverage.get(id)].filter(Boolean).join(' ') || undefined }))}
          chosen={market.locations}
          onToggle={(id) => set('locations', id)}
        />
      ))}
      <details>
        <summary>Metro areas ({market.locations.filter((id) => metros.some((metro) => metro.id === id)).length} chosen)</summary>
        <CheckGroup legend="Metro areas" options={metros.map((metro) => ({ id: metro.id, label: metro.name, hint: metro.hint }))} chosen={market.locations} onToggle={(id) => set('locations', id)} />
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