import { useState } from 'react';
import { Link } from 'wouter';
import { errorMessage, useQuery } from '../../api/client';
import { ClickableBox } from '../../ui/ClickableBox';
import { useDebounced } from '../../ui/hooks';
import { FullSizeSpinner } from '../../ui/Spinner';
import { sampleText, useBenchmarkingCatalog } from './data';
import { BenchmarkingFrame, ExplorerSteps } from './Frame';
import { toggle } from './selection';
import { useSelection } from './useSelection';
import './benchmarking.css';

const TRACK_STATUS: Record<string, string> = {
  in_catalog_searchable: 'searchable',
  in_catalog_not_searchable: 'in the catalog, not searchable',
  not_in_catalog: 'not in the catalog',
};

/**
 * /benchmarkingsurvey/data-explorer/search: job families by name, description or the titles people
 * hire for. The server's fuzzy search ranks them (threshold 0.6, distance 100).
 */
export function FamilySearchScreen() {
  const { filters } = useBenchmarkingCatalog();
  const [selection, setSelection, { query }] = useSelection(filters);
  const [text, setText] = useState('');
  const search = useDebounced(text.trim(), 200);
  const results = useQuery('/api/benchmarking/job-catalog', { params: { query: search ? { search } : {} } });
  // A family blend's members, by name: what choosing the blend brings in.
  const families = useQuery('/api/benchmarking/catalog/families');
  const familyName = new Map((families.data?.data.jobFamilies ?? []).map((family) => [family.id, family.name]));
  const membersOf = new Map((families.data?.data.familyBlendGroups ?? []).map((group) => [group.id, group.associatedFamilies.map((id) => familyName.get(id) ?? id)]));
  const chosen = selection?.jobFamilies ?? [];
  if (!selection) return <FullSizeSpinner loading label="Loading the filters" />;
  return (
    <BenchmarkingFrame>
      <h1>Job families</h1>
      <ExplorerSteps />
      <div className="search-bar">
        <label className="search">
          Search by family or job title
          <input type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="e.g. frontend developer" autoFocus />
        </label>
        <Link href={`/benchmarkingsurvey/data-explorer${query}`} className="button primary">
          Done ({chosen.length} chosen)
        </Link>
      </div>
      {results.error && <p role="alert">{errorMessage(results.error)}</p>}
      {results.data && results.data.data.length === 0 && <p className="muted">No job family matches “{search}”.</p>}
      <ul className="family-results" aria-label="Job families found" aria-busy={results.isLoading || search !== text.trim()} data-search={results.data ? search : undefined}>
        {results.data?.data.map((entry) => {
          const selected = chosen.includes(entry.upstreamId);
          return (
            <li key={entry.upstreamId}>
              <ClickableBox
                pressed={selected}
                label={`${entry.displayString}${entry.entityType === 'family_blend_group' ? ' (family blend)' : ''}`}
                onActivate={() => setSelection({ ...selection, jobFamilies: toggle(selection.jobFamilies, entry.upstreamId) })}
              >
                <div className="family-card-head">
                  <strong>{entry.displayString}</strong>
                  {entry.entityType === 'family_blend_group' && <span className="badge">Family blend</span>}
                  <span className="check-mark" aria-hidden="true">
                    {selected ? '✓ Chosen' : 'Choose'}
                  </span>
                </div>
                <p>{entry.jobFamilyMatchingTip || entry.description}</p>
                {entry.entityType === 'family_blend_group' && membersOf.get(entry.upstreamId) && (
                  <p className="small-text" data-testid="blend-members">
                    Unites {membersOf.get(entry.upstreamId)?.join(', ')}
                  </p>
                )}
                <p className="muted small-text">
                  {sampleText(entry.coverage.sampleSize)}
                  {entry.trackSupport.length > 0 &&
                    ` · ${entry.trackSupport
                      .filter((track) => track.status === 'in_catalog_searchable')
                      .map((track) => track.displayString)
                      .join(', ')}`}
                </p>
                {entry.trackSupport.some((track) => track.status !== 'in_catalog_searchable') && (
                  <p className="muted small-text">
                    {entry.trackSupport
                      .filter((track) => track.status !== 'in_catalog_searchable')
                      .map((track) => `${track.displayString}: ${TRACK_STATUS[track.status] ?? track.status}`)
                      .join(' · ')}
                  </p>
                )}
              </ClickableBox>
            </li>
          );
        })}
      </ul>
    </BenchmarkingFrame>
  );
}
