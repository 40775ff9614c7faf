import { type FormEvent, Fragment, useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { type VersionedWrite, useVersionedSave } from '../../api/queries';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { type BandSetDetail, type Money, type PayZone, Problem, type Schemas, currenciesText, fieldProblems, formatMoney, formatNumber, refreshBands, toMajorText, toMinor, zoneCurrency } from './common';

type Grade = Schemas['CompGrade'];
type GradeBand = Schemas['GradeBand'];
type Ranges = Schemas['BandRanges'];

// ── ranges: variable, bonus target, equity ───────────────────────────────────────────────────

/** A band's ranges in words ("Bonus 15% (10–20%) · Variable $22,500 · Equity 800–1,200 shares"); '' when it has none. */
export function rangesText(ranges: Ranges | null | undefined, currency: string): string {
  if (!ranges) return '';
  const parts: string[] = [];
  const bonus = ranges.bonusTargetPercent;
  if (bonus) parts.push(`Bonus ${bonus.target}%${bonus.min !== undefined && bonus.min !== null && bonus.max !== undefined && bonus.max !== null ? ` (${bonus.min}–${bonus.max}%)` : ''}`);
  if (ranges.variableTarget) parts.push(`Variable ${formatMoney(ranges.variableTarget)}`);
  const equity = ranges.equity;
  if (equity) {
    parts.push(
      equity.unit === 'shares'
        ? `Equity ${formatNumber(equity.min)}–${formatNumber(equity.max)} shares`
        : `Equity ${formatMoney({ amount: equity.min, currency })}–${formatMoney({ amount: equity.max, currency })}${equity.percentile ? ` (p${equity.percentile})` : ''}`,
    );
  }
  return parts.join(' · ');
}

interface RangesDraft {
  bonusTarget: string;
  bonusMin: string;
  bonusMax: string;
  variable: string;
  equityUnit: 'value' | 'shares';
  equityMin: string;
  equityMid: string;
  equityMax: string;
}

function draftOf(ranges: Ranges | null, currency: string): RangesDraft {
  const equity = ranges?.equity;
  const equityText = (value: number | undefined) => (value === undefined ? '' : equity?.unit === 'shares' ? String(value) : toMajorText({ amount: value, currency }));
  return {
    bonusTarget: ranges?.bonusTargetPercent ? String(ranges.bonusTargetPercent.target) : '',
    bonusMin: ranges?.bonusTargetPercent?.min?.toString() ?? '',
    bonusMax: ranges?.bonusTargetPercent?.max?.toString() ?? '',
    variable: ranges?.variableTarget ? toMajorText(ranges.variableTarget) : '',
    equityUnit: equity?.unit ?? 'value',
    equityMin: equityText(equity?.min),
    equityMid: equityText(equity?.mid),
    equityMax: equityText(equity?.max),
  };
}

/** What was typed as the contract's ranges; a message when something is not a number. */
function rangesOf(draft: RangesDraft, currency: string, kept: Ranges | null): Ranges | string {
  const ranges: Ranges = {};
  const percent = (text: string) => (text.trim() === '' ? null : Number(text));
  const target = percent(draft.bonusTarget);
  const [bonusMin, bonusMax] = [percent(draft.bonusMin), percent(draft.bonusMax)];
  if ([target, bonusMin, bonusMax].some((value) => value !== null && !Number.isFinite(value))) return 'Enter the bonus percentages as numbers.';
  if (target !== null) ranges.bonusTargetPercent = { target, ...(bonusMin !== null ? { min: bonusMin } : {}), ...(bonusMax !== null ? { max: bonusMax } : {}) };
  if (draft.variable.trim()) {
    const amount = toMinor(draft.variable, currency);
    if (amount === null) return 'Enter the variable pay target as an amount.';
    ranges.variableTarget = { amount, currency };
  }
  const texts = [draft.equityMin, draft.equityMid, draft.equityMax];
  if (texts.some((text) => text.trim())) {
    const values = texts.map((text) => (draft.equityUnit === 'shares' ? (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null) : toMinor(text, currency)));
    const [min, mid, max] = values;
    if (min === null || mid === null || max === null || min === undefined || mid === undefined || max === undefined) return 'Enter the equity minimum, midpoint and maximum.';
    ranges.equity = { unit: draft.equityUnit, min, mid, max, percentile: draft.equityUnit === 'value' && kept?.equity?.unit === 'value' && kept.equity.mid === mid ? (kept.equity.percentile ?? null) : null };
  }
  return ranges;
}

interface RangesDialogProps {
  title: string;
  currency: string;
  band: { version: number; min: Money; mid: Money; max: Money; ranges: Ranges | null };
  write: VersionedWrite<[Schemas['BandInput']], unknown>;
  onClose: () => void;
}

/** A band's variable pay, bonus target and equity ranges, saved with the band at the version read. */
export function RangesDialog({ title, currency, band, write, onClose }: RangesDialogProps) {
  const { add } = useToasts();
  const [draft, setDraft] = useState<RangesDraft>(() => draftOf(band.ranges, currency));
  const [problem, setProblem] = useState<string | null>(null);
  const { save, busy } = useVersionedSave(write);
  const set = (key: keyof RangesDraft) => (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value });
  async function submit(event: FormEvent) {
    event.preventDefault();
    const ranges = rangesOf(draft, currency, band.ranges);
    if (typeof ranges === 'string') return setProblem(ranges);
    const result = await save(band.version, { min: band.min, mid: band.mid, max: band.max, ranges: Object.keys(ranges).length ? ranges : null });
    if (!result.ok) return setProblem(result.message);
    add('success', `Saved the ranges of ${title}.`);
    await refreshBands();
    onClose();
  }
  return (
    <Modal
      title={`Ranges of ${title}`}
      onClose={onClose}
      footer={
        <>
          <button type="submit" form="bands-ranges-form" className="primary" disabled={busy}>
            Save ranges
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      <form id="bands-ranges-form" className="bands-ranges-form" onSubmit={(event) => void submit(event)}>
        <fieldset>
          <legend>Bonus target (% of base)</legend>
          <label>
            Target %
            <input inputMode="decimal" value={draft.bonusTarget} onChange={set('bonusTarget')} />
          </label>
          <label>
            Min %
            <input inputMode="decimal" value={draft.bonusMin} onChange={set('bonusMin')} />
          </label>
          <label>
            Max %
            <input inputMode="decimal" value={draft.bonusMax} onChange={set('bonusMax')} />
          </label>
        </fieldset>
        <label>
          Variable pay target ({currency})
          <input inputMode="decimal" value={draft.variable} onChange={set('variable')} />
        </label>
        <fieldset>
          <legend>Equity grant range</legend>
          <label>
            Unit
            <select value={draft.equityUnit} onChange={(event) => setDraft({ ...draft, equityUnit: event.target.value === 'shares' ? 'shares' : 'value' })}>
              <option value="value">Value ({currency})</option>
              <option value="shares">Shares</option>
            </select>
          </label>
          <label>
            Equity min
            <input inputMode="decimal" value={draft.equityMin} onChange={set('equityMin')} />
          </label>
          <label>
            Equity mid
            <input inputMode="decimal" value={draft.equityMid} onChange={set('equityMid')} />
          </label>
          <label>
            Equity max
            <input inputMode="decimal" value={draft.equityMax} onChange={set('equityMax')} />
          </label>
        </fieldset>
        {problem && <Problem message={problem} />}
      </form>
    </Modal>
  );
}

// ── grades of the company (job architecture) ─────────────────────────────────────────────────

/** The company's comp grades: add one (key, name), delete one no job or band uses. */
export function GradesManager({ editable }: { editable: boolean }) {
  const grades = useQuery('/api/bands/grades');
  const { add } = useToasts();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  async function create(event: FormEvent) {
    event.preventDefault();
    const { error } = await api.POST('/api/bands/grades', { body: { key: key.trim(), ...(name.trim() ? { name: name.trim() } : {}) } });
    if (error) return setProblem({ message: errorMessage(error), fields: fieldProblems(error) });
    add('success', `Added grade ${key.trim()}.`);
    setKey('');
    setName('');
    setProblem(null);
    await refreshBands();
  }
  async function remove(grade: Grade) {
    const { error } = await api.DELETE('/api/bands/grades/{gradeId}', { params: { path: { gradeId: grade.id } } });
    if (error) return add('error', errorMessage(error));
    add('success', `Deleted grade ${grade.key}.`);
    await refreshBands();
  }
  return (
    <Section title="Comp grades" id="grades-heading">
      <p className="bands-muted">A company job with a grade and no band of its own in a pay zone is priced by its grade’s band there.</p>
      <Loaded data={grades.data?.data} error={grades.error} retry={() => void grades.mutate()} skeleton={<SkeletonTable rows={2} columns={3} label="Loading the grades" />}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No grades yet" compact>
              {editable ? 'Add grades such as G1 to G12 below, then give company jobs their grade.' : 'The company has no comp grades.'}
            </Empty>
          ) : (
            <ul className="bands-grade-list" aria-label="Comp grades">
              {list.map((grade) => (
                <li key={grade.id} data-grade-id={grade.id}>
                  <strong>{grade.key}</strong> {grade.name !== grade.key ? grade.name : ''} · {formatNumber(grade.jobCount)} {grade.jobCount === 1 ? 'job' : 'jobs'}
                  {editable && (
                    <button type="button" className="small ghost" onClick={() => void remove(grade)} aria-label={`Delete grade ${grade.key}`}>
                      Delete
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {editable && (
        <form className="bands-inline-form" onSubmit={(event) => void create(event)} aria-label="Add a grade">
          <label>
            Grade key
            <input value={key} maxLength={32} required onChange={(event) => setKey(event.target.value)} />
          </label>
          <label>
            Grade name (optional)
            <input value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
          </label>
          <button type="submit" disabled={!key.trim()}>
            Add grade
          </button>
          {problem && <Problem message={problem.message} fields={problem.fields} />}
        </form>
      )}
    </Section>
  );
}

// ── grade bands of a set (the editor's "Grades" view) ────────────────────────────────────────

interface GradeEditing {
  id: string;
  version: number;
  min: string;
  mid: string;
  max: string;
}

/** Adds a grade band: a midpoint with a width (± % or spread), or min, mid and max. */
function AddGradeBand({ bandSet, grades, zones }: { bandSet: BandSetDetail; grades: Grade[]; zones: PayZone[] }) {
  const { add } = useToasts();
  const [gradeId, setGradeId] = useState(grades[0]?.id ?? '');
  const [zoneId, setZoneId] = useState(zones[0]?.id ?? '');
  const [mid, setMid] = useState('');
  const [kind, setKind] = useState<'spread' | 'plusMinus'>('spread');
  const [percent, setPercent] = useState('40');
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  const currency = zoneCurrency(zones.find((zone) => zone.id === zoneId), bandSet);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const amount = toMinor(mid, currency);
    const width = Number(percent);
    if (amount === null || !Number.isFinite(width)) return setProblem({ message: 'Enter the midpoint as an amount and the width as a percent.', fields: [] });
    const { error } = await api.POST('/api/bands/band-sets/{bandSetId}/grade-bands', {
      params: { path: { bandSetId: bandSet.id } },
      body: { gradeId, payZoneId: zoneId, mid: { amount, currency }, width: { kind, percent: width } },
    });
    if (error) return setProblem({ message: errorMessage(error), fields: fieldProblems(error) });
    setProblem(null);
    setMid('');
    add('success', 'Added the grade band.');
    await refreshBands();
  }
  return (
    <form className="bands-inline-form bands-wide-only" onSubmit={(event) => void submit(event)} aria-label="Add a grade band">
      <label>
        Grade
        <select value={gradeId} onChange={(event) => setGradeId(event.target.value)}>
          {grades.map((grade) => (
            <option key={grade.id} value={grade.id}>
              {grade.key}
            </option>
          ))}
        </select>
      </label>
      <label>
        Pay zone
        <select value={zoneId} onChange={(event) => setZoneId(event.target.value)}>
          {zones.map((zone) => (
            <option key={zone.id} value={zone.id}>
              {zone.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Midpoint ({currency})
        <input inputMode="decimal" value={mid} required onChange={(event) => setMid(event.target.value)} />
      </label>
      <label>
        Width
        <select value={kind} onChange={(event) => setKind(event.target.value === 'plusMinus' ? 'plusMinus' : 'spread')}>
          <option value="spread">Spread (max − min) ÷ min</option>
          <option value="plusMinus">± % around the midpoint</option>
        </select>
      </label>
      <label>
        Width %
        <input inputMode="decimal" value={percent} onChange={(event) => setPercent(event.target.value)} />
      </label>
      <button type="submit" disabled={!gradeId || !zoneId}>
        Add grade band
      </button>
      {problem && <Problem message={problem.message} fields={problem.fields} />}
    </form>
  );
}

/**
 * The set's grade bands: grades (rows, in their order) × pay zones. A draft's grade band is edited in
 * place at the version read; its ranges in a dialog.
 */
export function GradeBands({ bandSet, zones, editable }: { bandSet: BandSetDetail; zones: PayZone[]; editable: boolean }) {
  const grades = useQuery('/api/bands/grades');
  const { add } = useToasts();
  const [editing, setEditing] = useState<GradeEditing | null>(null);
  const [ranges, setRanges] = useState<GradeBand | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const cells = new Map(bandSet.gradeBands.map((band) => [`${band.gradeId}|${band.payZoneId}`, band]));
  const { save, busy } = useVersionedSave((ifMatch, id: string, body: Schemas['BandInput']) =>
    api.PATCH('/api/bands/band-sets/{bandSetId}/grade-bands/{gradeBandId}', { params: { path: { bandSetId: bandSet.id, gradeBandId: id }, header: { 'If-Match': ifMatch } }, body }),
  );
  async function submit(band: GradeBand) {
    if (!editing) return;
    const currency = band.mid.currency;
    const [min, mid, max] = [toMinor(editing.min, currency), toMinor(editing.mid, currency), toMinor(editing.max, currency)];
    if (min === null || mid === null || max === null) return setProblem('Enter the minimum, midpoint and maximum as amounts.');
    const money = (amount: number) => ({ amount, currency });
    const result = await save(editing.version, band.id, { min: money(min), mid: money(mid), max: money(max) });
    if (!result.ok) return setProblem(result.message);
    setEditing(null);
    setProblem(null);
    add('success', `Saved the band of grade ${band.gradeKey}.`);
    await refreshBands();
  }
  async function remove(band: GradeBand) {
    const { error } = await api.DELETE('/api/bands/band-sets/{bandSetId}/grade-bands/{gradeBandId}', { params: { path: { bandSetId: bandSet.id, gradeBandId: band.id } } });
    if (error) return add('error', errorMessage(error));
    add('success', `Removed the band of grade ${band.gradeKey}.`);
    await refreshBands();
  }
  return (
    <Section title="Grade bands" id="grade-bands-heading">
      <Loaded data={grades.data?.data} error={grades.error} retry={() => void grades.mutate()} skeleton={<SkeletonTable rows={3} columns={4} label="Loading the grades" />}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No comp grades yet" compact>
              Add grades on the job architecture screen and give company jobs their grade; their bands are set here.
            </Empty>
          ) : (
            <>
              {editable && <AddGradeBand bandSet={bandSet} grades={list} zones={zones} />}
              <div className="table-scroll bands-grid-scroll" tabIndex={0} role="region" aria-label="Bands by comp grade and pay zone">
                <table className="bands-grid bands-grade-grid">
                  <caption className="visually-hidden">Grade bands of {bandSet.name}: minimum, midpoint and maximum for each comp grade and pay zone, in {currenciesText({ currency: bandSet.currency, bands: bandSet.gradeBands })}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Grade</th>
                      {zones.map((zone) => (
                        <th key={zone.id} scope="col" className="bands-zone-head">
                          {zone.name}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((grade) => (
                      <tr key={grade.id} data-grade-id={grade.id}>
                        <th scope="row" className="bands-job">
                          <span className="bands-job-title">{grade.key}</span>
                          <span className="bands-job-meta">{grade.name !== grade.key ? grade.name : `${formatNumber(grade.jobCount)} jobs`}</span>
                        </th>
                        {zones.map((zone) => {
                          const band = cells.get(`${grade.id}|${zone.id}`);
                          const where = `grade ${grade.key} in ${zone.name}`;
                          if (!band) {
                            return (
                              <td key={zone.id} className="bands-missing" data-pay-zone-id={zone.id}>
                                No band
                              </td>
                            );
                          }
                          const isEditing = editing?.id === band.id;
                          return (
                            <td key={zone.id} data-pay-zone-id={zone.id} className="bands-grade-cell">
                              {isEditing && editing ? (
                                <span className="bands-row-actions">
                                  {(['min', 'mid', 'max'] as const).map((figure) => (
                                    <Fragment key={figure}>
                                      <input
                                        className="bands-figure-input"
                                        inputMode="decimal"
                                        aria-label={`${figure === 'min' ? 'Minimum' : figure === 'mid' ? 'Midpoint' : 'Maximum'} of ${where} (${band.mid.currency})`}
                                        value={editing[figure]}
                                        onChange={(event) => setEditing({ ...editing, [figure]: event.target.value })}
                                      />
                                    </Fragment>
                                  ))}
                                  <button type="button" className="small primary" disabled={busy} onClick={() => void submit(band)} aria-label={`Save the band of ${where}`}>
                                    Save
                                  </button>
                                  <button type="button" className="small" onClick={() => setEditing(null)}>
                                    Cancel
                                  </button>
                                </span>
                              ) : (
                                <>
                                  <span className="bands-grade-figures" data-figures>
                                    {formatMoney(band.min)} – {formatMoney(band.max)} <span className="bands-job-meta">mid {formatMoney(band.mid)}</span>
                                  </span>
                                  {band.ranges && <span className="bands-ranges">{rangesText(band.ranges, band.mid.currency)}</span>}
                                  {band.source && (
                                    <span className="bands-job-meta" data-grade-source>
                                      Built: the mean of {formatNumber(band.source.jobs.length)} {band.source.jobs.length === 1 ? 'job’s' : 'jobs’'} p{band.source.percentile}
                                    </span>
                                  )}
                                  {editable && (
                                    <span className="bands-row-actions">
                                      <button type="button" className="small ghost" aria-label={`Edit the band of ${where}`} disabled={editing !== null} onClick={() => setEditing({ id: band.id, version: band.version, min: toMajorText(band.min), mid: toMajorText(band.mid), max: toMajorText(band.max) })}>
                                        Edit
                                      </button>
                                      <button type="button" className="small ghost" aria-label={`Ranges of the band of ${where}`} onClick={() => setRanges(band)}>
                                        Ranges
                                      </button>
                                      <button type="button" className="small ghost" aria-label={`Remove the band of ${where}`} onClick={() => void remove(band)}>
                                        Remove
                                      </button>
                                    </span>
                                  )}
                                </>
                              )}
                            </td>
                          );
                        })}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {problem && <Problem message={problem} />}
            </>
          )
        }
      </Loaded>
      {ranges && (
        <RangesDialog
          title={`grade ${ranges.gradeKey}`}
          currency={ranges.mid.currency}
          band={ranges}
          write={(ifMatch, body) => api.PATCH('/api/bands/band-sets/{bandSetId}/grade-bands/{gradeBandId}', { params: { path: { bandSetId: bandSet.id, gradeBandId: ranges.id }, header: { 'If-Match': ifMatch } }, body })}
          onClose={() => setRanges(null)}
        />
      )}
    </Section>
  );
}
