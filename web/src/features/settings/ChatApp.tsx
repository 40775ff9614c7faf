import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api, errorMessage, useQuery } from '../../api/client';
import { useMutation } from '../../api/queries';
import { FormProblem } from '../../ui/FormProblem';
import { Loaded } from '../../ui/States';
import { useToasts } from '../../ui/Toasts';

/**
 * The company's chat app installed through OAuth: connect (off to the chat app to approve it, back
 * here with a code and state), choose the channel, send a test message, disconnect. Without the
 * deployment's OAuth client it says so, and the webhook below is the way to post to chat.
 */
export function ChatAppSettings({ editable }: { editable: boolean }) {
  const app = useQuery('/api/company/chat-app');
  const search = useSearch();
  const [, navigate] = useLocation();
  const { add } = useToasts();
  const { run, busy, problem, setProblem } = useMutation({ failure: 'problem' });
  const finishing = useRef(false);
  const installed = app.data?.data.installed === true;
  const channels = useQuery('/api/company/chat-app/channels', installed && editable ? {} : null);
  const [channelId, setChannelId] = useState('');

  // Back from the chat app: finish the install once, then leave the code and state out of the address.
  useEffect(() => {
    const params = new URLSearchParams(search);
    const code = params.get('code');
    const state = params.get('state');
    const refusal = params.get('error');
    if ((!code || !state) && !refusal) return;
    if (finishing.current) return;
    finishing.current = true;
    navigate('/settings/notifications', { replace: true });
    if (refusal || !code || !state) {
      setProblem({ message: `The chat app was not connected: ${refusal ?? 'it sent no authorization back'}.`, fields: [] });
      return;
    }
    void (async () => {
      const result = await run(() => api.POST('/api/company/chat-app/callback', { body: { code, state } }));
      if (!result.ok) return;
      const connected = result.data.data;
      await app.mutate({ data: connected }, { revalidate: false });
      add('success', `Chat app connected${connected.workspaceName ? ` to ${connected.workspaceName}` : ''}. Choose its channel.`);
    })();
  }, [search, navigate, app, add]);

  async function connect() {
    const result = await run(() => api.POST('/api/company/chat-app/authorize'), { hold: 'leaving' });
    if (result.ok) window.location.assign(result.data.data.url);
  }

  async function chooseChannel() {
    if (!channelId) return;
    const result = await run(() => api.PUT('/api/company/chat-app/channel', { body: { channelId } }));
    if (!result.ok) return;
    await app.mutate({ data: result.data.data }, { revalidate: false });
    add('success', `Chat notifications go to #${result.data.data.channel?.name ?? channelId}.`);
  }

  async function sendTest() {
    const result = await run(() => api.POST('/api/company/chat-app/test'));
    if (result.ok) add('success', `Test message sent to #${result.data.data.channel.name}.`);
  }

  async function disconnect() {
    const result = await run(() => api.DELETE('/api/company/chat-app'));
    if (!result.ok) return;
    setChannelId('');
    await app.mutate({ data: result.data.data }, { revalidate: false });
    add('success', 'Chat app disconnected. Chat notifications use the webhook, if one is set.');
  }

  return (
    <Loaded data={app.data?.data} error={app.error} inline>
      {(current) => (
        <div className="chat-app" data-chat-app={current.installed ? 'installed' : current.configured ? 'available' : 'not-configured'}>
          <FormProblem message={problem?.message ?? null} />
          {!current.configured && (
            <p className="muted">Installing the chat app through OAuth is not configured on this Paybench. Use the chat webhook below to post to a channel.</p>
          )}
          {current.configured && !current.installed && (
            <>
              <p>Connect the company’s chat app to post notifications to a channel you choose. You approve it in the chat app and come back here.</p>
              {editable && (
                <button type="button" className="primary" disabled={busy} onClick={() => void connect()}>
                  Connect the chat app
                </button>
              )}
            </>
          )}
          {current.installed && (
            <>
              <p>
                Connected{current.workspaceName ? ` to ${current.workspaceName}` : ''}
                {current.installedBy ? ` by ${current.installedBy}` : ''}
                {current.installedAt ? ` on ${new Date(current.installedAt).toLocaleDateString()}` : ''}.{' '}
                {current.channel ? `Notifications go to #${current.channel.name}.` : 'Choose the channel notifications go to.'}
              </p>
              {editable && (
                <div className="settings-form">
                  <label>
                    Channel
                    <select value={channelId || current.channel?.id || ''} onChange={(event) => setChannelId(event.target.value)} disabled={!channels.data}>
                      <option value="" disabled>
                        {channels.error ? 'The channels could not be listed' : channels.data ? 'Choose a channel' : 'Loading channels…'}
                      </option>
                      {channels.data?.data.map((channel) => (
                        <option key={channel.id} value={channel.id}>
                          #{channel.name}
                        </option>
                      ))}
                    </select>
                  </label>
                  {channels.error && <p role="alert">{errorMessage(channels.error)}</p>}
                  <div className="actions">
                    <button type="button" className="primary" disabled={busy || !channelId || channelId === current.channel?.id} onClick={() => void chooseChannel()}>
                      Save channel
                    </button>
                    <button type="button" disabled={busy || !current.channel} onClick={() => void sendTest()}>
                      Send a test message
                    </button>
                    <button type="button" disabled={busy} onClick={() => void disconnect()}>
                      Disconnect the chat app
                    </button>
                  </div>
                </div>
              )}
            </>
          )}
        </div>
      )}
    </Loaded>
  );
}
