import { useState } from 'react';
import type { Column } from '../../ui/DataTable';
import { type WorksheetEmployee, bpToInput, parseAmount, parsePercent } from './common';
import type { CellChange, ChangeInfo } from './WorksheetGrid';
import type { CellEdit, EditField } from './worksheetModel';

/** An amount column bulk actions can set: promotion, lump sum, equity refresh, with the word the worksheet shows. */
export interface AmountColumn {
  field: 'promotion' | 'lumpSum' | 'equityRefresh';
  column: Column<WorksheetEmployee>;
}

interface Props {
  selected: readonly WorksheetEmployee[];
  /** The merit % column: its edit says whose cell can change and what it holds now. */
  merit?: Column<WorksheetEmployee>;
  /** The amount columns the planner edits, each set or cleared the same way. */
  amounts: readonly AmountColumn[];
  editOf: (employeeId: string, field: EditField) => CellEdit | undefined;
  /** The same way in as a paste: checked per cell, saved per row at the version read, one step to undo. */
  onChange: (changes: CellChange[], info: ChangeInfo) => void;
}

interface Apply {
  field: EditField;
  column: Column<WorksheetEmployee>;
  action: string;
  textFor: (row: WorksheetEmployee) => string | null;
  /** Rows without a value, in words ("without a guideline"). */
  without?: string;
}

/**
 * What the planner can do with the rows selected in the worksheet: one merit percentage for all,
 * each one's guideline target, or no merit; one amount of promotion, lump sum or equity refresh
 * for all, or none. Each is one change, as a paste is: rows that cannot take it are left as they
 * are and counted.
 */
export function WorksheetBulkActions({ selected, merit, amounts, editOf, onChange }: Props) {
  function apply({ field, column, action, textFor, without = '' }: Apply) {
    const edit = column.edit;
    if (!edit) return;
    const changes: CellChange[] = [];
    let readOnly = 0;
    let missing = 0;
    for (const row of selected) {
      if (!edit.editable(row)) {
        readOnly += 1;
        continue;
      }
      const text = textFor(row);
      if (text === null) {
        missing += 1;
        continue;
      }
      const before = editOf(row.employeeId, field)?.text ?? edit.text(row);
      // The row as the person saw it carries the version the change is made at.
      if (before !== text) changes.push({ employeeId: row.employeeId, field, text, before, readVersion: row.version });
    }
    const what = field === 'meritPercent' ? 'merit' : (column.label ?? field).toLowerCase();
    const notes = [readOnly && `${readOnly} ${readOnly === 1 ? 'person' : 'people'} whose ${what} cannot be changed here`, missing && `${missing} ${without}`].filter(Boolean);
    onChange(changes, { action, batch: true, skipped: readOnly + missing, ...(notes.length ? { skippedNote: `Left as they are: ${notes.join('; ')}.` } : {}) });
  }

  return (
    <>
      {merit?.edit && <MeritActions merit={merit} apply={apply} />}
      {amounts.length > 0 && <AmountActions amounts={amounts} currency={selected[0]?.currency ?? 'USD'} apply={apply} />}
    </>
  );
}

function MeritActions({ merit, apply }: { merit: Column<WorksheetEmployee>; apply: (input: Apply) => void }) {
  const [percent, setPercent] = useState('');
  const [problem, setProblem] = useState('');
  const meritApply = (action: string, textFor: Apply['textFor'], without?: string) => apply({ field: 'meritPercent', column: merit, action, textFor, ...(without ? { without } : {}) });

  function setAll() {
    const bp = parsePercent(percent);
    if (bp === null || bp < 0) {
      setProblem('Type the merit increase as a percentage, e.g. 3.5.');
      return;
    }
    setProblem('');
    meritApply('Set merit %', () => bpToInput(bp));
  }

  return (
    <div className="planning-bulk-bar worksheet-bulk" role="group" aria-label="Change the selected people’s merit">
      <BulkInput label="Merit % for the selected" value={percent} onChange={setPercent} onEnter={setAll} problemId={problem ? 'worksheet-bulk-problem' : undefined} />
      <button type="button" className="small" disabled={!percent.trim()} onClick={setAll}>
        Set merit %
      </button>
      <button type="button" className="small" onClick={() => meritApply('Set to guideline', (row) => (row.recommendation ? bpToInput(row.recommendation.targetBp) : null), 'without a guideline')}>
        Set to guideline
      </button>
      <button type="button" className="small" title="Sets the merit increase of the selected people to 0 %" onClick={() => meritApply('Clear merit', () => '0')}>
        Clear merit
      </button>
      {problem && (
        <span className="worksheet-bulk-problem" id="worksheet-bulk-problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}

/** One amount for the selected people in the column chosen, each in their own currency, or none. */
function AmountActions({ amounts, currency, apply }: { amounts: readonly AmountColumn[]; currency: string; apply: (input: Apply) => void }) {
  const [field, setField] = useState(amounts[0]?.field);
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState('');
  const chosen = amounts.find((entry) => entry.field === field) ?? amounts[0];
  if (!chosen) return null;
  const label = chosen.column.label ?? chosen.field;
  const amountApply = (action: string, text: string) => apply({ field: chosen.field, column: chosen.column, action, textFor: () => text });

  function setAll() {
    const minor = parseAmount(amount.trim(), currency);
    if (minor === null || minor < 0) {
      setProblem(`Type the ${label.toLowerCase()} as an amount, e.g. 2500.`);
      return;
    }
    setProblem('');
    amountApply(`Set ${label.toLowerCase()}`, amount.trim());
  }

  return (
    <div className="planning-bulk-bar worksheet-bulk" role="group" aria-label="Change an amount of the selected people">
      {amounts.length > 1 ? (
        <label>
          Amount
          <select value={chosen.field} onChange={(event) => setField(amounts.find((entry) => entry.field === event.target.value)?.field)}>
            {amounts.map((entry) => (
              <option key={entry.field} value={entry.field}>
                {entry.column.label ?? entry.field}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <BulkInput label={`${label} for the selected`} value={amount} onChange={setAmount} onEnter={setAll} problemId={problem ? 'worksheet-bulk-amount-problem' : undefined} />
      <button type="button" className="small" disabled={!amount.trim()} onClick={setAll}>
        Set {label.toLowerCase()}
      </button>
      <button type="button" className="small" title={`Takes the ${label.toLowerCase()} of the selected people away`} onClick={() => amountApply(`Clear ${label.toLowerCase()}`, '')}>
        Clear {label.toLowerCase()}
      </button>
      {problem && (
        <span className="worksheet-bulk-problem" id="worksheet-bulk-amount-problem" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}

/** A figure typed for the selected rows; Enter applies it. `problemId`: the problem shown, when there is one. */
function BulkInput({ label, value, onChange, onEnter, problemId }: { label: string; value: string; onChange: (value: string) => void; onEnter: () => void; problemId: string | undefined }) {
  return (
    <label>
      {label}
      <input
        inputMode="decimal"
        value={value}
        aria-invalid={problemId ? true : undefined}
        aria-describedby={problemId}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onEnter();
          }
        }}
      />
    </label>
  );
}
