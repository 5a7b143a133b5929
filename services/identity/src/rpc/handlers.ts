import { create } from '@bufbuild/protobuf';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { tenantKey } from '@ledgerline/platform';
import {
  IdentityService, OnboardingProfileSchema, UserSchema, WorkspaceSchema, type User,
} from '@ledgerline/proto/identity/v1/identity_pb';
import type { IdentityUseCases } from '../usecases/identity.js';
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
          maxTeamSize: p.maxTeamSize ?? 0, companyName: p.companyName ?? '', role: p.role ?? '', phoneNumber: p.phoneNumber ?? '',
          city: p.city ?? '', country: p.country ?? '', heardAboutUs: p.heardAboutUs ?? '',
        })
      : undefined,
  });
}

const currentWorkspace = (ctx: HandlerContext) => ctx.values.get(tenantKey).workspaceId;

/** Thin edge: map the message, call one use case, map the answer. */
export function identityRoutes(useCases: IdentityUseCases) {
  return (router: ConnectRouter) =>
    router.service(IdentityService, {
      async signUp(req) {
        return useCases.signUp(req);
      },
      async login(req) {
        const r = await useCases.login(req);
        return 'user' in r ? { user: userMessage(r.user), sessionToken: r.sessionToken } : r;
      },
      async authenticateOtp(req) {
        const r = await useCases.authenticateOtp(req);
        return { user: userMessage(r.user), sessionToken: r.sessionToken };
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
      async resolveSession(req) {
        const r = await useCases.resolve(req.sessionToken);
        return { ...r, workspaces: r.workspaces.map(workspaceMessage) };
      },
    });
}
