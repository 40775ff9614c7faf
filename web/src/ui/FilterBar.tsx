import { SlidersHorizontal, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { NARROW, useMediaQuery } from './hooks';
import { Sheet } from './Modal';

export interface ActiveFilter {
  key: string;
  /** What the chip says, e.g. "Department: Engineering". */
  label: string;
  onRemove: () => void;
}

interface FilterBarProps {
  /** The search landmark's name, e.g. "Filter employees". */
  label: string;
  /** A search field: always in view, on phones too. */
  search?: ReactNode;
  /** The filter controls: in a row from 640 px, in a sheet behind one button on phones. */
  children: ReactNode;
  active: ActiveFilter[];
  onClearAll?: () => void;
  /** The sheet's closing button on phones, e.g. "Show 12 people". */
  showLabel?: string;
}

/** The filters that are set, as chips that remove themselves. */
export function FilterChips({ active, onClearAll }: { active: ActiveFilter[]; onClearAll?: () => void }) {
  if (!active.length) return null;
  return (
    <div className="filter-chips-row">
      <ul className="filter-chips" aria-label="Active filters">
        {active.map((filter) => (
          <li key={filter.key} className="filter-chip">
            <span>{filter.label}</span>
            <button type="button" className="ghost" aria-label={`Remove ${filter.label}`} onClick={filter.onRemove}>
              <X size={16} aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      {onClearAll && active.length > 1 && (
        <button type="button" className="ghost small" onClick={onClearAll}>
          Clear all
        </button>
      )}
    </div>
  );
}

/**
 * Search and filters for a list. From 640 px the filters sit in a row; on phones they wait in a
 * bottom sheet behind one "Filters" button (with how many are set), and the set ones show as chips
 * under it, each removable with one tap.
 */
export function FilterBar({ label, search, children, active, onClearAll, showLabel = 'Show results' }: FilterBarProps) {
  const phone = useMediaQuery(NARROW);
  const [open, setOpen] = useState(false);
  if (!phone) {
    return (
      <div className="filter-bar" role="search" aria-label={label}>
        <div className="filter-bar-fields">
          {search && <div className="filter-bar-search">{search}</div>}
          {children}
        </div>
        <FilterChips active={active} onClearAll={onClearAll} />
      </div>
    );
  }
  return (
    <div className="filter-bar phone" role="search" aria-label={label}>
      {search && <div className="filter-bar-search">{search}</div>}
      <div className="filter-bar-actions">
        <button type="button" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen(true)}>
          <SlidersHorizontal size={18} aria-hidden="true" />
          Filters
          {active.length > 0 && (
            <span className="count-badge">
              {active.length}
              <span className="visually-hidden"> set</span>
            </span>
          )}
        </button>
      </div>
      <FilterChips active={active} onClearAll={onClearAll} />
      {open && (
        <Sheet
          title="Filters"
          side="bottom"
          onClose={() => setOpen(false)}
          footer={
            <>
              {onClearAll && active.length > 0 && (
                <button type="button" onClick={onClearAll}>
                  Clear all
                </button>
              )}
              <button type="button" className="primary" onClick={() => setOpen(false)}>
                {showLabel}
              </button>
            </>
          }
        >
          <div className="filter-sheet-fields">{children}</div>
        </Sheet>
      )}
    </div>
  );
}
