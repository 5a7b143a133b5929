import { isAdminRole, isRole } from '@ledgerline/platform';
import type { MemberAccess } from '@ledgerline/proto/firm/v1/firm_pb';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf } from '../../http/auth.js';
import { HttpError } from '../../http/errors.js';
import { addSchemas } from '../../http/hardening.js';
import { userJson } from '../../identity/present.js';
import { BEARER, idParams, MessageResponseSchema, ref, responses, uuid } from '../../http/schemas.js';
import { UserSchema } from '../../identity/schemas.js';
import type { FirmClient } from '../client.js';
import { firmJson, inviteJson, memberJson, organizationJson } from '../present.js';
import { FIRM_SCHEMAS, FirmInviteSchema, FirmMemberSchema, FirmOrganizationSchema, FirmSchema, object } from '../schemas.js';
import type { IdentityClient } from '../../identity/client.js';

/**
 * Spec documents-parties-integrations §7 "Firm" (issue #16 item 4). Every route needs a signed-in user (no
 * workspace: a firm is not one); the firm service finds the caller's firm from their own membership and
 * checks the firm role (owner or admin manage; an accountant reads) in the same transaction as the change.
 *
 * Firm access opens the client organizations' workspaces (docs/decisions/0008-firm-access.md): every change
 * that moves a member's access answers their complete new access, which is handed to identity's SetFirmAccess
 * before the answer, so the member's very next request (identity resolves every one) sees it. The firm wrote
 * the same state to its outbox in the change's transaction: if this process dies between the two calls, or
 * identity refuses the call, the firm.access_changed event brings identity there.
 */

const TAGS = ['firm'] as const;
const SIGNED_IN = { auth: {} };
/** The firm service's refusal of an accountant (services/firm/src/domain/firm.ts). */
const FIRM_MANAGE_MESSAGE = 'Only a firm owner or admin can manage the firm';

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const withMessage = (key: string, schema: unknown) => object({ message: { type: 'string' }, [key]: schema }, ['message', key]);

export async function registerFirmRoutes(app: FastifyInstance, { client, identity }: { client: FirmClient; identity: IdentityClient }): Promise<void> {
  addSchemas(app, FIRM_SCHEMAS);
  const common = { tags: TAGS, security: BEARER };
  const rpc = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  /** The access states a firm change answered, to identity now (the event is the fallback, never skipped). */
  const handOver = async (req: FastifyRequest, states: readonly MemberAccess[]) => {
    for (const s of states) {
      try {
        await identity.setFirmAccess(
          {
            firmId: s.firmId,
            userId: s.userId,
            version: s.version,
            organizations: s.organizations.map((o) => ({ organizationId: o.organizationId, role: o.role })),
          },
          rpc(req),
        );
      } catch (err) {
        req.log.error(
          { err, firmId: s.firmId, userId: s.userId, version: String(s.version) },
          'firm access not handed to identity; its firm.access_changed event will bring it',
        );
      }
    }
  };
  /** The caller as identity has them now: names and email for the firm's member list and the invite check. */
  const profile = async (req: FastifyRequest) => {
    const auth = authOf(req);
    const { user } = await identity.getMe({ sessionToken: auth.token }, { headers: auth.rpcHeaders });
    return { user, caller: { email: user?.email ?? '', firstName: user?.firstName ?? '', middleName: user?.middleName ?? '', lastName: user?.lastName ?? '' } };
  };

  app.patch<{ Body: { firmName?: string; country?: string } }>(
    '/accounting-firm',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'updateAccountingFirm',
        summary: "Create the caller's firm (firmName, country; the caller becomes its owner) or change it (owner or admin)",
        body: object({ firmName: text(200), country: text(100) }, []),
        response: responses(200, object({ message: { type: 'string' }, firm: ref(FirmSchema), created: { type: 'boolean' } }, ['message', 'firm', 'created'])),
      },
    },
    async (req) => {
      const { caller } = await profile(req);
      const r = await client.updateFirm({ firmName: req.body.firmName, country: req.body.country, caller }, rpc(req));
      return { message: r.message, firm: firmJson(r.firm), created: r.created };
    },
  );

  app.get(
    '/accounting-firm/me',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'getAccountingFirmMe',
        summary: "The signed-in user, the firm's owner and the firm",
        response: responses(
          200,
          object({ user: ref(UserSchema), owner: ref(FirmMemberSchema), member: ref(FirmMemberSchema), firm: ref(FirmSchema) }, [
            'user',
            'owner',
            'member',
            'firm',
          ]),
        ),
      },
    },
    async (req) => {
      const r = await client.getMe({}, rpc(req));
      const { user } = await profile(req);
      if (!user) throw new Error('identity answered without a user');
      return { user: userJson(user), owner: memberJson(r.owner), member: memberJson(r.me), firm: firmJson(r.firm) };
    },
  );

  app.get(
    '/accounting-firm/members',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'listAccountingFirmMembers',
        summary: "The firm's members and (for owners and admins) its invites",
        response: responses(
          200,
          object({ members: { type: 'array', items: ref(FirmMemberSchema) }, invites: { type: 'array', items: ref(FirmInviteSchema) } }, [
            'members',
            'invites',
          ]),
        ),
      },
    },
    async (req) => {
      const r = await client.listMembers({}, rpc(req));
      return { members: r.members.map(memberJson), invites: r.invites.map(inviteJson) };
    },
  );

  app.get(
    '/accounting-firm/organizations',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'listAccountingFirmOrganizations',
        summary: 'The client organizations the caller may open',
        response: responses(200, object({ organizations: { type: 'array', items: ref(FirmOrganizationSchema) } }, ['organizations'])),
      },
    },
    async (req) => {
      const r = await client.listOrganizations({}, rpc(req));
      return { organizations: r.organizations.map((o) => organizationJson(req, o)) };
    },
  );

  app.post<{ Body: { email?: string; role?: string; firstName?: string; middleName?: string; lastName?: string; organizationIds?: string[] } }>(
    '/accounting-firm/invite',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'sendAccountingFirmInvite',
        summary:
          "Invite someone to the firm by email as admin or accountant (Owner is refused: 'Role cannot be Owner'), optionally with access to organizations; the mailed link works 7 days, once",
        body: object(
          {
            email: text(254),
            role: { type: 'string', maxLength: 20, description: 'admin or accountant.' },
            firstName: text(100),
            middleName: text(100),
            lastName: text(100),
            organizationIds: { type: 'array', items: uuid, maxItems: 100 },
          },
          [],
        ),
        response: responses(201, withMessage('invite', ref(FirmInviteSchema))),
      },
    },
    async (req, reply) => {
      const b = req.body;
      const { caller } = await profile(req);
      const r = await client.sendInvite(
        {
          email: b.email,
          role: b.role,
          firstName: b.firstName,
          middleName: b.middleName,
          lastName: b.lastName,
          organizationIds: b.organizationIds ?? [],
          caller,
        },
        rpc(req),
      );
      return reply.code(201).send({ message: r.message, invite: inviteJson(r.invite) });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/accounting-firm/invite/:id',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'getAccountingFirmInvite',
        summary: "One of the firm's invites (owner or admin)",
        params: idParams,
        response: responses(200, ref(FirmInviteSchema)),
      },
    },
    async (req) => inviteJson((await client.getInvite({ id: req.params.id }, rpc(req))).invite),
  );

  app.delete<{ Params: { id: string } }>(
    '/accounting-firm/invite/:id',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'revokeAccountingFirmInvite',
        summary: 'Revoke an open invite: its link stops working',
        params: idParams,
        response: responses(200, withMessage('invite', ref(FirmInviteSchema))),
      },
    },
    async (req) => {
      const r = await client.revokeInvite({ id: req.params.id }, rpc(req));
      return { message: r.message, invite: inviteJson(r.invite) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/accounting-firm/member/:id',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'getAccountingFirmMember',
        summary: 'One member of the firm',
        params: idParams,
        response: responses(200, ref(FirmMemberSchema)),
      },
    },
    async (req) => memberJson((await client.getMember({ id: req.params.id }, rpc(req))).member),
  );

  app.patch<{ Params: { id: string }; Body: { role?: string } }>(
    '/accounting-firm/member/:id',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'updateAccountingFirmMember',
        summary: "Change a member's role (admin or accountant; owner or admin only)",
        params: idParams,
        body: object({ role: { type: 'string', maxLength: 20 } }, []),
        response: responses(200, withMessage('member', ref(FirmMemberSchema))),
      },
    },
    async (req) => {
      const r = await client.updateMember({ id: req.params.id, role: req.body.role }, rpc(req));
      await handOver(req, r.access);
      return { message: r.message, member: memberJson(r.member) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/accounting-firm/member/:id',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'removeAccountingFirmMember',
        summary: 'Remove a member and all their access: their next request is refused',
        params: idParams,
        response: responses(200, ref(MessageResponseSchema)),
      },
    },
    async (req) => {
      const r = await client.removeMember({ id: req.params.id }, rpc(req));
      await handOver(req, r.access);
      return { message: r.message };
    },
  );

  app.patch<{ Params: { id: string }; Body: { type?: string; organizationIds?: string[] } }>(
    '/accounting-firm/member-access/:id',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'changeAccountingFirmMemberAccess',
        summary: 'Give an accountant access to organizations of the firm, or remove it (at least one organization id)',
        params: idParams,
        body: object(
          {
            type: { type: 'string', maxLength: 20, description: 'give-access or remove-access.' },
            organizationIds: { type: 'array', items: uuid, maxItems: 100 },
          },
          [],
        ),
        response: responses(200, withMessage('member', ref(FirmMemberSchema))),
      },
    },
    async (req) => {
      const r = await client.changeMemberAccess({ id: req.params.id, type: req.body.type, organizationIds: req.body.organizationIds ?? [] }, rpc(req));
      await handOver(req, r.access);
      return { message: r.message, member: memberJson(r.member) };
    },
  );

  app.post<{ Body: { organizationId?: string; name?: string } }>(
    '/accounting-firm/add-organization',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'addAccountingFirmOrganization',
        summary:
          'Keep a client organization: a new one (name: it is created with its first workspace and chart, owned by the caller) or one the caller is Owner or Admin of (organizationId)',
        body: object({ organizationId: uuid, name: text(100) }, []),
        response: responses(201, withMessage('organization', ref(FirmOrganizationSchema))),
      },
    },
    async (req, reply) => {
      const { organizationId, name } = req.body;
      if (organizationId === undefined) {
        if (name === undefined) throw HttpError.invalid([{ field: 'organizationId', message: 'organizationId or name is required' }]);
        // Only a firm owner or admin makes one: nothing is created in identity for a caller the firm would refuse.
        const me = (await client.getMe({}, rpc(req))).me;
        if (me?.role !== 'owner' && me?.role !== 'admin') throw new HttpError(403, 'FORBIDDEN', FIRM_MANAGE_MESSAGE);
        const auth = authOf(req);
        const made = await identity.createOrganization({ sessionToken: auth.token, name }, { headers: auth.rpcHeaders });
        const r = await client.addOrganization({ organizationId: made.organizationId, name: made.name }, rpc(req));
        await handOver(req, r.access);
        const organization = organizationJson(req, r.organization);
        return reply
          .code(201)
          .send({ message: r.message, organization: { ...organization, workspaces: [{ id: made.workspaceId, name: made.name, role: 'Owner' }] } });
      }
      const id = organizationId.toLowerCase();
      // The caller must manage the organization in identity as a member of it (access through a firm's grant does
      // not count); anything else (another tenant's) is a 404 naming the field.
      const managed = authOf(req).workspaces.find((w) => w.organizationId.toLowerCase() === id && !w.firmId && isRole(w.role) && isAdminRole(w.role));
      if (!managed) throw new HttpError(404, 'NOT_FOUND', 'Organization not found', [{ field: 'organizationId', message: 'Organization not found' }]);
      const r = await client.addOrganization({ organizationId: managed.organizationId, name: managed.organizationName }, rpc(req));
      await handOver(req, r.access);
      return reply.code(201).send({ message: r.message, organization: organizationJson(req, r.organization) });
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/accounting-firm/organization/:id',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'removeAccountingFirmOrganization',
        summary: "Stop keeping a client organization (every member's access to it goes)",
        params: idParams,
        response: responses(200, ref(MessageResponseSchema)),
      },
    },
    async (req) => {
      const r = await client.removeOrganization({ id: req.params.id }, rpc(req));
      await handOver(req, r.access);
      return { message: r.message };
    },
  );

  app.patch<{ Params: { id: string } }>(
    '/accounting-firm/make-default-org/:id',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'makeDefaultAccountingFirmOrganization',
        summary: 'Make an organization the caller may open their default',
        params: idParams,
        response: responses(200, withMessage('organization', ref(FirmOrganizationSchema))),
      },
    },
    async (req) => {
      const r = await client.makeDefaultOrganization({ id: req.params.id }, rpc(req));
      return { message: r.message, organization: organizationJson(req, r.organization) };
    },
  );

  app.post<{ Body: { token?: string } }>(
    '/accounting-firm/accept-invite/',
    {
      config: SIGNED_IN,
      schema: {
        ...common,
        operationId: 'acceptAccountingFirmInvite',
        summary: 'Accept a firm invite with the mailed token (signed in as the invited email); a used, revoked or expired token is refused',
        body: object({ token: text(1024) }, []),
        response: responses(200, object({ message: { type: 'string' }, firm: ref(FirmSchema), member: ref(FirmMemberSchema) }, ['message', 'firm', 'member'])),
      },
    },
    async (req) => {
      const { caller } = await profile(req);
      const r = await client.acceptInvite({ token: req.body.token, caller }, rpc(req));
      await handOver(req, r.access);
      return { message: r.message, firm: firmJson(r.firm), member: memberJson(r.member) };
    },
  );
}
