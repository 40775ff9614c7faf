import type { components } from '../../contract-types.js';
import { isoTimestamp } from '../../db/timestamps.js';
import type { SsoConnectionWithDomains } from './store.js';

type SsoConnection = components['schemas']['SsoConnection'];

/** Where a company's provider sends people back to: registered with the provider as the redirect URI. */
export const ssoCallbackUrl = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, '')}/auth/sso/callback`;

export function presentConnection(row: SsoConnectionWithDomains, publicUrl: string): SsoConnection {
  return {
    id: row.id,
    issuerUrl: row.issuer_url,
    clientId: row.client_id,
    clientSecretSet: Boolean(row.client_secret_sealed),
    domains: row.domains,
    enabled: Boolean(row.enabled),
    callbackUrl: ssoCallbackUrl(publicUrl),
    verifiedAt: isoTimestamp(row.verified_at),
    version: Number(row.version),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}
