import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { BarChart, colourOf } from '../../ui/charts';
import { DataTable } from '../../ui/DataTable';
import { majorOf } from '../../ui/format';
import { Section } from '../../ui/Page';
import { useToasts } from '../../ui/Toasts';
import { type BandSetDetail, type CompanyJob, type PayZone, Problem, type Schemas, formatMoney, formatNumber, levelRank, refreshBands, useBandsMutation } from './common';

type Change = Schemas['BandSmoothResult']['changes'][number];
type Ladder = Schemas['BandSmoothResult']['ladders'][number];
type Curve = Schemas['BandSmoothResult']['curve'];

interface SmoothingProps {
  bandSet: BandSetDetail;
  jobs: CompanyJob[];
  zones: PayZone[];
  trackName: (trackId: string) => string;
}

interface Preview {
  curve: Curve;
  progressionPercent: number | null;
  ladders: Ladder[];
  changes: Change[];
}

const ladderKey = (entry: { jobFamilyId: string; trackId: string; payZoneId: string }) => `${entry.jobFamilyId}|${entry.trackId}|${entry.payZoneId}`;

/** A progression as people read it: 13.8%, 10%. */
const percentText = (percent: number) => `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(percent)}%`;

/** What a smoothing does, said the same way in the preview and after applying it. */
const curveText = (preview: Pick<Preview, 'curve' | 'progressionPercent'>) =>
  preview.curve === 'fitted' || preview.progressionPercent === null ? 'each ladder’s own fitted curve' : `${percentText(preview.progressionPercent)} a level`;

/** What one ladder's midpoints fit, and what it is smoothed to. */
function ladderText(ladder: Ladder | undefined): string | null {
  if (!ladder) return null;
  if (ladder.fittedPercent === null) return 'This ladder has one priced level: there is no progression to fit.';
  const fitted = `This ladder’s midpoints fit ${percentText(ladder.fittedPercent)} a level`;
  if (ladder.progressionPercent === null || ladder.progressionPercent === ladder.fittedPercent) return `${fitted}.`;
  return `${fitted}; it is smoothed to ${percentText(ladder.progressionPercent)}.`;
}

/** From → to, said once for sight and screen readers alike. */
const fromTo = (from: Schemas['Money'], to: Schemas['Money']) => (from.amount === to.amount ? formatMoney(to) : `${formatMoney(from)} → ${formatMoney(to)}`);

/**
 * Autosmoothing: midpoints fitted per family × track × zone to a progression the user chooses, or to
 * the curve each ladder's own midpoints fit. A preview shows the midpoints of a ladder before and
 * after, and every change; nothing is written until it is applied.
 */
export function Smoothing({ bandSet, jobs, zones, trackName }: SmoothingProps) {
  const { add } = useToasts();
  const [curve, setCurve] = useState<Curve>('progression');
  const [progression, setProgression] = useState('10');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [ladder, setLadder] = useState<string>('');
  const { run, busy, problem, setProblem } = useBandsMutation();
  const jobById = new Map(jobs.map((job) => [job.id, job]));
  const zoneById = new Map(zones.map((zone) => [zone.id, zone]));

  async function smooth(apply: boolean, chosen: Pick<Preview, 'curve' | 'progressionPercent'>) {
    setProblem(null);
    const body = chosen.curve === 'fitted' || chosen.progressionPercent === null ? { curve: 'fitted' as const, apply } : { curve: 'progression' as const, progressionPercent: chosen.progressionPercent, apply };
    const answer = await run(() => api.POST('/api/bands/band-sets/{bandSetId}/smooth', { params: { path: { bandSetId: bandSet.id } }, body }));
    if (!answer.ok) return;
    const data = answer.data;
    if (!apply) {
      setPreview({ curve: data.data.curve, progressionPercent: data.data.progressionPercent, ladders: data.data.ladders, changes: data.data.changes });
      setLadder(data.data.changes[0] ? ladderKey(data.data.changes[0]) : '');
      return;
    }
    setPreview(null);
    add('success', `Smoothed ${formatNumber(data.data.changes.length)} bands to ${curveText(data.data)}.`);
    await refreshBands();
  }

  function chooseCurve(next: Curve) {
    setCurve(next);
    setPreview(null);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (curve === 'fitted') return void smooth(false, { curve, progressionPercent: null });
    const percent = Number(progression);
    if (!Number.isFinite(percent) || percent < 1 || percent > 50) {
      setProblem({ message: 'The progression is a percent from 1 to 50.', fields: [] });
      return;
    }
    void smooth(false, { curve, progressionPercent: percent });
  }

  const ladders = preview ? [...new Map(preview.changes.map((change) => [ladderKey(change), change])).values()] : [];
  const ladderName = (change: Change) => `${jobById.get(change.companyJobId)?.jobFamilyName ?? change.jobFamilyId} · ${trackName(change.trackId)} · ${zoneById.get(change.payZoneId)?.name ?? ''}`;
  const chosen = ladders.find((change) => ladderKey(change) === ladder) ?? ladders[0];
  const chosenLadder = preview && chosen ? preview.ladders.find((entry) => ladderKey(entry) === ladderKey(chosen)) : undefined;

  return (
    <Section title="Smooth the midpoints" id="smooth-heading">
      <p className="bands-muted">
        Fits each family’s midpoints, level by level, to a steady progression in every zone: one you choose, or the curve each ladder’s own midpoints fit best. No level ends at or below the
        one under it.
      </p>
      <form className="bands-inline" onSubmit={submit} aria-labelledby="smooth-heading">
        <fieldset className="bands-width">
          <legend>Curve</legend>
          <label className="inline-check">
            <input type="radio" name="smoothingCurve" checked={curve === 'progression'} onChange={() => chooseCurve('progression')} />A progression I choose
          </label>
          <label className="inline-check">
            <input type="radio" name="smoothingCurve" checked={curve === 'fitted'} onChange={() => chooseCurve('fitted')} />
            Each ladder’s fitted curve
          </label>
        </fieldset>
        {curve === 'progression' && (
          <label>
            Progression per level (%)
            <input
              type="number"
              inputMode="decimal"
              min={1}
              max={50}
              step="any"
              value={progression}
              onChange={(event) => {
                setProgression(event.target.value);
                setPreview(null);
              }}
              required
            />
          </label>
        )}
        <button type="submit" disabled={busy}>
          Preview smoothing
        </button>
      </form>
      <Problem message={problem?.message ?? null} fields={problem?.fields} />
      {preview && preview.changes.length === 0 && (
        <p role="status" data-testid="smoothing-preview">
          {preview.curve === 'fitted' ? 'Nothing to change: every ladder already follows its fitted curve.' : `Nothing to change: every ladder already steps by ${curveText(preview)}.`}
        </p>
      )}
      {preview && preview.changes.length > 0 && chosen && (
        <div className="bands-preview" data-testid="smoothing-preview">
          <p role="status">
            Smoothing to {curveText(preview)} changes {formatNumber(preview.changes.length)} bands. Nothing is saved until you apply it.
          </p>
          {ladders.length > 1 && (
            <label className="bands-ladder-pick">
              Ladder shown in the chart
              <select value={ladderKey(chosen)} onChange={(event) => setLadder(event.target.value)}>
                {ladders.map((change) => (
                  <option key={ladderKey(change)} value={ladderKey(change)}>
                    {ladderName(change)}
                  </option>
                ))}
              </select>
            </label>
          )}
          {ladderText(chosenLadder) && <p data-testid="smoothing-ladder">{ladderText(chosenLadder)}</p>}
          <div className="bands-preview-body">
            <LadderChart bandSet={bandSet} chosen={chosen} changes={preview.changes} title={`Midpoints by level, before and after: ${ladderName(chosen)}`} />
            <DataTable
              caption={`The ${formatNumber(preview.changes.length)} changes`}
              className="table-scroll compact bands-changes"
              regionLabel="Changes the smoothing would make"
              rows={preview.changes}
              rowKey={(change) => change.bandId}
              cardsOnPhone
              columns={[
                { key: 'job', header: 'Company job', rowHeader: true, cell: (change) => jobById.get(change.companyJobId)?.title ?? change.levelId },
                { key: 'zone', header: 'Pay zone', cell: (change) => zoneById.get(change.payZoneId)?.name ?? '' },
                { key: 'mid', header: 'Midpoint', numeric: true, cell: (change) => fromTo(change.from.mid, change.to.mid) },
                { key: 'range', header: 'Range after', numeric: true, cell: (change) => `${formatMoney(change.to.min)} – ${formatMoney(change.to.max)}` },
              ]}
            />
          </div>
          <div className="actions">
            <button type="button" className="primary" disabled={busy} onClick={() => void smooth(true, preview)}>
              Apply smoothing
            </button>
            <button type="button" onClick={() => setPreview(null)}>
              Discard preview
            </button>
          </div>
        </div>
      )}
    </Section>
  );
}

/** One ladder's midpoints by level: as they are, and as the smoothing would leave them. */
function LadderChart({ bandSet, chosen, changes, title }: { bandSet: BandSetDetail; chosen: Change; changes: Change[]; title: string }) {
  const after = new Map(changes.map((change) => [change.bandId, change.to.mid]));
  const ladder = bandSet.bands.filter((band) => ladderKey(band) === ladderKey(chosen)).sort((a, b) => levelRank(a.levelId) - levelRank(b.levelId));
  return (
    <BarChart
      title={title}
      categoryKey="level"
      categoryLabel="Level"
      orientation="columns"
      unit={{ kind: 'money', currency: chosen.to.mid.currency }}
      series={[
        { key: 'before', label: 'Before', colour: colourOf('base'), opacity: 0.45 },
        { key: 'after', label: 'After', colour: colourOf('base') },
      ]}
      data={ladder.map((band) => ({ level: band.levelId.toUpperCase(), before: majorOf(band.mid), after: majorOf(after.get(band.id) ?? band.mid) }))}
    />
  );
}
