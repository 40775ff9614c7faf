import { AlertTriangle, ClipboardList, History, Lock } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Link, useParams } from 'wouter';
import { api, useQuery } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { Badge } from '../../ui/Badge';
import { type Column, ColumnPicker, DataTable } from '../../ui/DataTable';
import { type ActiveFilter, FilterBar } from '../../ui/FilterBar';
import { NARROW, useDebounced, useMediaQuery } from '../../ui/hooks';
import { Modal } from '../../ui/Modal';
import { Toolbar } from '../../ui/Page';
import { SkeletonStats, SkeletonTable } from '../../ui/Skeleton';
import { Empty, ErrorState } from '../../ui/States';
import { useQueryParam } from '../../ui/urlState';
import {
  type BudgetFigures,
  type MeritCycle,
  type Money,
  PlanningFrame,
  type WorksheetDetail,
  type WorksheetEmployee,
  type WorksheetEmployeeEdit,
  WorksheetStateBadge,
  amountToInput,
  bpToInput,
  formatBp,
  formatMoney,
  formatNumber,
  formatRatio,
  worksheetName,
} from './common';
import { EmployeeSheet, WorksheetHistorySheet } from './EmployeeSheet';
import { type MeritCycleEmployeesUpdate, useMeritCycleUpdates } from './liveUpdates';
import { WorksheetActions } from './WorksheetActions';
import { type CellChange, type GridColumn, WorksheetGrid } from './WorksheetGrid';
import { type CellEdit, type EditField, WorksheetModel, editBody } from './worksheetModel';

type CurrencyView = 'local' | 'cycle';
type Show = 'eligible' | 'all' | 'flagged' | 'unreviewed' | 'pending';

const SHOW_LABELS: Record<Show, string> = {
  eligible: 'Eligible people',
  all: 'Everyone',
  flagged: 'Outside the guideline',
  unreviewed: 'Not reviewed yet',
  pending: 'Unsaved or refused changes',
};

const HIDDEN_KEY = 'paybench.planning.hiddenColumns';

/** The merit amount in the cycle currency, at the rate between the row's two current pays (both from the server). */
function inCycle(amount: number, row: WorksheetEmployee): Money | null {
  const local = row.currentPay?.amount;
  const cycle = row.currentPayInCycleCurrency;
  if (!local || !cycle) return null;
  return { amount: Math.round((amount * cycle.amount) / local), currency: cycle.currency };
}

function FlagCell({ row, edits }: { row: WorksheetEmployee; edits: CellEdit[] }) {
  const refused = edits.find((edit) => edit.status === 'conflict' || edit.status === 'error');
  if (refused) return <Badge tone="danger">{refused.status === 'conflict' ? 'Conflict' : 'Not saved'}</Badge>;
  if (edits.some((edit) => edit.status === 'saving' || edit.status === 'queued')) return <span className="planning-muted">Saving…</span>;
  const flag = row.flags.find((entry) => entry.severity === 'error') ?? row.flags[0];
  if (!flag) return row.eligibility.status === 'eligible' ? null : <span className="planning-muted">{row.eligibility.status === 'excluded' ? 'Excluded' : 'Ineligible'}</span>;
  return (
    <span className="planning-flag" title={flag.message}>
      <Badge tone={flag.severity === 'error' ? 'danger' : 'warning'}>{flag.severity === 'error' ? 'Error' : 'Warning'}</Badge> {flag.message}
    </span>
  );
}

/** The columns the caller's roles show (view/edit, not none), in the cycle's components. */
function gridColumns(detail: WorksheetDetail, cycle: MeritCycle, view: CurrencyView, readOnly: boolean, model: WorksheetModel): GridColumn[] {
  const modes = detail.columns;
  const shows = (key: keyof typeof modes) => (modes[key] ?? 'view') !== 'none';
  const edits = (key: keyof typeof modes) => !readOnly && modes[key] === 'edit';
  const eligible = (row: WorksheetEmployee) => row.eligibility.status === 'eligible' && row.currentPay !== null && row.currentPay !== undefined;
  const has = (component: MeritCycle['components'][number]) => cycle.components.includes(component);
  const pay = (local: Money | null | undefined, cycleMoney: Money | null | undefined) => formatMoney(view === 'cycle' ? cycleMoney : local);
  const columns: GridColumn[] = [{ key: 'name', label: 'Employee', width: 'minmax(190px, 1.4fr)', cell: (row) => <span className="planning-name">{row.name}<span className="planning-muted">{row.title}</span></span> }];
  if (shows('currentPay')) columns.push({ key: 'currentPay', label: 'Current pay', width: '120px', numeric: true, cell: (row) => pay(row.currentPay, row.currentPayInCycleCurrency) });
  if (shows('bandPosition') && cycle.bandSetId)
    columns.push({ key: 'bandPosition', label: 'Compa-ratio', width: '110px', numeric: true, cell: (row) => (row.bandPosition ? `${formatRatio(row.bandPosition.compaRatio)}${row.bandPosition.column ? ` · Q${row.bandPosition.column}` : ''}` : '—') });
  if (shows('rating')) columns.push({ key: 'rating', label: 'Rating', width: '170px', cell: (row) => cycle.performance.scale.find((entry) => entry.value === row.rating)?.label ?? row.rating ?? '—' });
  if (shows('recommendation'))
    columns.push({
      key: 'recommendation',
      label: 'Guideline',
      width: '130px',
      numeric: true,
      cell: (row) => (row.recommendation ? <span title={`${formatBp(row.recommendation.minBp)}–${formatBp(row.recommendation.maxBp)}`}>{`${formatBp(row.recommendation.targetBp)} (${formatBp(row.recommendation.minBp)}–${formatBp(row.recommendation.maxBp)})`}</span> : '—'),
    });
  if (has('merit') && shows('merit')) {
    columns.push({ key: 'meritPercent', label: 'Merit %', width: '90px', numeric: true, field: 'meritPercent', cell: (row) => (row.merit ? formatBp(row.merit.percentBp) : '—'), inputText: (row) => bpToInput(row.merit?.percentBp), editable: (row) => edits('merit') && eligible(row) });
    columns.push({
      key: 'meritAmount',
      label: view === 'cycle' ? `Merit (${cycle.currency})` : 'Merit',
      width: '120px',
      numeric: true,
      field: 'meritAmount',
      cell: (row) => (row.merit ? formatMoney(view === 'cycle' ? inCycle(row.merit.amount.amount, row) : row.merit.amount) : '—'),
      inputText: (row) => amountToInput(row.merit?.amount),
      editable: (row) => view === 'local' && edits('merit') && eligible(row),
    });
  }
  const money = (key: 'promotion' | 'lumpSum' | 'equityRefresh', label: string) => {
    if (!has(key) || !shows(key)) return;
    columns.push({
      key,
      label,
      width: '120px',
      numeric: true,
      field: key,
      cell: (row) => {
        const value = row[key];
        return value ? formatMoney(view === 'cycle' ? inCycle(value.amount, row) : value) : '—';
      },
      inputText: (row) => amountToInput(row[key]),
      editable: (row) => view === 'local' && edits(key) && eligible(row),
    });
  };
  money('promotion', 'Promotion');
  money('lumpSum', 'Lump sum');
  money('equityRefresh', 'Equity refresh');
  if (shows('newPay')) columns.push({ key: 'newPay', label: 'New pay', width: '120px', numeric: true, cell: (row) => pay(row.newPay, row.newPayInCycleCurrency) });
  if (shows('newCompaRatio') && cycle.bandSetId) columns.push({ key: 'newCompaRatio', label: 'New compa-ratio', width: '120px', numeric: true, cell: (row) => formatRatio(row.newCompaRatio) });
  if (shows('comment'))
    columns.push({ key: 'comment', label: 'Comment', width: 'minmax(160px, 1fr)', field: 'comment', cell: (row) => row.comment ?? '', inputText: (row) => row.comment ?? '', editable: (row) => edits('comment') && eligible(row) });
  const fields: EditField[] = ['meritPercent', 'meritAmount', 'promotion', 'lumpSum', 'equityRefresh', 'comment'];
  columns.push({ key: 'flags', label: 'Flags', width: 'minmax(180px, 1.2fr)', cell: (row) => <FlagCell row={row} edits={fields.flatMap((field) => model.edit(row.employeeId, field) ?? [])} /> });
  return columns;
}

/** Allocated, used and remaining, as a bar and in words; over budget says so. */
function BudgetBar({ budget, label }: { budget: BudgetFigures; label: string }) {
  const share = budget.allocated.amount > 0 ? Math.min(1, budget.used.amount / budget.allocated.amount) : budget.used.amount > 0 ? 1 : 0;
  return (
    <section className={budget.overBudget ? 'planning-budget over' : 'planning-budget'} aria-label={label}>
      <div className="planning-budget-bar" aria-hidden="true">
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <dl>
        <div>
          <dt>Allocated</dt>
          <dd data-testid="budget-allocated">{formatMoney(budget.allocated)}</dd>
        </div>
        <div>
          <dt>Used</dt>
          <dd data-testid="budget-used">{formatMoney(budget.used)}</dd>
        </div>
        <div>
          <dt>Remaining</dt>
          <dd data-testid="budget-remaining">{formatMoney(budget.remaining)}</dd>
        </div>
        <div>
          <dt>Recommended</dt>
          <dd>{formatMoney(budget.recommended)}</dd>
        </div>
      </dl>
      {budget.overBudget && (
        <p className="planning-over">
          <AlertTriangle size={16} aria-hidden="true" /> Over budget
        </p>
      )}
    </section>
  );
}

/** Phones: the rows as cards to read (planning is done on a larger screen); each opens the person. */
function WorksheetCards({ rows, onOpen }: { rows: WorksheetEmployee[]; onOpen: (row: WorksheetEmployee) => void }) {
  const columns: Column<WorksheetEmployee>[] = [
    { key: 'name', header: 'Employee', cell: (row) => row.name },
    { key: 'merit', header: 'Merit', cell: (row) => (row.merit ? `${formatBp(row.merit.percentBp)} · ${formatMoney(row.merit.amount)}` : '—') },
    { key: 'current', header: 'Current pay', cell: (row) => formatMoney(row.currentPay) },
    { key: 'new', header: 'New pay', cell: (row) => formatMoney(row.newPay) },
    { key: 'guideline', header: 'Guideline', cell: (row) => (row.recommendation ? `${formatBp(row.recommendation.minBp)}–${formatBp(row.recommendation.maxBp)}` : '—') },
    { key: 'flag', header: 'Flag', cell: (row) => row.flags[0]?.message ?? (row.eligibility.status === 'eligible' ? 'None' : row.eligibility.status) },
  ];
  return (
    <DataTable
      label="Worksheet rows"
      columns={columns}
      rows={rows}
      rowKey={(row) => row.employeeId}
      rowAttributes={(row) => ({ 'data-employee-id': row.employeeId })}
      virtual={{ total: rows.length, regionLabel: 'Worksheet rows', onOpen, cards: { regionLabel: 'Worksheet cards', label: (row) => `Open ${row.name}`, className: 'planning-card' } }}
    />
  );
}

/** The cycle asks why a row is outside the guideline: the server's message, and the comment it needs. */
function CommentPrompt({ edit, name, onSave, onClose }: { edit: CellEdit; name: string; onSave: (comment: string) => void; onClose: () => void }) {
  const [comment, setComment] = useState('');
  return (
    <Modal
      title={`Why is ${name} outside the guideline?`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="primary" disabled={!comment.trim()} onClick={() => onSave(comment.trim())}>
            Save with the comment
          </button>
          <button type="button" onClick={onClose}>
            Not now
          </button>
        </>
      }
    >
      <p role="alert">{edit.message}</p>
      <label>
        Comment
        <textarea value={comment} rows={3} maxLength={4000} onChange={(event) => setComment(event.target.value)} />
      </label>
    </Modal>
  );
}

/** /compensationplanning/cycles/:meritCycleId/worksheets/:worksheetId: the planner's worksheet. */
export function WorksheetScreen() {
  const { meritCycleId = '', worksheetId = '' } = useParams<{ meritCycleId: string; worksheetId: string }>();
  const [modeParam, setModeParam] = useQueryParam('mode');
  const mode = modeParam === 'allBelow' || modeParam === 'ownReports' ? modeParam : undefined;
  const cycleReply = useQuery('/api/v2/meritCycles/{meritCycleId}', { params: { path: { meritCycleId } } });
  const reply = useQuery('/api/v2/meritCycles/{meritCycleId}/worksheets/{worksheetId}', { params: { path: { meritCycleId, worksheetId }, query: mode ? { mode } : {} } });
  const cycle = cycleReply.data?.data;
  const detail = reply.data?.data;
  const error = reply.error ?? cycleReply.error;

  return (
    <PlanningFrame
      title={detail ? `${worksheetName(detail.worksheet)}’s worksheet` : 'Worksheet'}
      icon={ClipboardList}
      eyebrow={
        <>
          <Link href="/compensationplanning">Merit cycles</Link> · <Link href={`/compensationplanning/cycles/${meritCycleId}/worksheets`}>{cycle?.name ?? 'Cycle'}</Link>
          {detail && (
            <>
              {' '}
              · <WorksheetStateBadge state={detail.worksheet.state} />
            </>
          )}
        </>
      }
      tabs={false}
    >
      {error ? (
        <ErrorState error={error} retry={() => void Promise.all([reply.mutate(), cycleReply.mutate()])} />
      ) : !detail || !cycle ? (
        <>
          <SkeletonStats count={3} label="Loading the budget" />
          <SkeletonTable rows={10} columns={8} label="Loading the worksheet" />
        </>
      ) : (
        <WorksheetBody cycle={cycle} detail={detail} mode={detail.mode} onMode={(next) => setModeParam(next === cycle.plannerMode ? null : next, { replace: true })} reload={() => reply.mutate()} />
      )}
    </PlanningFrame>
  );
}

function WorksheetBody({ cycle, detail, mode, onMode, reload }: { cycle: MeritCycle; detail: WorksheetDetail; mode: WorksheetDetail['mode']; onMode: (mode: WorksheetDetail['mode']) => void; reload: () => Promise<unknown> }) {
  const phone = useMediaQuery(NARROW);
  const model = useMemo(() => new WorksheetModel(), [detail.worksheet.id, mode]);
  useSyncExternalStore(model.subscribe, model.getVersion);
  useEffect(() => model.load(detail.employees, detail.worksheet.budget), [detail, model]);
  const [employeeParam, setEmployeeParam] = useQueryParam('employee');
  const [historyOpen, setHistoryOpen] = useState(false);
  const [view, setView] = useState<CurrencyView>('local');
  const [show, setShow] = useState<Show>('eligible');
  const [search, setSearch] = useState('');
  const [department, setDepartment] = useState('');
  const [hidden, setHidden] = useState<string[]>(() => JSON.parse(localStorage.getItem(HIDDEN_KEY) ?? '[]') as string[]);
  const [prompt, setPrompt] = useState<CellEdit | null>(null);
  const [selected, setSelected] = useState(1);
  const [fill, setFill] = useState(0);
  const query = useDebounced(search.trim().toLowerCase(), 200);
  const lastError = useRef<unknown>(undefined);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const readOnly = detail.readOnly;

  const { save } = useVersionedSave(async (ifMatch: string, employeeId: string, body: WorksheetEmployeeEdit) => {
    const answer = await api.PATCH('/api/v2/meritCycles/{meritCycleId}/employees/{employeeId}', { params: { path: { meritCycleId: cycle.id, employeeId }, header: { 'If-Match': ifMatch } }, body });
    lastError.current = answer.error;
    return answer;
  });

  /** Reads one row again (after a conflict, or someone else's change), keeping any edit the person has in it. */
  async function refetchRow(employeeId: string) {
    const { data } = await api.GET('/api/v2/meritCycles/{meritCycleId}/employees/{employeeId}', { params: { path: { meritCycleId: cycle.id, employeeId } } });
    if (data) model.put(data.data);
  }

  /** Saves one cell's edit at the version the person read (past this tab's own saves since). */
  async function saveEdit(edit: CellEdit) {
    const row = model.row(edit.employeeId);
    if (!row) return model.dropEdit(edit.employeeId, edit.field);
    const body = editBody(edit.field, edit.text, row);
    if (typeof body === 'string') return model.setEdit({ ...edit, status: 'error', message: body });
    const version = model.versionFor(edit.employeeId, edit.readVersion);
    model.setEdit({ ...edit, status: 'saving' });
    const result = await save(version, edit.employeeId, edit.comment ? { ...body, comment: edit.comment } : body);
    if (result.ok) {
      const stored = result.data.data.employee;
      model.noteOwnSave(edit.employeeId, version, stored.version);
      model.put(stored);
      model.dropEdit(edit.employeeId, edit.field);
      const own = result.data.data.budgets.find((entry) => entry.worksheetId === detail.worksheet.id);
      if (own) model.setBudget(mode === 'allBelow' ? own.branch : own.own);
      return;
    }
    const code = (lastError.current as { code?: unknown } | undefined)?.code;
    if (result.conflict) {
      // Nothing was overwritten: show what is stored now beside the person's text, which stays.
      model.setEdit({ ...edit, status: 'conflict', message: result.message });
      await refetchRow(edit.employeeId);
      return;
    }
    const refused: CellEdit = { ...edit, status: 'error', message: result.message, ...(typeof code === 'string' ? { code } : {}) };
    model.setEdit(refused);
    if (code === 'comment_required') setPrompt(refused);
  }

  function enqueue(edit: CellEdit) {
    model.setEdit({ ...edit, status: 'queued' });
    queue.current = queue.current.then(() => saveEdit(edit)).catch(() => undefined);
  }

  function onChange(changes: CellChange[]) {
    for (const change of changes) enqueue({ ...change, status: 'queued' });
  }

  // Others' edits arrive live: the rows they changed are read again, then the budget with the worksheet.
  const refreshSoon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(refreshSoon.current), []);
  useMeritCycleUpdates(cycle.id, (update: MeritCycleEmployeesUpdate) => {
    const newer = update.employees.filter((entry) => {
      const held = model.row(entry.employeeId);
      return held !== undefined && held.version < entry.version;
    });
    if (update.reason === 'edited' && !newer.length && !update.worksheetIds.includes(detail.worksheet.id)) return;
    if (newer.length <= 20) for (const entry of newer) void refetchRow(entry.employeeId);
    clearTimeout(refreshSoon.current);
    refreshSoon.current = setTimeout(() => void reload(), newer.length > 20 || update.reason !== 'edited' ? 0 : 1_000);
  });

  const rows = model.rows();
  const departments = useMemo(() => [...new Set(rows.map((row) => row.department).filter((name): name is string => Boolean(name)))].sort(), [rows.length, detail]);
  const pendingIds = new Set([...model.edits.values()].map((edit) => edit.employeeId));
  const visible = rows.filter((row) => {
    if (query && !`${row.name} ${row.title} ${row.employeeNumber}`.toLowerCase().includes(query)) return false;
    if (department && row.department !== department) return false;
    switch (show) {
      case 'eligible':
        return row.eligibility.status === 'eligible' || pendingIds.has(row.employeeId);
      case 'flagged':
        return row.flags.length > 0;
      case 'unreviewed':
        return row.eligibility.status === 'eligible' && !row.reviewed;
      case 'pending':
        return pendingIds.has(row.employeeId);
      default:
        return true;
    }
  });
  const allColumns = gridColumns(detail, cycle, view, readOnly, model);
  const columns = allColumns.filter((column) => column.key === 'name' || column.key === 'flags' || !hidden.includes(column.key));
  const refused = [...model.edits.values()].filter((edit) => edit.status === 'conflict' || edit.status === 'error');
  const openRow = employeeParam ? model.row(employeeParam) : undefined;

  const active: ActiveFilter[] = [];
  if (query) active.push({ key: 'search', label: `Search: ${search.trim()}`, onRemove: () => setSearch('') });
  if (department) active.push({ key: 'department', label: `Department: ${department}`, onRemove: () => setDepartment('') });
  if (show !== 'eligible') active.push({ key: 'show', label: `Show: ${SHOW_LABELS[show]}`, onRemove: () => setShow('eligible') });

  function toggleColumn(key: string) {
    const next = hidden.includes(key) ? hidden.filter((entry) => entry !== key) : [...hidden, key];
    setHidden(next);
    localStorage.setItem(HIDDEN_KEY, JSON.stringify(next));
  }

  const budget = model.budget ?? detail.worksheet.budget;
  let body: ReactNode;
  if (!rows.length) {
    body = (
      <Empty title="Nobody to plan here" action={<Link href={`/compensationplanning/cycles/${cycle.id}/worksheets`}>Back to the worksheets</Link>}>
        This worksheet has no people in your reach{mode === 'ownReports' ? '; everyone below you may be in your reports’ worksheets' : ''}.
      </Empty>
    );
  } else if (!visible.length) {
    body = (
      <Empty
        title="No one matches"
        action={
          <button type="button" onClick={() => (setSearch(''), setDepartment(''), setShow('all'))}>
            Show everyone
          </button>
        }
      >
        Try another search, or clear the filters.
      </Empty>
    );
  } else if (phone) {
    body = <WorksheetCards rows={visible} onOpen={(row) => setEmployeeParam(row.employeeId)} />;
  } else {
    body = (
      <WorksheetGrid
        label={`${worksheetName(detail.worksheet)}’s worksheet`}
        rows={visible}
        columns={columns}
        editOf={(employeeId, field) => model.edit(employeeId, field)}
        onChange={onChange}
        onOpen={(row) => setEmployeeParam(row.employeeId)}
        onSelection={setSelected}
        fillRequest={fill}
      />
    );
  }

  return (
    <>
      {readOnly && detail.readOnlyReason && (
        <p className="planning-readonly" role="status" data-testid="read-only">
          <Lock size={16} aria-hidden="true" /> Read-only: {detail.readOnlyReason}
        </p>
      )}
      <BudgetBar budget={budget} label={mode === 'allBelow' ? 'Budget of this branch' : 'Budget of this worksheet'} />
      <Toolbar label="Worksheet" className="planning-toolbar">
        <span className="planning-count" role="status">
          {formatNumber(visible.length)} of {formatNumber(rows.length)} people · {formatNumber(detail.worksheet.counts.reviewed)} reviewed
        </span>
        <WorksheetActions worksheet={detail.worksheet} onDone={() => void reload()} />
        <button type="button" onClick={() => setHistoryOpen(true)}>
          <History size={18} aria-hidden="true" /> History and comments
        </button>
        {!phone && !readOnly && (
          <button type="button" disabled={selected < 2} onClick={() => setFill((count) => count + 1)} title="Shift+arrows select down a column; Ctrl+D fills">
            Fill down
          </button>
        )}
        {!phone && <ColumnPicker columns={allColumns.filter((column) => column.key !== 'name' && column.key !== 'flags').map((column) => ({ key: column.key, label: column.label }))} shown={allColumns.filter((column) => !hidden.includes(column.key)).map((column) => column.key)} onToggle={toggleColumn} />}
      </Toolbar>
      <FilterBar
        label="Filter the worksheet"
        active={active}
        onClearAll={() => (setSearch(''), setDepartment(''), setShow('eligible'))}
        showLabel={`Show ${formatNumber(visible.length)} people`}
        search={
          <label>
            Search
            <input type="search" value={search} placeholder="Name, title or ID" onChange={(event) => setSearch(event.target.value)} />
          </label>
        }
      >
        <label>
          Show
          <select value={show} onChange={(event) => setShow(event.target.value as Show)}>
            {(Object.keys(SHOW_LABELS) as Show[]).map((value) => (
              <option key={value} value={value}>
                {SHOW_LABELS[value]}
              </option>
            ))}
          </select>
        </label>
        {departments.length > 1 && (
          <label>
            Department
            <select value={department} onChange={(event) => setDepartment(event.target.value)}>
              <option value="">All</option>
              {departments.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Rows
          <select value={mode} onChange={(event) => onMode(event.target.value === 'allBelow' ? 'allBelow' : 'ownReports')}>
            <option value="ownReports">This worksheet</option>
            <option value="allBelow">Everyone below</option>
          </select>
        </label>
        <label>
          Amounts in
          <select value={view} onChange={(event) => setView(event.target.value === 'cycle' ? 'cycle' : 'local')}>
            <option value="local">Each person’s currency</option>
            <option value="cycle">{cycle.currency} (the cycle’s)</option>
          </select>
        </label>
      </FilterBar>
      {refused.length > 0 && (
        <section className="planning-conflicts" aria-label="Changes not saved">
          <ul>
            {refused.map((edit) => {
              const row = model.row(edit.employeeId);
              return (
                <li key={`${edit.employeeId}|${edit.field}`} data-employee-id={edit.employeeId}>
                  <div role="alert">
                    <p>
                      <strong>{row?.name ?? 'A row'}</strong>: {edit.message} Your entry “{edit.text}” is kept.
                    </p>
                    <div className="actions">
                      {!readOnly && (
                        <button type="button" className="small primary" onClick={() => enqueue({ ...edit, readVersion: row?.version ?? edit.readVersion, status: 'queued', message: undefined, code: undefined })}>
                          Save mine again
                        </button>
                      )}
                      <button type="button" className="small" onClick={() => model.dropEdit(edit.employeeId, edit.field)}>
                        {edit.status === 'conflict' ? 'Keep theirs' : 'Drop my change'}
                      </button>
                      {edit.code === 'comment_required' && !readOnly && (
                        <button type="button" className="small" onClick={() => setPrompt(edit)}>
                          Add the comment
                        </button>
                      )}
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {body}
      {openRow && <EmployeeSheet cycle={cycle} row={openRow} onClose={() => setEmployeeParam(null)} />}
      {historyOpen && <WorksheetHistorySheet worksheet={detail.worksheet} onClose={() => setHistoryOpen(false)} />}
      {prompt && (
        <CommentPrompt
          edit={prompt}
          name={model.row(prompt.employeeId)?.name ?? 'this person'}
          onClose={() => setPrompt(null)}
          onSave={(comment) => {
            const row = model.row(prompt.employeeId);
            enqueue({ ...prompt, comment, readVersion: row?.version ?? prompt.readVersion, status: 'queued', message: undefined, code: undefined });
            setPrompt(null);
          }}
        />
      )}
    </>
  );
}
