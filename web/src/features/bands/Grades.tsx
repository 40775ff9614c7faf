import { type FormEvent, Fragment, useState } from 'react';
import { api, errorMessage, useQuery } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { Section } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { type BandSetDetail, type PayZone, Problem, type Schemas, currenciesText, fieldProblems, formatMoney, formatNumber, refreshBands, toMajorText, toMinor, zoneCurrency } from './common';
import { RangesDialog, rangesText } from './Ranges';

type Grade = Schemas['CompGrade'];
type GradeBand = Schemas['GradeBand'];

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
