import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Knex } from 'knex';

export const JWKS_META_KEY = 'oidc_jwks';
export const COOKIE_KEYS_META_KEY = 'oidc_cookie_keys';

/** Private members of RSA and EC keys; everything else is safe to publish. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

export interface SigningKeys {
  /** Private JWKs, RS256 first: the provider signs ID and access tokens with the first key of the wanted alg. */
  keys: JWK[];
}

async function signingKey(alg: 'RS256' | 'ES256'): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg, use: 'sig' };
}

/** Reads a JSON value from app_meta, creating it once; a concurrent first start keeps whichever row landed first. */
async function metaValue<T>(db: Knex, key: string, create: () => Promise<T>): Promise<T> {
  const existing = await db('app_meta').where({ key }).first<{ value: string } | undefined>();
  if (existing) return JSON.parse(existing.value) as T;
  const value = await create();
  await db('app_meta').insert({ key, value: JSON.stringify(value) }).onConflict('key').ignore();
  const stored = await db('app_meta').where({ key }).first<{ value: string }>();
  return JSON.parse(stored.value) as T;
}

export async function loadSigningKeys(db: Knex): Promise<SigningKeys> {
  return metaValue(db, JWKS_META_KEY, async () => ({ keys: [await signingKey('RS256'), await signingKey('ES256')] }));
}

export async function loadCookieKeys(db: Knex): Promise<string[]> {
  return metaValue(db, COOKIE_KEYS_META_KEY, async () => [randomBytes(32).toString('base64url')]);
}

export function publicJwk(jwk: JWK): JWK {
  const copy: Record<string, unknown> = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy as JWK;
}
