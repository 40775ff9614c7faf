import * as oidc from 'openid-client';
import { AddressRefused, guardedFetch } from '../../kernel/outbound.js';

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

/**
 * Every call to the provider (discovery, token, keys, user info) goes through the outbound guard: an
 * address Paybench must not be made to call (its own network) is refused unless allowed, after
 * every lookup and on every redirect, and the connection goes only to the address checked.
 */
const guardedProviderFetch: oidc.CustomFetch = async (url, options) => {
  const target = new URL(url);
  const policy = { allowPrivateNetworks: privateNetworksAllowed() };
  try {
    const body = options.body instanceof ReadableStream ? await new Response(options.body).text() : options.body;
    return await guardedFetch(url, { method: options.method, headers: options.headers, body, redirect: options.redirect, signal: options.signal }, policy);
  } catch (error) {
    if (error instanceof AddressRefused) throw new ProviderUnreachable(`${error.message}, which Paybench does not call`);
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const reason = options.signal?.aborted ? `did not answer within ${PROVIDER_TIMEOUT_SECONDS} seconds` : code === 'ENOTFOUND' ? 'could not be found' : 'could not be reached';
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
      [oidc.customFetch]: guardedProviderFetch,
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
  configured[oidc.customFetch] = guardedProviderFetch;
  for (const step of execute) step(configured);
  return configured;
}
