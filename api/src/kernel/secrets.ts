import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Connection secrets (API keys, passwords) and the identity provider's signing and cookie keys are
 * sealed with AES-256-GCM before they are stored; connection secrets are never returned by the API.
 * The key is `PAYBENCH_SECRETS_KEY` (any long random text; every node must have the same), else a
 * random key kept in `secrets.key` in the data directory.
 */
export function secretsKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  const configured = env.PAYBENCH_SECRETS_KEY;
  if (configured) {
    if (configured.length < 16) throw new Error('PAYBENCH_SECRETS_KEY must be at least 16 characters');
    return createHash('sha256').update(configured).digest();
  }
  const file = path.join(dataDir, 'secrets.key');
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  } catch {
    mkdirSync(dataDir, { recursive: true });
    try {
      // 'wx': if another process wrote it first, read theirs instead of overwriting it.
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch {
      /* written meanwhile */
    }
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  }
}

const VERSION = 'v1';

/** Whether a stored value is sealed (by `seal` or `sealText`) rather than plain text. */
export const isSealed = (stored: string): boolean => stored.startsWith(`${VERSION}:`);

/** Any text sealed with AES-256-GCM under the key: a random IV, the tag, then the ciphertext. */
export function sealText(key: Buffer, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

/** The text, or undefined when it was sealed with another key or is not sealed at all. */
export function unsealText(key: Buffer, sealed: string): string | undefined {
  const [version, payload] = sealed.split(':');
  if (version !== VERSION || !payload) return undefined;
  const raw = Buffer.from(payload, 'base64');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

export function seal(key: Buffer, secrets: Record<string, string>): string {
  return sealText(key, JSON.stringify(secrets));
}

/** The secrets, or undefined when they were sealed with another key (they must be entered again). */
export function unseal(key: Buffer, sealed: string | null): Record<string, string> | undefined {
  if (!sealed) return {};
  const text = unsealText(key, sealed);
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, string>);
}

const keys = new Map<string, Buffer>();

/** The installation's secrets key (`secretsKey`), read once per data directory. */
export function keyFor(deps: { config: { dataDir: string } }): Buffer {
  const dir = deps.config.dataDir;
  let key = keys.get(dir);
  if (!key) {
    key = secretsKey(dir);
    keys.set(dir, key);
  }
  return key;
}
