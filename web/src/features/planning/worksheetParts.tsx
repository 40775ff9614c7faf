import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';
import { type Column, DataTable } from '../../ui/DataTable';
import { Modal } from '../../ui/Modal';
import { type BudgetFigures, type WorksheetEmployee, formatBp, formatMoney } from './common';
import type { CellEdit } from './worksheetModel';

// The worksheet's parts around its grid: the budget, the phone's cards, the comment the cycle asks for and the changes not saved.

/** Allocated, used and remaining, as a bar and in words; over budget says so. */
export function BudgetBar({ budget, label }: { budget: BudgetFigures; label: string }) {
  const share = budget.allocated.amount > 0 ? Math.min(1, budget.used.amount / budget.allocated.amount) : budget.used.amount > 0 ? 1 : 0;
  return (
    <section className={budget.overBudget ? 'planning-budget over' : 'planning-budget'} aria-label={label}>
      <div className="planning-budget-bar" aria-hidden="true">
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <dl>
        <div>
          <dt>Allocated</dt>
          <dd data-testid="budget-allocated">{formatMoney(budget.allocated)}</dd>
        </div>
        <div>
          <dt>Used</dt>
          <dd data-testid="budget-used">{formatMoney(budget.used)}</dd>
        </div>
        <div>
          <dt>Remaining</dt>
          <dd data-testid="budget-remaining">{formatMoney(budget.remaining)}</dd>
        </div>
        <div>
          <dt>Recommended</dt>
          <dd>{formatMoney(budget.recommended)}</dd>
        </div>
      </dl>
      {budget.overBudget && (
        <p className="planning-over">
          <AlertTriangle size={16} aria-hidden="true" /> Over budget
        </p>
      )}
    </section>
  );
}

/** Phones: the rows as cards to read (planning is done on a larger screen); each opens the person. */
export function WorksheetCards({ rows, onOpen }: { rows: WorksheetEmployee[]; onOpen: (row: WorksheetEmployee) => void }) {
  const columns: Column<WorksheetEmployee>[] = [
    { key: 'name', header: 'Employee', cell: (row) => row.name },
    { key: 'merit', header: 'Merit', cell: (row) => (row.merit ? `${formatBp(row.merit.percentBp)} · ${formatMoney(row.merit.amount)}` : '—') },
    { key: 'current', header: 'Current pay', cell: (row) => formatMoney(row.currentPay) },
    { key: 'new', header: 'New pay', cell: (row) => formatMoney(row.newPay) },
    { key: 'guideline', header: 'Guideline', cell: (row) => (row.recommendation ? `${formatBp(row.recommendation.minBp)}–${formatBp(row.recommendation.maxBp)}` : '—') },
    { key: 'flag', header: 'Flag', cell: (row) => row.flags[0]?.message ?? (row.eligibility.status === 'eligible' ? 'None' : row.eligibility.status) },
  ];
  return (
    <DataTable
      label="Worksheet rows"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.employeeId}
      rowAttributes={(row) => ({ 'data-employee-id': row.employeeId })}
      virtual={{ total: rows.length, regionLabel: 'Worksheet rows', onOpen, cards: { regionLabel: 'Worksheet cards', label: (row) => `Open ${row.name}`, className: 'planning-card' } }}
    />
  );
}

/** The cycle asks why a row is outside the guideline: the server's message, and the comment it needs. */
export function CommentPrompt({ edit, name, onSave, onClose }: { edit: CellEdit; name: string; onSave: (comment: string) => void; onClose: () => void }) {
  const [comment, setComment] = useState('');
  return (
    <Modal
      title={`Why is ${name} outside the guideline?`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="primary" disabled={!comment.trim()} onClick={() => onSave(comment.trim())}>
            Save with the comment
          </button>
          <button type="button" onClick={onClose}>
            Not now
          </button>
        </>
      }
    >
      <p role="alert">{edit.message}</p>
      <label>
        Comment
        <textarea value={comment} rows={3} maxLength={4000} onChange={(event) => setComment(event.target.value)} />
      </label>
    </Modal>
  );
}


interface RefusedProps {
  refused: readonly CellEdit[];
  nameOf: (employeeId: string) => string | undefined;
  readOnly: boolean;
  onSaveAgain: (edit: CellEdit) => void;
  onDrop: (edit: CellEdit) => void;
  onComment: (edit: CellEdit) => void;
}

/** Cells the server refused (a conflict, a rule): the person's entry is kept, to save again or let go. */
export function RefusedChanges({ refused, nameOf, readOnly, onSaveAgain, onDrop, onComment }: RefusedProps) {
  if (!refused.length) return null;
  return (
    <section className="planning-conflicts" aria-label="Changes not saved">
      <ul>
        {refused.map((edit) => (
          <li key={`${edit.employeeId}|${edit.field}`} data-employee-id={edit.employeeId}>
            <div role="alert">
              <p>
                <strong>{nameOf(edit.employeeId) ?? 'A row'}</strong>: {edit.message} Your entry “{edit.text}” is kept.
              </p>
              <div className="actions">
                {!readOnly && (
                  <button type="button" className="small primary" onClick={() => onSaveAgain(edit)}>
                    Save mine again
                  </button>
                )}
                <button type="button" className="small" onClick={() => onDrop(edit)}>
                  {edit.status === 'conflict' ? 'Keep theirs' : 'Drop my change'}
                </button>
                {edit.code === 'comment_required' && !readOnly && (
                  <button type="button" className="small" onClick={() => onComment(edit)}>
                    Add the comment
                  </button>
                )}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
