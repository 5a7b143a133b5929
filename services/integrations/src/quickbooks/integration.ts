// The workspace's QuickBooks Online connection: the authorize link (a one-time state bound to the workspace),
// the code exchange, the connection, disconnect; and fresh grants for the sync (refreshed before expiry or on a
// 401, the new refresh token stored at once; a refused refresh marks the connection reconnect-required).
import { createHash, randomBytes } from 'node:crypto';
import { AppError, ErrorKind, assertCanEdit, isUuid, newId, withTenant } from '@ledgerline/platform';
import OAuthClient from 'intuit-oauth';
import type { IntegrationsDeps, Tenant } from '../usecases/context.js';
import {
  exchangeCode,
  intuitOAuth,
  qboCall,
  quickBooksApi,
  QuickBooksCallError,
  refreshTokens,
  revokeGrant,
  type IssuedTokens,
  type QuickBooksApi,
  type QuickBooksGrant,
} from './client.js';
import { qbConnections, qbStates, type QuickBooksConnectionRow, type SealedTokens } from './store.js';
import { quickBooksSynced } from './synced-event.js';

export const QB_NOT_CONNECTED = 'No QuickBooks company is connected';
const STATE_TTL_MS = 10 * 60_000;
/** A token this close to its expiry is refreshed before use. */
const REFRESH_MARGIN_MS = 2 * 60_000;

export interface QuickBooksIntegrationView {
  id: string;
  workspaceId: string;
  realmId: string;
  companyName: string;
  connectedAt: Date;
  lastSyncedAt: Date | null;
  isReconnectRequired: boolean;
  type: 'quickbooks';
}

const view = (row: QuickBooksConnectionRow): QuickBooksIntegrationView => ({
  id: row.id,
  workspaceId: row.workspace_id,
  realmId: row.realm_id,
  companyName: row.company_name,
  connectedAt: row.connected_at,
  lastSyncedAt: row.last_synced_at,
  isReconnectRequired: row.reconnect_required,
  type: 'quickbooks',
});

const hash = (state: string) => createHash('sha256').update(state).digest('hex');

/** Input rules of the OAuth return (control characters are refused for every RPC already). */
export function connectProblems(input: { code: string; state: string; realmId: string }): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  if (input.code.trim() === '') problems.push({ field: 'code', message: 'code is required' });
  else if (input.code.length > 512) problems.push({ field: 'code', message: 'code must be at most 512 characters' });
  if (input.state.trim() === '') problems.push({ field: 'state', message: 'state is required' });
  else if (input.state.length > 200) problems.push({ field: 'state', message: 'state must be at most 200 characters' });
  if (input.realmId.trim() === '') problems.push({ field: 'realmId', message: 'realmId is required' });
  else if (!/^\d{1,32}$/.test(input.realmId)) problems.push({ field: 'realmId', message: 'realmId must be the QuickBooks company id (digits)' });
  return problems;
}

export class QuickBooksIntegration {
  constructor(private readonly deps: IntegrationsDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private seal(realmId: string, tokens: IssuedTokens): SealedTokens {
    const access = this.deps.qbCipher.seal(tokens.accessToken, `${realmId}:access`);
    const refresh = this.deps.qbCipher.seal(tokens.refreshToken, `${realmId}:refresh`);
    return {
      access_token: access.ciphertext,
      access_token_key_id: access.keyId,
      refresh_token: refresh.ciphertext,
      refresh_token_key_id: refresh.keyId,
      access_expires_at: tokens.accessExpiresAt,
      refresh_expires_at: tokens.refreshExpiresAt,
    };
  }

  private open(row: QuickBooksConnectionRow): QuickBooksGrant {
    return {
      realmId: row.realm_id,
      accessToken: this.deps.qbCipher.open({ ciphertext: row.access_token, keyId: row.access_token_key_id }, `${row.realm_id}:access`),
      refreshToken: this.deps.qbCipher.open({ ciphertext: row.refresh_token, keyId: row.refresh_token_key_id }, `${row.realm_id}:refresh`),
    };
  }

  /** Intuit's authorize URL with a fresh state (stored hashed, one use, 10 minutes). */
  async oauthLink(tenant: Tenant): Promise<{ url: string; state: string }> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const state = randomBytes(24).toString('base64url');
    await withTenant(this.deps.db, tenant, (trx) =>
      qbStates.insert(trx, {
        state_hash: hash(state),
        workspace_id: tenant.workspaceId,
        user_id: tenant.userId ?? null,
        expires_at: new Date(this.now().getTime() + STATE_TTL_MS),
      }),
    );
    const url = intuitOAuth(this.deps.config).authorizeUri({ scope: [OAuthClient.scopes.Accounting], state });
    return { url, state };
  }

  async connect(tenant: Tenant, input: { code: string; state: string; realmId: string }): Promise<QuickBooksIntegrationView> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    const problems = connectProblems(input);
    if (problems.length > 0) throw AppError.invalid(problems);
    const stateOk = await withTenant(this.deps.db, tenant, async (trx) => {
      if (await qbConnections.ofWorkspace(trx)) throw new AppError(ErrorKind.Conflict, 'A QuickBooks company is already connected; disconnect it first');
      return qbStates.consume(trx, hash(input.state), this.now());
    });
    if (!stateOk) {
      throw AppError.invalid([
        { field: 'state', message: 'The QuickBooks connection link is not this workspace\u2019s, expired or was already used; connect again' },
      ]);
    }
    let tokens: IssuedTokens;
    try {
      tokens = await exchangeCode(this.deps.config, input, this.now());
    } catch (err) {
      if (err instanceof QuickBooksCallError && err.code === 'invalid_grant') {
        throw AppError.invalid([{ field: 'code', message: 'The authorization code is invalid or was already used; connect again' }]);
      }
      throw new AppError(ErrorKind.Unavailable, 'QuickBooks could not be reached; try again', { cause: err });
    }
    const grant = { realmId: input.realmId, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    let companyName = '';
    try {
      // node-quickbooks answers a read unwrapped: the CompanyInfo entity itself.
      const info = await qboCall<{ CompanyName?: unknown }>(quickBooksApi(this.deps.config, grant), this.deps.config, 'getCompanyInfo', input.realmId);
      companyName = typeof info?.CompanyName === 'string' ? info.CompanyName.slice(0, 200) : '';
    } catch (err) {
      await revokeGrant(this.deps.config, tokens.refreshToken).catch(() => undefined);
      if (err instanceof QuickBooksCallError && (err.status === 403 || err.status === 401)) {
        throw AppError.invalid([{ field: 'realmId', message: 'realmId is not the company this authorization was given for' }]);
      }
      throw new AppError(ErrorKind.Unavailable, 'QuickBooks could not be reached; try again', { cause: err });
    }
    const row = await withTenant(this.deps.db, tenant, (trx) =>
      qbConnections.insert(trx, {
        id: newId(),
        workspace_id: tenant.workspaceId,
        realm_id: input.realmId,
        company_name: companyName,
        ...this.seal(input.realmId, tokens),
      }),
    );
    if (!row) {
      await revokeGrant(this.deps.config, tokens.refreshToken).catch(() => undefined);
      throw new AppError(ErrorKind.Conflict, 'This QuickBooks company is already connected to a workspace');
    }
    return view(row);
  }

  async integration(tenant: Tenant): Promise<QuickBooksIntegrationView> {
    const row = await withTenant(this.deps.db, tenant, (trx) => qbConnections.ofWorkspace(trx));
    if (!row) throw new AppError(ErrorKind.NotFound, QB_NOT_CONNECTED);
    return view(row);
  }

  /** Revokes the grant at Intuit (an already revoked or refused grant is fine), then forgets the connection. */
  async disconnect(tenant: Tenant, id: string): Promise<string> {
    assertCanEdit(tenant, { callsWithoutRole: 'allow' });
    if (!isUuid(id)) throw AppError.invalid([{ field: 'id', message: 'id must be a QuickBooks integration id' }]);
    const row = await withTenant(this.deps.db, tenant, (trx) => qbConnections.byId(trx, id));
    if (!row) throw new AppError(ErrorKind.NotFound, 'QuickBooks integration not found');
    try {
      await revokeGrant(this.deps.config, this.open(row).refreshToken);
    } catch (err) {
      if (!(err instanceof QuickBooksCallError && err.status >= 400 && err.status < 500)) {
        throw new AppError(ErrorKind.Unavailable, 'QuickBooks could not be reached; try again', { cause: err });
      }
    }
    await withTenant(this.deps.db, tenant, async (trx) => {
      // Nothing is tracked once the company is gone: the owners clear their qboSynced flags (entities editable again).
      const synced = await trx<{ entity_type: string; entity_id: string }>('quickbooks_entities')
        .where('connection_id', row.id)
        .andWhere('status', 'synced')
        .select('entity_type', 'entity_id');
      for (const type of new Set(synced.map((s) => s.entity_type))) {
        const ids = synced.filter((s) => s.entity_type === type).map((s) => s.entity_id);
        for (let i = 0; i < ids.length; i += 5_000) {
          await quickBooksSynced(trx, tenant.workspaceId, { entityType: type, syncedIds: [], unsyncedIds: ids.slice(i, i + 5_000), jobId: '' });
        }
      }
      await qbConnections.remove(trx, row.id);
    });
    return row.id;
  }

  /**
   * A usable grant of the workspace's company: the stored one, or refreshed (row locked, so concurrent callers
   * refresh once) when it is near expiry or `force` (after a 401). A refused refresh marks the connection
   * reconnect-required and answers FailedPrecondition.
   */
  async grant(tenant: Tenant, force = false): Promise<QuickBooksGrant> {
    const outcome = await withTenant(this.deps.db, tenant, async (trx) => {
      const row = await qbConnections.lockedOfWorkspace(trx);
      if (!row) throw new AppError(ErrorKind.NotFound, QB_NOT_CONNECTED);
      if (row.reconnect_required) return { reconnect: true as const };
      const current = this.open(row);
      const fresh = row.access_expires_at.getTime() - REFRESH_MARGIN_MS > this.now().getTime();
      if (fresh && !force) return { grant: current };
      try {
        const tokens = await refreshTokens(this.deps.config, current.refreshToken, this.now());
        await qbConnections.storeTokens(trx, row.id, this.seal(row.realm_id, tokens));
        return { grant: { realmId: row.realm_id, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken } };
      } catch (err) {
        if (err instanceof QuickBooksCallError && (err.code === 'invalid_grant' || err.status === 400 || err.status === 401)) {
          await qbConnections.reconnectRequired(trx, row.id);
          return { reconnect: true as const };
        }
        throw err;
      }
    });
    if ('reconnect' in outcome) throw new AppError(ErrorKind.FailedPrecondition, 'QuickBooks needs to be connected again');
    return outcome.grant;
  }

  /** node-quickbooks for the workspace's company, a call retried once with a refreshed token after a 401. */
  async call<T = Record<string, unknown>>(tenant: Tenant, method: string, ...args: unknown[]): Promise<T> {
    const run = (api: QuickBooksApi) => qboCall<T>(api, this.deps.config, method, ...args);
    try {
      return await run(quickBooksApi(this.deps.config, await this.grant(tenant)));
    } catch (err) {
      if (!(err instanceof QuickBooksCallError && err.authentication)) throw err;
      return run(quickBooksApi(this.deps.config, await this.grant(tenant, true)));
    }
  }
}
