import type { BudgetFigures, Money, WorksheetEmployee, WorksheetEmployeeEdit } from './common';
import { parseAmount, parsePercent } from './common';
import type { HeldCell } from '../../ui/sheet/useSheetEdits';

/** The cells a planner changes; each saves as its own row edit. */
export type EditField = 'meritPercent' | 'meritAmount' | 'promotion' | 'lumpSum' | 'equityRefresh' | 'comment';

/**
 * A change typed into a cell and not yet stored (the shared sheet edits' held cell), with where it
 * is. A conflict or a refusal keeps it (the cell shows the person's text) until they save it again
 * or take the stored value.
 */
export type CellEdit = HeldCell & { employeeId: string; field: EditField };

export const editKey = (employeeId: string, field: EditField) => `${employeeId}|${field}`;

/** What a cell's text asks of the server, or why it cannot be sent. */
export function editBody(field: EditField, text: string, row: WorksheetEmployee): WorksheetEmployeeEdit | string {
  const trimmed = text.trim();
  const money = (label: string): Money | null | string => {
    if (trimmed === '') return null;
    const amount = parseAmount(trimmed, row.currency);
    if (amount === null) return `Type the ${label} as an amount in ${row.currency}, e.g. 2500.`;
    if (amount < 0) return `The ${label} cannot be negative.`;
    return { amount, currency: row.currency };
  };
  switch (field) {
    case 'meritPercent': {
      const bp = parsePercent(trimmed);
      if (bp === null) return 'Type the merit increase as a percentage, e.g. 3.5.';
      if (bp < 0) return 'The merit increase cannot be negative.';
      return { meritPercentBp: bp };
    }
    case 'meritAmount': {
      const value = money('merit increase');
      if (typeof value === 'string') return value;
      return { meritAmount: value ?? { amount: 0, currency: row.currency } };
    }
    case 'promotion':
    case 'lumpSum':
    case 'equityRefresh': {
      const value = money(field === 'promotion' ? 'promotion increase' : field === 'lumpSum' ? 'lump sum' : 'equity refresh');
      if (typeof value === 'string') return value;
      return field === 'promotion' ? { promotionAmount: value } : field === 'lumpSum' ? { lumpSumAmount: value } : { equityRefreshAmount: value };
    }
    case 'comment':
      return { comment: trimmed || null };
  }
}

/**
 * The worksheet as the screen holds it between answers: rows in their order, the edits in flight
 * and the budget. Rows only move forward (a row older than the one held is ignored), so an answer
 * that arrives late never undoes a newer one.
 */
export class WorksheetModel {
  private order: string[] = [];
  private byId = new Map<string, WorksheetEmployee>();
  readonly edits = new Map<string, CellEdit>();
  budget: BudgetFigures | null = null;
  private version = 0;
  private listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  getVersion = () => this.version;
  private changed() {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  /** A fresh answer: its rows replace older ones, newer rows held here stay. */
  load(rows: WorksheetEmployee[], budget: BudgetFigures) {
    this.order = rows.map((row) => row.employeeId);
    const next = new Map<string, WorksheetEmployee>();
    for (const row of rows) {
      const held = this.byId.get(row.employeeId);
      next.set(row.employeeId, held && held.version > row.version ? held : row);
    }
    this.byId = next;
    this.budget = budget;
    this.changed();
  }

  rows(): WorksheetEmployee[] {
    return this.order.flatMap((id) => {
      const row = this.byId.get(id);
      return row ? [row] : [];
    });
  }
  row(employeeId: string): WorksheetEmployee | undefined {
    return this.byId.get(employeeId);
  }

  /** A row as stored; kept only if it is newer than the one held. */
  put(row: WorksheetEmployee) {
    const held = this.byId.get(row.employeeId);
    if (held && held.version > row.version) return;
    this.byId.set(row.employeeId, row);
    if (!this.order.includes(row.employeeId)) this.order.push(row.employeeId);
    this.changed();
  }

  setBudget(budget: BudgetFigures) {
    this.budget = budget;
    this.changed();
  }

  setEdit(edit: CellEdit) {
    this.edits.set(editKey(edit.employeeId, edit.field), edit);
    this.changed();
  }
  dropEdit(employeeId: string, field: EditField) {
    if (this.edits.delete(editKey(employeeId, field))) this.changed();
  }
  edit(employeeId: string, field: EditField): CellEdit | undefined {
    return this.edits.get(editKey(employeeId, field));
  }
}
