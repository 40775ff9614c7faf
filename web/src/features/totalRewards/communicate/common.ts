import { api, useQuery } from '../../../api/client';
import { invalidate, useVersionedSave } from '../../../api/queries';
import { useToasts } from '../../../ui/Toasts';
import type { Schemas } from '../model';

export type Settings = Schemas['CommunicateSettings'];
export type SettingsDraft = Schemas['CommunicateSettingsDraft'];

/** Saving a part of the settings at the version read; a conflict keeps what is on the form. */
export function useSaveSettings() {
  const { add } = useToasts();
  const settings = useQuery('/api/total-rewards/settings');
  const { save, busy, conflict } = useVersionedSave((ifMatch, body: SettingsDraft) =>
    api.PATCH('/api/total-rewards/settings', { params: { header: { 'If-Match': ifMatch } }, body }),
  );
  async function saveDraft(version: number, body: SettingsDraft): Promise<boolean> {
    const result = await save(version, body);
    if (!result.ok) return false;
    await settings.mutate({ data: result.data.data }, { revalidate: false });
    await invalidate(['/api/total-rewards/statement']);
    add('success', 'Saved. Employees see it on their next visit.');
    return true;
  }
  return { saveDraft, busy, conflict };
}

export interface EditorProps {
  settings: Settings;
  editable: boolean;
  onDraft: (draft: SettingsDraft | null) => void;
}

