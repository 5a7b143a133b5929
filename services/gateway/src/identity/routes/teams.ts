import { ROLES, tenantHeaders } from '@ledgerline/platform';
import type { Invite, Member, User, WorkspaceDetail } from '@ledgerline/proto/identity/v1/identity_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, bearerToken, type Authenticator, READ } from '../../http/auth.js';
import { HttpError } from '../../http/errors.js';
import { addSchemas } from '../../http/hardening.js';
import { userJson } from '../present.js';
import { BEARER, idParams, MessageResponseSchema, ref, responses, uuid, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import { InviteSchema, MemberSchema, OrganizationSchema, UserSchema, WorkspaceDetailSchema } from '../schemas.js';
import type { FirmClient } from '../../firm/client.js';
import type { IdentityClient } from '../client.js';

/**
 * Spec platform-core §7 "Workspace and organization" and "Invites" (issue #16 items 1–3): each route calls
 * one IdentityService RPC with the bearer token and the caller's tenancy headers. Reads need a signed-in
 * member; every change takes the admin check (Owner or Admin, spec §6) here and again in identity, which
 * reads the caller's role from its own tables in the same transaction as the change.
 */

const PUBLIC = [] as const;
const TAGS = ['teams'] as const;
const MANAGE = { auth: { manage: true } };

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const ROLE = {
  type: 'string',
  enum: [...ROLES, ''],
  description: "Accountant, Admin or Viewer (Owner is refused: 'Role cannot be Owner'); empty is the default, Viewer.",
} as const;

const LABEL = { pending: 'Pending', verified: 'Active', revoked: 'Inactive' } as const;
const statusOf = (s: string): keyof typeof LABEL => (s === 'verified' || s === 'revoked' ? s : 'pending');

function workspaceDetailJson(w: WorkspaceDetail | undefined) {
  if (!w) throw new Error('identity answered without a workspace');
  return {
    id: w.id,
    name: w.name,
    address: w.address,
    email: w.email,
    bankName: w.bankName,
    accountNumber: w.accountNumber,
    bankAddress: w.bankAddress,
    accountType: w.accountType,
    maxTeamSize: w.maxTeamSize,
    memberCount: w.memberCount,
    ownerEmail: w.ownerEmail,
    isDefault: w.isDefault,
    organizationId: w.organizationId,
    role: w.role,
  };
}

function memberJson(m: Member | undefined) {
  if (!m) throw new Error('identity answered without a member');
  const status = statusOf(m.status);
  return {
    id: m.id,
    firstName: m.firstName,
    middleName: m.middleName,
    lastName: m.lastName,
    email: m.email,
    role: m.role,
    status,
    statusLabel: LABEL[status],
    joinedOn: m.joinedOn,
    type: m.type === 'invite' ? 'invite' : 'user',
    organizationCount: m.organizationCount,
    organizations: m.organizations.map((o) => ({ id: o.id, name: o.name, organizationJoinDate: o.organizationJoinDate })),
    entities: m.entities.map((e) => ({ id: e.id, name: e.name, organizationId: e.organizationId, userRole: e.userRole })),
  };
}

function inviteJson(i: Invite | undefined) {
  if (!i) throw new Error('identity answered without an invite');
  const status = statusOf(i.status);
  return {
    id: i.id,
    createdOn: i.createdOn,
    updatedOn: i.updatedOn,
    vendorUserId: i.vendorUserId,
    email: i.email,
    status,
    statusLabel: LABEL[status],
    role: i.role,
    firstName: i.firstName,
    middleName: i.middleName,
    lastName: i.lastName,
    expiryDate: i.expiryDate,
    isExpired: i.isExpired,
    workspaceIds: [...i.workspaceIds],
    invitedByEmail: i.invitedByEmail,
  };
}

const object = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });
const withMessage = (key: string, schema: unknown) => object({ message: { type: 'string' }, [key]: schema }, ['message', key]);

const inviteFields = {
  email: text(254),
  role: ROLE,
  workspaceIds: {
    type: 'array',
    items: uuid,
    maxItems: 100,
    description: 'Workspaces of the organization the invite gives access to; default: the current one.',
  },
  firstName: text(100),
  middleName: text(100),
  lastName: text(100),
} as const;

interface InviteBody {
  email?: string;
  role?: string;
  workspaceIds?: string[];
  firstName?: string;
  middleName?: string;
  lastName?: string;
  resend?: boolean;
}

export interface TeamRoutesDeps {
  identity: IdentityClient;
  /** The firm service: `/verify-invite` with `kind=firm` accepts a firm invite there. */
  firm: FirmClient;
  /** Reads an optional bearer on `/verify-invite` (an existing user accepts a firm invite signed in). */
  authenticator: Authenticator;
  codeLimit: { max: number; windowMs: number };
}

export function registerTeamRoutes(app: FastifyInstance, { identity, firm, authenticator, codeLimit }: TeamRoutesDeps): void {
  addSchemas(app, [WorkspaceDetailSchema, OrganizationSchema, MemberSchema, InviteSchema]);
  const common = { tags: TAGS, security: BEARER, headers: WORKSPACE_HEADER_SCHEMA };

  app.get(
    '/workspace',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listWorkspaces',
        summary: 'The workspaces of the current organization the caller belongs to',
        response: responses(200, object({ workspaces: { type: 'array', items: ref(WorkspaceDetailSchema) } }, ['workspaces'])),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.listWorkspaces({ sessionToken: auth.token }, { headers: auth.rpcHeaders });
      return { workspaces: r.workspaces.map(workspaceDetailJson) };
    },
  );

  app.post<{ Body: { name?: string } }>(
    '/workspace',
    {
      config: MANAGE,
      schema: {
        ...common,
        operationId: 'createWorkspace',
        summary: 'Create a workspace in the current organization (its own chart of accounts and books)',
        body: object({ name: text(100) }, []),
        response: responses(201, withMessage('workspace', ref(WorkspaceDetailSchema))),
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const r = await identity.createWorkspace({ sessionToken: auth.token, name: req.body.name }, { headers: auth.rpcHeaders });
      return reply.code(201).send({ message: r.message, workspace: workspaceDetailJson(r.workspace) });
    },
  );

  app.patch<{
    Body: {
      id?: string;
      name?: string;
      address?: string;
      email?: string;
      bankName?: string;
      accountNumber?: string;
      bankAddress?: string;
      accountType?: string;
      maxTeamSize?: number;
      isDefault?: boolean;
    };
  }>(
    '/workspace',
    {
      config: MANAGE,
      schema: {
        ...common,
        operationId: 'updateWorkspace',
        summary: "Change a workspace's details (the current one unless `id` names another)",
        body: object(
          {
            id: uuid,
            name: text(100),
            address: text(500),
            email: text(254),
            bankName: text(100),
            accountNumber: text(34),
            bankAddress: text(500),
            accountType: text(50),
            maxTeamSize: { type: 'integer', minimum: 1, maximum: 100_000 },
            isDefault: { type: 'boolean', description: "true makes it the organization's default workspace." },
          },
          [],
        ),
        response: responses(200, withMessage('workspace', ref(WorkspaceDetailSchema))),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.updateWorkspace({ sessionToken: auth.token, ...req.body }, { headers: auth.rpcHeaders });
      return { message: r.message, workspace: workspaceDetailJson(r.workspace) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/workspace/:id',
    {
      config: MANAGE,
      schema: {
        ...common,
        operationId: 'deleteWorkspace',
        summary: 'Delete a workspace (owner only; not the last one). `selectedWorkspaceId` is the one to select next if the deleted one was selected.',
        params: idParams,
        response: responses(
          200,
          object({ message: { type: 'string' }, selectedWorkspaceId: { type: 'string' }, workspaces: { type: 'array', items: ref(WorkspaceDetailSchema) } }, [
            'message',
            'selectedWorkspaceId',
            'workspaces',
          ]),
        ),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.deleteWorkspace({ sessionToken: auth.token, id: req.params.id }, { headers: auth.rpcHeaders });
      return { message: r.message, selectedWorkspaceId: r.selectedWorkspaceId, workspaces: r.workspaces.map(workspaceDetailJson) };
    },
  );

  app.get(
    '/organization',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'getOrganization',
        summary: 'The organization of the current workspace',
        response: responses(200, ref(OrganizationSchema)),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.getOrganization({ sessionToken: auth.token }, { headers: auth.rpcHeaders });
      const o = r.organization;
      if (!o) throw new Error('identity answered without an organization');
      return {
        id: o.id,
        name: o.name,
        owner: {
          id: o.owner?.id ?? '',
          email: o.owner?.email ?? '',
          firstName: o.owner?.firstName ?? '',
          middleName: o.owner?.middleName ?? '',
          lastName: o.owner?.lastName ?? '',
        },
        memberCount: o.memberCount,
        isDefault: o.isDefault,
        type: o.type === 'firm' ? 'firm' : 'business',
        workspaces: o.workspaces.map(workspaceDetailJson),
        subscription: null,
      };
    },
  );

  app.get<{ Querystring: { type?: string } }>(
    '/members',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listMembers',
        summary: "The organization's team: users with access and open invites",
        querystring: object(
          { type: { type: 'string', enum: ['user', 'invite', ''], description: 'Member type (source): user or invite; empty for both.' } },
          [],
        ),
        response: responses(200, object({ members: { type: 'array', items: ref(MemberSchema) } }, ['members'])),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.listMembers({ sessionToken: auth.token, type: req.query.type ?? '' }, { headers: auth.rpcHeaders });
      return { members: r.members.map(memberJson) };
    },
  );

  app.patch<{ Params: { id: string }; Body: { role?: string; workspaceId?: string } }>(
    '/members/:id',
    {
      config: MANAGE,
      schema: {
        ...common,
        operationId: 'updateMember',
        summary: "Set a member's role in a workspace (the current one unless `workspaceId` names another)",
        params: idParams,
        body: object({ role: ROLE, workspaceId: uuid }, []),
        response: responses(200, withMessage('member', ref(MemberSchema))),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.updateMember(
        { sessionToken: auth.token, id: req.params.id, role: req.body.role, workspaceId: req.body.workspaceId },
        { headers: auth.rpcHeaders },
      );
      return { message: r.message, member: memberJson(r.member) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/members/:id',
    {
      config: MANAGE,
      schema: {
        ...common,
        operationId: 'removeMember',
        summary: 'Remove a member from every workspace of the organization',
        params: idParams,
        response: responses(200, ref(MessageResponseSchema)),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.removeMember({ sessionToken: auth.token, id: req.params.id }, { headers: auth.rpcHeaders });
      return { message: r.message };
    },
  );

  app.get(
    '/invites',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listInvites',
        summary: "The organization's invites, newest first",
        response: responses(200, object({ invites: { type: 'array', items: ref(InviteSchema) } }, ['invites'])),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.listInvites({ sessionToken: auth.token }, { headers: auth.rpcHeaders });
      return { invites: r.invites.map(inviteJson) };
    },
  );

  app.post<{ Body: InviteBody }>(
    '/send-invite',
    {
      config: MANAGE,
      schema: {
        ...common,
        operationId: 'sendInvite',
        summary: 'Invite someone by email (role default Viewer); the link is valid 7 days, once',
        body: object(inviteFields, []),
        response: responses(201, withMessage('invite', ref(InviteSchema))),
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const b = req.body;
      const r = await identity.sendInvite(
        {
          sessionToken: auth.token,
          email: b.email,
          role: b.role,
          workspaceIds: b.workspaceIds ?? [],
          firstName: b.firstName,
          middleName: b.middleName,
          lastName: b.lastName,
        },
        { headers: auth.rpcHeaders },
      );
      return reply.code(201).send({ message: r.message, invite: inviteJson(r.invite) });
    },
  );

  app.post<{ Body: { id?: string } }>(
    '/revoke-invite',
    {
      config: MANAGE,
      schema: {
        ...common,
        operationId: 'revokeInvite',
        summary: 'Revoke an open invite: its link stops working',
        body: object({ id: uuid }, []),
        response: responses(200, withMessage('invite', ref(InviteSchema))),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.revokeInvite({ sessionToken: auth.token, id: req.body.id }, { headers: auth.rpcHeaders });
      return { message: r.message, invite: inviteJson(r.invite) };
    },
  );

  app.patch<{ Params: { id: string }; Body: InviteBody }>(
    '/invites/:id',
    {
      config: MANAGE,
      schema: {
        ...common,
        operationId: 'updateInvite',
        summary: 'Change an open invite; `resend` mails a new link valid for another 7 days (the old one stops working)',
        params: idParams,
        body: object(
          {
            role: ROLE,
            workspaceIds: inviteFields.workspaceIds,
            firstName: text(100),
            middleName: text(100),
            lastName: text(100),
            resend: { type: 'boolean' },
          },
          [],
        ),
        response: responses(200, withMessage('invite', ref(InviteSchema))),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const b = req.body;
      const r = await identity.updateInvite(
        {
          sessionToken: auth.token,
          id: req.params.id,
          role: b.role,
          workspaceIds: b.workspaceIds ?? [],
          firstName: b.firstName,
          middleName: b.middleName,
          lastName: b.lastName,
          resend: b.resend ?? false,
        },
        { headers: auth.rpcHeaders },
      );
      return { message: r.message, invite: inviteJson(r.invite) };
    },
  );

  /** The signed-in user of a public route, if its bearer is valid; a stale bearer counts as none (never a 401 here). */
  const optionalSession = async (req: FastifyRequest) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return undefined;
    try {
      return { token, session: await authenticator.resolve(token) };
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 401) return undefined;
      throw err;
    }
  };

  /**
   * A firm invite's link (`/verify-invite?token=…&kind=firm`; services/firm/README.md "Accepting a firm invite").
   * The firm checks the token first (400 'This invite link is invalid or has expired', nothing changes). A caller
   * signed in accepts as themself (the firm checks the invite names their email). Otherwise identity answers
   * password-required (a new address), sign-in-required (an address with an account), or makes the user (userType
   * firm, verified, signed in) — then the firm accepts the invite for them in one locked transaction; if it refuses
   * (a concurrent accept won, the invite was revoked meanwhile) the new session is ended and the refusal answered.
   * A crash between the two leaves a user whose retry with the same password signs in again and accepts.
   */
  const verifyFirmInvite = async (req: FastifyRequest, b: { token?: string; password?: string; confirmPassword?: string }) => {
    const peek = await firm.peekInvite({ token: b.token });
    const names = { email: peek.email, firstName: peek.firstName, middleName: peek.middleName, lastName: peek.lastName };
    const signedIn = await optionalSession(req);
    if (signedIn) {
      const headers = tenantHeaders({ userId: signedIn.session.userId });
      const { user } = await identity.getMe({ sessionToken: signedIn.token }, { headers });
      const r = await firm.acceptInvite(
        {
          token: b.token,
          caller: { email: user?.email ?? '', firstName: user?.firstName ?? '', middleName: user?.middleName ?? '', lastName: user?.lastName ?? '' },
        },
        { headers },
      );
      return { status: 'accepted' as const, message: r.message, ...names };
    }
    const c = await identity.createInvitedUser({
      inviteId: peek.inviteId,
      ...names,
      firmName: peek.firmName,
      password: b.password,
      confirmPassword: b.confirmPassword,
    });
    if (c.status !== 'created' || !c.user)
      return { status: c.status === 'sign-in-required' ? ('sign-in-required' as const) : ('password-required' as const), message: c.message, ...names };
    const headers = tenantHeaders({ userId: c.user.id });
    try {
      await firm.acceptInvite({ token: b.token, caller: names }, { headers });
    } catch (err) {
      // Not accepted: the session made for it must not outlive the refusal.
      await identity
        .logout({ sessionToken: c.sessionToken }, { headers })
        .catch((e: unknown) => req.log.warn({ err: e }, 'ending the session of a refused invite failed'));
      throw err;
    }
    return { status: 'accepted' as const, message: c.message, ...names, user: userJson(c.user), sessionToken: c.sessionToken };
  };

  app.post<{ Body: { token?: string; password?: string; confirmPassword?: string; kind?: 'workspace' | 'firm' } }>(
    '/verify-invite',
    {
      // Rate-limited per IP like the other public token routes (reset-password, codes).
      config: { rateLimit: { max: codeLimit.max, timeWindow: codeLimit.windowMs } },
      schema: {
        operationId: 'verifyInvite',
        summary:
          "Accept an invite (kind workspace, the default, or firm: the link's kind). A new user sends a password (answer: signed in, 'Your password has been set.'); without one the answer is status password-required and nothing changes. A firm invite to an address that has an account answers sign-in-required unless the request carries that account's bearer token",
        tags: TAGS,
        security: PUBLIC,
        body: object({ token: text(1024), password: text(256), confirmPassword: text(256), kind: { type: 'string', enum: ['workspace', 'firm'] } }, []),
        response: responses(
          200,
          object(
            {
              status: { type: 'string', enum: ['accepted', 'password-required', 'sign-in-required'] },
              message: { type: 'string' },
              email: { type: 'string' },
              firstName: { type: 'string' },
              middleName: { type: 'string' },
              lastName: { type: 'string' },
              user: ref(UserSchema),
              sessionToken: { type: 'string' },
            },
            ['status', 'message', 'email', 'firstName', 'middleName', 'lastName'],
          ),
        ),
      },
    },
    async (req) => {
      const b = req.body;
      if (b.kind === 'firm') return verifyFirmInvite(req, b);
      const r = await identity.verifyInvite({ token: b.token, password: b.password, confirmPassword: b.confirmPassword });
      const user: User | undefined = r.user;
      return {
        status: r.status === 'accepted' ? 'accepted' : 'password-required',
        message: r.message,
        email: r.email,
        firstName: r.firstName,
        middleName: r.middleName,
        lastName: r.lastName,
        ...(user ? { user: userJson(user), sessionToken: r.sessionToken } : {}),
      };
    },
  );
}
