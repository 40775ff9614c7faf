// Test helper: a chat app of our own (OAuth authorize and token endpoints, its web API, a webhook) on a free port.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';

/** A chat app of our own on a random port: its OAuth authorize and token endpoints and its web API. */
export interface FakeChat {
  port: number;
  posts: { token: string; channel: string; text: string }[];
  webhook: string[];
  revoked: string[];
  stop(): Promise<void>;
}

export const CLIENT_ID = 'paybench-client';
export const CLIENT_SECRET = 'client-secret-of-paybench';
const CHANNELS = [
  [
    { id: 'C1', name: 'general' },
    { id: 'C3', name: 'random' },
  ],
  [{ id: 'C2', name: 'comp-team' }],
];

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += (chunk as Buffer).toString();
  return text;
}

export async function startFakeChat(): Promise<FakeChat> {
  const codes = new Map<string, string>(); // code → redirect_uri
  const tokens = new Set<string>();
  const fake: Omit<FakeChat, 'port' | 'stop'> = { posts: [], webhook: [], revoked: [] };
  let issued = 0;
  const json = (res: ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (url.pathname === '/oauth/authorize') {
        // The admin approves the app: back to Paybench with a one-time code and the state as given.
        if (url.searchParams.get('client_id') !== CLIENT_ID) return json(res, 400, { ok: false, error: 'invalid_client_id' });
        const code = `code-${++issued}`;
        const redirect = url.searchParams.get('redirect_uri') ?? '';
        codes.set(code, redirect);
        res.writeHead(302, { location: `${redirect}?code=${code}&state=${encodeURIComponent(url.searchParams.get('state') ?? '')}` });
        return res.end();
      }
      if (url.pathname === '/oauth/token' && req.method === 'POST') {
        const form = new URLSearchParams(await body(req));
        if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET) return json(res, 401, { ok: false, error: 'invalid_client' });
        const code = form.get('code') ?? '';
        if (form.get('grant_type') !== 'authorization_code' || codes.get(code) !== form.get('redirect_uri')) return json(res, 200, { ok: false, error: 'invalid_code' });
        codes.delete(code);
        const accessToken = `xoxb-token-${issued}`;
        tokens.add(accessToken);
        return json(res, 200, { ok: true, access_token: accessToken, team: { id: 'T1', name: 'Notified Chat' } });
      }
      if (url.pathname === '/hook') {
        fake.webhook.push(JSON.parse(await body(req)).text as string);
        return json(res, 200, { ok: true });
      }
      if (!tokens.has(token)) return json(res, 200, { ok: false, error: 'invalid_auth' });
      if (url.pathname === '/api/conversations.list') {
        const page = url.searchParams.get('cursor') === 'page-2' ? 1 : 0;
        return json(res, 200, { ok: true, channels: CHANNELS[page], response_metadata: { next_cursor: page === 0 ? 'page-2' : '' } });
      }
      if (url.pathname === '/api/chat.postMessage' && req.method === 'POST') {
        const message = JSON.parse(await body(req)) as { channel: string; text: string };
        if (!CHANNELS.flat().some((c) => c.id === message.channel)) return json(res, 200, { ok: false, error: 'channel_not_found' });
        fake.posts.push({ token, ...message });
        return json(res, 200, { ok: true });
      }
      if (url.pathname === '/api/auth.revoke' && req.method === 'POST') {
        tokens.delete(token);
        fake.revoked.push(token);
        return json(res, 200, { ok: true, revoked: true });
      }
      return json(res, 404, { ok: false, error: 'unknown_method' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return { ...fake, port, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The server's `PAYBENCH_CHAT_OAUTH_*` pointing at the fake chat app. */
export function fakeChatEnv(chat: Pick<FakeChat, 'port'>): Record<string, string> {
  const base = `http://127.0.0.1:${chat.port}`;
  return {
    PAYBENCH_CHAT_OAUTH_CLIENT_ID: CLIENT_ID,
    PAYBENCH_CHAT_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
    PAYBENCH_CHAT_OAUTH_AUTHORIZE_URL: `${base}/oauth/authorize`,
    PAYBENCH_CHAT_OAUTH_TOKEN_URL: `${base}/oauth/token`,
    PAYBENCH_CHAT_OAUTH_API_URL: `${base}/api`,
  };
}
