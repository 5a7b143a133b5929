import { Code, ConnectError } from '@connectrpc/connect';
import {
  hasRoleAtLeast,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_MSG,
  IDEMPOTENCY_REST_HEADER,
  isAdminRole,
  isRole,
  isUuid,
  tenantHeaders,
  type Role,
} from '@ledgerline/platform';
import type { Workspace } from '@ledgerline/proto/identity/v1/identity_pb';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { HttpError } from './errors.js';
import type { IdentityClient } from '../identity/client.js';

export const WORKSPACE_HEADER = 'x-workspace-id';

/**
 * What a route asks of its caller, declared as `config: { auth: { ... } }`. A route without `auth` is
 * public. `{}` means any signed-in user; `minRole` adds the spec §6 edit ranking check in the current
 * workspace (Owner > Accountant > Admin > Viewer) and implies `workspace: 'required'`.
 */
export interface RouteAuth {
  minRole?: Role;
  /**
   * Team management (members, invites, workspaces): spec §6's admin check, true for Owner and Admin. A
   * Viewer is refused with the Viewer's message, an Accountant with MANAGE_MESSAGE. Implies `workspace: 'required'`.
   */
  manage?: boolean;
  /** 'optional' (default): the header's workspace, else the default one, else none (not onboarded yet). */
  workspace?: 'optional' | 'required';
}

/** The refusal of the admin check (spec §6 names no wording for it). */
export const MANAGE_MESSAGE = 'Only an Owner or Admin can manage the team';

/** A bearer token resolved by identity. */
export interface ResolvedSession {
  userId: string;
  sessionId: string;
  userType: string;
  isOnboarded: boolean;
  workspaces: Workspace[];
  defaultWorkspaceId: string;
}

/** The caller of an authenticated route, set on `req.auth` before the handler runs. */
export interface AuthContext {
  /** The bearer token: identity's RPCs take it as `sessionToken`. */
  token: string;
  userId: string;
  sessionId: string;
  userType: string;
  isOnboarded: boolean;
  workspaces: Workspace[];
  /** The current workspace: the `x-workspace-id` one, else the user's default; null when they have none. */
  workspace: Workspace | null;
  role: Role | null;
  /** Tenancy headers for every downstream RPC (platform `tenantHeaders`). */
  rpcHeaders: Record<string, string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** Codes with which identity refuses a token: all mean "sign in again". */
const REFUSED = new Set([Code.Unauthenticated, Code.NotFound, Code.InvalidArgument, Code.PermissionDenied]);

const BEARER = /^Bearer[ \t]+([^\s]{1,1024})[ \t]*$/i;

export function bearerToken(header: string | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined;
}

function pickWorkspace(session: ResolvedSession, requested: string | string[] | undefined): Workspace | null {
  const raw = Array.isArray(requested) ? requested.join(',') : requested?.trim();
  if (raw) {
    if (!isUuid(raw)) throw HttpError.invalid([{ field: WORKSPACE_HEADER, message: `${WORKSPACE_HEADER} must be a UUID` }]);
    const id = raw.toLowerCase();
    const found = session.workspaces.find((w) => w.id.toLowerCase() === id);
    // Not a member (or no such workspace): the same answer, so ids of other tenants stay unknowable. It names the
    // header, so a client tells "the workspace you act in is no longer yours" from a record not found.
    if (!found) throw new HttpError(404, 'NOT_FOUND', 'Workspace not found', [{ field: WORKSPACE_HEADER, message: 'Workspace not found' }]);
    return found;
  }
  return session.workspaces.find((w) => w.id === session.defaultWorkspaceId) ?? session.workspaces.find((w) => w.isDefault) ?? session.workspaces[0] ?? null;
}

/**
 * Resolves bearer tokens through IdentityService.ResolveSession and checks each route's `config.auth`:
 * token, workspace, role. One hook does all three.
 *
 * Authorisation is never cached (issue #15 item 5, issue #16): every request asks identity for the
 * session and the memberships as they are in its database at that moment, so a removed or downgraded
 * member's very next request, on any replica, is refused; no invalidation message can arrive late. The
 * cost is one ResolveSession per request (a session and a memberships lookup by index); the gateway's
 * former 3 s session cache is gone.
 */
export class Authenticator {
  constructor(private readonly identity: IdentityClient) {}

  /** The session of a token, as identity has it now (no cache); `HttpError.sessionExpired()` when identity refuses it. */
  async resolve(token: string): Promise<ResolvedSession> {
    try {
      const r = await this.identity.resolveSession({ sessionToken: token });
      if (!r.userId) throw HttpError.sessionExpired();
      return {
        userId: r.userId,
        sessionId: r.sessionId,
        userType: r.userType,
        isOnboarded: r.isOnboarded,
        workspaces: r.workspaces,
        defaultWorkspaceId: r.defaultWorkspaceId,
      };
    } catch (err) {
      // Identity being down or slow is a 503 (by the error mapping), never a 401: a 401 logs the user out.
      if (err instanceof ConnectError && REFUSED.has(err.code)) throw HttpError.sessionExpired();
      throw err;
    }
  }

  /**
   * Kept for the routes that end sessions (logout, password change): nothing is cached, so identity's
   * revocation already applies to the next request on every replica.
   */
  evict(_token: string): void {}

  /** As `evict`, for every session of a user. */
  evictUser(_userId: string): void {}

  /** The check, as a route onRequest hook: runs after the rate limiter and before the body is read. */
  readonly hook: onRequestHookHandler = async (req) => {
    const rule = req.routeOptions.config.auth;
    if (!rule) return;
    const token = bearerToken(req.headers.authorization);
    if (!token) throw HttpError.sessionExpired();
    const session = await this.resolve(token);
    const workspace = pickWorkspace(session, req.headers[WORKSPACE_HEADER]);
    if (!workspace && (rule.minRole || rule.manage || rule.workspace === 'required')) {
      throw HttpError.invalid([{ field: WORKSPACE_HEADER, message: 'A workspace is required' }]);
    }
    const role = workspace && isRole(workspace.role) ? workspace.role : null;
    if (rule.minRole && (!role || !hasRoleAtLeast(role, rule.minRole))) throw HttpError.forbidden();
    if (rule.manage && (!role || role === 'Viewer')) throw HttpError.forbidden();
    if (rule.manage && role && !isAdminRole(role)) throw new HttpError(403, 'FORBIDDEN', MANAGE_MESSAGE);
    const idempotencyKey = req.headers[IDEMPOTENCY_REST_HEADER];
    if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey))) {
      throw HttpError.invalid([{ field: 'Idempotency-Key', message: IDEMPOTENCY_MSG.invalid }]);
    }
    req.auth = {
      token,
      userId: session.userId,
      sessionId: session.sessionId,
      userType: session.userType,
      isOnboarded: session.isOnboarded,
      workspaces: session.workspaces,
      workspace,
      role,
      // A client's Idempotency-Key travels with the call; a service that honours it claims it with its write.
      rpcHeaders: {
        ...tenantHeaders({ workspaceId: workspace?.id, userId: session.userId, role: role ?? undefined }),
        ...(idempotencyKey ? { [IDEMPOTENCY_HEADER]: idempotencyKey } : {}),
      },
    };
  };

  /**
   * Attaches the hook to every route declaring `config.auth`, including routes added later (tests add
   * one). Register after the rate limiter so its hook runs first: floods never reach identity.
   */
  install(app: FastifyInstance): void {
    app.decorateRequest('auth', null);
    app.addHook('onRoute', (route) => {
      if (!route.config?.auth) return;
      const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
      route.onRequest = [...existing, this.hook];
    });
  }
}

/** The caller of an authenticated route (set by the hook; its absence is a bug in the route table). */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw new Error(`route ${req.routeOptions.url ?? '?'} has no config.auth`);
  return req.auth;
}

/** The route config of a read: any member of the current workspace (a Viewer too). */
export const READ = { auth: { workspace: 'required' as const } };

/** The route config of a change to the books: the spec §6 edit ranking (a Viewer is refused with the spec message). */
export const WRITE = { auth: { minRole: 'Admin' as const } };
