import { create } from '@bufbuild/protobuf';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { AppError, ErrorKind, tenantKey, withInputRules } from '@ledgerline/platform';
import {
  FirmSchema,
  FirmService as FirmRpc,
  InviteSchema,
  MemberAccessSchema,
  MemberSchema,
  OrganizationSchema,
  type CallerProfile,
} from '@ledgerline/proto/firm/v1/firm_pb';
import type { AccessState, Caller, FirmUseCases, FirmView, InviteView, MemberView, OrganizationView } from '../usecases/index.js';

/** The caller: the user the service token names (every firm call is a signed-in user's), with the profile the gateway read from identity. */
function callerOf(ctx: HandlerContext, profile?: CallerProfile): Caller {
  const userId = ctx.values.get(tenantKey).userId;
  if (!userId) throw new AppError(ErrorKind.Unauthenticated, 'A signed-in user is required');
  return { userId, email: profile?.email, firstName: profile?.firstName, middleName: profile?.middleName, lastName: profile?.lastName };
}

const firm = (f: FirmView) => create(FirmSchema, f);
const member = (m: MemberView) => create(MemberSchema, m);
const invite = (i: InviteView) => create(InviteSchema, i);
const organization = (o: OrganizationView) => create(OrganizationSchema, o);
const access = (states: AccessState[]) => states.map((a) => create(MemberAccessSchema, a));

/** The Connect handlers: the caller, one use case, the answer. */
export function firmRoutes(useCases: FirmUseCases): (router: ConnectRouter) => void {
  return (router) => {
    router.service(
      FirmRpc,
      withInputRules(FirmRpc, {
        async updateFirm(req, ctx) {
          const r = await useCases.updateFirm(callerOf(ctx, req.caller), { firmName: req.firmName, country: req.country });
          return { message: r.message, firm: firm(r.firm), created: r.created };
        },
        async getMe(_req, ctx) {
          const r = await useCases.me(callerOf(ctx));
          return { firm: firm(r.firm), owner: member(r.owner), me: member(r.me) };
        },
        async listMembers(_req, ctx) {
          const r = await useCases.listMembers(callerOf(ctx));
          return { members: r.members.map(member), invites: r.invites.map(invite) };
        },
        async getMember(req, ctx) {
          return { message: '', member: member(await useCases.getMember(callerOf(ctx), req.id)) };
        },
        async updateMember(req, ctx) {
          const r = await useCases.updateMember(callerOf(ctx), req.id, { role: req.role });
          return { message: r.message, member: member(r.member), access: access(r.access) };
        },
        async removeMember(req, ctx) {
          const r = await useCases.removeMember(callerOf(ctx), req.id);
          return { message: r.message, access: access(r.access) };
        },
        async changeMemberAccess(req, ctx) {
          const r = await useCases.changeAccess(callerOf(ctx), req.id, { type: req.type, organizationIds: req.organizationIds });
          return { message: r.message, member: member(r.member), access: access(r.access) };
        },
        async sendInvite(req, ctx) {
          const r = await useCases.sendInvite(callerOf(ctx, req.caller), {
            email: req.email,
            role: req.role,
            firstName: req.firstName,
            middleName: req.middleName,
            lastName: req.lastName,
            organizationIds: req.organizationIds,
          });
          return { message: r.message, invite: invite(r.invite) };
        },
        async getInvite(req, ctx) {
          return { message: '', invite: invite(await useCases.getInvite(callerOf(ctx), req.id)) };
        },
        async revokeInvite(req, ctx) {
          const r = await useCases.revokeInvite(callerOf(ctx), req.id);
          return { message: r.message, invite: invite(r.invite) };
        },
        async acceptInvite(req, ctx) {
          const r = await useCases.acceptInvite(callerOf(ctx, req.caller), { token: req.token });
          return { message: r.message, firm: firm(r.firm), member: member(r.member), access: access(r.access) };
        },
        async listOrganizations(_req, ctx) {
          return { organizations: (await useCases.listOrganizations(callerOf(ctx))).map(organization) };
        },
        async addOrganization(req, ctx) {
          const r = await useCases.addOrganization(callerOf(ctx), { organizationId: req.organizationId, name: req.name });
          return { message: r.message, organization: organization(r.organization), access: access(r.access) };
        },
        async removeOrganization(req, ctx) {
          const r = await useCases.removeOrganization(callerOf(ctx), req.id);
          return { message: r.message, access: access(r.access) };
        },
        async makeDefaultOrganization(req, ctx) {
          const r = await useCases.makeDefaultOrganization(callerOf(ctx), req.id);
          return { message: r.message, organization: organization(r.organization) };
        },
        async ensureFirm(req, ctx) {
          const r = await useCases.ensureFirm(callerOf(ctx, req.caller), { firmName: req.firmName, country: req.country });
          return { firm: firm(r.firm), created: r.created };
        },
        async peekInvite(req) {
          return useCases.peekInvite({ token: req.token });
        },
      }),
    );
  };
}
