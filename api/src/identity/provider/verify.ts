import { errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { TokenRefused, type VerifiedAccessToken } from '../../access/identityProvider.js';

/** The spec's identity-provider clock leeway. */
export const CLOCK_TOLERANCE_SECONDS = 60;
const ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'];
/** The claim in which the built-in provider names the session an access token belongs to. */
export const SESSION_CLAIM = 'session_uid';

export interface VerifyOptions {
  keys: JWTVerifyGetKey;
  issuer: string;
  audience: string;
  /** The built-in provider types its access tokens `at+jwt`; hosted issuers vary. */
  typ?: string;
}

/** Failures that are about the token itself; anything else (an issuer that cannot be reached) propagates. */
function isTokenFault(error: unknown): boolean {
  return (
    error instanceof errors.JWTClaimValidationFailed ||
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported
  );
}

function toVerified(payload: JWTPayload): VerifiedAccessToken {
  const { sub, iat, exp } = payload;
  if (typeof sub !== 'string' || !sub || typeof iat !== 'number' || typeof exp !== 'number') throw new TokenRefused('invalid');
  const email = typeof payload.email === 'string' ? payload.email : undefined;
  const session = typeof payload[SESSION_CLAIM] === 'string' ? payload[SESSION_CLAIM] : undefined;
  return { subject: sub, issuedAt: iat, expiresAt: exp, ...(email ? { email } : {}), ...(session ? { session } : {}) };
}

export function accessTokenVerifier(options: () => Promise<VerifyOptions>): (token: string) => Promise<VerifiedAccessToken> {
  return async (token) => {
    if (!token) throw new TokenRefused('missing_token');
    const { keys, issuer, audience, typ } = await options();
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience,
        typ,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'iat', 'exp'],
      });
      return toVerified(payload);
    } catch (error) {
      if (error instanceof TokenRefused) throw error;
      if (error instanceof errors.JWTExpired) throw new TokenRefused('expired');
      if (isTokenFault(error)) throw new TokenRefused('invalid');
      throw error;
    }
  };
}
