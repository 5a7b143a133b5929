// Public surface of @ledgerline/quickbooks-sandbox: a local stand-in for QuickBooks Online (Accounting API v3)
// and Intuit OAuth 2.0 that the official `node-quickbooks` and `intuit-oauth` packages talk to. See the README.
import type { AddressInfo } from 'node:net';
import type { EntityType } from './domain/company.js';
import type { Json } from './domain/wire.js';
import { createHttpServer, PATHS } from './http.js';
import { QuickBooksSandboxCore, type CompanySummary, type CreateCompanyInput, type FailureRule } from './sandbox.js';

export { ACCOUNT_TYPES, ENTITY_TYPES, WRITABLE_TYPES, type EntityType } from './domain/company.js';
export { faults, QboFault, type FaultError } from './domain/faults.js';
export { CHART, DEFAULT_HISTORY, MAX_GENERATED_PER_KIND, type HistoryOptions, type HistorySize } from './domain/history.js';
export { DEFAULT_MAX_RESULTS, MAX_RESULTS, QUERYABLE_FIELDS, parseQuery, type Query } from './domain/query.js';
export { ControlError, SCOPES, type CompanySummary, type CreateCompanyInput, type FailureRule } from './sandbox.js';

export const DEFAULT_CLIENT_ID = 'ledgerline-qbo-client';
export const DEFAULT_CLIENT_SECRET = 'ledgerline-qbo-secret';
/** Real QBO: access tokens live an hour, refresh tokens 100 days (x_refresh_token_expires_in 8,726,400 s). */
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 8_726_400;
/** Real QBO: 500 requests per minute per realm. */
export const DEFAULT_REQUESTS_PER_MINUTE = 500;
/** Real QBO: at most 10 concurrent requests per realm (and app). */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 10;

export interface QuickBooksSandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** Registered redirect URIs; empty (default) accepts any http(s) URI. */
  redirectUris?: string[];
  /** The sandbox clock (default: the real one): token expiry, throttle window, "today" of generated histories. */
  now?: () => Date;
  accessTokenTtlSeconds?: number;
  refreshTokenTtlSeconds?: number;
  requestsPerMinute?: number;
  maxConcurrentRequests?: number;
  /** The company the authorize URL connects by default (created at start). Default: seed 1, default sizes. */
  defaultCompany?: CreateCompanyInput;
}

/** The URLs to point the packages at (see "Pointing the packages at the sandbox" in the README). */
export interface IntuitEndpoints {
  authorizeEndpoint: string;
  tokenEndpoint: string;
  revokeEndpoint: string;
  userInfoEndpoint: string;
  /** node-quickbooks' `endpoint` (per instance): `${url}/v3/company/`. */
  v3EndpointBaseUrl: string;
}

export interface QuickBooksSandbox {
  /** e.g. http://127.0.0.1:8092 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly endpoints: IntuitEndpoints;
  /** The company the authorize URL connects unless told otherwise. */
  readonly defaultRealmId: string;

  createCompany(input?: CreateCompanyInput): CompanySummary;
  listCompanies(): CompanySummary[];
  getCompany(realmId: string): CompanySummary;
  /** A company's live entities of one type, as the API answers them. */
  entities(realmId: string, type: EntityType): Json[];
  /** The next authorize request connects this company, or is denied (`{ deny: true }`). */
  queueConsent(next: { realmId: string } | { deny: true }): void;
  /** Every access token issued (for the realm, or all) expires now; answers how many were live. */
  expireAccessTokens(realmId?: string): number;
  setRequestsPerMinute(limit: number): void;
  /** Requests of the realm in flight now (admitted, not yet answered). */
  inFlight(realmId: string): number;
  failNext(rule: FailureRule): void;
  clearFailures(): void;
  close(): Promise<void>;
}

export async function startQuickBooksSandbox(options: QuickBooksSandboxOptions = {}): Promise<QuickBooksSandbox> {
  const core = new QuickBooksSandboxCore({
    clientId: options.clientId ?? DEFAULT_CLIENT_ID,
    clientSecret: options.clientSecret ?? DEFAULT_CLIENT_SECRET,
    redirectUris: options.redirectUris ?? [],
    now: options.now ?? (() => new Date()),
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds ?? DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
    requestsPerMinute: options.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE,
    maxConcurrentRequests: options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS,
  });
  core.createCompany(options.defaultCompany ?? {});
  const server = createHttpServer(core);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  return {
    url,
    port,
    clientId: core.settings.clientId,
    clientSecret: core.settings.clientSecret,
    endpoints: {
      authorizeEndpoint: `${url}${PATHS.authorize}`,
      tokenEndpoint: `${url}${PATHS.token}`,
      revokeEndpoint: `${url}${PATHS.revoke}`,
      userInfoEndpoint: `${url}${PATHS.userInfo}`,
      v3EndpointBaseUrl: `${url}${PATHS.v3}`,
    },
    defaultRealmId: core.defaultRealmId,
    createCompany: (input) => core.createCompany(input),
    listCompanies: () => [...core.companies.keys()].map((realmId) => core.summary(realmId)),
    getCompany: (realmId) => core.summary(realmId),
    entities: (realmId, type) => core.entities(realmId, type),
    queueConsent: (next) => core.queueConsent(next),
    expireAccessTokens: (realmId) => core.expireAccessTokens(realmId),
    setRequestsPerMinute: (limit) => core.setRequestsPerMinute(limit),
    inFlight: (realmId) => core.inFlight(realmId),
    failNext: (rule) => core.failNext(rule),
    clearFailures: () => core.clearFailures(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
