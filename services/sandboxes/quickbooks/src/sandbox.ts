// The sandbox's state: companies (realms), the Intuit OAuth 2.0 grants and tokens, the per-realm throttle and
// the controls tests use. The HTTP edge (http.ts) maps requests onto these methods.
import { randomBytes } from 'node:crypto';
import { Company, ENTITY_TYPES, entityTypeOf, type EntityType } from './domain/company.js';
import { faults, QboFault } from './domain/faults.js';
import { generateHistory, seedChart, type HistoryOptions } from './domain/history.js';
import { fieldValue, matches, parseQuery, sortBy } from './domain/query.js';
import { qboTime, type Json } from './domain/wire.js';

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** An OAuth error as Intuit's token endpoint answers it: `{ error, error_description? }`. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description?: string,
  ) {
    super(error);
  }
}

export interface SandboxSettings {
  clientId: string;
  clientSecret: string;
  /** Redirect URIs the app registered; empty = any http(s) URI. */
  redirectUris: string[];
  now: () => Date;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Requests per realm per minute before 429 (QBO: 500). */
  requestsPerMinute: number;
  /** Requests of one realm in flight at once before 429 (QBO: 10). */
  maxConcurrentRequests: number;
}

export interface CreateCompanyInput extends HistoryOptions {
  companyName?: string;
  /** false: only the chart of accounts and the two sample items (default true). */
  history?: boolean;
}

export interface CompanySummary {
  realmId: string;
  companyName: string;
  counts: Record<EntityType, number>;
}

interface Grant {
  realmId: string;
  scope: string;
  accessToken: string;
  accessExpiresAt: number;
  refreshToken: string;
  refreshExpiresAt: number;
  revoked: boolean;
}

interface PendingCode {
  code: string;
  realmId: string;
  redirectUri: string;
  scope: string;
  expiresAt: number;
  used: boolean;
}

export interface FailureRule {
  status: 429 | 500 | 503;
  times?: number;
  realmId?: string;
}

export const SCOPES = ['com.intuit.quickbooks.accounting', 'com.intuit.quickbooks.payment', 'openid', 'profile', 'email', 'phone', 'address'];
const CODE_TTL_MS = 5 * 60_000;

export class QuickBooksSandboxCore {
  readonly companies = new Map<string, Company>();
  private readonly codes = new Map<string, PendingCode>();
  private readonly grantsByAccess = new Map<string, Grant>();
  private readonly grantsByRefresh = new Map<string, Grant>();
  private readonly requestLog = new Map<string, number[]>();
  private readonly inFlightByRealm = new Map<string, number>();
  private failures: Array<FailureRule & { remaining: number }> = [];
  private consentQueue: Array<{ realmId: string } | { deny: true }> = [];
  private nextRealm = 1;
  defaultRealmId = '';

  constructor(readonly settings: SandboxSettings) {}

  now(): Date {
    return this.settings.now();
  }

  // ── companies ─────────────────────────────────────────────────────────────────────────────────────

  createCompany(input: CreateCompanyInput = {}): CompanySummary {
    // 16 digits like Intuit's realm ids (built as text: the number would exceed Number.MAX_SAFE_INTEGER).
    const realmId = `93414500${String(this.nextRealm++ * 1001).padStart(8, '0')}`;
    const company = new Company(realmId, input.companyName ?? `Sandbox Company US ${realmId.slice(-4)}`, () => this.now());
    const at = this.now();
    seedChart(company, at);
    if (input.history !== false) {
      try {
        generateHistory(company, input, at);
      } catch (error) {
        if (error instanceof RangeError) throw new ControlError(400, error.message);
        throw error;
      }
    }
    this.companies.set(realmId, company);
    if (!this.defaultRealmId) this.defaultRealmId = realmId;
    return this.summary(realmId);
  }

  company(realmId: string): Company {
    const company = this.companies.get(realmId);
    if (!company) throw new ControlError(404, `no company ${realmId}`);
    return company;
  }

  summary(realmId: string): CompanySummary {
    const company = this.company(realmId);
    const counts = Object.fromEntries(ENTITY_TYPES.map((t) => [t, company.list(t).length])) as Record<EntityType, number>;
    return { realmId, companyName: company.companyName, counts };
  }

  // ── OAuth 2.0 ─────────────────────────────────────────────────────────────────────────────────────

  /** The next consent (authorize URL) connects this company, or is denied. Default: the default company. */
  queueConsent(next: { realmId: string } | { deny: true }): void {
    if ('realmId' in next) this.company(next.realmId);
    this.consentQueue.push(next);
  }

  /**
   * The authorize endpoint: checks the app and redirect URI, then (consent granted on the user's behalf) answers
   * the redirect URI with code, state and realmId, or with an error. Returns the URL to redirect to, or throws
   * an OAuthError the page shows when the redirect URI cannot be trusted.
   */
  authorize(query: URLSearchParams): string {
    const clientId = query.get('client_id');
    const redirectUri = query.get('redirect_uri');
    if (!clientId || clientId !== this.settings.clientId) throw new OAuthError(400, 'invalid_client', 'Unknown client_id');
    if (!redirectUri || !/^https?:\/\//.test(redirectUri)) throw new OAuthError(400, 'invalid_request', 'redirect_uri is required');
    if (this.settings.redirectUris.length > 0 && !this.settings.redirectUris.includes(redirectUri)) {
      throw new OAuthError(400, 'invalid_request', 'The redirect_uri is not registered for this app');
    }
    const back = new URL(redirectUri);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const fail = (error: string): string => {
      back.searchParams.set('error', error);
      return back.toString();
    };
    if (query.get('response_type') !== 'code') return fail('unsupported_response_type');
    const scopes = (query.get('scope') ?? '').split(/\s+/).filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !SCOPES.includes(s))) return fail('invalid_scope');
    const consent = this.consentQueue.shift();
    if (consent && 'deny' in consent) return fail('access_denied');
    const realmId = consent?.realmId ?? query.get('realmId') ?? this.defaultRealmId;
    if (!this.companies.has(realmId)) return fail('access_denied');
    const code = `AB11${token(32)}`;
    this.codes.set(code, { code, realmId, redirectUri, scope: scopes.join(' '), expiresAt: this.now().getTime() + CODE_TTL_MS, used: false });
    back.searchParams.set('code', code);
    back.searchParams.set('realmId', realmId);
    return back.toString();
  }

  /** The token endpoint (authorization_code and refresh_token grants); `authorization` is the Basic header. */
  token(authorization: string | undefined, form: Record<string, string>): Json {
    this.checkClient(authorization);
    const grantType = form.grant_type;
    const now = this.now().getTime();
    if (grantType === 'authorization_code') {
      const pending = form.code ? this.codes.get(form.code) : undefined;
      if (!pending || pending.used || pending.expiresAt < now) {
        if (pending) pending.used = true;
        throw new OAuthError(400, 'invalid_grant');
      }
      if (form.redirect_uri !== pending.redirectUri) throw new OAuthError(400, 'invalid_grant', 'redirect_uri does not match the authorization request');
      pending.used = true;
      return this.issue({ realmId: pending.realmId, scope: pending.scope, refreshExpiresAt: now + this.settings.refreshTokenTtlSeconds * 1000 });
    }
    if (grantType === 'refresh_token') {
      const grant = form.refresh_token ? this.grantsByRefresh.get(form.refresh_token) : undefined;
      if (!grant || grant.revoked || grant.refreshExpiresAt < now) throw new OAuthError(400, 'invalid_grant', 'Incorrect or invalid refresh token');
      // The old pair stops working: a client must keep the refresh token each refresh answers.
      grant.revoked = true;
      return this.issue({ realmId: grant.realmId, scope: grant.scope, refreshExpiresAt: grant.refreshExpiresAt });
    }
    throw new OAuthError(400, 'unsupported_grant_type');
  }

  /** The revoke endpoint: either token ends the whole grant (the app is disconnected from the company). */
  revoke(authorization: string | undefined, tokenValue: string | undefined): void {
    this.checkClient(authorization);
    if (!tokenValue) throw new OAuthError(400, 'invalid_request', 'token is required');
    const grant = this.grantsByAccess.get(tokenValue) ?? this.grantsByRefresh.get(tokenValue);
    if (grant) grant.revoked = true;
  }

  /** OpenID Connect userinfo for a live access token granted the openid scope. */
  userInfo(authorization: string | undefined): Json {
    const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    const grant = match ? this.grantsByAccess.get(match[1]!.trim()) : undefined;
    if (!grant || grant.revoked || grant.accessExpiresAt <= this.now().getTime()) throw new OAuthError(401, 'invalid_token');
    if (!grant.scope.split(' ').includes('openid')) throw new OAuthError(403, 'insufficient_scope');
    return {
      sub: `sandbox-user-${grant.realmId}`,
      email: 'owner@sandbox-company.example',
      emailVerified: true,
      givenName: 'Sandbox',
      familyName: 'Owner',
    };
  }

  /** Every access token issued so far for the realm (or all) expires now. */
  expireAccessTokens(realmId?: string): number {
    let expired = 0;
    for (const grant of this.grantsByAccess.values()) {
      if (realmId && grant.realmId !== realmId) continue;
      if (grant.accessExpiresAt > this.now().getTime()) expired++;
      grant.accessExpiresAt = this.now().getTime() - 1;
    }
    return expired;
  }

  private issue(input: { realmId: string; scope: string; refreshExpiresAt: number }): Json {
    const now = this.now().getTime();
    const grant: Grant = {
      realmId: input.realmId,
      scope: input.scope,
      accessToken: `eyJlbmMiOiJBMTI4Q0JDLUhTMjU2IiwiYWxnIjoiZGlyIn0..${token(48)}`,
      accessExpiresAt: now + this.settings.accessTokenTtlSeconds * 1000,
      refreshToken: `RT1-${token(24)}`,
      refreshExpiresAt: input.refreshExpiresAt,
      revoked: false,
    };
    this.grantsByAccess.set(grant.accessToken, grant);
    this.grantsByRefresh.set(grant.refreshToken, grant);
    return {
      token_type: 'bearer',
      access_token: grant.accessToken,
      expires_in: this.settings.accessTokenTtlSeconds,
      refresh_token: grant.refreshToken,
      x_refresh_token_expires_in: Math.max(0, Math.floor((grant.refreshExpiresAt - now) / 1000)),
    };
  }

  private checkClient(authorization: string | undefined): void {
    const match = /^Basic\s+(.+)$/i.exec(authorization ?? '');
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const expected = `${this.settings.clientId}:${this.settings.clientSecret}`;
    if (decoded !== expected) throw new OAuthError(401, 'invalid_client');
  }

  // ── the accounting API ────────────────────────────────────────────────────────────────────────────

  /** Bearer token → the company it may use (401 / 403 as QBO answers). */
  authenticate(authorization: string | undefined, realmId: string): Company {
    const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
    if (!match) throw faults.authentication('Authorization header missing or not a Bearer token');
    const grant = this.grantsByAccess.get(match[1]!.trim());
    if (!grant || grant.revoked) throw faults.authentication('Token revoked or invalid');
    if (grant.accessExpiresAt <= this.now().getTime()) throw faults.authentication('Token expired');
    if (grant.realmId !== realmId) throw faults.authorization();
    const company = this.companies.get(realmId);
    if (!company) throw faults.authorization();
    return company;
  }

  /**
   * Admits a request of the realm while fewer than `maxConcurrentRequests` are in flight (QBO: 10), else the 429;
   * answers the function that ends it.
   */
  enter(realmId: string): () => void {
    const current = this.inFlightByRealm.get(realmId) ?? 0;
    if (current >= this.settings.maxConcurrentRequests) throw faults.throttled(1);
    this.inFlightByRealm.set(realmId, current + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlightByRealm.set(realmId, (this.inFlightByRealm.get(realmId) ?? 1) - 1);
    };
  }

  inFlight(realmId: string): number {
    return this.inFlightByRealm.get(realmId) ?? 0;
  }

  /** Counts a request against the realm's per-minute budget; throws the 429 once it is spent. */
  throttle(realmId: string): void {
    const now = this.now().getTime();
    const rule = this.failures.find((f) => f.remaining > 0 && (!f.realmId || f.realmId === realmId));
    if (rule) {
      rule.remaining -= 1;
      if (rule.status === 429) throw faults.throttled(60);
      throw rule.status === 503 ? faults.unavailable() : faults.internal();
    }
    const log = (this.requestLog.get(realmId) ?? []).filter((t) => t > now - 60_000);
    if (log.length >= this.settings.requestsPerMinute) {
      this.requestLog.set(realmId, log);
      throw faults.throttled(Math.max(1, Math.ceil((log[0]! + 60_000 - now) / 1000)));
    }
    log.push(now);
    this.requestLog.set(realmId, log);
  }

  setRequestsPerMinute(limit: number): void {
    if (!Number.isInteger(limit) || limit < 1) throw new ControlError(400, 'requestsPerMinute must be a positive integer');
    this.settings.requestsPerMinute = limit;
    this.requestLog.clear();
  }

  failNext(rule: FailureRule): void {
    if (![429, 500, 503].includes(rule.status)) throw new ControlError(400, 'status must be 429, 500 or 503');
    this.failures.push({ ...rule, remaining: rule.times ?? 1 });
  }

  clearFailures(): void {
    this.failures = [];
    this.requestLog.clear();
  }

  query(company: Company, text: string): Json {
    const query = parseQuery(text);
    let stored = company.list(query.entity);
    const filtersActive = query.where.some((c) => c.field.toLowerCase() === 'active');
    // Names and accounts made inactive are hidden unless the query asks about Active, as in QBO.
    if (!filtersActive && ['Account', 'Vendor', 'Customer', 'Item'].includes(query.entity)) stored = stored.filter((e) => e.data.Active !== false);
    const from = query.startPosition - 1;
    let page: Json[];
    if (query.where.length === 0 && !query.orderBy && !query.count) {
      // A plain pull in Id order presents only its page.
      page = stored.slice(from, from + query.maxResults).map((e) => company.present(e));
    } else {
      let rows = stored.map((e) => company.present(e)).filter((row) => query.where.every((c) => matches(row, c)));
      if (query.count) return { QueryResponse: { totalCount: rows.length }, time: qboTime(this.now()) };
      if (query.orderBy) rows = sortBy(rows, query.orderBy.field, query.orderBy.direction);
      page = rows.slice(from, from + query.maxResults);
    }
    const shaped = query.fields ? page.map((row) => project(row, query.fields!)) : page;
    if (shaped.length === 0) return { QueryResponse: {}, time: qboTime(this.now()) };
    return { QueryResponse: { [query.entity]: shaped, startPosition: query.startPosition, maxResults: shaped.length }, time: qboTime(this.now()) };
  }

  /** Change data capture: what changed since `changedSince` (at most 30 days back), deleted entities included. */
  cdc(company: Company, entities: string | null, changedSince: string | null): Json {
    if (!entities) throw faults.required('entities');
    if (!changedSince) throw faults.required('changedSince');
    const since = new Date(changedSince);
    if (Number.isNaN(since.getTime())) throw faults.invalidProperty('changedSince', 'changedSince must be a date-time');
    if (since.getTime() < this.now().getTime() - 30 * 86_400_000) throw faults.invalidProperty('changedSince', 'changedSince can be at most 30 days ago');
    const types = entities.split(',').map((name) => {
      const type = entityTypeOf(name.trim());
      if (!type) throw faults.invalidProperty('entities', `Entity ${name} is not supported by CDC`);
      return type;
    });
    let budget = 1000;
    const responses = types.map((type) => {
      const changed = company.changedSince(type, since).slice(0, budget);
      budget -= changed.length;
      const objects = changed.map((e) => (e.deleted ? company.presentDeleted(e) : company.present(e)));
      return objects.length > 0 ? { [type]: objects, startPosition: 1, maxResults: objects.length } : {};
    });
    return { CDCResponse: [{ QueryResponse: responses }], time: qboTime(this.now()) };
  }

  /** A realm's live entities by type for tests (as the API answers them). */
  entities(realmId: string, type: EntityType): Json[] {
    const company = this.company(realmId);
    return company.list(type).map((e) => company.present(e));
  }
}

function project(row: Json, fields: string[]): Json {
  const out: Json = { Id: row.Id };
  for (const field of fields) {
    const key = Object.keys(row).find((k) => k.toLowerCase() === field.toLowerCase());
    if (key !== undefined) out[key] = row[key];
    else if (field.includes('.')) out[field] = fieldValue(row, field);
  }
  return out;
}

function token(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export { QboFault };
