import { useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { errorMessage } from '../../api/client';
import { usePostQuery } from '../../api/queries';
import { FullSizeSpinner } from '../../ui/Spinner';
import { formatValue, sampleText, useBenchmarkingCatalog } from './data';
import { Choice, Pills } from './Choices';
import { BenchmarkingFrame } from './Frame';
import { offeredGroups, toggle } from './selection';
import './benchmarking.css';

type LocationInsightsRequest = components['schemas']['LocationInsightsRequest'];
type EquityPracticesRequest = components['schemas']['EquityPracticesRequest'];
type EquityPractices = components['schemas']['EquityPractices'];
type PracticeShare = components['schemas']['EquityPracticeShare'];

const percent = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}%`;

/** /benchmarkingsurvey/location-insights: the same roles in several locations, against a reference location. */
export function LocationInsightsScreen() {
  const { filters, catalog, locations, name, error } = useBenchmarkingCatalog();
  const [family, setFamily] = useState('software_engineering');
  const [levels, setLevels] = useState<string[]>(['p2', 'p3', 'p4']);
  const [places, setPlaces] = useState<string[]>(['840_1', '840_2', '840_3', '124', '826', '276']);
  const [reference, setReference] = useState('840');
  const [compensationType, setCompensationType] = useState('base');
  const request: LocationInsightsRequest | null =
    levels.length && places.length ? { jobFamilies: [family], levels: levels.map((id) => ({ type: 'level', id })), locations: places, referenceLocationId: reference, compensationType } : null;
  const answer = usePostQuery('/api/benchmarking/location-insights', request);
  const insights = { data: answer.data?.data, error: answer.error };
  if (error) return <p role="alert">{errorMessage(error)}</p>;
  if (!filters || !catalog || !locations) return <FullSizeSpinner loading />;
  // Only places the served release has records in (and those chosen), so none can only be withheld.
  const held = new Set(locations.map((entry) => entry.id));
  const tierIds = offeredGroups(held, [...places, reference]).flatMap((group) => group.ids);
  const compTypes = [...filters.compTypes.cash.filter((type) => !type.isDisabled), ...filters.compTypes.equity.filter((type) => type.id === 'total_equity')];
  return (
    <BenchmarkingFrame>
      <h1>Location insights</h1>
      <p className="lede">How the median of a role in each location compares with a reference location, in US dollars.</p>
      <div className="inline-form">
        <Choice label="Job family" value={family} onChange={setFamily} options={catalog.map((entry) => ({ id: entry.upstreamId, label: entry.displayString }))} />
        <Choice label="Compensation" value={compensationType} onChange={setCompensationType} options={compTypes.map((type) => ({ id: type.id, label: type.title }))} />
        <Choice label="Compared with" value={reference} onChange={setReference} options={[...tierIds, ...(held.has('150') ? ['150'] : [])].map((id) => ({ id, label: name(id) }))} />
      </div>
      <Pills
        legend="Levels"
        options={filters.levelsWithIds.levelTracks.flatMap((track) => track.levels).map((level) => ({ id: level.id, label: level.displayString }))}
        chosen={levels}
        onToggle={(id) => setLevels(toggle(levels, id))}
      />
      <Pills legend="Locations" options={tierIds.filter((id) => id !== reference).map((id) => ({ id, label: name(id) }))} chosen={places} onToggle={(id) => setPlaces(toggle(places, id))} />
      {!request && <p className="muted">Choose at least one level and one location.</p>}
      {insights.error && <p role="alert">{errorMessage(insights.error)}</p>}
      {request && !insights.data && !insights.error && <FullSizeSpinner loading label="Comparing locations" />}
      {insights.data && (
        <section aria-label="Location differentials">
          <p className="muted">
            Market release {insights.data.releaseVersion} · {name(insights.data.compensationTypeId)} medians in US dollars against {insights.data.referenceLocation.name}
            {insights.data.synthetic.used ? ` · ${insights.data.synthetic.label}` : ''}.
          </p>
          <div className="insight-rows">
            {insights.data.rows.map((row) => (
              <article key={`${row.jobFamilyId}|${row.levelId}`} className="card insight" data-level={row.levelId}>
                <h2>
                  {name(row.jobFamilyId)} · {name(row.levelId)}
                </h2>
                <p className="muted small-text">
                  {row.reference.locationName}:{' '}
                  {row.reference.p50 === null ? (row.reference.label ?? 'Insufficient data') : formatValue(row.reference.p50, 'currency', 'USD')}
                </p>
                <ul className="differentials">
                  {row.locations.map((cell) => (
                    <li key={cell.locationId} data-location={cell.locationId} data-status={cell.status}>
                      <span className="place">{cell.locationName}</span>
                      {cell.p50 === null || cell.differentialPercent === null ? (
                        <span className="insufficient-text">
                          {cell.label ?? 'Insufficient data'}
                          {cell.insufficientReason ? ` — ${cell.insufficientReason}` : ''}
                        </span>
                      ) : (
                        <>
                          <span className="number">{formatValue(cell.p50, 'currency', 'USD')}</span>
                          <span className={cell.differentialPercent >= 0 ? 'differential up' : 'differential down'}>{percent(cell.differentialPercent)}</span>
                          {cell.status === 'synthetic' && <span className="badge">{cell.label ?? 'estimate'}</span>}
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              </article>
            ))}
          </div>
        </section>
      )}
    </BenchmarkingFrame>
  );
}

function ShareList({ title, shares }: { title: string; shares: PracticeShare[] | null }) {
  if (!shares || shares.length === 0) return null;
  return (
    <section className="card practice" aria-label={title}>
      <h3>{title}</h3>
      <ul className="share-list">
        {shares.map((share) => (
          <li key={share.id}>
            <span className="share-name">{share.displayString}</span>
            <span className="share-track" aria-hidden="true">
              <span className="share-bar" style={{ width: `${Math.min(100, share.share * 100)}%` }} />
            </span>
            <span className="number">{Math.round(share.share * 100)}%</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What equity practices answer, shared by the benchmarking screen and the tour. */
export function EquityPracticesView({ practices }: { practices: EquityPractices }) {
  if (practices.status !== 'published') {
    return (
      <section className="panel insufficient-panel" data-status={practices.status}>
        <h2>{practices.label ?? 'Insufficient data'}</h2>
        <p>{practices.insufficientReason ?? 'Too few companies match.'}</p>
        <p className="muted">{sampleText(practices.sample)}</p>
      </section>
    );
  }
  return (
    <div className="practices">
      <p className="lede">
        Market release {practices.releaseVersion} · {practices.sample.companyBucket.label} companies
        {practices.equityProgrammeShare !== null ? ` · ${Math.round(practices.equityProgrammeShare * 100)}% of them grant equity` : ''}.
      </p>
      <div className="practice-grid">
        <ShareList title="Vesting schedules" shares={practices.vestingSchedules} />
        <ShareList title="Cliffs" shares={practices.cliffs} />
        <ShareList title="Vesting frequency" shares={practices.vestingFrequencies} />
        <ShareList title="Grant types" shares={practices.grantTypes} />
        <ShareList title="Grant timing (a company may use several)" shares={practices.grantTiming} />
      </div>
    </div>
  );
}

export function useEquityPractices(request: EquityPracticesRequest | null) {
  const answer = usePostQuery('/api/benchmarking/equity-practices', request);
  return { data: answer.data?.data, error: answer.error };
}

/** /benchmarkingsurvey/equity-practices: how companies like yours grant equity. */
export function EquityPracticesScreen() {
  const { filters, error } = useBenchmarkingCatalog();
  const [stages, setStages] = useState<string[] | null>(null);
  const [ownership, setOwnership] = useState<string[] | null>(null);
  const [industries, setIndustries] = useState<string[] | null>(null);
  const allStages = filters?.companyStagesWithIds.map((stage) => stage.id) ?? [];
  const allOwnership = filters?.companyOwnershipGroupsWithIds.map((group) => group.id) ?? [];
  const allIndustries = filters?.industriesAndSubIndustriesWithIds.map((industry) => industry.upstreamId) ?? [];
  const chosen = { companyStages: stages ?? allStages, companyOwnershipGroups: ownership ?? allOwnership, industries: industries ?? allIndustries };
  const ready = Boolean(filters) && chosen.companyStages.length > 0 && chosen.companyOwnershipGroups.length > 0 && chosen.industries.length > 0;
  const practices = useEquityPractices(ready ? chosen : null);
  if (error) return <p role="alert">{errorMessage(error)}</p>;
  if (!filters) return <FullSizeSpinner loading />;
  return (
    <BenchmarkingFrame>
      <h1>Equity practices</h1>
      <Pills legend="Company stages" options={filters.companyStagesWithIds.map((o) => ({ id: o.id, label: o.displayString }))} chosen={chosen.companyStages} onToggle={(id) => setStages(toggle(chosen.companyStages, id))} />
      <Pills legend="Ownership" options={filters.companyOwnershipGroupsWithIds.map((o) => ({ id: o.id, label: o.displayString }))} chosen={chosen.companyOwnershipGroups} onToggle={(id) => setOwnership(toggle(chosen.companyOwnershipGroups, id))} />
      <Pills legend="Industries" options={filters.industriesAndSubIndustriesWithIds.map((o) => ({ id: o.upstreamId, label: o.displayString }))} chosen={chosen.industries} onToggle={(id) => setIndustries(toggle(chosen.industries, id))} />
      {!ready && <p role="alert">Please select at least one company stage, ownership group and industry.</p>}
      {practices.error && <p role="alert">{errorMessage(practices.error)}</p>}
      {ready && !practices.data && !practices.error && <FullSizeSpinner loading />}
      {practices.data && <EquityPracticesView practices={practices.data} />}
    </BenchmarkingFrame>
  );
}
