import { create } from '@bufbuild/protobuf';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { tenantKey, withInputRules } from '@ledgerline/platform';
import { IdentityService, OnboardingProfileSchema, UserSchema, WorkspaceSchema, type User } from '@ledgerline/proto/identity/v1/identity_pb';
import type { FirmAccessUseCases } from '../usecases/firm-access.js';
import type { IdentityUseCases } from '../usecases/identity.js';
import type { TeamUseCases } from '../usecases/teams.js';
import type { UserView, WorkspaceView } from '../usecases/views.js';

function workspaceMessage(w: WorkspaceView) {
  return create(WorkspaceSchema, w);
}

export function userMessage(u: UserView): User {
  const p = u.profile;
  return create(UserSchema, {
    ...u,
    workspace: u.workspace ? workspaceMessage(u.workspace) : undefined,
    workspaces: u.workspaces.map(workspaceMessage),
    profile: p
      ? create(OnboardingProfileSchema, {
          maxTeamSize: p.maxTeamSize ?? 0,
          companyName: p.companyName ?? '',
          role: p.role ?? '',
          phoneNumber: p.phoneNumber ?? '',
          city: p.city ?? '',
          country: p.country ?? '',
          heardAboutUs: p.heardAboutUs ?? '',
          firmName: p.firmName ?? '',
        })
      : undefined,
  });
}

const currentWorkspace = (ctx: HandlerContext) => ctx.values.get(tenantKey).workspaceId;

/** Thin edge: map the message, call one use case, map the answer. */
export function identityRoutes(useCases: IdentityUseCases, teams: TeamUseCases, firmAccess: FirmAccessUseCases) {
  return (router: ConnectRouter) =>
    router.service(
      IdentityService,
      withInputRules(IdentityService, {
        async signUp(req) {
          return useCases.signUp(req);
        },
        async login(req) {
          const r = await useCases.login(req);
          return 'user' in r ? { user: userMessage(r.user), sessionToken: r.sessionToken } : r;
        },
        async authenticateOtp(req) {
          const r = await useCases.authenticateOtp(req);
          return { user: userMessage(r.user), sessionToken: r.sessionToken, deviceToken: r.deviceToken };
        },
        async resendOtp(req) {
          return useCases.resendOtp(req);
        },
        async loginOauth(req) {
          const r = await useCases.oauth(req);
          return { ...r, user: userMessage(r.user) };
        },
        async signupOauth(req) {
          const r = await useCases.oauth(req);
          return { ...r, user: userMessage(r.user) };
        },
        async forgotPassword(req) {
          return useCases.forgotPassword(req);
        },
        async resetPassword(req) {
          const r = await useCases.resetPassword(req);
          return { ...r, user: userMessage(r.user) };
        },
        async updateCredentials(req) {
          const r = await useCases.updateCredentials(req.sessionToken, req);
          return { ...r, user: userMessage(r.user) };
        },
        async updatePasswordByExistingPassword(req) {
          return useCases.updatePassword(req.sessionToken, req);
        },
        async logout(req) {
          return useCases.logout(req.sessionToken);
        },
        async onboardUser(req) {
          return { user: userMessage(await useCases.onboard(req.sessionToken, req)) };
        },
        async getMe(req, ctx) {
          return { user: userMessage(await useCases.me(req.sessionToken, currentWorkspace(ctx))) };
        },
        async updateMe(req, ctx) {
          return { user: userMessage(await useCases.updateMe(req.sessionToken, req, currentWorkspace(ctx))) };
        },
        async getSecuritySettings(req) {
          return { settings: await useCases.securitySettings(req.sessionToken) };
        },
        async updateSecuritySettings(req) {
          return { settings: await useCases.updateSecuritySettings(req.sessionToken, req) };
        },
        async resolveSession(req) {
          const r = await useCases.resolve(req.sessionToken);
          return { ...r, workspaces: r.workspaces.map(workspaceMessage) };
        },
        async listWorkspaces(req, ctx) {
          return { workspaces: await teams.listWorkspaces(req.sessionToken, currentWorkspace(ctx)) };
        },
        async createOrganization(req) {
          return teams.createOrganization(req.sessionToken, req);
        },
        async createWorkspace(req, ctx) {
          return teams.createWorkspace(req.sessionToken, req, currentWorkspace(ctx));
        },
        async updateWorkspace(req, ctx) {
          return teams.updateWorkspace(req.sessionToken, req, currentWorkspace(ctx));
        },
        async deleteWorkspace(req, ctx) {
          return teams.deleteWorkspace(req.sessionToken, req.id, currentWorkspace(ctx));
        },
        async getOrganization(req, ctx) {
          return { organization: await teams.organization(req.sessionToken, currentWorkspace(ctx)) };
        },
        async listMembers(req, ctx) {
          return { members: await teams.listMembers(req.sessionToken, req.type, currentWorkspace(ctx)) };
        },
        async updateMember(req, ctx) {
          return teams.updateMember(req.sessionToken, req.id, req, currentWorkspace(ctx));
        },
        async removeMember(req, ctx) {
          return teams.removeMember(req.sessionToken, req.id, currentWorkspace(ctx));
        },
        async listInvites(req, ctx) {
          return { invites: await teams.listInvites(req.sessionToken, currentWorkspace(ctx)) };
        },
        async sendInvite(req, ctx) {
          return teams.sendInvite(req.sessionToken, req, currentWorkspace(ctx));
        },
        async revokeInvite(req, ctx) {
          return teams.revokeInvite(req.sessionToken, req.id, currentWorkspace(ctx));
        },
        async updateInvite(req, ctx) {
          return teams.updateInvite(req.sessionToken, req.id, req, currentWorkspace(ctx));
        },
        async verifyInvite(req) {
          const r = await teams.verifyInvite(req);
          return 'user' in r && r.user ? { ...r, user: userMessage(r.user) } : { ...r, user: undefined };
        },
        async setFirmAccess(req) {
          return firmAccess.set({ firmId: req.firmId, userId: req.userId, version: req.version, organizations: req.organizations });
        },
        async createInvitedUser(req) {
          const r = await teams.createInvitedUser(req);
          return { status: r.status, message: r.message, user: r.user ? userMessage(r.user) : undefined, sessionToken: r.sessionToken ?? '' };
        },
      }),
    );
}
