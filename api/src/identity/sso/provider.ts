import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import * as oidc from 'openid-client';
import { describeSpecial, specialPurpose } from '../../integrations/addresses.js';

/** Seconds Paybench waits for a company's provider (discovery, token, keys, user info). */
export const PROVIDER_TIMEOUT_SECONDS = 10;

/**
 * A company's provider may sit on a private network (an on-premises provider reached over a VPN):
 * only then may its address be private or loopback, and only then may it be plain http.
 */
export const privateNetworksAllowed = (env: NodeJS.ProcessEnv = process.env): boolean => env.PAYBENCH_SSO_ALLOW_PRIVATE_NETWORKS === 'true';

/** The provider could not be reached (network, timeout, refused address, an error status). */
export class ProviderUnreachable extends Error {
  override readonly name = 'ProviderUnreachable';
}

/** The provider answered, but not as an OpenID provider for this issuer and client should. */
export class ProviderInvalid extends Error {
  override readonly name = 'ProviderInvalid';
}

/** Refuses addresses Paybench must not be made to call (its own network) unless allowed. */
async function checkAddress(url: URL): Promise<void> {
  if (privateNetworksAllowed()) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
  if (!addresses.length) throw new ProviderUnreachable(`${url.host} could not be found`);
  for (const address of addresses) {
    const special = specialPurpose(address);
    if (special) throw new ProviderUnreachable(`${describeSpecial(special, isIP(host) ? undefined : host)}, which Paybench does not call`);
  }
}

const guardedFetch: oidc.CustomFetch = async (url, options) => {
  const target = new URL(url);
  await checkAddress(target);
  try {
    const init: RequestInit = { method: options.method, headers: options.headers, body: options.body as RequestInit['body'], redirect: options.redirect, signal: options.signal };
    return await fetch(url, init);
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? `did not answer within ${PROVIDER_TIMEOUT_SECONDS} seconds` : 'could not be reached';
    throw new ProviderUnreachable(`${target.host} ${reason}`);
  }
};

/** The issuer as entered, checked: https (http only where private networks are allowed), no query or fragment. */
export function parseIssuer(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (url.search || url.hash || url.username || url.password) return undefined;
  if (url.protocol === 'https:') return url;
  return url.protocol === 'http:' && privateNetworksAllowed() ? url : undefined;
}

/** A cause chain's error of one of our own kinds, if any (openid-client wraps what fetch throws). */
function ownCause(error: unknown): ProviderUnreachable | ProviderInvalid | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof ProviderUnreachable || current instanceof ProviderInvalid) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/** What went wrong with a provider call, as one of our two kinds. */
export function providerFailure(error: unknown): ProviderUnreachable | ProviderInvalid {
  const own = ownCause(error);
  if (own) return own;
  if (error instanceof oidc.ResponseBodyError) return new ProviderInvalid(`it answered ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`);
  if (error instanceof oidc.ClientError && error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') return new ProviderUnreachable('it answered with an error status');
  if (error instanceof oidc.ClientError && error.code === 'OAUTH_RESPONSE_IS_NOT_JSON') return new ProviderInvalid('its discovery document is not JSON');
  return new ProviderInvalid(error instanceof Error ? error.message : String(error));
}

export interface ProviderClient {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

/**
 * The provider's configuration from its discovery document, with Paybench's client: the secret is
 * sent the way the provider says it takes it (HTTP Basic unless it only takes it in the body).
 */
export async function discoverProvider(client: ProviderClient): Promise<oidc.Configuration> {
  const issuer = parseIssuer(client.issuerUrl);
  if (!issuer) throw new ProviderInvalid('the issuer must be an https:// address');
  const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(issuer, client.clientId, client.clientSecret, undefined, {
      execute,
      timeout: PROVIDER_TIMEOUT_SECONDS,
      [oidc.customFetch]: guardedFetch,
    });
  } catch (error) {
    throw providerFailure(error);
  }
  const metadata = config.serverMetadata();
  if (!metadata.authorization_endpoint || !metadata.token_endpoint) throw new ProviderInvalid('its discovery document names no authorization or token endpoint');
  if (metadata.response_types_supported && !metadata.response_types_supported.includes('code')) {
    throw new ProviderInvalid('it does not offer the authorization code flow');
  }
  const methods = metadata.token_endpoint_auth_methods_supported;
  const auth = methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post') ? oidc.ClientSecretPost(client.clientSecret) : oidc.ClientSecretBasic(client.clientSecret);
  const configured = new oidc.Configuration(metadata, client.clientId, client.clientSecret, auth);
  configured.timeout = PROVIDER_TIMEOUT_SECONDS;
  configured[oidc.customFetch] = guardedFetch;
  for (const step of execute) step(configured);
  return configured;
}
