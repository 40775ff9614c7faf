import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { type HeldCell, useSheetEdits } from '../../ui/sheet/useSheetEdits';
import type { MeritCycle, WorksheetDetail, WorksheetEmployeeEdit } from './common';
import { type MeritCycleEmployeesUpdate, useMeritCycleUpdates } from './liveUpdates';
import type { CellChange, ChangeInfo } from './WorksheetGrid';
import { type CellEdit, type EditField, type WorksheetModel, editBody } from './worksheetModel';

interface Options {
  cycle: MeritCycle;
  detail: WorksheetDetail;
  mode: WorksheetDetail['mode'];
  model: WorksheetModel;
  reload: () => Promise<unknown>;
}

/**
 * The worksheet's edits through the shared sheet edits (`useSheetEdits`): each cell saved one
 * after another through the versioned write at the row version the person read, undo and redo as
 * whole changes, what the last change did in words, a comment asked for where the cycle wants one,
 * and others' edits arriving live.
 */
export function useWorksheetEdits({ cycle, detail, mode, model, reload }: Options) {
  const [prompt, setPrompt] = useState<CellEdit | null>(null);
  const lastError = useRef<unknown>(undefined);

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

  const sheet = useSheetEdits<EditField>({
    session: model,
    savePer: 'cell',
    noun: ['cell', 'cells'],
    skippedNote: (count) => `${count} read-only ${count === 1 ? 'cell' : 'cells'} left as they are.`,
    check: (employeeId, field, text) => {
      const row = model.row(employeeId);
      const body = row ? editBody(field, text, row) : 'This person is no longer in the worksheet.';
      return typeof body === 'string' ? body : null;
    },
    held: (employeeId, field) => model.edit(employeeId, field),
    hold: (cells) => {
      for (const { row, col, cell } of cells) {
        if (cell) model.setEdit({ ...cell, employeeId: row, field: col });
        else model.dropEdit(row, col);
      }
    },
    versionOf: (employeeId) => model.row(employeeId)?.version,
    saveRow: async ({ row: employeeId, cells, version }) => {
      const row = model.row(employeeId);
      const [entry] = cells;
      if (!row || !entry) return { ok: true };
      const body = editBody(entry.col, entry.cell.text, row);
      if (typeof body === 'string') return { ok: false, conflict: false, message: body };
      const result = await save(version, employeeId, entry.cell.comment ? { ...body, comment: entry.cell.comment } : body);
      if (result.ok) {
        const stored = result.data.data.employee;
        model.put(stored);
        const own = result.data.data.budgets.find((budget) => budget.worksheetId === detail.worksheet.id);
        if (own) model.setBudget(mode === 'allBelow' ? own.branch : own.own);
        return { ok: true, version: stored.version };
      }
      // Nothing was overwritten: the stored row is read again and shown beside the person's text, which stays.
      if (result.conflict) await refetchRow(employeeId);
      const code = (lastError.current as { code?: unknown } | undefined)?.code;
      return { ok: false, conflict: result.conflict, message: result.message, ...(!result.conflict && typeof code === 'string' ? { code } : {}) };
    },
    onRefused: ({ row, cells }) => {
      const refused = cells.find(({ cell }) => cell.code === 'comment_required');
      if (refused) setPrompt({ ...refused.cell, employeeId: row, field: refused.col });
    },
  });

  /** A batch of cells from the grid (typing, a paste, a fill down, a bulk action on selected rows). */
  function onChange(changes: CellChange[], info: ChangeInfo) {
    sheet.change(
      changes.map((change) => ({ row: change.employeeId, col: change.field, text: change.text, before: change.before, readVersion: change.readVersion })),
      info,
    );
  }

  /** Saves one held cell again (after a conflict, or with the comment asked for). */
  function enqueue(edit: CellEdit) {
    const { employeeId, field, ...cell } = edit;
    const held: HeldCell = cell;
    sheet.enqueue(employeeId, [{ col: field, cell: held }]);
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

  const { undo, redo, nextUndo, nextRedo, notice } = sheet;
  return { onChange, undo, redo, nextUndo, nextRedo, notice, prompt, setPrompt, enqueue };
}
