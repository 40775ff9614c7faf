import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Knex } from 'knex';
import { isSealed, sealText, unsealText } from '../../kernel/secrets.js';

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

/**
 * Reads a JSON value kept sealed in app_meta (under the key that seals integration secrets),
 * creating it once; a concurrent first start keeps whichever row landed first. A value an older
 * version stored in plain text still loads, and is sealed where it stands.
 */
async function sealedMetaValue<T>(db: Knex, key: string, sealingKey: Buffer, create: () => Promise<T>): Promise<T> {
  const read = async (): Promise<T | undefined> => {
    const row = await db('app_meta').where({ key }).first<{ value: string } | undefined>();
    if (!row) return undefined;
    if (!isSealed(row.value)) {
      // Compared with the plain value, so a node sealing it at the same moment is not overwritten.
      await db('app_meta').where({ key, value: row.value }).update({ value: sealText(sealingKey, row.value) });
      return JSON.parse(row.value) as T;
    }
    const text = unsealText(sealingKey, row.value);
    if (text === undefined) {
      throw new Error(`The stored ${key} was sealed with another key: every node needs the same PAYBENCH_SECRETS_KEY (or secrets.key).`);
    }
    return JSON.parse(text) as T;
  };
  const existing = await read();
  if (existing !== undefined) return existing;
  await db('app_meta').insert({ key, value: sealText(sealingKey, JSON.stringify(await create())) }).onConflict('key').ignore();
  const stored = await read();
  if (stored === undefined) throw new Error(`app_meta lost ${key} while it was being created`);
  return stored;
}

export async function loadSigningKeys(db: Knex, sealingKey: Buffer): Promise<SigningKeys> {
  return sealedMetaValue(db, JWKS_META_KEY, sealingKey, async () => ({ keys: [await signingKey('RS256'), await signingKey('ES256')] }));
}

export async function loadCookieKeys(db: Knex, sealingKey: Buffer): Promise<string[]> {
  return sealedMetaValue(db, COOKIE_KEYS_META_KEY, sealingKey, async () => [randomBytes(32).toString('base64url')]);
}

export function publicJwk(jwk: JWK): JWK {
  const copy: Record<string, unknown> = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy as JWK;
}
