import { createRemoteJWKSet } from 'jose';
import type { Logger } from 'pino';
import type { IdentityProvider } from '../../access/identityProvider.js';
import { accessTokenVerifier, type VerifyOptions } from './verify.js';

const DISCOVERY_TIMEOUT_MS = 10_000;

export interface ExternalIssuerSettings {
  issuerUrl: string;
  audience: string;
}

/** OIDC_ISSUER_URL and OIDC_AUDIENCE, both or neither. */
export function externalIssuerSettings(env: NodeJS.ProcessEnv): ExternalIssuerSettings | undefined {
  const issuerUrl = env.OIDC_ISSUER_URL?.trim();
  const audience = env.OIDC_AUDIENCE?.trim();
  if (!issuerUrl && !audience) return undefined;
  if (!issuerUrl || !audience) throw new Error('Set both OIDC_ISSUER_URL and OIDC_AUDIENCE to use an external identity provider, or neither.');
  if (!URL.canParse(issuerUrl)) throw new Error(`OIDC_ISSUER_URL must be a URL, got "${issuerUrl}"`);
  return { issuerUrl, audience };
}

const withoutTrailingSlash = (url: string): string => url.replace(/\/+$/, '');

interface DiscoveryDocument {
  issuer: string;
  jwks_uri: string;
}

async function discover(issuerUrl: string): Promise<DiscoveryDocument> {
  const url = `${withoutTrailingSlash(issuerUrl)}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Identity provider discovery at ${url} answered ${response.status}`);
  const body = (await response.json()) as Partial<DiscoveryDocument>;
  if (typeof body.issuer !== 'string' || typeof body.jwks_uri !== 'string') {
    throw new Error(`Identity provider discovery at ${url} has no issuer or jwks_uri`);
  }
  // Hosted issuers differ on the trailing slash; anything else is a misconfiguration.
  if (withoutTrailingSlash(body.issuer) !== withoutTrailingSlash(issuerUrl)) {
    throw new Error(`Identity provider at ${url} says its issuer is ${body.issuer}, not ${issuerUrl}`);
  }
  return { issuer: body.issuer, jwks_uri: body.jwks_uri };
}

/** Verifies access tokens by an external issuer's JWKS; discovery runs on first use and again after a failure. */
export function externalIdentityProvider(settings: ExternalIssuerSettings, log: Logger): IdentityProvider {
  let resolved: Promise<VerifyOptions> | undefined;
  const options = (): Promise<VerifyOptions> => {
    resolved ??= discover(settings.issuerUrl).then(
      (document) => ({
        keys: createRemoteJWKSet(new URL(document.jwks_uri)),
        issuer: document.issuer,
        audience: settings.audience,
      }),
      (error: unknown) => {
        resolved = undefined;
        log.error({ err: error }, 'identity provider discovery failed');
        throw error;
      },
    );
    return resolved;
  };
  return {
    kind: 'external',
    issuer: settings.issuerUrl,
    middleware: async (_ctx, next) => next(),
    verifyAccessToken: accessTokenVerifier(options),
  };
}
