import { type ReactNode, useState } from 'react';
import { type ActiveFilter, FilterBar } from '../../ui/FilterBar';
import { Sheet } from '../../ui/Modal';
import './uikit.css';

// What every specimen of the UI kit is shown in, and the small live demos it uses.

/** One entry of the kit: what it is for, where it lives, and the thing itself, live. */
export function Specimen({ id, title, source, children, note }: { id: string; title: string; source: string; children: ReactNode; note?: ReactNode }) {
  return (
    <section className="specimen" aria-labelledby={`kit-${id}`} id={id}>
      <header className="specimen-head">
        <h2 id={`kit-${id}`}>{title}</h2>
        <code>{source}</code>
      </header>
      {note && <p className="muted small-text">{note}</p>}
      <div className="specimen-body">{children}</div>
    </section>
  );
}

export interface Person {
  name: string;
  department: string;
  level: string;
  base: string;
}

export const PEOPLE: Person[] = [
  { name: 'Ada Lovelace', department: 'Engineering', level: 'P4', base: '$182,000' },
  { name: 'Grace Hopper', department: 'Engineering', level: 'M3', base: '$214,000' },
  { name: 'Katherine Johnson', department: 'Research', level: 'P3', base: '$156,000' },
];

export function FilterDemo() {
  const [department, setDepartment] = useState('Engineering');
  const [level, setLevel] = useState('');
  const active: ActiveFilter[] = [
    ...(department ? [{ key: 'department', label: `Department: ${department}`, onRemove: () => setDepartment('') }] : []),
    ...(level ? [{ key: 'level', label: `Level: ${level}`, onRemove: () => setLevel('') }] : []),
  ];
  return (
    <FilterBar
      label="Filter the example"
      active={active}
      onClearAll={() => {
        setDepartment('');
        setLevel('');
      }}
      search={
        <label>
          Find a person
          <input type="search" placeholder="Name or e-mail" />
        </label>
      }
    >
      <label>
        Department
        <select value={department} onChange={(event) => setDepartment(event.target.value)}>
          <option value="">All</option>
          <option>Engineering</option>
          <option>Research</option>
        </select>
      </label>
      <label>
        Level
        <select value={level} onChange={(event) => setLevel(event.target.value)}>
          <option value="">All</option>
          <option>P3</option>
          <option>P4</option>
          <option>M3</option>
        </select>
      </label>
    </FilterBar>
  );
}

export function SheetDemo() {
  const [open, setOpen] = useState<'right' | 'bottom' | null>(null);
  return (
    <div className="kit-row">
      <button type="button" onClick={() => setOpen('right')}>
        Open a drawer
      </button>
      <button type="button" onClick={() => setOpen('bottom')}>
        Open a bottom sheet
      </button>
      {open && (
        <Sheet
          title={open === 'right' ? 'A drawer' : 'A bottom sheet'}
          side={open}
          onClose={() => setOpen(null)}
          footer={
            <button type="button" className="primary" onClick={() => setOpen(null)}>
              Done
            </button>
          }
        >
          <p>Focus moved here and stays inside until the sheet closes (Escape, the close button, or a press outside); then it goes back to the button that opened it.</p>
        </Sheet>
      )}
    </div>
  );
}
