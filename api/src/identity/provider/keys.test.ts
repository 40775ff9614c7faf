import { calculateJwkThumbprint, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema } from '../../../test/env.js';
import { startTestServer } from '../../../test/server.js';
import { loadConfig } from '../../config.js';
import { type RunningServer, startServer } from '../../server.js';
import { COOKIE_KEYS_META_KEY, JWKS_META_KEY } from './keys.js';
import { Browser, WEB_CLIENT, createPerson, discover, signInWithCode } from './testSupport.js';

let env: Record<string, string>;
let running: RunningServer | undefined;

/** Starts (or restarts) the server on the same database and data directory. */
async function start(): Promise<RunningServer> {
  await running?.close();
  if (!env) {
    const first = await startTestServer({ PAYBENCH_SEED_DEMO: 'false' });
    env = first.env;
    running = first;
  } else {
    running = await startServer(loadConfig({ ...process.env, ...env }));
  }
  return running;
}

afterAll(async () => {
  await running?.close();
  if (env) await dropSchema(loadConfig({ ...process.env, ...env }));
});

const stored = async (server: RunningServer, key: string): Promise<string> =>
  (await server.deps.db('app_meta').where({ key }).first<{ value: string }>()).value;

const publishedKids = async (server: RunningServer): Promise<string[]> =>
  ((await (await fetch(`${server.url}/.well-known/jwks.json`)).json()) as { keys: JWK[] }).keys.map((key) => key.kid ?? '').sort();

/** Signs a new person in through the real form and calls the API with the access token. */
async function signIn(server: RunningServer): Promise<{ status: number; kid: string | undefined }> {
  const person = await createPerson(server.deps.db);
  const tokens = await signInWithCode(new Browser(server.url), await discover(server.url, WEB_CLIENT), server.url, person);
  const me = await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
  return { status: me.status, kid: decodeProtectedHeader(tokens.access_token).kid };
}

/** Keys as an older version stored them: private JWKs in plain JSON. */
async function plainTextKeys(): Promise<{ keys: JWK[] }> {
  const keys: JWK[] = [];
  for (const alg of ['RS256', 'ES256'] as const) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
    const jwk = await exportJWK(privateKey);
    keys.push({ ...jwk, kid: await calculateJwkThumbprint(jwk), alg, use: 'sig' });
  }
  return { keys };
}

describe('the provider’s signing keys at rest', () => {
  it('are stored sealed, and the same keys sign after a restart', async () => {
    const server = await start();
    const jwks = await stored(server, JWKS_META_KEY);
    expect(jwks).not.toContain('"d":');
    expect(jwks).not.toContain('"kty"');
    expect(await stored(server, COOKIE_KEYS_META_KEY)).not.toMatch(/^\[/);
    expect((await signIn(server)).status).toBe(200);
    const kids = await publishedKids(server);

    const restarted = await start();
    expect(await publishedKids(restarted)).toEqual(kids);
    expect((await signIn(restarted)).status).toBe(200);
    // Two starts of a server (the first builds and scores the demo market), on cores the suite shares.
  }, 120_000);

  it('still loads keys an older version stored in plain text, and seals them', async () => {
    const legacy = await plainTextKeys();
    const server = running ?? (await start());
    await server.deps.db('app_meta').where({ key: JWKS_META_KEY }).update({ value: JSON.stringify(legacy) });
    await server.deps.db('app_meta').where({ key: COOKIE_KEYS_META_KEY }).update({ value: JSON.stringify(['an older cookie key']) });

    const restarted = await start();
    expect(await publishedKids(restarted)).toEqual(legacy.keys.map((key) => key.kid ?? '').sort());
    const signedIn = await signIn(restarted);
    expect(signedIn.status).toBe(200);
    expect(signedIn.kid).toBe(legacy.keys.find((key) => key.alg === 'RS256')?.kid);
    const resealed = await stored(restarted, JWKS_META_KEY);
    expect(resealed).not.toContain('"d":');
    expect(await stored(restarted, COOKIE_KEYS_META_KEY)).not.toContain('an older cookie key');
  }, 120_000);
});
