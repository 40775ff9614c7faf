import { Filter } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Density } from './useGridLayout';

interface BarProps {
  /** When rows can be selected: how many are, what can be done with them, and clearing them. */
  selection?: { count: number; actions: ReactNode; clear: () => void };
  tools?: ReactNode;
  /** The column filters' switch (desktop, filterable grids). */
  filters?: { shown: boolean; toggle: () => void };
  /** The density switch (desktop). */
  density?: { value: Density; onChange: (density: Density) => void };
}

/** Above the grid: the selection and its bulk actions, then the screen's tools, the filters' switch and the density. */
export function DataGridBar({ selection, tools, filters, density }: BarProps) {
  return (
    <div className="dgrid-bar">
      {selection && (
        <div className="dgrid-selection">
          <span role="status">{selection.count ? `${selection.count} selected` : ''}</span>
          {selection.count > 0 && selection.actions}
          {selection.count > 0 && (
            <button type="button" className="small" onClick={selection.clear}>
              Clear selection
            </button>
          )}
        </div>
      )}
      <div className="dgrid-tools">
        {tools}
        {filters && (
          <button type="button" className="small" aria-pressed={filters.shown} onClick={filters.toggle}>
            <Filter size={16} aria-hidden="true" />
            Filter columns
          </button>
        )}
        {density && (
          <label className="dgrid-density">
            Rows
            <select value={density.value} onChange={(event) => density.onChange(event.target.value as Density)}>
              <option value="compact">Compact</option>
              <option value="comfortable">Comfortable</option>
            </select>
          </label>
        )}
      </div>
    </div>
  );
}
