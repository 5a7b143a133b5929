import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { AppError, ErrorKind } from '@ledgerline/platform';
import { OWN } from '../domain/messages.js';

export interface GoogleIdentity {
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
}

export interface GoogleTokenVerifier {
  verify(idToken: string): Promise<GoogleIdentity>;
}

/** Verifies a Google ID token (signature by key id from the JWKS, audience, issuer, expiry). */
export function createGoogleVerifier({ jwksUrl, clientId, issuers }: { jwksUrl: string; clientId: string; issuers: string[] }): GoogleTokenVerifier {
  const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 3_000, cooldownDuration: 30_000 });
  return {
    async verify(idToken) {
      let payload;
      try {
        ({ payload } = await jwtVerify(idToken, keys, { audience: clientId, issuer: issuers, clockTolerance: 30 }));
      } catch (err) {
        throw new AppError(ErrorKind.Unauthenticated, OWN.oauthTokenInvalid, { appErrorCode: 'OAUTH_TOKEN_INVALID', cause: err });
      }
      if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') {
        throw new AppError(ErrorKind.Unauthenticated, OWN.oauthTokenInvalid, { appErrorCode: 'OAUTH_TOKEN_INVALID' });
      }
      if (payload.email_verified !== true && payload.email_verified !== 'true') {
        throw new AppError(ErrorKind.FailedPrecondition, OWN.oauthEmailUnverified, { appErrorCode: 'OAUTH_EMAIL_UNVERIFIED' });
      }
      return {
        subject: payload.sub,
        email: payload.email.toLowerCase(),
        firstName: typeof payload.given_name === 'string' ? payload.given_name : '',
        lastName: typeof payload.family_name === 'string' ? payload.family_name : '',
      };
    },
  };
}
