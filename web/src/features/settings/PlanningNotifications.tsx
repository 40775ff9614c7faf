import { type FormEvent, useEffect, useState } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, useQuery } from '../../api/client';
import { useVersionedSave } from '../../api/queries';
import { DataTable } from '../../ui/DataTable';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';

type Preference = components['schemas']['NotificationPreference'];
type PlanningEvent = components['schemas']['PlanningNotificationEvent'];

const LABELS: Record<PlanningEvent, string> = {
  worksheetSubmitted: 'A worksheet waits for my review',
  worksheetSentBack: 'My worksheet was sent back to me',
  worksheetApproved: 'My worksheet was approved',
  worksheetReopened: 'My worksheet was reopened or pulled up',
  cycleLaunched: 'A cycle I plan in was launched',
  windowClosing: 'A window closes soon and my worksheet or review is not done',
};

const CHANNELS = [
  { key: 'email', header: 'E-mail', word: 'e-mail' },
  { key: 'inApp', header: 'In the app', word: 'in the app' },
] as const;

/**
 * The merit-cycle notices, per event and channel (all on until chosen). The choices are saved
 * together at the version read: a save from another tab first is refused and the choices here stay.
 */
export function PlanningNotifications({ readOnly }: { readOnly: boolean }) {
  const stored = useQuery('/api/me/notification-preferences');
  const { add } = useToasts();
  const [choices, setChoices] = useState<Preference[] | null>(null);
  const current = stored.data?.data;
  useEffect(() => {
    if (current) setChoices(current.events);
  }, [current]);
  const { save, busy, conflict } = useVersionedSave((ifMatch: string, events: Preference[]) =>
    api.PUT('/api/me/notification-preferences', { params: { header: { 'If-Match': ifMatch } }, body: { events } }),
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!current || !choices) return;
    const result = await save(current.version, choices);
    if (!result.ok) return;
    await stored.mutate(result.data, { revalidate: false });
    add('success', 'Merit-cycle notifications saved.');
  }

  const toggle = (event: PlanningEvent, channel: 'email' | 'inApp', on: boolean) =>
    setChoices((list) => (list ?? []).map((entry) => (entry.event === event ? { ...entry, [channel]: on } : entry)));

  return (
    <Loaded data={current && choices ? choices : undefined} error={stored.error} inline>
      {(rows) => (
        <form className="settings-form" onSubmit={(event) => void submit(event)}>
          <DataTable
            caption="Tell me about merit cycles when…"
            rows={rows}
            rowKey={(row) => row.event}
            columns={[
              { key: 'event', header: 'Event', rowHeader: true, cell: (row) => LABELS[row.event] },
              ...CHANNELS.map((channel) => ({
                key: channel.key,
                header: channel.header,
                cell: (row: Preference) => (
                  <input
                    type="checkbox"
                    aria-label={`${LABELS[row.event]}: ${channel.word}`}
                    checked={row[channel.key]}
                    disabled={readOnly}
                    onChange={(change) => toggle(row.event, channel.key, change.target.checked)}
                  />
                ),
              })),
            ]}
          />
          {conflict && (
            <p role="alert" className="muted">
              Your choices are kept here; reload to see the saved ones, then save again.
            </p>
          )}
          {!readOnly && (
            <button type="submit" className="primary" disabled={busy}>
              Save merit-cycle notifications
            </button>
          )}
        </form>
      )}
    </Loaded>
  );
}
