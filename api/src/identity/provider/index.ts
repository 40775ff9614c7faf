import type { AppDeps } from '../../deps.js';
import { builtinIdentityProvider } from './builtin.js';
import { externalIdentityProvider, externalIssuerSettings } from './external.js';
import type { IdentityProvider } from '../../access/identityProvider.js';

export { TokenRefused } from '../../access/identityProvider.js';
export type { IdentityProvider, TokenRefusal, VerifiedAccessToken } from '../../access/identityProvider.js';

/**
 * Paybench's sign-in: its own OpenID provider by default, or an external issuer when
 * OIDC_ISSUER_URL and OIDC_AUDIENCE are set (then only access-token verification runs here).
 */
export async function createIdentityProvider(deps: AppDeps, env: NodeJS.ProcessEnv = process.env): Promise<IdentityProvider> {
  const external = externalIssuerSettings(env);
  if (external) {
    deps.log.info({ issuer: external.issuerUrl, audience: external.audience }, 'verifying sign-in tokens from an external issuer');
    return externalIdentityProvider(external, deps.log);
  }
  return builtinIdentityProvider(deps);
}
