// The official Intuit packages, pointed at the configured URLs (QBO in production, the sandbox in development):
// intuit-oauth for the OAuth 2.0 grant, node-quickbooks for the v3 API. Their callbacks and errors are turned
// into promises and one error type here, so nothing else in the service touches the packages.
import { createRequire } from 'node:module';
import OAuthClient from 'intuit-oauth';
import type QuickBooksTypes from 'node-quickbooks';
import type { IntegrationsConfig } from '../config.js';

type QuickBooksClass = typeof QuickBooksTypes.default;
export type QuickBooksApi = InstanceType<QuickBooksClass>;
// node-quickbooks is CommonJS (`module.exports = QuickBooks`) while its types declare a default export.
const QuickBooks = createRequire(import.meta.url)('node-quickbooks') as QuickBooksClass;

/** The grant of one company: what every API call needs. */
export interface QuickBooksGrant {
  realmId: string;
  accessToken: string;
  refreshToken: string;
}

/** Tokens as Intuit answers them, with their expiry instants. */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date;
}

/** An answer of Intuit that is not a success: HTTP status, QBO's fault code or OAuth's error, Retry-After. */
export class QuickBooksCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.name = 'QuickBooksCallError';
  }

  /** QBO's throttle (429, fault 3001) or a server error: worth retrying with backoff. */
  get retryable(): boolean {
    return this.status === 429 || this.status >= 500 || this.status === 0;
  }

  /** The access token was refused (401, fault 3200): refresh and try once more. */
  get authentication(): boolean {
    return this.status === 401;
  }
}

/** intuit-oauth's endpoints are class-wide (one Intuit app per process): set from the settings when given. */
export function intuitOAuth(config: IntegrationsConfig): OAuthClient {
  const client = new OAuthClient({
    clientId: config.QUICKBOOKS_CLIENT_ID,
    clientSecret: config.QUICKBOOKS_CLIENT_SECRET,
    environment: config.QUICKBOOKS_ENVIRONMENT,
    redirectUri: config.QUICKBOOKS_REDIRECT_URI,
  });
  if (config.QUICKBOOKS_AUTHORIZE_URL) {
    client.setAuthorizeURLs({
      authorizeEndpoint: config.QUICKBOOKS_AUTHORIZE_URL,
      tokenEndpoint: config.QUICKBOOKS_TOKEN_URL,
      revokeEndpoint: config.QUICKBOOKS_REVOKE_URL,
      userInfoEndpoint: config.QUICKBOOKS_USERINFO_URL,
    });
  }
  return client;
}

/** node-quickbooks for a grant: TOKEN_URL / REVOKE_URL are class-wide, `endpoint` is per instance. */
export function quickBooksApi(config: IntegrationsConfig, grant: QuickBooksGrant): QuickBooksApi {
  if (config.QUICKBOOKS_TOKEN_URL) QuickBooks.TOKEN_URL = config.QUICKBOOKS_TOKEN_URL;
  if (config.QUICKBOOKS_REVOKE_URL) QuickBooks.REVOKE_URL = config.QUICKBOOKS_REVOKE_URL;
  const qbo = new QuickBooks(
    config.QUICKBOOKS_CLIENT_ID,
    config.QUICKBOOKS_CLIENT_SECRET,
    grant.accessToken,
    false,
    grant.realmId,
    config.QUICKBOOKS_ENVIRONMENT === 'sandbox',
    false,
    '75',
    '2.0',
    grant.refreshToken,
  );
  if (config.QUICKBOOKS_API_BASE_URL) qbo.endpoint = config.QUICKBOOKS_API_BASE_URL;
  return qbo;
}

function deadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QuickBooksCallError(`${what}: no answer within ${ms} ms`, 0, 'timeout', undefined)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface AxiosLike {
  response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
  error?: string;
  authResponse?: { response?: { status?: number } };
  Fault?: { Error?: Array<{ Message?: string; Detail?: string; code?: string }> };
}

/** One error type for what either package rejects or calls back with (axios errors, OAuth errors, QBO Faults). */
export function callError(err: unknown, what: string): QuickBooksCallError {
  if (err instanceof QuickBooksCallError) return err;
  const e = (err ?? {}) as AxiosLike;
  const data = (e.response?.data ?? e) as AxiosLike & { error?: string };
  const fault = data?.Fault?.Error?.[0];
  const status = e.response?.status ?? e.authResponse?.response?.status ?? (fault ? 400 : 0);
  const code = fault?.code ?? data?.error ?? e.error ?? (status ? String(status) : 'network');
  const retryAfterRaw = e.response?.headers?.['retry-after'];
  const retryAfter = retryAfterRaw === undefined ? undefined : Number(retryAfterRaw);
  const detail = fault ? `${fault.Message ?? ''}: ${fault.Detail ?? ''}` : typeof data?.error === 'string' ? data.error : (err as Error)?.message;
  return new QuickBooksCallError(
    `${what} failed (${status || 'no answer'}, ${code}): ${String(detail).slice(0, 300)}`,
    status,
    String(code),
    Number.isFinite(retryAfter) ? retryAfter : undefined,
  );
}

type Callback = (err: unknown, data: unknown) => void;

/** Calls a node-quickbooks method by name; resolves with the body, rejects with QuickBooksCallError. */
export function qboCall<T = Record<string, unknown>>(qbo: QuickBooksApi, config: IntegrationsConfig, method: string, ...args: unknown[]): Promise<T> {
  const fn = (qbo as unknown as Record<string, (...a: unknown[]) => void>)[method];
  if (typeof fn !== 'function') throw new Error(`node-quickbooks has no ${method}`);
  const call = new Promise<T>((resolve, reject) => {
    const callback: Callback = (err, data) => (err ? reject(callError(err, method)) : resolve(data as T));
    fn.call(qbo, ...args, callback);
  });
  return deadline(call, config.QUICKBOOKS_TIMEOUT_MS, method);
}

function issued(json: Record<string, unknown>, now: Date): IssuedTokens {
  const accessToken = typeof json.access_token === 'string' ? json.access_token : '';
  const refreshToken = typeof json.refresh_token === 'string' ? json.refresh_token : '';
  const expiresIn = Number(json.expires_in);
  const refreshExpiresIn = Number(json.x_refresh_token_expires_in);
  if (!accessToken || !refreshToken || accessToken.length > 4_000 || refreshToken.length > 1_000 || !Number.isFinite(expiresIn)) {
    throw new QuickBooksCallError('Intuit answered a token without its fields', 502, 'bad_token_answer', undefined);
  }
  return {
    accessToken,
    refreshToken,
    accessExpiresAt: new Date(now.getTime() + expiresIn * 1000),
    refreshExpiresAt: new Date(now.getTime() + (Number.isFinite(refreshExpiresIn) ? refreshExpiresIn : 8_726_400) * 1000),
  };
}

/** The authorization-code exchange (intuit-oauth createToken over the callback URL it would have received). */
export async function exchangeCode(config: IntegrationsConfig, input: { code: string; state: string; realmId: string }, now: Date): Promise<IssuedTokens> {
  const callback = new URL(config.QUICKBOOKS_REDIRECT_URI);
  callback.search = new URLSearchParams({ code: input.code, state: input.state, realmId: input.realmId }).toString();
  try {
    const response = await deadline(intuitOAuth(config).createToken(callback.toString()), config.QUICKBOOKS_TIMEOUT_MS, 'createToken');
    return issued(response.getJson() as Record<string, unknown>, now);
  } catch (err) {
    throw callError(err, 'createToken');
  }
}

/** A refresh (intuit-oauth refreshUsingToken): Intuit answers a new refresh token, which must be stored at once. */
export async function refreshTokens(config: IntegrationsConfig, refreshToken: string, now: Date): Promise<IssuedTokens> {
  try {
    const response = await deadline(intuitOAuth(config).refreshUsingToken(refreshToken), config.QUICKBOOKS_TIMEOUT_MS, 'refreshUsingToken');
    return issued(response.getJson() as Record<string, unknown>, now);
  } catch (err) {
    throw callError(err, 'refreshUsingToken');
  }
}

/** Revokes the whole grant (either token ends it). */
export async function revokeGrant(config: IntegrationsConfig, refreshToken: string): Promise<void> {
  try {
    await deadline(intuitOAuth(config).revoke({ refresh_token: refreshToken }), config.QUICKBOOKS_TIMEOUT_MS, 'revoke');
  } catch (err) {
    throw callError(err, 'revoke');
  }
}
