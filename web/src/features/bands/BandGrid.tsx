import { Pencil } from 'lucide-react';
import { type Dispatch, Fragment, type KeyboardEvent, type SetStateAction, useState } from 'react';
import { api } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { useToasts } from '../../ui/Toasts';
import {
  type Band,
  type BandSetDetail,
  type CompanyJob,
  type JobGroup,
  type PayZone,
  type Schemas,
  Problem,
  bandsByCell,
  currenciesText,
  formatMarketValue,
  formatMoney,
  refreshBands,
  toMajorText,
  toMinor,
} from './common';
import { type BandFigures, useBandSheet } from './bandSheet';
import { RangesDialog, rangesText } from './Ranges';

interface GridProps {
  bandSet: BandSetDetail;
  groups: JobGroup[];
  zones: PayZone[];
  /** A draft the person may change. */
  editable: boolean;
  trackName: (trackId: string) => string;
}

/** One band being edited: the version it was read at (sent as If-Match) and what the person typed. */
export interface Editing {
  bandId: string;
  version: number;
  min: string;
  mid: string;
  max: string;
  problem: string | null;
  conflict: boolean;
}

const FIGURES = [
  { key: 'min', label: 'Min', long: 'Minimum' },
  { key: 'mid', label: 'Mid', long: 'Midpoint' },
  { key: 'max', label: 'Max', long: 'Maximum' },
] as const;

const groupLabel = (group: JobGroup, trackName: (id: string) => string) => `${group.jobFamilyName} · ${trackName(group.trackId)}`;

/**
 * The bands of a set: company jobs (rows, by family × track, by level) × pay zones, each with its
 * minimum, midpoint and maximum. A draft's band is edited in its row at the version read; a
 * conflict keeps what the person typed and says so in the server's words.
 */
export function BandGrid({ bandSet, groups, zones, editable, trackName, editing, setEditing, figures }: GridProps & { editing: Editing | null; setEditing: Dispatch<SetStateAction<Editing | null>>; figures: BandFigures }) {
  const cells = bandsByCell(bandSet.bands);
  const { add } = useToasts();
  const { save, busy } = useVersionedSave((ifMatch, bandId: string, body: Schemas['BandInput']) =>
    api.PATCH('/api/bands/band-sets/{bandSetId}/bands/{bandId}', { params: { path: { bandSetId: bandSet.id, bandId }, header: { 'If-Match': ifMatch } }, body }),
  );
  const perZone = editable ? 4 : 3;
  const width = 1 + zones.length * perZone;
  // The band whose variable / bonus / equity ranges are being edited, with where it is.
  const [rangesOf, setRangesOf] = useState<{ band: Band; where: string } | null>(null);
  // The figures as a spreadsheet: rows are the jobs in the order shown, columns each zone's min / mid / max.
  const jobs = groups.flatMap((group) => group.jobs);
  const rowOf = new Map(jobs.map((job, index) => [job.id, index]));
  const sheet = useBandSheet({ bandSet, jobs, zones, figures });

  function startEditing(band: Band) {
    setEditing({ bandId: band.id, version: band.version, min: toMajorText(band.min), mid: toMajorText(band.mid), max: toMajorText(band.max), problem: null, conflict: false });
  }

  async function submit(job: CompanyJob, zone: PayZone) {
    if (!editing) return;
    // A band is in its pay zone's currency.
    const currency = bandSet.bands.find((band) => band.id === editing.bandId)?.mid.currency ?? bandSet.currency;
    const [min, mid, max] = [toMinor(editing.min, currency), toMinor(editing.mid, currency), toMinor(editing.max, currency)];
    if (min === null || mid === null || max === null) {
      setEditing({ ...editing, problem: 'Enter the minimum, midpoint and maximum as amounts.', conflict: false });
      return;
    }
    const money = (amount: number) => ({ amount, currency });
    const result = await save(editing.version, editing.bandId, { min: money(min), mid: money(mid), max: money(max) });
    if (!result.ok) {
      // What the person typed stays; the server's words say what to do next.
      setEditing((current) => (current ? { ...current, problem: result.message, conflict: result.conflict } : current));
      return;
    }
    setEditing(null);
    add('success', `Saved the band of ${job.title} in ${zone.name}.`);
    await refreshBands();
  }

  async function discardAndReload() {
    setEditing(null);
    await refreshBands();
  }

  function onKey(event: KeyboardEvent<HTMLInputElement>, job: CompanyJob, zone: PayZone) {
    if (event.key === 'Enter') {
      event.preventDefault();
      void submit(job, zone);
    } else if (event.key === 'Escape') {
      setEditing(null);
    }
  }

  return (
    <>
      {sheet.toolbar}
      <div className="table-scroll bands-grid-scroll" tabIndex={0} role="region" aria-label="Bands by company job and pay zone">
        <table className="bands-grid" aria-label={`Bands of ${bandSet.name}`} {...sheet.tableProps}>
          <caption className="visually-hidden">
            Bands of {bandSet.name}: minimum, midpoint and maximum for each company job and pay zone, in {currenciesText(bandSet)}
          </caption>
          <thead>
            <tr>
              <th scope="col" rowSpan={2}>
                Company job
              </th>
              {zones.map((zone) => (
                <th key={zone.id} scope="colgroup" colSpan={perZone} className="bands-zone-head">
                  {zone.name}
                  {zone.currency && zone.currency !== bandSet.currency && <span className="bands-zone-currency"> · {zone.currency}</span>}
                </th>
              ))}
            </tr>
            <tr>
              {zones.map((zone) => (
                <Fragment key={zone.id}>
                  {FIGURES.map((figure) => (
                    <th key={figure.key} scope="col" className="number">
                      {figure.label}
                    </th>
                  ))}
                  {editable && (
                    <th scope="col">
                      <span className="visually-hidden">Edit</span>
                    </th>
                  )}
                </Fragment>
              ))}
            </tr>
          </thead>
          {groups.map((group) => (
            <tbody key={group.key}>
              <tr className="bands-group">
                <th scope="rowgroup" colSpan={width}>
                  {groupLabel(group, trackName)}
                </th>
              </tr>
              {group.jobs.map((job) => {
                const editedZone = zones.find((zone) => editing && cells.get(`${job.id}|${zone.id}`)?.id === editing.bandId);
                return (
                  <Fragment key={job.id}>
                    <tr data-company-job-id={job.id}>
                      <th scope="row" className="bands-job">
                        <span className="bands-job-title">{job.title}</span>
                        <span className="bands-job-meta">
                          {job.levelDisplay}
                          {job.jobCode ? ` · ${job.jobCode}` : ''}
                        </span>
                      </th>
                      {zones.map((zone, zoneIndex) => {
                        const band = cells.get(`${job.id}|${zone.id}`);
                        const sheetRow = rowOf.get(job.id) ?? 0;
                        if (!band) {
                          const { pending: _none, className: sheetClass, ...sheetProps } = sheet.cellProps(sheetRow, zoneIndex * 3, null, null);
                          return (
                            <Fragment key={zone.id}>
                              <td colSpan={3} {...sheetProps} className={`bands-missing ${sheetClass}`} data-pay-zone-id={zone.id}>
                                No band
                              </td>
                              {editable && <td />}
                            </Fragment>
                          );
                        }
                        const isEditing = editing?.bandId === band.id;
                        const where = `${job.title} in ${zone.name}`;
                        return (
                          <Fragment key={zone.id}>
                            {FIGURES.map((figure, figureIndex) => {
                              const { pending, className: sheetClass, title: problem, ...sheetProps } = sheet.cellProps(sheetRow, zoneIndex * 3 + figureIndex, band, figure.key);
                              return (
                                <td
                                  key={figure.key}
                                  {...sheetProps}
                                  className={`number ${sheetClass}`}
                                  data-pay-zone-id={zone.id}
                                  data-figure={figure.key}
                                  title={problem ?? (figure.key === 'mid' && band.source ? `Built from p${band.source.percentile}: ${formatMarketValue(band.source)}` : undefined)}
                                >
                                  {isEditing && editing ? (
                                    <input
                                      className="bands-figure-input"
                                      inputMode="decimal"
                                      aria-label={`${figure.long} of ${where} (${band.mid.currency})`}
                                      aria-invalid={editing.problem ? true : undefined}
                                      value={editing[figure.key]}
                                      onChange={(event) => setEditing({ ...editing, [figure.key]: event.target.value })}
                                      onKeyDown={(event) => onKey(event, job, zone)}
                                    />
                                  ) : pending ? (
                                    <span className="bands-pending">{pending.text || '—'}</span>
                                  ) : (
                                    <>
                                      {formatMoney(band[figure.key])}
                                      {figure.key === 'mid' && band.ranges && <span className="bands-ranges">{rangesText(band.ranges, band.mid.currency)}</span>}
                                    </>
                                  )}
                                </td>
                              );
                            })}
                            {editable && (
                              <td className="bands-edit-cell">
                                {isEditing ? (
                                  <span className="bands-row-actions">
                                    <button type="button" className="small primary" disabled={busy} onClick={() => void submit(job, zone)} aria-label={`Save the band of ${where}`}>
                                      Save
                                    </button>
                                    <button type="button" className="small" onClick={() => setEditing(null)} aria-label={`Cancel editing the band of ${where}`}>
                                      Cancel
                                    </button>
                                  </span>
                                ) : (
                                  <span className="bands-row-actions">
                                    <button type="button" className="small ghost icon-button" onClick={() => startEditing(band)} aria-label={`Edit the band of ${where}`} disabled={editing !== null}>
                                      <Pencil size={16} aria-hidden="true" />
                                    </button>
                                    <button type="button" className="small ghost" onClick={() => setRangesOf({ band, where })} aria-label={`Ranges of the band of ${where}`} disabled={editing !== null}>
                                      Ranges
                                    </button>
                                  </span>
                                )}
                              </td>
                            )}
                          </Fragment>
                        );
                      })}
                    </tr>
                    {editing?.problem && editedZone && (
                      <tr className="bands-problem-row">
                        <td colSpan={width}>
                          <Problem message={`${job.title}, ${editedZone.name}: ${editing.problem}`} />
                          {editing.conflict && (
                            <button type="button" className="small" onClick={() => void discardAndReload()}>
                              Discard my change and reload
                            </button>
                          )}
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          ))}
        </table>
        {rangesOf && (
          <RangesDialog
            title={rangesOf.where}
            currency={rangesOf.band.mid.currency}
            band={rangesOf.band}
            write={(ifMatch, body) => api.PATCH('/api/bands/band-sets/{bandSetId}/bands/{bandId}', { params: { path: { bandSetId: bandSet.id, bandId: rangesOf.band.id }, header: { 'If-Match': ifMatch } }, body })}
            onClose={() => setRangesOf(null)}
          />
        )}
      </div>
    </>
  );
}

/** Phones: the same bands as read-only cards, one per company job, its zones listed. */
export function BandCards({ bandSet, groups, zones, trackName }: Omit<GridProps, 'editable'>) {
  const cells = bandsByCell(bandSet.bands);
  return (
    <div className="bands-cards">
      {groups.map((group) => (
        <section key={group.key} aria-labelledby={`group-${group.key}`}>
          <h3 id={`group-${group.key}`}>{groupLabel(group, trackName)}</h3>
          <ul className="bands-card-list">
            {group.jobs.map((job) => (
              <li key={job.id} className="bands-card" data-company-job-id={job.id}>
                <p className="bands-card-title">
                  {job.title}
                  <span className="bands-job-meta">
                    {job.levelDisplay}
                    {job.jobCode ? ` · ${job.jobCode}` : ''}
                  </span>
                </p>
                <dl>
                  {zones.map((zone) => {
                    const band = cells.get(`${job.id}|${zone.id}`);
                    return (
                      <Fragment key={zone.id}>
                        <dt>{zone.name}</dt>
                        <dd data-pay-zone-id={zone.id}>
                          {band ? (
                            <span className="bands-card-figures">
                              {FIGURES.map((figure) => (
                                <span key={figure.key}>
                                  <span className="bands-figure-label">{figure.label}</span> {formatMoney(band[figure.key])}
                                </span>
                              ))}
                              {band.ranges && <span className="bands-ranges">{rangesText(band.ranges, band.mid.currency)}</span>}
                            </span>
                          ) : (
                            'No band'
                          )}
                        </dd>
                      </Fragment>
                    );
                  })}
                </dl>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
