import type { Middleware } from 'koa';

/** Why a bearer token was refused; sent to the client as `clientResponse.message` on 401. */
export type TokenRefusal = 'expired' | 'revoked' | 'invalid' | 'unknown_user' | 'missing_token';

export class TokenRefused extends Error {
  constructor(readonly reason: TokenRefusal) {
    super(reason);
  }
}

/** What the API learns from a valid sign-in access token. */
export interface VerifiedAccessToken {
  /** The `sub` claim: a Paybench user id for the built-in provider, the issuer's subject otherwise. */
  subject: string;
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
  email?: string;
  /** The built-in provider's session the token was issued in, when it says. */
  session?: string;
}

export interface IdentityProvider {
  /** 'builtin' when Paybench is its own OpenID provider, 'external' when OIDC_ISSUER_URL is set. */
  kind: 'builtin' | 'external';
  issuer: string;
  /** Serves the provider's routes (authorize, token, logout, device, jwks, interactions); passes others on. */
  middleware: Middleware;
  /** Verifies a sign-in access token (a JWT); throws TokenRefused. */
  verifyAccessToken(token: string): Promise<VerifiedAccessToken>;
  /**
   * The built-in provider only: ends one of its sessions as its own sign-out does (the session, and
   * the grants that do not outlive it with their refresh tokens). An external issuer ends its own.
   */
  endSession?(session: string): Promise<void>;
}
