import type { components } from '../../../../openapi.d.ts';
import { Badge } from '../../ui/Badge';
import { formatDate } from '../../ui/format';
import { type PostingLocation, rangeText } from './common';

type Finding = components['schemas']['JobPostingFinding'];

const STATUS_ORDER = { fails: 0, notApplicable: 1, meets: 2 } as const;
const STATUS_TEXT = { fails: 'Fails', notApplicable: 'Does not apply', meets: 'Meets' } as const;
const STATUS_TONE = { fails: 'danger', notApplicable: 'neutral', meets: 'success' } as const;

/** One rule at one place (or hiring region): its law and source said once, then each thing it asks and whether the posting meets it. */
export function Findings({ findings, places }: { findings: readonly Finding[]; places: readonly PostingLocation[] }) {
  if (!findings.length) return <p>No pay-transparency rule of the data set covers these places.</p>;
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = `${finding.ruleId}|${finding.locationKey ?? 'remote'}`;
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  const worst = (list: readonly Finding[]) => Math.min(...list.map((finding) => STATUS_ORDER[finding.status]));
  // What fails first, then the rules that do not apply, then those met.
  const sorted = [...groups.values()].sort((a, b) => worst(a) - worst(b));
  return (
    <ul className="posting-findings" aria-label="Rule checks">
      {sorted.map((list) => {
        const first = list[0];
        if (!first) return null;
        const status = list.some((finding) => finding.status === 'fails') ? 'fails' : list.every((finding) => finding.status === 'notApplicable') ? 'notApplicable' : 'meets';
        const place = first.locationKey === null ? 'a hiring region' : places.find((location) => location.key === first.locationKey)?.name;
        return (
          <li key={`${first.ruleId}-${first.locationKey ?? 'remote'}`} className={status}>
            <span>
              <strong>{first.jurisdiction}</strong>
              {place && place !== first.jurisdiction && <> · {place}</>}
              {!first.inForce && <> (from {formatDate(first.effectiveDate)})</>}
            </span>
            <ul className="posting-requirements">
              {list.map((finding, index) => (
                <li key={`${finding.requirement}-${index}`}>
                  <Badge tone={STATUS_TONE[finding.status]}>{STATUS_TEXT[finding.status]}</Badge> <span>{finding.message}</span>
                </li>
              ))}
            </ul>
            <small>
              {first.law} ·{' '}
              {first.sourceUrl ? (
                <a href={first.sourceUrl} target="_blank" rel="noreferrer">
                  {first.sourceName}
                </a>
              ) : (
                first.sourceName
              )}
            </small>
          </li>
        );
      })}
    </ul>
  );
}

export function PlacePreview({ location }: { location: PostingLocation }) {
  return (
    <article data-place={location.name}>
      <h3>
        {location.name} {location.outOfBand && <Badge tone="warning">Beyond the band</Badge>}
      </h3>
      <p className="posting-band">
        Pay zone: {location.payZoneName ?? '—'} · Band: {rangeText(location.band)} · Posted: <span data-testid="posted-range">{rangeText(location.range)}</span>
      </p>
      <p className="posting-text">{location.payText}</p>
    </article>
  );
}
