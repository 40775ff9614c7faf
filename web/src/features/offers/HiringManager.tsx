import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage, useQuery } from '../../api/client';
import { useDebounced } from '../../ui/hooks';

/** The hiring manager: an active employee, found by name, e-mail or number; the hire's manager from their first day. */
export function HiringManagerField({ manager, onChange }: { manager: { id: string; name: string } | null; onChange: (manager: { id: string; name: string } | null) => void }) {
  const [text, setText] = useState('');
  const search = useDebounced(text.trim());
  const id = useId();
  const found = useQuery('/api/employees', search.length >= 2 ? { params: { query: { search, status: 'active', limit: 8 } } } : null);
  return (
    <div className="offer-manager">
      <label htmlFor={id}>Hiring manager (the hire reports to them)</label>
      {manager && (
        <p>
          <strong data-testid="hiring-manager">{manager.name}</strong>{' '}
          <button type="button" className="ghost small" onClick={() => onChange(null)}>
            <X size={14} aria-hidden="true" /> Remove
          </button>
        </p>
      )}
      <input id={id} type="search" value={text} placeholder="Name, e-mail or employee number" autoComplete="off" onChange={(event) => setText(event.target.value)} />
      {found.error && <p role="alert">{errorMessage(found.error)}</p>}
      {search.length >= 2 && found.data && (
        <ul aria-label="Matching people" className="offer-manager-results">
          {found.data.data.length === 0 && <li className="muted small-text">Nobody matches.</li>}
          {found.data.data.map((employee) => {
            const name = [employee.firstName, employee.lastName].filter(Boolean).join(' ');
            return (
              <li key={employee.id}>
                <button
                  type="button"
                  className="small"
                  onClick={() => {
                    onChange({ id: employee.id, name });
                    setText('');
                  }}
                >
                  {name} <span className="muted small-text">{employee.title}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
