import { useId, useState } from 'react';
import { useQuery } from '../../api/client';
import { useDebounced } from '../../ui/hooks';

/** Whose statement to preview: a search over the employees the person may preview, by name, title or e-mail. */
export function EmployeePicker({ selected, onSelect, label = 'Preview as' }: { selected: string | null; onSelect: (employeeId: string, name: string) => void; label?: string }) {
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 250);
  const id = useId();
  const { data, error } = useQuery('/api/total-rewards/preview-employees', { params: { query: { limit: 8, ...(query ? { search: query } : {}) } } });
  const people = data?.data ?? [];
  return (
    <div className="tr-picker">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={search} placeholder="Search by name or title" onChange={(event) => setSearch(event.target.value)} autoComplete="off" />
      {error && <p role="alert">The employees could not be loaded.</p>}
      <ul className="tr-picker-results" aria-label="Employees">
        {people.map((person) => {
          const name = `${person.firstName} ${person.lastName}`;
          return (
            <li key={person.id}>
              <button type="button" aria-pressed={selected === person.id} className={selected === person.id ? 'tr-picker-option active' : 'tr-picker-option'} onClick={() => onSelect(person.id, name)}>
                <span>{name}</span>
                <span className="muted small-text">{[person.title, person.department].filter(Boolean).join(' · ')}</span>
              </button>
            </li>
          );
        })}
        {data && people.length === 0 && <li className="muted small-text">Nobody matches.</li>}
      </ul>
    </div>
  );
}
