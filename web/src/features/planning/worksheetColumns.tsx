import { Badge } from '../../ui/Badge';
import type { Column } from '../../ui/DataTable';
import { type MeritCycle, type Money, type PlanningComponents, type WorksheetDetail, type WorksheetEmployee, amountToInput, bpToInput, formatBp, formatMoney, formatRatio } from './common';
import type { CellEdit, EditField, WorksheetModel } from './worksheetModel';

export type CurrencyView = 'local' | 'cycle';

/** The cells a planner changes, by column key (each column is named after its field). */
export const EDIT_FIELDS: readonly EditField[] = ['meritPercent', 'meritAmount', 'promotion', 'lumpSum', 'equityRefresh', 'comment'];
export const isEditField = (key: string): key is EditField => (EDIT_FIELDS as readonly string[]).includes(key);

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

interface ColumnsOptions {
  detail: WorksheetDetail;
  cycle: MeritCycle;
  view: CurrencyView;
  readOnly: boolean;
  model: WorksheetModel;
  names: PlanningComponents;
}

type WorksheetColumn = Column<WorksheetEmployee>;

/** A column read as it is: its header doubles as the card's term on phones. */
const plain = (key: string, label: string, size: number, rest: Omit<WorksheetColumn, 'key' | 'header' | 'label' | 'size'>): WorksheetColumn => ({ key, header: label, label, size, ...rest });

/** The columns the caller's roles show (view/edit, not none), in the cycle's components the company uses, in its words. */
export function worksheetColumns({ detail, cycle, view, readOnly, model, names }: ColumnsOptions): WorksheetColumn[] {
  const modes = detail.columns;
  const shows = (key: keyof typeof modes) => (modes[key] ?? 'view') !== 'none';
  const edits = (key: keyof typeof modes) => !readOnly && modes[key] === 'edit';
  const eligible = (row: WorksheetEmployee) => row.eligibility.status === 'eligible' && row.currentPay !== null && row.currentPay !== undefined;
  const has = (component: MeritCycle['components'][number]) => cycle.components.includes(component) && names.used(component);
  const chosen = (local: Money | null | undefined, cycleMoney: Money | null | undefined) => (view === 'cycle' ? cycleMoney : local);
  const shownAmount = (value: Money | null | undefined, row: WorksheetEmployee) => (value && view === 'cycle' ? inCycle(value.amount, row) : value);
  const columns: WorksheetColumn[] = [
    plain('name', 'Employee', 220, {
      rowHeader: true,
      value: (row) => row.name,
      title: (row) => (row.title ? `${row.name}, ${row.title}` : row.name),
      cell: (row) => (
        <span className="planning-name">
          {row.name}
          {row.title && <span className="planning-muted"> · {row.title}</span>}
        </span>
      ),
    }),
  ];
  if (shows('currentPay'))
    columns.push(plain('currentPay', 'Current pay', 120, { numeric: true, value: (row) => row.currentPay?.amount, cell: (row) => formatMoney(chosen(row.currentPay, row.currentPayInCycleCurrency)), copyText: (row) => amountToInput(chosen(row.currentPay, row.currentPayInCycleCurrency)) }));
  if (shows('bandPosition') && cycle.bandSetId)
    columns.push(plain('bandPosition', 'Compa-ratio', 110, { numeric: true, cell: (row) => (row.bandPosition ? `${formatRatio(row.bandPosition.compaRatio)}${row.bandPosition.column ? ` · Q${row.bandPosition.column}` : ''}` : '—') }));
  if (shows('rating')) columns.push(plain('rating', 'Rating', 150, { cell: (row) => cycle.performance.scale.find((entry) => entry.value === row.rating)?.label ?? row.rating ?? '—' }));
  if (shows('recommendation'))
    columns.push(
      plain('recommendation', 'Guideline', 130, {
        numeric: true,
        cell: (row) => (row.recommendation ? `${formatBp(row.recommendation.targetBp)} (${formatBp(row.recommendation.minBp)}–${formatBp(row.recommendation.maxBp)})` : '—'),
      }),
    );
  if (has('merit') && shows('merit')) {
    columns.push(
      plain('meritPercent', 'Merit %', 90, {
        numeric: true,
        value: (row) => row.merit?.percentBp,
        cell: (row) => (row.merit ? formatBp(row.merit.percentBp) : '—'),
        edit: { text: (row) => bpToInput(row.merit?.percentBp), editable: (row) => edits('merit') && eligible(row) },
      }),
    );
    columns.push(
      plain('meritAmount', view === 'cycle' ? `Merit (${cycle.currency})` : 'Merit', 120, {
        numeric: true,
        value: (row) => row.merit?.amount.amount,
        cell: (row) => (row.merit ? formatMoney(shownAmount(row.merit.amount, row)) : '—'),
        copyText: (row) => (row.merit ? amountToInput(shownAmount(row.merit.amount, row)) : ''),
        edit: { text: (row) => amountToInput(row.merit?.amount), editable: (row) => view === 'local' && edits('merit') && eligible(row) },
      }),
    );
  }
  const money = (key: 'promotion' | 'lumpSum' | 'equityRefresh', label: string) => {
    if (!has(key) || !shows(key)) return;
    columns.push(
      plain(key, label, 120, {
        numeric: true,
        value: (row) => row[key]?.amount,
        cell: (row) => (row[key] ? formatMoney(shownAmount(row[key], row)) : '—'),
        copyText: (row) => (row[key] ? amountToInput(shownAmount(row[key], row)) : ''),
        edit: { text: (row) => amountToInput(row[key]), editable: (row) => view === 'local' && edits(key) && eligible(row) },
      }),
    );
  };
  money('promotion', 'Promotion');
  money('lumpSum', names.label('lumpSum'));
  money('equityRefresh', 'Equity refresh');
  if (shows('newPay'))
    columns.push(plain('newPay', 'New pay', 120, { numeric: true, value: (row) => row.newPay?.amount, cell: (row) => formatMoney(chosen(row.newPay, row.newPayInCycleCurrency)), copyText: (row) => amountToInput(chosen(row.newPay, row.newPayInCycleCurrency)) }));
  if (shows('newCompaRatio') && cycle.bandSetId) columns.push(plain('newCompaRatio', 'New compa-ratio', 120, { numeric: true, cell: (row) => formatRatio(row.newCompaRatio) }));
  if (shows('comment'))
    columns.push(plain('comment', 'Comment', 200, { cell: (row) => row.comment ?? '', title: (row) => row.comment ?? undefined, edit: { text: (row) => row.comment ?? '', editable: (row) => edits('comment') && eligible(row) } }));
  columns.push(plain('flags', 'Flags', 240, { cell: (row) => <FlagCell row={row} edits={EDIT_FIELDS.flatMap((field) => model.edit(row.employeeId, field) ?? [])} /> }));
  return columns;
}
