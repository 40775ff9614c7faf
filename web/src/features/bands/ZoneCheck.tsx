import { TriangleAlert } from 'lucide-react';
import { api, useQuery } from '../../api/client';
import { useToasts } from '../../ui/Toasts';
import { Problem, type Schemas, formatDifferential, formatNumber, refreshBands, useBandsAccess, useBandsMutation } from './common';

type Mismatch = Schemas['PayZoneMismatch'];

const people = (count: number): string => `${formatNumber(count)} ${count === 1 ? 'person' : 'people'}`;

/** One country's people in a zone priced elsewhere: counts by metro, the names the reader may see, the zone to add. */
function Group({ group, pricedIn }: { group: Mismatch; pricedIn: string }) {
  const { suggestion } = group;
  const hidden = group.count - group.employees.length;
  return (
    <li className="bands-zone-group" data-country={group.country}>
      <p className="bands-zone-group-title">
        <strong>{group.countryName}</strong>: {people(group.count)} in “{group.zoneName}”, priced for {pricedIn}
      </p>
      <p className="bands-muted">{group.metros.map((metro) => `${metro.name} ${formatNumber(metro.count)}`).join(' · ')}</p>
      {group.employees.length > 0 && (
        <details>
          <summary>Who they are{hidden > 0 ? ` (${formatNumber(group.employees.length)} you may see)` : ''}</summary>
          <ul className="bands-zone-people">
            {group.employees.map((person) => (
              <li key={person.employeeId}>
                {person.name}
                {person.locationName ? `, ${person.locationName}` : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
      <p className="bands-muted">
        {suggestion.differentialBp === null
          ? suggestion.reason
          : `Suggested zone “${suggestion.name}”: ${formatDifferential(suggestion.differentialBp)} against ${pricedIn} (the market’s pay index for ${suggestion.basis ?? group.countryName})${suggestion.currency ? `, paid in ${suggestion.currency}` : ''}.`}
      </p>
    </li>
  );
}

/**
 * The people whose pay zone is priced for another country (Londoners in a catch-all priced in the
 * US), with the zones to add in one click. Nothing shows while every zone fits its people.
 */
export function ZoneCheck({ marketLocationId, after, level = 2 }: { marketLocationId?: string; after?: string; level?: 2 | 3 }) {
  const access = useBandsAccess();
  const { add } = useToasts();
  const check = useQuery('/api/bands/zone-check', { params: { query: marketLocationId ? { marketLocationId } : {} } });
  const { run, busy, problem } = useBandsMutation();
  const data = check.data?.data;
  if (!data || data.total === 0) return null;
  const pricedIn = data.marketLocation.name;
  const Heading = level === 2 ? 'h2' : 'h3';
  const addable = data.groups.filter((group) => group.suggestion.differentialBp !== null);

  async function addZones() {
    const answer = await run(() => api.POST('/api/bands/zone-check/suggested-zones', { body: marketLocationId ? { marketLocationId } : {} }));
    if (!answer.ok) return;
    const result = answer.data;
    await refreshBands();
    const names = result.data.created.map((zone) => `“${zone.name}”`).join(', ');
    add('success', `Added the pay ${result.data.created.length === 1 ? 'zone' : 'zones'} ${names}.${after ? ` ${after}` : ''}`);
  }

  return (
    <section className="bands-zone-check" aria-labelledby="zone-check-heading" data-testid="zone-check">
      <Heading id="zone-check-heading">
        <TriangleAlert size={18} aria-hidden="true" /> {people(data.total)} {data.total === 1 ? 'is' : 'are'} in a pay zone priced for another country
      </Heading>
      <p>Their bands are priced for {pricedIn}, so they look far below or above them. Add a pay zone for their country, priced from the market, and build the set again.</p>
      <ul className="bands-zone-groups">
        {data.groups.map((group) => (
          <Group key={`${group.zoneId}|${group.country}`} group={group} pricedIn={pricedIn} />
        ))}
      </ul>
      <Problem message={problem?.message ?? null} />
      {access.edit && addable.length > 0 ? (
        <div className="actions">
          <button type="button" className="primary" disabled={busy} onClick={() => void addZones()}>
            {addable.length === 1 ? `Add the zone for ${addable[0]?.countryName ?? 'them'}` : `Add the ${formatNumber(addable.length)} missing zones`}
          </button>
        </div>
      ) : (
        !access.edit && <p className="bands-muted">Adding pay zones needs the bands edit permission over every zone.</p>
      )}
    </section>
  );
}
