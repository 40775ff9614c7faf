import { SearchX, Users } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useInfiniteQuery, useQuery } from '../../api/client';
import { DataGrid } from '../../ui/DataGrid';
import { type Column, ColumnPicker } from '../../ui/DataTable';
import { saveBlob } from '../../ui/files';
import { toCsv } from '../../ui/gridModel';
import { NARROW, useDebounced, useMediaQuery } from '../../ui/hooks';
import { type ActiveFilter, FilterBar } from '../../ui/FilterBar';
import { Toolbar } from '../../ui/Page';
import { SkeletonTable } from '../../ui/Skeleton';
import { Empty, ErrorState } from '../../ui/States';
import { type Schemas, type TeamColumn, TeamPage, formatDate, formatMoney, formatNumber, formatRatio, bandPositionText, humanise, usePermissions, useSaveSettings, useTeamSettings } from './common';
import { useToasts } from '../../ui/Toasts';
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

const POSITION_NAMES = { below: 'Below band', inside: 'In band', above: 'Above band' } as const;

/** A cell as plain text (what an export or a copy carries). */
function cellString(row: Row, column: TeamColumn): string {
  switch (column) {
    case 'compaRatio':
      if (!row.compaRatio) return '';
      return row.compaRatio.ratio === null ? (row.compaRatio.label ?? '') : formatRatio(row.compaRatio.ratio);
    case 'bandPosition': {
      const value = row.bandPosition;
      if (!value) return '';
      if (!value.position || value.compaRatio === null) return value.label ?? '';
      return `${POSITION_NAMES[value.position]} · ${formatRatio(value.compaRatio)}`;
    }
    default: {
      const text = cellText(row, column);
      return typeof text === 'string' && text !== '—' ? text : '';
    }
  }
}

/**
 * Default widths in pixels: at 1280 px the default columns up to band position fit beside the
 * side menu without scrolling sideways (40 + 170 + 170 + 120 + 90 + 110 + 100 + 120 = 920 px).
 */
const SIZES: Partial<Record<TeamColumn, number>> = {
  name: 170,
  title: 170,
  department: 120,
  level: 90,
  baseSalary: 110,
  compaRatio: 100,
  bandPosition: 120,
  email: 220,
  employeeNumber: 110,
  startDate: 110,
  lastRaiseDate: 110,
};
const sizeOf = (column: TeamColumn): number => SIZES[column] ?? (NUMERIC.has(column) ? 110 : 140);
const LONG_TEXT: ReadonlySet<TeamColumn> = new Set(['name', 'title', 'department', 'email', 'jobFamily', 'location', 'manager', 'level']);

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
  return {
    key: column.key,
    header: column.label,
    label: column.label,
    cell: (row) => cellText(row, column.key),
    numeric: NUMERIC.has(column.key),
    size: sizeOf(column.key),
    // Long names and titles show in full on hover (and in the drawer).
    title: LONG_TEXT.has(column.key) ? (row) => cellString(row, column.key) || undefined : undefined,
  };
}

/** The selected people's shown columns as a CSV file, or as tab-separated text for a spreadsheet. */
function SelectionActions({ selected, columns }: { selected: Row[]; columns: readonly ColumnInfo[] }) {
  const { add } = useToasts();
  const header = columns.map((column) => column.label);
  const lines = selected.map((row) => columns.map((column) => cellString(row, column.key)));
  return (
    <>
      <button type="button" className="small" onClick={() => saveBlob(new Blob([toCsv(header, lines)], { type: 'text/csv' }), `employees-${new Date().toISOString().slice(0, 10)}.csv`)}>
        Export selection (CSV)
      </button>
      <button
        type="button"
        className="small"
        onClick={() =>
          void navigator.clipboard
            ?.writeText([header, ...lines].map((line) => line.join('\t')).join('\n'))
            .then(() => add('success', `Copied ${selected.length} ${selected.length === 1 ? 'row' : 'rows'} for a spreadsheet`))
        }
      >
        Copy for a spreadsheet
      </button>
    </>
  );
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
  const { saveMine } = useSaveSettings();
  // A column dragged to a new place is saved in the person's own team columns.
  async function reorder(keys: TeamColumn[]) {
    if (settings.data && (await saveMine(settings.data.data.personal.version, { columns: keys }))) void mutate();
  }
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
      <DataGrid
        id="team-employees"
        label="Employees"
        regionLabel="Employee table"
        columns={columns.map(columnOf)}
        rows={rows}
        rowKey={(row) => row.id}
        rowName={(row) => row.name ?? row.employeeNumber ?? 'employee'}
        rowAttributes={(row) => ({ 'data-employee-id': row.id })}
        sort={{ key: sort, order, onSort }}
        total={first.total}
        onOpen={open}
        onEndReached={() => {
          if (hasMore && !isValidating) void setSize(size + 1);
        }}
        order={settings.data ? { keys: settings.data.data.effective.columns, onChange: (keys) => void reorder(keys as TeamColumn[]) } : undefined}
        cards={{ regionLabel: 'Employee cards', className: 'team-card' }}
        bulkActions={(selected) => <SelectionActions selected={selected} columns={columns} />}
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
