import type { FormEvent } from 'react';
import type { components } from '../../../../openapi.d.ts';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { usePerson } from '../../app/Guard';
import { DataTable } from '../../ui/DataTable';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';
import { ChatAppSettings } from './ChatApp';
import { PlanningNotifications } from './PlanningNotifications';
import { can } from './permissions';

type NotificationEvent = components['schemas']['NotificationEvent'];
type NotificationSettings = components['schemas']['UserNotificationSettings'];

const EVENTS: { id: NotificationEvent; label: string }[] = [
  { id: 'jobFinished', label: 'A background job of mine finished' },
  { id: 'jobFailed', label: 'A background job of mine failed' },
  { id: 'accessChanged', label: 'My access changed' },
];

function toggled(list: NotificationEvent[], id: NotificationEvent, on: boolean): NotificationEvent[] {
  return on ? [...new Set([...list, id])] : list.filter((entry) => entry !== id);
}

function PersonalSettings({ readOnly }: { readOnly: boolean }) {
  const settings = useQuery('/api/me/notification-settings');
  const { add } = useToasts();
  async function change(current: NotificationSettings, channel: 'email' | 'inApp', id: NotificationEvent, on: boolean) {
    const next = { ...current, [channel]: toggled(current[channel], id, on) };
    const { data, error } = await api.PUT('/api/me/notification-settings', { body: next });
    if (error) return add('error', errorMessage(error));
    await settings.mutate({ data: data.data }, { revalidate: false });
  }
  return (
    <Loaded data={settings.data?.data} error={settings.error} inline>
      {(current) => (
        <DataTable
          caption="Tell me when…"
          rows={EVENTS}
          rowKey={(event) => event.id}
          columns={[
            { key: 'event', header: 'Event', rowHeader: true, cell: (event) => event.label },
            ...(['email', 'inApp'] as const).map((channel) => ({
              key: channel,
              header: channel === 'email' ? 'E-mail' : 'In the app',
              cell: (event: (typeof EVENTS)[number]) => (
                <input
                  type="checkbox"
                  aria-label={`${event.label}: ${channel === 'email' ? 'e-mail' : 'in the app'}`}
                  checked={current[channel].includes(event.id)}
                  disabled={readOnly}
                  onChange={(change_) => void change(current, channel, event.id, change_.target.checked)}
                />
              ),
            })),
          ]}
        />
      )}
    </Loaded>
  );
}

function CompanySettings({ editable }: { editable: boolean }) {
  const settings = useQuery('/api/company/notification-settings');
  const { add } = useToasts();
  const { run, busy } = useMutation();
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const url = String(form.get('webhook') ?? '').trim();
    const chatEvents = EVENTS.map((entry) => entry.id).filter((id) => form.get(`chat-${id}`) === 'on');
    const result = await run(() => api.PUT('/api/company/notification-settings', { body: { chatWebhookUrl: url || null, chatEvents } }));
    if (!result.ok) return;
    await settings.mutate({ data: result.data.data }, { revalidate: false });
    add('success', 'Chat notifications saved.');
  }
  return (
    <Loaded data={settings.data?.data} error={settings.error} inline>
      {(current) => (
        <form className="settings-form" onSubmit={(event) => void save(event)}>
          <label>
            Chat webhook (https)
            <input name="webhook" type="url" defaultValue={current.chatWebhookUrl ?? ''} disabled={!editable} placeholder="https://hooks.example.com/…" />
          </label>
          <fieldset className="check-group">
            <legend>Post to the channel when</legend>
            {EVENTS.map((entry) => (
              <label key={entry.id} className="inline-check">
                <input type="checkbox" name={`chat-${entry.id}`} defaultChecked={current.chatEvents.includes(entry.id)} disabled={!editable} />
                {entry.label.replace('of mine ', '').replace('My', 'Someone’s')}
              </label>
            ))}
          </fieldset>
          {editable && (
            <button type="submit" className="primary" disabled={busy}>
              Save chat notifications
            </button>
      )}
    </form>
      )}
    </Loaded>
  );
}

/** /settings/notifications: the person's own e-mail and in-app choices, and the company's chat app and chat webhook. */
export function NotificationsScreen() {
  const person = usePerson().data?.data;
  const readOnly = Boolean(person?.viewAs);
  return (
    <>
      <h1>Notifications</h1>
      <section className="card" aria-labelledby="mine-heading">
        <h2 id="mine-heading">Your notifications</h2>
        <PersonalSettings readOnly={readOnly} />
      </section>
      <section className="card" aria-labelledby="planning-notices-heading">
        <h2 id="planning-notices-heading">Merit cycles</h2>
        <PlanningNotifications readOnly={readOnly} />
      </section>
      {can(person, 'companySettings', 'view') && (
        <section className="card" aria-labelledby="chat-app-heading">
          <h2 id="chat-app-heading">Chat app</h2>
          <ChatAppSettings editable={can(person, 'companySettings', 'edit') && !readOnly} />
        </section>
      )}
      {can(person, 'companySettings', 'view') && (
        <section className="card" aria-labelledby="chat-heading">
          <h2 id="chat-heading">Company chat channel</h2>
          <p className="muted">A webhook posts without installing anything; when the chat app is connected with a channel, notifications go through the app instead.</p>
          <CompanySettings editable={can(person, 'companySettings', 'edit') && !readOnly} />
        </section>
      )}
    </>
  );
}
