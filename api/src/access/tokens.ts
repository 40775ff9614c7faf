import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'pb_';

/** A new API token secret: recognisable prefix, 256 random bits. */
export function newTokenSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64url')}`;
}

export const isApiToken = (token: string): boolean => token.startsWith(PREFIX);

/** Tokens are stored only as their SHA-256: they are random, so a slow hash adds nothing. */
export const hashToken = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const tokenPrefix = (secret: string): string => secret.slice(0, 10);
