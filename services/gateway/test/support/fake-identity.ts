import type { AddressInfo } from 'node:net';
import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from '@connectrpc/connect';
import { AppError, createLogger, createServiceServer, DEVELOPMENT_SERVICE_TOKEN_KEY, ErrorKind, newId, tenantKey } from '@ledgerline/platform';
import { IdentityService, UserSchema, type User, type WorkspaceSchema } from '@ledgerline/proto/identity/v1/identity_pb';
import type { FastifyInstance } from 'fastify';
import { buildGateway } from '../../src/app.js';
import { gatewayConfigSchema, type GatewayConfig } from '../../src/config.js';

/**
 * A real Connect server implementing IdentityService with fixed answers, for testing the gateway's
 * own behaviour (mapping, validation, auth, roles, limits). It records every call with the tenancy
 * headers it arrived with. Tests replace single methods through `handlers`.
 */

type Impl = ServiceImpl<typeof IdentityService>;
type WorkspaceInit = MessageInitShape<typeof WorkspaceSchema>;

export interface RecordedCall {
  method: string;
  request: Record<string, unknown>;
  tenant: { workspaceId: string | null; userId: string | null; role: string | null };
}

export interface SessionFixture {
  userId: string;
  workspaces: WorkspaceInit[];
  defaultWorkspaceId: string;
}

export const ORG_ID = newId();
export const WS_OWNED = newId();
export const WS_VIEWED = newId();
export const WS_ADMIN = newId();
export const WS_FOREIGN = newId();
export const OWNER_ID = newId();
export const VIEWER_ID = newId();
export const NEWCOMER_ID = newId();

const ws = (id: string, name: string, role: string, isDefault: boolean): WorkspaceInit => ({
  id,
  name,
  organizationId: ORG_ID,
  organizationName: 'Acme',
  role,
  isDefault,
});

/** Owner of one workspace, Viewer of another, Admin of a third; the owned one is the default. */
export const OWNER_TOKEN = 'tok-owner';
/** Viewer of one workspace only. */
export const VIEWER_TOKEN = 'tok-viewer';
/** Signed up, not onboarded: no workspace yet. */
export const NEWCOMER_TOKEN = 'tok-newcomer';

export function defaultSessions(): Map<string, SessionFixture> {
  return new Map<string, SessionFixture>([
    [
      OWNER_TOKEN,
      {
        userId: OWNER_ID,
        workspaces: [ws(WS_OWNED, 'Owned', 'Owner', true), ws(WS_VIEWED, 'Viewed', 'Viewer', false), ws(WS_ADMIN, 'Administered', 'Admin', false)],
        defaultWorkspaceId: WS_OWNED,
      },
    ],
    [VIEWER_TOKEN, { userId: VIEWER_ID, workspaces: [ws(WS_VIEWED, 'Viewed', 'Viewer', true)], defaultWorkspaceId: WS_VIEWED }],
    [NEWCOMER_TOKEN, { userId: NEWCOMER_ID, workspaces: [], defaultWorkspaceId: '' }],
  ]);
}

export function sampleUser(userId = OWNER_ID, workspaces: WorkspaceInit[] = defaultSessions().get(OWNER_TOKEN)?.workspaces ?? [], current?: string): User {
  const workspace = workspaces.find((w) => w.id === current) ?? workspaces.find((w) => w.isDefault);
  return create(UserSchema, {
    id: userId,
    firstName: 'Ada',
    middleName: 'M',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    isVerified: true,
    userType: 'business',
    role: workspace?.role ?? 'Viewer',
    workspace,
    supportHash: 'hash',
    isOnboarded: workspaces.length > 0,
    workspaces,
    hasPassword: true,
    profile:
      workspaces.length > 0
        ? { maxTeamSize: 5, companyName: 'Acme', role: 'CFO', phoneNumber: '5551234567', city: 'Austin', country: 'US', heardAboutUs: 'Google' }
        : undefined,
  });
}

function expired(): AppError {
  return new AppError(ErrorKind.Unauthenticated, 'Session expired', { appErrorCode: 'SESSION_EXPIRED' });
}

export interface FakeIdentity {
  url: string;
  port: number;
  calls: RecordedCall[];
  sessions: Map<string, SessionFixture>;
  handlers: Partial<Impl>;
  callsTo(method: string): RecordedCall[];
  close(): Promise<void>;
}

const notFaked = (method: string) => (): never => {
  throw new ConnectError(`${method} is not faked`, Code.Unimplemented);
};

function defaultImpl(sessions: Map<string, SessionFixture>): Impl {
  const sessionOf = (token: string | undefined) => {
    const s = token ? sessions.get(token) : undefined;
    if (!s) throw expired();
    return s;
  };
  const userOf = (token: string, ctx: HandlerContext) => {
    const s = sessionOf(token);
    return sampleUser(s.userId, s.workspaces, ctx.values.get(tenantKey).workspaceId);
  };
  return {
    signUp(req) {
      if (req.email === undefined || req.email === '') throw AppError.invalid([{ field: 'email', message: 'Email cannot be empty' }]);
      return { sessionToken: 'st-signup', methodId: 'method-1', message: 'We sent a code to your email' };
    },
    login(req) {
      if (req.email === undefined) throw AppError.invalid([{ field: 'email', message: 'Email cannot be empty' }]);
      if (req.email === 'code@example.com') return { sessionToken: 'st-pending', methodId: 'method-2', message: 'We sent a code to your email' };
      return { user: sampleUser(), sessionToken: OWNER_TOKEN };
    },
    authenticateOtp() {
      return { user: sampleUser(), sessionToken: OWNER_TOKEN };
    },
    resendOtp() {
      return { methodId: 'method-3', message: 'We sent a new code' };
    },
    loginOauth() {
      return { user: sampleUser(), sessionToken: OWNER_TOKEN, userCreated: false };
    },
    signupOauth() {
      return { user: sampleUser(NEWCOMER_ID, []), sessionToken: NEWCOMER_TOKEN, userCreated: true };
    },
    forgotPassword() {
      return { message: 'If the email is known, a reset link was sent' };
    },
    resetPassword() {
      return { user: sampleUser(), sessionToken: 'tok-after-reset', message: 'Your password has been reset.' };
    },
    updateCredentials(req, ctx) {
      return { user: userOf(req.sessionToken, ctx), message: 'Your password has been set.' };
    },
    updatePasswordByExistingPassword(req) {
      sessionOf(req.sessionToken);
      return { message: 'Password updated', endedSessions: req.endOtherSessions ? 2 : 0 };
    },
    logout(req) {
      sessionOf(req.sessionToken);
      sessions.delete(req.sessionToken);
      return { message: 'Logged out' };
    },
    onboardUser(req, ctx) {
      return { user: userOf(req.sessionToken, ctx) };
    },
    getMe(req, ctx) {
      return { user: userOf(req.sessionToken, ctx) };
    },
    updateMe(req, ctx) {
      const user = userOf(req.sessionToken, ctx);
      return {
        user: { ...user, firstName: req.firstName ?? user.firstName, middleName: req.middleName ?? user.middleName, lastName: req.lastName ?? user.lastName },
      };
    },
    getSecuritySettings(req) {
      sessionOf(req.sessionToken);
      return { settings: { requireCodeAlways: false, trustedDevices: 0 } };
    },
    updateSecuritySettings(req) {
      sessionOf(req.sessionToken);
      return { settings: { requireCodeAlways: req.requireCodeAlways ?? false, trustedDevices: 0 } };
    },
    resolveSession(req) {
      const s = sessionOf(req.sessionToken);
      return {
        userId: s.userId,
        sessionId: `session-of-${s.userId}`,
        isOnboarded: s.workspaces.length > 0,
        userType: 'business',
        workspaces: s.workspaces,
        defaultWorkspaceId: s.defaultWorkspaceId,
      };
    },
    // The team calls are tested against the real identity (tests/api/teams-*.test.ts); a test here sets `handlers`.
    listWorkspaces: notFaked('listWorkspaces'),
    createWorkspace: notFaked('createWorkspace'),
    updateWorkspace: notFaked('updateWorkspace'),
    deleteWorkspace: notFaked('deleteWorkspace'),
    getOrganization: notFaked('getOrganization'),
    listMembers: notFaked('listMembers'),
    updateMember: notFaked('updateMember'),
    removeMember: notFaked('removeMember'),
    listInvites: notFaked('listInvites'),
    sendInvite: notFaked('sendInvite'),
    revokeInvite: notFaked('revokeInvite'),
    updateInvite: notFaked('updateInvite'),
    verifyInvite: notFaked('verifyInvite'),
    createOrganization: notFaked('createOrganization'),
    setFirmAccess: notFaked('setFirmAccess'),
    createInvitedUser: notFaked('createInvitedUser'),
  };
}

/** Starts the fake on `port` (0: any free port). */
export async function startFakeIdentity(port = 0, sessions = defaultSessions()): Promise<FakeIdentity> {
  const calls: RecordedCall[] = [];
  const handlers: Partial<Impl> = {};
  const base = defaultImpl(sessions);
  const impl = {} as Record<string, unknown>;
  for (const name of Object.keys(base) as (keyof Impl)[]) {
    impl[name] = (req: Record<string, unknown>, ctx: HandlerContext) => {
      calls.push({
        method: name,
        request: { ...req },
        tenant: {
          workspaceId: ctx.values.get(tenantKey).workspaceId ?? null,
          userId: ctx.values.get(tenantKey).userId ?? null,
          role: ctx.values.get(tenantKey).role ?? null,
        },
      });
      const fn = (handlers[name] ?? base[name]) as (r: unknown, c: HandlerContext) => unknown;
      return fn(req, ctx);
    };
  }
  const server = await createServiceServer({
    name: 'identity',
    tokenKey: DEVELOPMENT_SERVICE_TOKEN_KEY,
    logger: createLogger('identity-fake', 'silent'),
    routes: (router) => router.service(IdentityService, impl as Impl),
  });
  await server.listen({ port, host: '127.0.0.1' });
  const actualPort = (server.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    calls,
    sessions,
    handlers,
    callsTo: (method) => calls.filter((c) => c.method === method),
    close: () => server.close(),
  };
}

/** Config for a gateway in front of `identityUrl`; generous limits unless a test sets them. */
export function testConfig(identityUrl: string, env: Record<string, string> = {}): GatewayConfig {
  return gatewayConfigSchema.parse({
    LOG_LEVEL: 'silent',
    IDENTITY_URL: identityUrl,
    RATE_LIMIT_GLOBAL_MAX: '100000',
    RATE_LIMIT_LOGIN_MAX: '100000',
    RATE_LIMIT_CODE_MAX: '100000',
    ...env,
  });
}

export async function startGateway(identityUrl: string, env: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildGateway({ config: testConfig(identityUrl, env), redis: null });
}

export const bearer = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
