import { Redo2, Undo2 } from 'lucide-react';
import { useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api } from '../../api/client';
import { invalidate, useVersionedSave } from '../../api/queries';
import { DataGrid, type SheetChange, type SheetEditing } from '../../ui/DataGrid';
import type { Column } from '../../ui/DataTable';
import { useToasts } from '../../ui/Toasts';
import { type Evaluation, type Scores } from './payEquityModel';

// The job evaluation: the factors, their weights and levels, and each job's points, edited as a sheet.

type Job = Evaluation['jobs'][number];
type Factor = Evaluation['factors'][number];
interface Draft {
  scores: Scores | null;
  evidence: string;
}
/** The drafts by job, and the cells refused (the person's text and why) by `jobId|column`. */
interface Sheet {
  drafts: ReadonlyMap<string, Draft>;
  refused: ReadonlyMap<string, { text: string; message: string }>;
}

const EVIDENCE = 'evidence';
const refusedKey = (jobId: string, key: string) => `${jobId}|${key}`;

/** A cell's text applied to a job's draft, or why it cannot be. An empty level leaves the job unscored. */
export function applyCell(draft: Draft, factors: readonly Factor[], key: string, text: string): Draft | string {
  const trimmed = text.trim();
  if (key === EVIDENCE) return trimmed.length > 4000 ? 'Keep the evidence under 4,000 characters.' : { ...draft, evidence: trimmed };
  const factor = factors.find((entry) => entry.key === key);
  if (!factor) return 'This column cannot be changed.';
  if (trimmed === '') return { ...draft, scores: null };
  const level = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || level < 1 || level > factor.levels) return `Type a level from 1 to ${factor.levels} for ${factor.name}.`;
  // A job is scored on every factor: the first level typed starts the others at 1.
  const base: Scores = draft.scores ?? { skills: 1, effort: 1, responsibility: 1, working_conditions: 1 };
  return { ...draft, scores: { ...base, [factor.key]: level } };
}

export function JobEvaluation({ evaluation, canEdit }: { evaluation: Evaluation; canEdit: boolean }) {
  const [sheet, setSheet] = useState<Sheet>(() => ({ drafts: new Map(evaluation.jobs.map((job) => [job.jobId, { scores: job.scores ?? null, evidence: job.evidence ?? '' }])), refused: new Map() }));
  // Each change (a typed cell, a paste, a fill) is one step back, and a step undone is one forward until the next change.
  const [past, setPast] = useState<Sheet[]>([]);
  const [future, setFuture] = useState<Sheet[]>([]);
  const { save, busy, conflict } = useVersionedSave((ifMatch: string, body: components['schemas']['PayEquityEvaluationInput']) => api.PUT('/api/pay-equity/evaluation', { params: { header: { 'If-Match': ifMatch } }, body }));
  const { add } = useToasts();
  const draftOf = (job: Job): Draft => sheet.drafts.get(job.jobId) ?? { scores: null, evidence: '' };

  function onChange(changes: SheetChange<Job>[]) {
    const drafts = new Map(sheet.drafts);
    const refused = new Map(sheet.refused);
    for (const change of changes) {
      const key = refusedKey(change.row.jobId, change.key);
      const next = applyCell(drafts.get(change.row.jobId) ?? { scores: null, evidence: '' }, evaluation.factors, change.key, change.text);
      if (typeof next === 'string') refused.set(key, { text: change.text, message: next });
      else {
        refused.delete(key);
        drafts.set(change.row.jobId, next);
      }
    }
    setPast((current) => [...current.slice(-49), sheet]);
    setFuture([]);
    setSheet({ drafts, refused });
  }
  function undo() {
    const previous = past.at(-1);
    if (!previous) return;
    setPast(past.slice(0, -1));
    setFuture((current) => [...current, sheet]);
    setSheet(previous);
  }
  function redo() {
    const next = future.at(-1);
    if (!next) return;
    setFuture(future.slice(0, -1));
    setPast((current) => [...current.slice(-49), sheet]);
    setSheet(next);
  }

  async function submit() {
    const jobs = [...sheet.drafts.entries()].flatMap(([jobId, value]) => (value.scores ? [{ jobId, scores: value.scores, evidence: value.evidence }] : []));
    // Saved at the version read: if someone saved the evaluation since, this is refused, not written over theirs.
    const result = await save(evaluation.version, { factors: evaluation.factors, jobs });
    if (result.ok) {
      await invalidate((path) => path.startsWith('/api/pay-equity'));
      add('success', 'Job evaluation saved: jobs with equal points now form one category.');
    }
  }

  const editable = () => canEdit;
  const columns: Column<Job>[] = [
    { key: 'job', header: 'Job', label: 'Job', rowHeader: true, size: 220, value: (job) => job.name, title: (job) => job.name, cell: (job) => job.name },
    { key: 'employees', header: 'People', label: 'People', numeric: true, size: 80, value: (job) => job.employees, cell: (job) => job.employees },
    ...evaluation.factors.map(
      (factor): Column<Job> => ({
        key: factor.key,
        header: `${factor.name} (1–${factor.levels})`,
        label: factor.name,
        numeric: true,
        size: 150,
        cell: (job) => draftOf(job).scores?.[factor.key] ?? '—',
        edit: { text: (job) => String(draftOf(job).scores?.[factor.key] ?? ''), editable },
      }),
    ),
    { key: EVIDENCE, header: 'Evidence', label: 'Evidence', size: 280, title: (job) => draftOf(job).evidence || undefined, cell: (job) => draftOf(job).evidence, edit: { text: (job) => draftOf(job).evidence, editable } },
    { key: 'points', header: 'Points', label: 'Points', numeric: true, size: 90, value: (job) => job.points ?? undefined, cell: (job) => job.points ?? '—' },
  ];
  const editing: SheetEditing<Job> = {
    pending: (job, key) => {
      const refused = sheet.refused.get(refusedKey(job.jobId, key));
      return refused && { text: refused.text, status: 'error', message: refused.message, refused: true };
    },
    onChange,
    onUndo: undo,
    onRedo: redo,
  };
  const refusedCount = sheet.refused.size;

  return (
    <>
      <p className="pe-muted">
        Points = Σ weight × level ÷ levels × 10 over {evaluation.factors.map((factor) => `${factor.name} ${factor.weight} %`).join(', ')}. Jobs with equal points do work of equal value and form one category.
        {canEdit && ' Type a level in a cell, or paste a column of levels from a spreadsheet.'}
      </p>
      <div className="pe-jobs">
        <DataGrid
          id="payEquityEvaluation"
          label="Jobs and their evaluation"
          columns={columns}
          rows={evaluation.jobs}
          rowKey={(job) => job.jobId}
          rowName={(job) => job.name}
          rowAttributes={(job) => ({ 'data-job-id': job.jobId })}
          sheet={canEdit ? editing : undefined}
        />
      </div>
      {refusedCount > 0 && (
        <p role="alert" className="pe-refused" data-testid="evaluation-refused">
          {refusedCount === 1 ? 'One cell was' : `${refusedCount} cells were`} not taken (shown in red): {[...sheet.refused.values()][0]?.message}
        </p>
      )}
      {conflict && (
        <p role="alert" className="pe-refused">
          Someone else saved the evaluation after you opened it; yours was not saved over theirs. Reload to see theirs.
        </p>
      )}
      {canEdit && (
        <div className="actions">
          <button type="button" className="primary" disabled={busy} onClick={() => void submit()}>
            Save evaluation
          </button>
          <button type="button" disabled={!past.length} onClick={undo} title="Ctrl+Z in the table">
            <Undo2 size={18} aria-hidden="true" /> Undo
          </button>
          <button type="button" disabled={!future.length} onClick={redo} title="Ctrl+Shift+Z or Ctrl+Y in the table">
            <Redo2 size={18} aria-hidden="true" /> Redo
          </button>
        </div>
      )}
    </>
  );
}
