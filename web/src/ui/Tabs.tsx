import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export interface TabPanel {
  id: string;
  label: ReactNode;
  panel: ReactNode;
}

interface SectionTabsProps {
  /** The tab list's name. */
  label: string;
  tabs: TabPanel[];
  selected: string;
  onSelect: (id: string) => void;
}

/**
 * Tabs within one screen (WAI-ARIA tabs, automatic activation): arrows move and select, Home and End
 * go to the ends; only the selected tab is in the Tab order. For links between screens use
 * `Tabs` from ui/Panels (a navigation landmark with `aria-current`).
 */
export function SectionTabs({ label, tabs, selected, onSelect }: SectionTabsProps) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  function onKey(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const go = (to: number) => {
      event.preventDefault();
      const next = tabs[(to + tabs.length) % tabs.length];
      if (!next) return;
      onSelect(next.id);
      list.current?.querySelector<HTMLButtonElement>(`[data-tab="${next.id}"]`)?.focus();
    };
    if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'ArrowLeft') go(index - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(tabs.length - 1);
  }
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0];
  return (
    <div className="section-tabs">
      <div ref={list} role="tablist" aria-label={label} className="tabs" onKeyDown={onKey}>
        {tabs.map((tab) => {
          const active = tab.id === current?.id;
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`${base}-tab-${tab.id}`}
              data-tab={tab.id}
              aria-selected={active}
              aria-controls={`${base}-panel-${tab.id}`}
              tabIndex={active ? 0 : -1}
              className={active ? 'tab active' : 'tab'}
              onClick={() => onSelect(tab.id)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {current && (
        <div role="tabpanel" id={`${base}-panel-${current.id}`} aria-labelledby={`${base}-tab-${current.id}`} tabIndex={0} className="tab-panel">
          {current.panel}
        </div>
      )}
    </div>
  );
}
