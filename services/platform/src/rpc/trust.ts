// Service-to-service trust: a caller proves who it acts for with a short-lived signed token (HS256 JWT,
// `jose`) addressed to the one service it calls. The callee derives the tenancy of the call from that
// token only; `x-ll-*` headers are never read on the server side. See docs/decisions/0007.
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import type { Interceptor } from '@connectrpc/connect';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { ConfigError, DEVELOPMENT_SERVICE_TOKEN_KEY, MIN_SERVICE_TOKEN_KEY_LENGTH } from '../config.js';
import { AppError, ErrorKind } from '../errors.js';
import { isUuid } from '../ids.js';
import { LruMap } from '../lru.js';
import { isRole } from '../roles.js';
import type { TenantContext } from '../db/tenancy.js';
import { TENANT_HEADERS, tenantFromHeaders, tenantKey } from './context.js';

/** The header that carries the token (the gateway never forwards a browser's own Authorization header). */
export const SERVICE_TOKEN_HEADER = 'authorization';

/** How long a token is valid. */
export const SERVICE_TOKEN_TTL_SECONDS = 60;

/**
 * A caller reuses a token for the same callee and tenancy while it has more than this left (signing costs
 * a few hundred microseconds); the callee remembers a token it verified until it expires.
 */
const REUSE_MIN_REMAINING_SECONDS = 30;
const CACHE_ENTRIES = 10_000;

/** Allowed clock difference between caller and callee. */
const CLOCK_TOLERANCE_SECONDS = 5;

const ALGORITHM = 'HS256';

function checkKey(key: string): void {
  if (key.length < MIN_SERVICE_TOKEN_KEY_LENGTH) throw new Error(`the service token key must have at least ${MIN_SERVICE_TOKEN_KEY_LENGTH} characters`);
}

/** The HMAC key object, made once per key (every call signs or verifies with it). */
const hmacKeys = new Map<string, KeyObject>();
function keyOf(key: string): KeyObject {
  checkKey(key);
  let made = hmacKeys.get(key);
  if (!made) {
    made = createSecretKey(Buffer.from(key, 'utf8'));
    hmacKeys.set(key, made);
  }
  return made;
}

/** Refuses the development key in production (called by every service's `main` and the gateway's). */
export function assertServiceTrustConfig(config: { NODE_ENV: string; SERVICE_TOKEN_KEY: string }): void {
  if (config.NODE_ENV === 'production' && config.SERVICE_TOKEN_KEY === DEVELOPMENT_SERVICE_TOKEN_KEY) {
    throw new ConfigError('SERVICE_TOKEN_KEY: the development key cannot be used in production; set a random key of at least 32 characters');
  }
}

export interface ServiceTokenClaims extends TenantContext {
  /** The service the token is for. */
  audience: string;
  /** The calling service (gateway, reporting...). */
  issuer: string;
}

/** Signs a token for one call: workspace, user and role of the caller, valid for 60 s, for `audience` only. */
export async function signServiceToken(key: string, claims: ServiceTokenClaims, ttlSeconds = SERVICE_TOKEN_TTL_SECONDS): Promise<string> {
  const payload: Record<string, string> = {};
  if (claims.workspaceId) payload.wid = claims.workspaceId;
  if (claims.userId) payload.sub = claims.userId;
  if (claims.role) payload.role = claims.role;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(keyOf(key));
}

/** The tenancy a valid token carries; throws Unauthenticated for a missing, forged, expired or misaddressed one. */
export async function verifyServiceToken(
  key: string,
  audience: string,
  authorization: string | null | undefined,
): Promise<TenantContext & { issuer: string; expiresAt: number }> {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
  if (!token) throw new AppError(ErrorKind.Unauthenticated, 'A service token is required');
  try {
    const { payload } = await jwtVerify(token, keyOf(key), {
      algorithms: [ALGORITHM],
      audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: SERVICE_TOKEN_TTL_SECONDS + CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['iss', 'aud', 'exp', 'iat', 'jti'],
    });
    const { wid, sub, role, iss, exp } = payload as { wid?: unknown; sub?: unknown; role?: unknown; iss?: string; exp: number };
    // A signed but malformed claim is refused rather than dropped: the signer is broken.
    if (wid !== undefined && !(typeof wid === 'string' && isUuid(wid))) throw new Error('bad workspace claim');
    if (sub !== undefined && !(typeof sub === 'string' && isUuid(sub))) throw new Error('bad user claim');
    if (role !== undefined && !isRole(role)) throw new Error('bad role claim');
    return {
      workspaceId: wid as string | undefined,
      userId: sub as string | undefined,
      role: role as TenantContext['role'],
      issuer: iss ?? '',
      expiresAt: exp * 1000,
    };
  } catch (err) {
    const reason =
      err instanceof joseErrors.JWTExpired
        ? 'The service token has expired'
        : err instanceof joseErrors.JWTClaimValidationFailed && err.claim === 'aud'
          ? 'The service token is for another service'
          : 'The service token is not valid';
    throw new AppError(ErrorKind.Unauthenticated, reason);
  }
}

/**
 * The server side (one interceptor for every service, wired by createServiceServer): verifies the token
 * and puts the tenancy it carries in the call's context. Calls without a valid token never reach a handler.
 */
export function trustInterceptor(options: { key: string; audience: string }): Interceptor {
  // Tokens this server verified, until their expiry: the same string verifies the same way until then.
  const verified = new LruMap<string, { tenant: TenantContext; expiresAt: number }>(CACHE_ENTRIES);
  return (next) => async (req) => {
    const authorization = req.header.get(SERVICE_TOKEN_HEADER) ?? '';
    let hit = verified.get(authorization);
    if (!hit || hit.expiresAt <= Date.now()) {
      const { issuer: _issuer, expiresAt, ...tenant } = await verifyServiceToken(options.key, options.audience, authorization);
      hit = { tenant, expiresAt };
      verified.set(authorization, hit);
    }
    req.contextValues.set(tenantKey, { ...hit.tenant });
    return next(req);
  };
}

/**
 * The client side: turns the `x-ll-*` headers a caller sets (platform `tenantHeaders`) into a token for
 * `audience`, and sends the token instead of the headers. Callers keep writing `{ headers: tenantHeaders(ctx) }`.
 */
export function signingInterceptor(options: { key: string; issuer: string; audience: string }): Interceptor {
  checkKey(options.key);
  const signed = new LruMap<string, { token: string; expiresAt: number }>(CACHE_ENTRIES);
  return (next) => async (req) => {
    const tenant = tenantFromHeaders((h) => req.header.get(h) ?? undefined);
    for (const h of Object.values(TENANT_HEADERS)) req.header.delete(h);
    const cacheKey = `${tenant.workspaceId ?? ''}|${tenant.userId ?? ''}|${tenant.role ?? ''}`;
    let entry = signed.get(cacheKey);
    if (!entry || entry.expiresAt - Date.now() < REUSE_MIN_REMAINING_SECONDS * 1000) {
      entry = {
        token: await signServiceToken(options.key, { ...tenant, issuer: options.issuer, audience: options.audience }),
        expiresAt: Date.now() + SERVICE_TOKEN_TTL_SECONDS * 1000,
      };
      signed.set(cacheKey, entry);
    }
    req.header.set(SERVICE_TOKEN_HEADER, `Bearer ${entry.token}`);
    return next(req);
  };
}
