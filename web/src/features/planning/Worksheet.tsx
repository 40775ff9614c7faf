import { ClipboardList, History, Lock, Redo2, Undo2 } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Link, useParams } from 'wouter';
import { useQuery } from '../../api/client';
import { ColumnPicker } from '../../ui/DataTable';
import { type ActiveFilter, FilterBar } from '../../ui/FilterBar';
import { NARROW, useDebounced, useMediaQuery } from '../../ui/hooks';
import { Toolbar } from '../../ui/Page';
import { SkeletonStats, SkeletonTable } from '../../ui/Skeleton';
import { Empty, ErrorState } from '../../ui/States';
import { useQueryParam } from '../../ui/urlState';
import { type MeritCycle, PlanningFrame, type WorksheetDetail, type WorksheetEmployee, WorksheetStateBadge, formatNumber, usePlanningComponents, worksheetName } from './common';
import { EmployeeSheet, WorksheetHistorySheet } from './EmployeeSheet';
import { useWorksheetEdits } from './useWorksheetEdits';
import { WorksheetActions } from './WorksheetActions';
import { type AmountColumn, WorksheetBulkActions } from './WorksheetBulk';
import { type CurrencyView, worksheetColumns } from './worksheetColumns';
import { WorksheetGrid } from './WorksheetGrid';
import { WorksheetModel } from './worksheetModel';
import { BudgetBar, CommentPrompt, RefusedChanges, WorksheetCards } from './worksheetParts';

type Show = 'eligible' | 'all' | 'flagged' | 'unreviewed' | 'pending';

const SHOW_LABELS: Record<Show, string> = {
  eligible: 'Eligible people',
  all: 'Everyone',
  flagged: 'Outside the guideline',
  unreviewed: 'Not reviewed yet',
  pending: 'Unsaved or refused changes',
};

const HIDDEN_KEY = 'paybench.planning.hiddenColumns';
/** The amount columns bulk actions set or clear, beside merit. */
const AMOUNT_FIELDS: readonly AmountColumn['field'][] = ['promotion', 'lumpSum', 'equityRefresh'];

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
  const [selected, setSelected] = useState(1);
  const [fill, setFill] = useState(0);
  const query = useDebounced(search.trim().toLowerCase(), 200);
  const readOnly = detail.readOnly;
  const edits = useWorksheetEdits({ cycle, detail, mode, model, reload });
  const { undo, redo, nextUndo, nextRedo, notice, prompt, setPrompt, enqueue } = edits;
  const rows = model.rows();
  const components = usePlanningComponents();
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
  const allColumns = worksheetColumns({ detail, cycle, view, readOnly, model, names: components });
  const columns = allColumns.filter((column) => column.key === 'name' || column.key === 'flags' || !hidden.includes(column.key));
  // Bulk changes to the rows selected go through the columns' edits, as a typed or pasted cell does.
  const meritColumn = allColumns.find((column) => column.key === 'meritPercent' && column.edit);
  const amountColumns = AMOUNT_FIELDS.flatMap((field) => allColumns.filter((column) => column.key === field && column.edit).map((column) => ({ field, column })));
  const bulkActions =
    !readOnly && (meritColumn || amountColumns.length)
      ? (chosen: WorksheetEmployee[]) => <WorksheetBulkActions selected={chosen} merit={meritColumn} amounts={amountColumns} editOf={(employeeId, field) => model.edit(employeeId, field)} onChange={edits.onChange} />
      : undefined;
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
        onChange={edits.onChange}
        onUndo={undo}
        onRedo={redo}
        onOpen={(row) => setEmployeeParam(row.employeeId)}
        onSelection={setSelected}
        fillRequest={fill}
        bulkActions={bulkActions}
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
          <>
            <button type="button" disabled={!nextUndo} onClick={undo} title={nextUndo ? `Undo ${nextUndo.label.toLowerCase()} (Ctrl+Z)` : 'Nothing to undo'}>
              <Undo2 size={18} aria-hidden="true" /> Undo
            </button>
            <button type="button" disabled={!nextRedo} onClick={redo} title={nextRedo ? `Redo ${nextRedo.label.toLowerCase()} (Ctrl+Shift+Z)` : 'Nothing to redo'}>
              <Redo2 size={18} aria-hidden="true" /> Redo
            </button>
            <button type="button" disabled={selected < 2} onClick={() => setFill((count) => count + 1)} title="Shift+arrows or shift+click select cells; Ctrl+D fills each column down from its top cell">
              Fill down
            </button>
          </>
        )}
        {!phone && <ColumnPicker columns={allColumns.filter((column) => column.key !== 'name' && column.key !== 'flags').map((column) => ({ key: column.key, label: column.label ?? column.key }))} shown={allColumns.filter((column) => !hidden.includes(column.key)).map((column) => column.key)} onToggle={toggleColumn} />}
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
      {!phone && !readOnly && (
        <p className="planning-sheet-notice" role="status" data-testid="sheet-notice">
          {notice}
        </p>
      )}
      <RefusedChanges
        refused={refused}
        nameOf={(employeeId) => model.row(employeeId)?.name}
        readOnly={readOnly}
        onSaveAgain={(edit) => enqueue({ ...edit, readVersion: model.row(edit.employeeId)?.version ?? edit.readVersion, status: 'queued', message: undefined, code: undefined })}
        onDrop={(edit) => model.dropEdit(edit.employeeId, edit.field)}
        onComment={setPrompt}
      />
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
