import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { Section } from '../../ui/Page';
import { useToasts } from '../../ui/Toasts';
import { ZoneCheck } from './ZoneCheck';
import { type BandSetDetail, type CompanyJob, type MarketPercentile, PERCENTILES, Problem, ROUNDINGS, type Schemas, formatNumber, refreshBands, useBandsMutation } from './common';

type BuildResult = Schemas['BandBuildResult'];
type Philosophy = Schemas['BandPhilosophyInput'];

interface BuildProps {
  bandSet: BandSetDetail;
  jobs: CompanyJob[];
  locations: { id: string; name: string }[];
  name: (id: string) => string;
}

const isPercentile = (value: number): value is MarketPercentile => (PERCENTILES as readonly number[]).includes(value);
const isRounding = (value: number): value is Schemas['BandRounding'] => (ROUNDINGS as readonly number[]).includes(value);

/** A select's value, kept only when it is one of the contract's choices. */
function pick<T extends number>(text: string, is: (value: number) => value is T, set: (value: T) => void): void {
  const value = Number(text);
  if (is(value)) set(value);
}

/** What a build answered: how many bands, and the jobs the market could not price (never an invented band). */
function BuildOutcome({ result, jobs, name }: { result: BuildResult; jobs: CompanyJob[]; name: (id: string) => string }) {
  const titleOf = new Map(jobs.map((job) => [job.id, job.title]));
  return (
    <div className="bands-outcome" role="status">
      <p data-testid="build-outcome">
        Built {formatNumber(result.built)} bands at p{result.bandSet.philosophy?.targetPercentile ?? '—'}.{' '}
        {result.bandSet.philosophy?.equityPercentile !== undefined && result.equityWithheld.length > 0
          ? `${formatNumber(result.equityWithheld.length)} ${result.equityWithheld.length === 1 ? 'job has' : 'jobs have'} no equity range: the market has no equity figure for ${result.equityWithheld.length === 1 ? 'it' : 'them'}. `
          : ''}
        {result.withheld.length === 0
          ? 'The market priced every company job.'
          : `${formatNumber(result.withheld.length)} ${result.withheld.length === 1 ? 'company job has' : 'company jobs have'} no band: the market withholds ${result.withheld.length === 1 ? 'its cell' : 'their cells'}.`}
      </p>
      {(result.gradeBandsBuilt > 0 || result.gradesWithheld.length > 0) && (
        <p data-testid="build-grades">
          {result.gradeBandsBuilt > 0 ? `Built ${formatNumber(result.gradeBandsBuilt)} grade ${result.gradeBandsBuilt === 1 ? 'band' : 'bands'} from the mean of each grade’s priced jobs. ` : ''}
          {result.gradesWithheld.map((entry) => `Grade ${entry.gradeKey}: ${entry.reason}.`).join(' ')}
        </p>
      )}
      {result.zoneCheck.total > 0 && (
        <p data-testid="build-zone-check">
          {formatNumber(result.zoneCheck.total)} {result.zoneCheck.total === 1 ? 'person is' : 'people are'} in a pay zone priced for {result.zoneCheck.marketLocation.name}:{' '}
          {result.zoneCheck.groups.map((group) => `${group.countryName} ${formatNumber(group.count)}`).join(', ')}. See below.
        </p>
      )}
      {result.withheld.length > 0 && (
        <ul className="bands-withheld" aria-label="Company jobs the market could not price">
          {result.withheld.map((entry) => (
            <li key={entry.companyJobId}>
              <strong>{titleOf.get(entry.companyJobId) ?? `${name(entry.jobFamilyId)} ${name(entry.levelId)}`}</strong> in {name(entry.locationId)}: {entry.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Builds a draft from market data by a philosophy (target percentile, width, rounding, location),
 * and aligns an already built one to another percentile by building it again. A build replaces the
 * draft's bands, hand edits included.
 */
export function BuildForm({ bandSet, jobs, locations, name }: BuildProps) {
  const { add } = useToasts();
  const philosophy = bandSet.philosophy;
  const [percentile, setPercentile] = useState<MarketPercentile>(philosophy?.targetPercentile ?? 50);
  const [widthKind, setWidthKind] = useState<'plusMinus' | 'spread'>(philosophy?.width.kind ?? 'plusMinus');
  const [widthPercent, setWidthPercent] = useState(String(philosophy?.width.percent ?? 20));
  const [rounding, setRounding] = useState<Schemas['BandRounding']>(philosophy?.rounding ?? 1000);
  const [location, setLocation] = useState(philosophy?.marketLocationId ?? '');
  const [bonus, setBonus] = useState(philosophy?.bonusTargetPercent !== undefined ? String(philosophy.bonusTargetPercent) : '');
  // '' builds no equity range; a percentile prices one from the market's equity.
  const [equity, setEquity] = useState(philosophy?.equityPercentile !== undefined ? String(philosophy.equityPercentile) : '');
  const [alignTo, setAlignTo] = useState<MarketPercentile>(philosophy?.targetPercentile === 75 ? 50 : 75);
  const { run, busy, problem, setProblem } = useBandsMutation();
  const [result, setResult] = useState<BuildResult | null>(null);

  async function build(body: Philosophy) {
    setProblem(null);
    const answer = await run(() => api.POST('/api/bands/band-sets/{bandSetId}/build', { params: { path: { bandSetId: bandSet.id } }, body }));
    if (!answer.ok) return setResult(null);
    const data = answer.data;
    setResult(data.data);
    add('success', `Built ${formatNumber(data.data.built)} bands.`);
    await refreshBands();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const percent = Number(widthPercent);
    if (widthPercent.trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > 200) {
      setProblem({ message: 'The width is a percent from 0 to 200.', fields: [] });
      return;
    }
    const bonusPercent = Number(bonus);
    if (bonus.trim() !== '' && (!Number.isFinite(bonusPercent) || bonusPercent < 0 || bonusPercent > 1000)) {
      setProblem({ message: 'The bonus target is a percent of base from 0 to 1,000.', fields: [] });
      return;
    }
    const equityPercentile = Number(equity);
    void build({
      targetPercentile: percentile,
      width: { kind: widthKind, percent },
      rounding,
      ...(location ? { marketLocationId: location } : {}),
      ...(bonus.trim() !== '' ? { bonusTargetPercent: bonusPercent } : {}),
      ...(equity && isPercentile(equityPercentile) ? { equityPercentile } : {}),
    });
  }

  function align(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!philosophy) return;
    setPercentile(alignTo);
    void build({ ...philosophy, targetPercentile: alignTo });
  }

  const sortedLocations = [...locations].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Section title="Build from market data" id="build-heading">
      <p className="bands-muted">
        Each company job’s midpoint is the market’s percentile of base salary for its family and level; every pay zone applies its differential.
        {bandSet.bands.length > 0 && ' Building again replaces this draft’s bands, hand edits included.'}
      </p>
      <form className="bands-build" onSubmit={submit} aria-labelledby="build-heading">
        <div className="bands-fields">
          <label>
            Target percentile
            <select value={percentile} onChange={(event) => pick(event.target.value, isPercentile, setPercentile)}>
              {PERCENTILES.map((value) => (
                <option key={value} value={value}>
                  p{value}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="bands-width">
            <legend>Width</legend>
            <label className="inline-check">
              <input type="radio" name="widthKind" checked={widthKind === 'plusMinus'} onChange={() => setWidthKind('plusMinus')} />± % around the midpoint
            </label>
            <label className="inline-check">
              <input type="radio" name="widthKind" checked={widthKind === 'spread'} onChange={() => setWidthKind('spread')} />
              Spread: (max − min) ÷ min
            </label>
            <label>
              Width in percent
              <input type="number" inputMode="decimal" min={0} max={200} step="any" value={widthPercent} onChange={(event) => setWidthPercent(event.target.value)} required />
            </label>
          </fieldset>
          <label>
            Rounding
            <select value={rounding} onChange={(event) => pick(event.target.value, isRounding, setRounding)}>
              {ROUNDINGS.map((value) => (
                <option key={value} value={value}>
                  Nearest {value.toLocaleString()}
                </option>
              ))}
            </select>
          </label>
          <label>
            Market location
            <select value={location} onChange={(event) => setLocation(event.target.value)}>
              <option value="">The anchor zone’s country (else the United States)</option>
              {sortedLocations.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Bonus target % (optional)
            <input type="number" inputMode="decimal" min={0} max={1000} step="any" value={bonus} onChange={(event) => setBonus(event.target.value)} />
          </label>
          <label>
            Equity range
            <select value={equity} onChange={(event) => setEquity(event.target.value)}>
              <option value="">None</option>
              {PERCENTILES.map((value) => (
                <option key={value} value={value}>
                  Market equity at p{value}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy || jobs.length === 0}>
            {bandSet.bands.length > 0 ? 'Rebuild bands' : 'Build bands'}
          </button>
        </div>
      </form>
      {philosophy && (
        <form className="bands-align" onSubmit={align} aria-label="Align every band to another percentile">
          <label>
            Align every band to
            <select value={alignTo} onChange={(event) => pick(event.target.value, isPercentile, setAlignTo)}>
              {PERCENTILES.map((value) => (
                <option key={value} value={value}>
                  p{value}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy}>
            Align to p{alignTo}
          </button>
          <p className="bands-muted">Builds again with the same width, rounding and location.</p>
        </form>
      )}
      {busy && (
        <p className="bands-muted" role="status">
          Building…
        </p>
      )}
      <Problem message={problem?.message ?? null} fields={problem?.fields} />
      {result && <BuildOutcome result={result} jobs={jobs} name={name} />}
      <ZoneCheck marketLocationId={philosophy?.marketLocationId} after="Rebuild the bands to price their people in them." level={3} />
    </Section>
  );
}
