import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { createInfiniteHook } from 'swr-openapi';
import { useLocation, useSearch } from 'wouter';
import { api, useQuery } from '../../api/client';
import { FullSizeSpinner } from '../../ui/Spinner';
import {
  Empty,
  type Schemas,
  type TeamColumn,
  TeamError,
  TeamPage,
  formatDate,
  formatMoney,
  formatNumber,
  formatRatio,
  humanise,
  useDebounced,
  useMediaQuery,
  usePermissions,
  useSaveSettings,
  useTeamSettings,
} from './common';
import { EmployeeDrawer } from './EmployeeDrawer';
import { ExportPay } from './ExportPay';

type Row = Schemas['TeamEmployeeRow'];
type ColumnInfo = Schemas['TeamColumnInfo'];

const useInfinite = createInfiniteHook(api, 'paybench-team');
const PAGE = 200;
const FILTERS = ['department', 'level', 'location', 'jobFamily'] as const;
type FilterName = (typeof FILTERS)[number];

const NUMERIC: ReadonlySet<TeamColumn> = new Set(['baseSalary', 'bonusTarget', 'variablePay', 'commission', 'totalCash', 'compaRatio', 'grantedShares', 'vestedShares', 'equityValue']);

/** What a cell shows; pay the caller may not see is absent from the row and shows as a dash. */
export function cellText(row: Row, column: TeamColumn): ReactNode {
  switch (column) {
    case 'name':
    case 'employeeNumber':
    case 'title':
    case 'department':
    case 'track':
    case 'country':
    case 'performanceRating':
      return row[column] ?? '—';
    case 'email':
      return row.email ?? '—';
    case 'jobFamily':
    case 'level':
    case 'location':
    case 'manager':
      return row[column]?.name ?? '—';
    case 'startDate':
    case 'lastRaiseDate':
      return formatDate(row[column]);
    case 'employmentType':
    case 'status':
      return row[column] ? humanise(row[column]) : '—';
    case 'baseSalary':
    case 'bonusTarget':
    case 'variablePay':
    case 'commission':
    case 'totalCash':
    case 'equityValue':
      return formatMoney(row[column]);
    case 'grantedShares':
    case 'vestedShares':
      return formatNumber(row[column]);
    case 'compaRatio':
      if (!row.compaRatio) return '—';
      return row.compaRatio.ratio === null ? <span className="insufficient">{row.compaRatio.label ?? '—'}</span> : formatRatio(row.compaRatio.ratio);
  }
}

const widthOf = (column: TeamColumn): string => (column === 'name' ? 'minmax(180px, 1.4fr)' : column === 'email' ? '220px' : NUMERIC.has(column) ? '130px' : '150px');

/** The URL holds the table's filters, sort and the open employee, so back and forward follow them. */
function useTableParams() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  function set(changes: Record<string, string | null>, push = false) {
    const next = new URLSearchParams(window.location.search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(name);
      else next.set(name, value);
    }
    const query = next.toString();
    navigate(`${location}${query ? `?${query}` : ''}`, { replace: !push });
  }
  return { params, set };
}

function ColumnPicker({ settings, onSaved }: { settings: Schemas['TeamViewSettingsState']; onSaved: () => void }) {
  const [open, setOpen] = useState(false);
  const { saveMine, busy } = useSaveSettings();
  const panel = useId();
  const shown = settings.effective.columns;
  async function toggle(column: TeamColumn) {
    const next = shown.includes(column) ? shown.filter((key) => key !== column) : [...shown, column];
    if (!next.length) return;
    if (await saveMine(settings.personal.version, { columns: next })) onSaved();
  }
  return (
    <div>
      <button type="button" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
        Columns
      </button>
      {open && (
        <div id={panel} className="team-picker">
          <fieldset disabled={busy}>
            <legend>Columns to show</legend>
            {settings.availableColumns.map((column) => (
              <label key={column.key} className="check">
                <input type="checkbox" checked={shown.includes(column.key)} onChange={() => void toggle(column.key)} />
                {column.label}
              </label>
            ))}
          </fieldset>
          <a href="/team/settings/columns">Reorder columns or set the company default</a>
        </div>
      )}
    </div>
  );
}

function Filters({ params, set }: ReturnType<typeof useTableParams>) {
  const overview = useQuery('/api/team/employees/overview');
  const [text, setText] = useState(params.get('search') ?? '');
  const debounced = useDebounced(text);
  useEffect(() => {
    // Only the typed text drives this; the other filters change the URL themselves.
    if ((params.get('search') ?? '') !== debounced) set({ search: debounced || null });
  }, [debounced]);
  const options: Record<FilterName, Schemas['TeamBreakdown'][]> = {
    department: overview.data?.data.byDepartment ?? [],
    level: overview.data?.data.byLevel ?? [],
    location: overview.data?.data.byLocation ?? [],
    jobFamily: overview.data?.data.byJobFamily ?? [],
  };
  const labels: Record<FilterName, string> = { department: 'Department', level: 'Level', location: 'Location', jobFamily: 'Job family' };
  return (
    <div className="team-filters" role="search">
      <label className="wide">
        Search
        <input type="search" value={text} placeholder="Name, e-mail, title or ID" onChange={(event) => setText(event.target.value)} />
      </label>
      {FILTERS.map((name) => (
        <label key={name}>
          {labels[name]}
          <select value={params.get(name) ?? ''} onChange={(event) => set({ [name]: event.target.value || null })}>
            <option value="">All</option>
            {options[name].map((entry) => (
              <option key={entry.id ?? 'none'} value={entry.id ?? 'none'}>
                {entry.label} ({entry.count})
              </option>
            ))}
          </select>
        </label>
      ))}
      <label>
        Status
        <select value={params.get('status') ?? 'active'} onChange={(event) => set({ status: event.target.value === 'active' ? null : event.target.value })}>
          <option value="active">Active</option>
          <option value="terminated">Terminated</option>
          <option value="all">All</option>
        </select>
      </label>
    </div>
  );
}

function HeaderCell({ column, sort, order, onSort }: { column: ColumnInfo; sort: string; order: string; onSort: (key: TeamColumn) => void }) {
  const active = sort === column.key;
  return (
    <div role="columnheader" aria-sort={active ? (order === 'desc' ? 'descending' : 'ascending') : 'none'} className={NUMERIC.has(column.key) ? 'num' : undefined}>
      <button type="button" onClick={() => onSort(column.key)}>
        {column.label}
        <span aria-hidden="true">{active ? (order === 'desc' ? '▼' : '▲') : ''}</span>
      </button>
    </div>
  );
}

/** /team/employees: everyone in reach, virtualised; a card list on narrow screens; a drawer per person. */
export function TeamEmployeesScreen() {
  const state = useTableParams();
  const { params, set } = state;
  const settings = useTeamSettings();
  const can = usePermissions();
  const narrow = useMediaQuery('(max-width: 639px)');
  const sort = (params.get('sort') ?? 'name') as TeamColumn;
  const order = params.get('order') === 'desc' ? 'desc' : 'asc';
  const status = (params.get('status') ?? 'active') as Schemas['TeamStatusFilter'];
  const selected = params.get('employee');
  const filters: Partial<Record<FilterName, string[]>> = {};
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) filters[name] = [value];
  }
  const search = params.get('search') ?? '';
  // The columns are part of the request, so a change of settings is a new question, never a stale cached answer.
  const chosen = settings.data?.data.effective.columns;
  const query = { ...filters, ...(search ? { search } : {}), sort, order, status, limit: PAGE, columns: chosen ?? [] } as const;
  const { data, error, size, setSize, isValidating, mutate } = useInfinite('/api/team/employees/table', (index, previous) => {
    if (!chosen || (previous && !previous.page.nextCursor)) return null;
    const cursor = index > 0 ? previous?.page.nextCursor : undefined;
    return { params: { query: cursor ? { ...query, cursor } : query } };
  });
  const rows = useMemo(() => (data ?? []).flatMap((page) => page.data.rows), [data]);
  const first = data?.[0]?.data;
  const columns = first?.columns ?? [];
  const hasMore = Boolean(data?.at(-1)?.page.nextCursor);

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => (narrow ? 168 : 45), overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (hasMore && !isValidating && lastIndex >= rows.length - 30) void setSize(size + 1);
  }, [hasMore, isValidating, lastIndex, rows.length, setSize, size]);
  useEffect(() => virtualizer.measure(), [narrow, virtualizer]);

  function onSort(key: TeamColumn) {
    set({ sort: key === 'name' ? null : key, order: sort === key && order === 'asc' ? 'desc' : null });
  }
  const open = (row: Row) => set({ employee: row.id }, true);
  const template = columns.map((column) => widthOf(column.key)).join(' ');
  const filtered = Boolean(search || Object.keys(filters).length || status !== 'active');

  let body: ReactNode;
  if (error || settings.error) body = <TeamError error={error ?? settings.error} retry={() => void (error ? mutate() : settings.mutate())} />;
  else if (!first) body = <FullSizeSpinner loading />;
  else if (first.total === 0)
    body = filtered ? (
      <Empty title="No one matches">Try another search or clear the filters.</Empty>
    ) : (
      <Empty title="No employees yet">People appear here once they are imported from your HR system.</Empty>
    );
  else if (narrow)
    body = (
      <div ref={scroller} className="team-scroll" tabIndex={0} role="region" aria-label="Employee cards">
        <ul className="team-cards" aria-label="Employees" style={{ height: virtualizer.getTotalSize(), listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((item) => {
            const row = rows[item.index] as Row;
            const [lead, ...rest] = columns;
            return (
              <li key={row.id} className="team-card" data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start}px)` }}>
                <button type="button" onClick={() => open(row)} aria-label={`Open ${row.name ?? row.employeeNumber ?? 'employee'}`}>
                  <span className="name">{lead ? cellText(row, lead.key) : row.id}</span>
                  <dl>
                    {rest.slice(0, 5).map((column) => (
                      <Fragment key={column.key}>
                        <dt>{column.label}</dt>
                        <dd>{cellText(row, column.key)}</dd>
                      </Fragment>
                    ))}
                  </dl>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    );
  else
    body = (
      <div ref={scroller} className="team-scroll" tabIndex={0} role="region" aria-label="Employee table">
        <div className="team-grid" role="table" aria-label="Employees" aria-rowcount={first.total + 1}>
          <div role="rowgroup">
            <div role="row" className="head" aria-rowindex={1} style={{ gridTemplateColumns: template }}>
              {columns.map((column) => (
                <HeaderCell key={column.key} column={column} sort={sort} order={order} onSort={onSort} />
              ))}
            </div>
          </div>
          <div role="rowgroup" className="body" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index] as Row;
              return (
                <div
                  key={row.id}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-employee-id={row.id}
                  style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: item.size }}
                >
                  {columns.map((column, index) => (
                    <div key={column.key} role="cell" className={NUMERIC.has(column.key) ? 'num' : undefined}>
                      {index === 0 ? (
                        <button type="button" className="team-link" onClick={() => open(row)}>
                          {cellText(row, column.key)}
                        </button>
                      ) : (
                        cellText(row, column.key)
                      )}
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    );

  return (
    <TeamPage
      title="Employees"
      actions={
        <div className="team-toolbar">
          {first && (
            <span className="team-count" role="status">
              {formatNumber(first.total)} {first.total === 1 ? 'person' : 'people'}
            </span>
          )}
          {can.pay && <ExportPay status={status} />}
          {settings.data && (
            <ColumnPicker
              settings={settings.data.data}
              onSaved={() => {
                void mutate();
              }}
            />
          )}
        </div>
      }
    >
      <Filters {...state} />
      {narrow && columns.length > 0 && (
        <label>
          Sort by
          <select value={`${sort}:${order}`} onChange={(event) => {
            const [key, direction] = event.target.value.split(':');
            set({ sort: key === 'name' ? null : (key ?? null), order: direction === 'desc' ? 'desc' : null });
          }}>
            {columns.flatMap((column) => [
              <option key={`${column.key}:asc`} value={`${column.key}:asc`}>
                {column.label} ↑
              </option>,
              <option key={`${column.key}:desc`} value={`${column.key}:desc`}>
                {column.label} ↓
              </option>,
            ])}
          </select>
        </label>
      )}
      {body}
      {selected && <EmployeeDrawer employeeId={selected} onClose={() => set({ employee: null })} />}
    </TeamPage>
  );
}
