import { SearchX, Users } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useInfiniteQuery, useQuery } from '../../api/client';
import { type Column, ColumnPicker, DataTable } from '../../ui/DataTable';
import { NARROW, useDebounced, useMediaQuery } from '../../ui/hooks';
import { type ActiveFilter, FilterBar } from '../../ui/FilterBar';
import { Toolbar } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, ErrorState } from '../../ui/States';
import { type Schemas, type TeamColumn, TeamPage, formatDate, formatMoney, formatNumber, formatRatio, bandPositionText, humanise, usePermissions, useSaveSettings, useTeamSettings } from './common';
import { EmployeeDrawer } from './EmployeeDrawer';
import { ExportPay } from './ExportPay';

type Row = Schemas['TeamEmployeeRow'];
type ColumnInfo = Schemas['TeamColumnInfo'];

const PAGE = 200;
const FILTERS = ['department', 'level', 'location', 'jobFamily'] as const;
type FilterName = (typeof FILTERS)[number];

const NUMERIC: ReadonlySet<TeamColumn> = new Set(['baseSalary', 'bonusTarget', 'variablePay', 'commission', 'totalCash', 'compaRatio', 'bandPosition', 'grantedShares', 'vestedShares', 'equityValue']);

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
    case 'bandPosition':
      return bandPositionText(row.bandPosition);
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

/** The person's own columns, saved as they change them. */
function TeamColumnPicker({ settings, onSaved }: { settings: Schemas['TeamViewSettingsState']; onSaved: () => void }) {
  const { saveMine, busy } = useSaveSettings();
  const shown = settings.effective.columns;
  async function toggle(column: TeamColumn) {
    const next = shown.includes(column) ? shown.filter((key) => key !== column) : [...shown, column];
    if (!next.length) return;
    if (await saveMine(settings.personal.version, { columns: next })) onSaved();
  }
  return (
    <ColumnPicker columns={settings.availableColumns} shown={shown} onToggle={(column) => void toggle(column)} busy={busy}>
      <a href="/team/settings/columns">Reorder columns or set the company default</a>
    </ColumnPicker>
  );
}

const STATUS_LABELS: Record<string, string> = { active: 'Active', terminated: 'Terminated', all: 'All' };

/**
 * Search, the four filters and the status. The search stays in view; from 640 px the filters sit in
 * a row, on phones in a sheet behind one button (with the sort order), the ones set shown as chips.
 */
function Filters({ params, set, sortControl }: ReturnType<typeof useTableParams> & { sortControl?: ReactNode }) {
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
  const active: ActiveFilter[] = FILTERS.flatMap((name) => {
    const value = params.get(name);
    if (!value) return [];
    const label = options[name].find((entry) => (entry.id ?? 'none') === value)?.label ?? value;
    return [{ key: name, label: `${labels[name]}: ${label}`, onRemove: () => set({ [name]: null }) }];
  });
  const status = params.get('status');
  if (status && status !== 'active') active.push({ key: 'status', label: `Status: ${STATUS_LABELS[status] ?? status}`, onRemove: () => set({ status: null }) });
  const clearAll = () => set(Object.fromEntries([...FILTERS, 'status'].map((name) => [name, null])));
  return (
    <FilterBar
      label="Filter employees"
      active={active}
      onClearAll={clearAll}
      showLabel="Show people"
      search={
        <label>
          Search
          <input type="search" value={text} placeholder="Name, e-mail, title or ID" onChange={(event) => setText(event.target.value)} />
        </label>
      }
    >
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
      {sortControl}
    </FilterBar>
  );
}

/** A server column as the table shows it. */
function columnOf(column: ColumnInfo): Column<Row> {
  return { key: column.key, header: column.label, label: column.label, cell: (row) => cellText(row, column.key), numeric: NUMERIC.has(column.key), width: widthOf(column.key) };
}

/** /team/employees: everyone in reach, virtualised; a card list on narrow screens; a drawer per person. */
export function TeamEmployeesScreen() {
  const state = useTableParams();
  const { params, set } = state;
  const settings = useTeamSettings();
  const can = usePermissions();
  const narrow = useMediaQuery(NARROW);
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
  const { data, error, size, setSize, isValidating, mutate } = useInfiniteQuery('/api/team/employees/table', (index, previous) => {
    if (!chosen || (previous && !previous.page.nextCursor)) return null;
    const cursor = index > 0 ? previous?.page.nextCursor : undefined;
    return { params: { query: cursor ? { ...query, cursor } : query } };
  });
  const rows = useMemo(() => (data ?? []).flatMap((page) => page.data.rows), [data]);
  const first = data?.[0]?.data;
  const columns = first?.columns ?? [];
  const hasMore = Boolean(data?.at(-1)?.page.nextCursor);

  function onSort(key: string) {
    set({ sort: key === 'name' ? null : key, order: sort === key && order === 'asc' ? 'desc' : null });
  }
  const open = (row: Row) => set({ employee: row.id }, true);
  const filtered = Boolean(search || Object.keys(filters).length || status !== 'active');

  let body: ReactNode;
  if (error || settings.error) body = <ErrorState error={error ?? settings.error} retry={() => void (error ? mutate() : settings.mutate())} />;
  else if (!first) body = <SkeletonTable rows={8} columns={narrow ? 2 : Math.min(6, chosen?.length ?? 6)} label="Loading the employees" />;
  else if (first.total === 0)
    body = filtered ? (
      <Empty
        title="No one matches"
        icon={SearchX}
        action={
          <button type="button" onClick={() => set({ search: null, status: null, ...Object.fromEntries(FILTERS.map((name) => [name, null])) })}>
            Clear the search and filters
          </button>
        }
      >
        Try another search, or clear the filters to see everyone.
      </Empty>
    ) : (
      <Empty title="No employees yet" icon={Users}>
        People appear here once they are imported from a file or your HR system (Integrations).
      </Empty>
    );
  else
    body = (
      <DataTable
        label="Employees"
        columns={columns.map(columnOf)}
        rows={rows}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-employee-id': row.id })}
        sort={{ key: sort, order, onSort }}
        virtual={{
          total: first.total,
          regionLabel: 'Employee table',
          onOpen: open,
          onEndReached: () => {
            if (hasMore && !isValidating) void setSize(size + 1);
          },
          cards: { regionLabel: 'Employee cards', label: (row) => `Open ${row.name ?? row.employeeNumber ?? 'employee'}`, className: 'team-card' },
        }}
      />
    );

  const sortControl = (
    <label>
      Sort by
      <select
        value={`${sort}:${order}`}
        onChange={(event) => {
          const [key, direction] = event.target.value.split(':');
          set({ sort: key === 'name' ? null : (key ?? null), order: direction === 'desc' ? 'desc' : null });
        }}
      >
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
  );

  return (
    <TeamPage
      title="Employees"
      actions={
        <Toolbar label="Employee list" className="team-toolbar">
          {first && (
            <span className="team-count" role="status">
              {formatNumber(first.total)} {first.total === 1 ? 'person' : 'people'}
            </span>
          )}
          {can.pay && <ExportPay status={status} />}
          {settings.data && !narrow && (
            <TeamColumnPicker
              settings={settings.data.data}
              onSaved={() => {
                void mutate();
              }}
            />
          )}
        </Toolbar>
      }
    >
      <Filters {...state} sortControl={narrow && columns.length > 0 ? sortControl : undefined} />
      {body}
      {selected && <EmployeeDrawer employeeId={selected} onClose={() => set({ employee: null })} />}
    </TeamPage>
  );
}
