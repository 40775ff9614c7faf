import { useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { errorMessage } from '../../api/client';
import { usePostQuery } from '../../api/queries';
import { FullSizeSpinner } from '../../ui/Spinner';
import { formatValue, sampleText, useBenchmarkingCatalog } from './data';
import { Choice } from './Choices';
import { DataSource } from './ResultsTable';
import { offeredGroups } from './selection';
import './benchmarking.css';

type OfferInsightsRequest = components['schemas']['OfferInsightsRequest'];
type BenchmarkCell = components['schemas']['BenchmarkCell'];
type OfferSpread = components['schemas']['OfferSpread'];

function Part({ title, cell, spread }: { title: string; cell: BenchmarkCell; spread: OfferSpread | null }) {
  const money = (value: number) => formatValue(value, cell.unit, cell.currency);
  return (
    <article className="card insight" data-part={title}>
      <h3>{title}</h3>
      {cell.status !== 'published' || !spread ? (
        <p className="insufficient-text">
          {cell.label ?? 'Insufficient data'}
          {cell.insufficientReason ? ` — ${cell.insufficientReason}` : ''}
        </p>
      ) : (
        <dl>
          <dt>Competitive</dt>
          <dd>
            {money(spread.competitiveRange.low)} – {money(spread.competitiveRange.high)}
          </dd>
          <dt>Likely declined below</dt>
          <dd>{money(spread.likelyDeclinedBelow)}</dd>
          <dt>P25 · P50 · P75</dt>
          <dd>
            {money(spread.p25)} · {money(spread.p50)} · {money(spread.p75)}
          </dd>
        </dl>
      )}
      <p className="muted small-text">
        {sampleText(cell.sample)}
        <DataSource share={cell.syntheticShare} />
      </p>
    </article>
  );
}

/** Offer insights: what the market pays one role in one place, and the range where offers are accepted. */
export function OfferInsightsPanel() {
  const { filters, catalog, locations, name } = useBenchmarkingCatalog();
  const [family, setFamily] = useState('software_engineering');
  const [level, setLevel] = useState('p3');
  const [location, setLocation] = useState('840');
  const request: OfferInsightsRequest = { jobFamilyId: family, level: { type: 'level', id: level }, locationId: location };
  const answer = usePostQuery('/api/benchmarking/offer-insights', request);
  const insights = { data: answer.data?.data, error: answer.error };
  if (!filters || !catalog) return <FullSizeSpinner loading />;
  return (
    <section aria-labelledby="offer-insights-heading">
      <h2 id="offer-insights-heading">Offer insights</h2>
      <div className="inline-form">
        <Choice label="Job family" value={family} onChange={setFamily} options={catalog.map((entry) => ({ id: entry.upstreamId, label: entry.displayString }))} />
        <Choice
          label="Level"
          value={level}
          onChange={setLevel}
          options={filters.levelsWithIds.levelTracks.flatMap((track) => track.levels).map((entry) => ({ id: entry.id, label: entry.displayString }))}
        />
        <Choice label="Location" value={location} onChange={setLocation} options={offeredGroups(new Set(locations?.map((entry) => entry.id)), [location]).flatMap((group) => group.ids).map((id) => ({ id, label: name(id) }))} />
      </div>
      {insights.error && <p role="alert">{errorMessage(insights.error)}</p>}
      {!insights.data && !insights.error && <FullSizeSpinner loading />}
      {insights.data && (
        <div className="insight-rows">
          <Part title="Base salary" cell={insights.data.base} spread={insights.data.spread.base} />
          <Part title="Total cash" cell={insights.data.totalCash} spread={insights.data.spread.totalCash} />
          <Part title="New-hire equity" cell={insights.data.newHireEquity} spread={insights.data.spread.newHireEquity} />
        </div>
      )}
    </section>
  );
}
