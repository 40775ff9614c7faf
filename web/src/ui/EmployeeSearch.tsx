import { useState } from 'react';
import { errorMessage, useQuery } from '../api/client';
import { useDebounced } from './hooks';

export interface PickedEmployee {
  id: string;
  name: string;
}

interface EmployeeSearchProps {
  label: string;
  onPick: (employee: PickedEmployee) => void;
  /** Leaves out people who have left (the company's employees only). */
  activeOnly?: boolean;
  /**
   * Whom it searches: the company's employees the person may read (default), or the people whose
   * total rewards statement the person may preview (which needs no access to people data).
   */
  source?: 'employees' | 'statementPreview';
  /** The one picked now, marked as pressed in the list. */
  selected?: string | null;
}

/**
 * Finds an employee by name, e-mail or employee number (two characters or more) and hands the one
 * picked to `onPick`; the field empties after a pick. `activeOnly` leaves out people who have left.
 */
export function EmployeeSearch({ label, onPick, activeOnly = false, source = 'employees', selected }: EmployeeSearchProps) {
  const [text, setText] = useState('');
  const search = useDebounced(text.trim());
  const query = activeOnly ? { search, status: 'active' as const, limit: 8 } : { search, limit: 8 };
  const asking = search.length >= 2;
  const employees = useQuery('/api/employees', asking && source === 'employees' ? { params: { query } } : null);
  const previewable = useQuery('/api/total-rewards/preview-employees', asking && source === 'statementPreview' ? { params: { query: { search, limit: 8 } } } : null);
  const found = source === 'employees' ? employees : previewable;
  return (
    <div className="employee-search">
      <label>
        {label}
        <input type="search" value={text} placeholder="Name, e-mail or employee number" autoComplete="off" onChange={(event) => setText(event.target.value)} />
      </label>
      {found.error && <p role="alert">{errorMessage(found.error)}</p>}
      {search.length >= 2 && found.data && (
        <ul aria-label="Matching people">
          {found.data.data.length === 0 && <li className="muted small-text">Nobody matches.</li>}
          {found.data.data.map((employee) => {
            const name = [employee.firstName, employee.lastName].filter(Boolean).join(' ');
            return (
              <li key={employee.id}>
                <button
                  type="button"
                  className="small"
                  aria-pressed={selected === undefined ? undefined : selected === employee.id}
                  onClick={() => {
                    onPick({ id: employee.id, name });
                    setText('');
                  }}
                >
                  {name}
                  <span className="muted small-text"> · {employee.title}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
