import { useState } from 'react';
import { DataGrid, type SheetEditing } from '../../ui/DataGrid';
import type { Column } from '../../ui/DataTable';
import { majorOf } from '../../ui/format';
import { NARROW, useMediaQuery } from '../../ui/hooks';
import { type BandFigures, FIGURE_KEYS, type Figure } from './bandSheet';
import { type Band, type BandSetDetail, type CompanyJob, type PayZone, formatMoney, levelRank, toMajorText } from './common';

interface ListRow {
  band: Band;
  job: CompanyJob | undefined;
  zone: PayZone | undefined;
}

/** Max over min, as a percentage of min (how wide the band is). */
const spreadOf = (band: Band): number | null => (band.min.amount > 0 ? Math.round(((band.max.amount - band.min.amount) / band.min.amount) * 100) : null);

const FIGURE_HEADERS: Record<Figure, string> = { min: 'Min', mid: 'Mid', max: 'Max' };
const isFigure = (key: string): key is Figure => (FIGURE_KEYS as readonly string[]).includes(key);

interface ListProps {
  bandSet: BandSetDetail;
  jobs: readonly CompanyJob[];
  zones: readonly PayZone[];
  trackName: (trackId: string) => string;
  /** The set's figures as edited (shared with the jobs × zones grid: one undo history, one save queue). */
  figures: BandFigures;
}

/**
 * Every band of a set as one row each (job, zone, minimum, midpoint, maximum, spread): the dense
 * read of a set, sorted and filtered per column, for hundreds of bands at a glance. In a draft the
 * three figures are edited as a spreadsheet (the data grid's sheet editing): typed, pasted as a
 * block from Excel or Google Sheets, filled down, undone and redone as whole changes.
 */
export function BandList({ bandSet, jobs, zones, trackName, figures }: ListProps) {
  const phone = useMediaQuery(NARROW);
  const [selected, setSelected] = useState(1);
  const [fill, setFill] = useState(0);
  const jobById = new Map(jobs.map((job) => [job.id, job]));
  const zoneById = new Map(zones.map((zone) => [zone.id, zone]));
  const zoneOrder = new Map(zones.map((zone, index) => [zone.id, index]));
  const rows: ListRow[] = bandSet.bands
    .map((band) => ({ band, job: jobById.get(band.companyJobId), zone: zoneById.get(band.payZoneId) }))
    .sort(
      (a, b) =>
        (a.job?.jobFamilyName ?? '').localeCompare(b.job?.jobFamilyName ?? '') ||
        a.band.trackId.localeCompare(b.band.trackId) ||
        levelRank(a.band.levelId) - levelRank(b.band.levelId) ||
        (zoneOrder.get(a.band.payZoneId) ?? 0) - (zoneOrder.get(b.band.payZoneId) ?? 0),
    );
  // This tab's newest copy of a band (its own saves show before the set is read again).
  const bandOf = (row: ListRow) => figures.bandOf(row.band);
  const figureColumn = (figure: Figure): Column<ListRow> => ({
    key: figure,
    header: FIGURE_HEADERS[figure],
    numeric: true,
    size: 110,
    cell: (row) => formatMoney(bandOf(row)[figure]),
    value: (row) => majorOf(bandOf(row)[figure]),
    copyText: (row) => toMajorText(bandOf(row)[figure]),
    // A band outside the person's pay zones is not in `zones`, and stays as it is.
    edit: { text: (row) => toMajorText(bandOf(row)[figure]), editable: (row) => figures.editable && row.zone !== undefined },
  });
  const columns: Column<ListRow>[] = [
    { key: 'job', header: 'Job', rowHeader: true, size: 220, cell: (row) => row.job?.title ?? row.band.levelId, value: (row) => row.job?.title ?? row.band.levelId, title: (row) => row.job?.title },
    { key: 'family', header: 'Family', size: 170, cell: (row) => row.job?.jobFamilyName ?? row.band.jobFamilyId, value: (row) => row.job?.jobFamilyName ?? row.band.jobFamilyId, title: (row) => row.job?.jobFamilyName },
    { key: 'track', header: 'Track', size: 120, cell: (row) => trackName(row.band.trackId), value: (row) => trackName(row.band.trackId) },
    { key: 'level', header: 'Level', size: 80, cell: (row) => row.job?.levelDisplay ?? row.band.levelId.toUpperCase(), value: (row) => levelRank(row.band.levelId) },
    { key: 'zone', header: 'Pay zone', size: 150, cell: (row) => row.zone?.name ?? '—', value: (row) => row.zone?.name ?? '', title: (row) => row.zone?.name },
    ...FIGURE_KEYS.map(figureColumn),
    { key: 'spread', header: 'Spread', numeric: true, size: 90, cell: (row) => (spreadOf(bandOf(row)) === null ? '—' : `${spreadOf(bandOf(row))}%`), value: (row) => spreadOf(bandOf(row)) },
  ];
  const sheet: SheetEditing<ListRow> = {
    pending: (row, key) => {
      const held = isFigure(key) ? figures.pendingOf(row.band, key) : undefined;
      return held && { text: held.text, status: held.status, message: held.message, refused: held.status === 'error' || held.status === 'conflict' };
    },
    // The same checks and saves as the jobs × zones grid: each band once, at the version read.
    onChange: (changes, info) =>
      figures.change(
        changes.flatMap((change) => (isFigure(change.key) ? [{ band: change.row.band, figure: change.key, text: change.text }] : [])),
        { action: info.action, batch: info.batch, skipped: info.skipped, skippedNote: info.skipped ? `${info.skipped} read-only ${info.skipped === 1 ? 'cell' : 'cells'} left as they are.` : undefined },
      ),
    onUndo: figures.undo,
    onRedo: figures.redo,
    onSelection: setSelected,
    fillRequest: fill,
  };
  // Phones read the bands as cards; figures are edited on a wider screen.
  const toolbar = phone
    ? null
    : figures.toolbar(
        <button type="button" className="small" disabled={selected < 2} onClick={() => setFill((count) => count + 1)} title="Shift+arrows or shift+click select figures; Ctrl+D fills each column down from its top figure">
          Fill down
        </button>,
      );
  // No card of its own: the tab names the list, and the undo bar shares the grid's row of tools, so the rows start high on the screen.
  return (
    <section className="band-list" aria-labelledby="band-list-heading">
      <h2 id="band-list-heading" className="visually-hidden">
        Every band, one per row
      </h2>
      <DataGrid
        id="band-set-bands"
        label={`Bands of ${bandSet.name}`}
        regionLabel={`Every band of ${bandSet.name}`}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.band.id}
        rowName={(row) => `${row.job?.title ?? row.band.levelId} in ${row.zone?.name ?? 'its pay zone'}`}
        rowAttributes={(row) => ({ 'data-band-id': row.band.id })}
        filters
        pinned={1}
        tools={toolbar}
        sheet={figures.editable ? sheet : undefined}
      />
    </section>
  );
}
