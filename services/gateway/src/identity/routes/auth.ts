import { tenantHeaders } from '@ledgerline/platform';
import type { User } from '@ledgerline/proto/identity/v1/identity_pb';
import type { FastifyInstance } from 'fastify';
import { authOf, type Authenticator } from '../../http/auth.js';
import { userJson } from '../present.js';
import { MessageResponseSchema, ref, responses, WORKSPACE_HEADER_SCHEMA, type BodyOf, BEARER } from '../../http/schemas.js';
import {
  AuthenticateOtpBodySchema,
  ForgotPasswordBodySchema,
  LoginBodySchema,
  LoginResponseSchema,
  OauthBodySchema,
  OauthResponseSchema,
  OnboardBodySchema,
  ResendOtpBodySchema,
  ResendOtpResponseSchema,
  ResetPasswordBodySchema,
  ResetPasswordResponseSchema,
  SessionResponseSchema,
  SignUpBodySchema,
  SignUpResponseSchema,
  UpdateCredentialsBodySchema,
  UpdateMeBodySchema,
  UpdatePasswordBodySchema,
  UserSchema,
} from '../schemas.js';
import type { FirmClient } from '../../firm/client.js';
import type { IdentityClient } from '../client.js';

export interface AuthRoutesDeps {
  identity: IdentityClient;
  /** The firm service: a firm sign-up's firm is ensured when its owner signs in. */
  firm: FirmClient;
  authenticator: Authenticator;
  /** Per client IP and route, per window (RELIABILITY promise 18). */
  limits: { login: number; code: number; windowMs: number };
}

const PUBLIC = [] as const;
const TAGS_AUTH = ['auth'] as const;
const TAGS_USERS = ['users'] as const;

/**
 * Spec §7 "Auth": every path calls the IdentityService RPC of the same name. Public routes are
 * rate-limited per IP and route; authenticated ones pass the bearer token as `sessionToken` and the
 * tenancy headers of the caller.
 */
export function registerAuthRoutes(app: FastifyInstance, { identity, firm, authenticator, limits }: AuthRoutesDeps): void {
  /**
   * A user who signed up as a firm owns a firm from their first sign-in on (services/firm/README.md "Sign-up as a
   * firm"): identity keeps the firm name and country they signed up with; at every sign-in (code step, login, Google
   * sign-in, password reset) the firm service is asked
   * to ensure the firm, keyed by the user's id (nothing changes when it exists). A crash between the two services
   * loses nothing: the next sign-in ensures it again. The sign-in answer waits for it, so a signed-in firm owner has
   * their firm; if the firm service is down, the sign-in fails (503) rather than leave them without one.
   */
  const ensureOwnFirm = async (user: User | undefined) => {
    const p = user?.profile;
    if (!user || user.userType !== 'firm' || !p?.firmName) return;
    await firm.ensureFirm(
      {
        firmName: p.firmName,
        country: p.country,
        caller: { email: user.email, firstName: user.firstName, middleName: user.middleName, lastName: user.lastName },
      },
      { headers: tenantHeaders({ userId: user.id }) },
    );
  };
  const loginLimit = { rateLimit: { max: limits.login, timeWindow: limits.windowMs } };
  const codeLimit = { rateLimit: { max: limits.code, timeWindow: limits.windowMs } };

  app.post<{ Body: BodyOf<typeof SignUpBodySchema> }>(
    '/signup',
    {
      config: codeLimit,
      schema: {
        operationId: 'signup',
        summary: 'Create an account; a 6-digit code is emailed',
        tags: TAGS_AUTH,
        security: PUBLIC,
        body: ref(SignUpBodySchema),
        response: responses(201, ref(SignUpResponseSchema)),
      },
    },
    async (req, reply) => {
      const b = req.body;
      const r = await identity.signUp({
        firstName: b.firstName,
        middleName: b.middleName,
        lastName: b.lastName,
        companyName: b.companyName,
        maxTeamSize: b.maxTeamSize,
        email: b.email,
        password: b.password,
        userType: b.userType,
        firmName: b.firmName,
        country: b.country,
      });
      return reply.code(201).send({ sessionToken: r.sessionToken, methodId: r.methodId, message: r.message });
    },
  );

  app.post<{ Body: BodyOf<typeof LoginBodySchema> }>(
    '/login',
    {
      config: loginLimit,
      schema: {
        operationId: 'login',
        summary: 'Sign in with email and password',
        tags: TAGS_AUTH,
        security: PUBLIC,
        body: ref(LoginBodySchema),
        response: responses(200, ref(LoginResponseSchema)),
      },
    },
    async (req) => {
      const r = await identity.login({ email: req.body.email, password: req.body.password, deviceToken: req.body.deviceToken });
      await ensureOwnFirm(r.user);
      if (r.user) return { user: userJson(r.user), sessionToken: r.sessionToken };
      return { sessionToken: r.sessionToken, methodId: r.methodId, message: r.message };
    },
  );

  app.post<{ Body: BodyOf<typeof AuthenticateOtpBodySchema> }>(
    '/authenticate-otp',
    {
      config: codeLimit,
      schema: {
        operationId: 'authenticateOtp',
        summary: 'Check the one-time code of a login or sign-up',
        tags: TAGS_AUTH,
        security: PUBLIC,
        body: ref(AuthenticateOtpBodySchema),
        response: responses(200, ref(SessionResponseSchema)),
      },
    },
    async (req) => {
      const b = req.body;
      const r = await identity.authenticateOtp({ methodId: b.methodId, code: b.code, sessionToken: b.sessionToken, deviceToken: b.deviceToken });
      await ensureOwnFirm(r.user);
      return { user: userJson(r.user), sessionToken: r.sessionToken, ...(r.deviceToken ? { deviceToken: r.deviceToken } : {}) };
    },
  );

  app.post<{ Body: BodyOf<typeof ResendOtpBodySchema> }>(
    '/resend-otp',
    {
      config: codeLimit,
      schema: {
        operationId: 'resendOtp',
        summary: 'Send a new one-time code',
        tags: TAGS_AUTH,
        security: PUBLIC,
        body: ref(ResendOtpBodySchema),
        response: responses(200, ref(ResendOtpResponseSchema)),
      },
    },
    async (req) => {
      const r = await identity.resendOtp({ email: req.body.email, sessionToken: req.body.sessionToken });
      return { methodId: r.methodId, message: r.message };
    },
  );

  app.post<{ Body: BodyOf<typeof OauthBodySchema> }>(
    '/login-oauth',
    {
      config: loginLimit,
      schema: {
        operationId: 'loginOauth',
        summary: 'Sign in with a third-party token',
        tags: TAGS_AUTH,
        security: PUBLIC,
        body: ref(OauthBodySchema),
        response: responses(200, ref(OauthResponseSchema)),
      },
    },
    async (req) => {
      const r = await identity.loginOauth({ token: req.body.token });
      await ensureOwnFirm(r.user);
      return { user: userJson(r.user), sessionToken: r.sessionToken, userCreated: r.userCreated };
    },
  );

  app.post<{ Body: BodyOf<typeof OauthBodySchema> }>(
    '/signup-oauth',
    {
      config: loginLimit,
      schema: {
        operationId: 'signupOauth',
        summary: 'Sign up with a third-party token',
        tags: TAGS_AUTH,
        security: PUBLIC,
        body: ref(OauthBodySchema),
        response: responses(200, ref(OauthResponseSchema)),
      },
    },
    async (req) => {
      const b = req.body;
      const r = await identity.signupOauth({ token: b.token, companyName: b.companyName, maxTeamSize: b.maxTeamSize });
      await ensureOwnFirm(r.user);
      return { user: userJson(r.user), sessionToken: r.sessionToken, userCreated: r.userCreated };
    },
  );

  app.post<{ Body: BodyOf<typeof ForgotPasswordBodySchema> }>(
    '/forgot-password',
    {
      config: codeLimit,
      schema: {
        operationId: 'forgotPassword',
        summary: 'Email a password reset link',
        tags: TAGS_AUTH,
        security: PUBLIC,
        body: ref(ForgotPasswordBodySchema),
        response: responses(200, ref(MessageResponseSchema)),
      },
    },
    async (req) => {
      const r = await identity.forgotPassword({ email: req.body.email });
      return { message: r.message };
    },
  );

  app.post<{ Body: BodyOf<typeof ResetPasswordBodySchema> }>(
    '/reset-password',
    {
      config: codeLimit,
      schema: {
        operationId: 'resetPassword',
        summary: 'Set a new password with a reset token; ends every other session',
        tags: TAGS_AUTH,
        security: PUBLIC,
        body: ref(ResetPasswordBodySchema),
        response: responses(200, ref(ResetPasswordResponseSchema)),
      },
    },
    async (req) => {
      const b = req.body;
      const r = await identity.resetPassword({ token: b.token, password: b.password, confirmPassword: b.confirmPassword });
      await ensureOwnFirm(r.user);
      const user = userJson(r.user);
      // Identity ended the user's other sessions: stop honouring them here at once.
      authenticator.evictUser(user.id);
      return { user, sessionToken: r.sessionToken, message: r.message };
    },
  );

  app.post<{ Body: BodyOf<typeof UpdateCredentialsBodySchema> }>(
    '/update-credentials',
    {
      config: { auth: {} },
      schema: {
        operationId: 'updateCredentials',
        summary: 'Set a password (e.g. after an invite) and names',
        tags: TAGS_AUTH,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        body: ref(UpdateCredentialsBodySchema),
        response: responses(200, {
          type: 'object',
          properties: { user: ref(UserSchema), message: { type: 'string' } },
          required: ['user', 'message'],
          additionalProperties: false,
        }),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const b = req.body;
      const r = await identity.updateCredentials(
        {
          sessionToken: auth.token,
          password: b.password,
          confirmPassword: b.confirmPassword,
          firstName: b.firstName,
          middleName: b.middleName,
          lastName: b.lastName,
        },
        { headers: auth.rpcHeaders },
      );
      if (b.password !== undefined) authenticator.evict(auth.token);
      return { user: userJson(r.user), message: r.message };
    },
  );

  app.post<{ Body: BodyOf<typeof UpdatePasswordBodySchema> }>(
    '/update-password-by-existing-password',
    {
      config: { auth: {} },
      schema: {
        operationId: 'updatePasswordByExistingPassword',
        summary: 'Change the password; optionally end every other session',
        tags: TAGS_AUTH,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        body: ref(UpdatePasswordBodySchema),
        response: responses(200, {
          type: 'object',
          properties: { message: { type: 'string' }, endedSessions: { type: 'integer' } },
          required: ['message', 'endedSessions'],
          additionalProperties: false,
        }),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const b = req.body;
      const r = await identity.updatePasswordByExistingPassword(
        { sessionToken: auth.token, existingPassword: b.existingPassword, newPassword: b.newPassword, endOtherSessions: b.endOtherSessions ?? false },
        { headers: auth.rpcHeaders },
      );
      if (r.endedSessions > 0) authenticator.evictUser(auth.userId);
      else authenticator.evict(auth.token);
      return { message: r.message, endedSessions: r.endedSessions };
    },
  );

  app.post(
    '/logout',
    {
      config: { auth: {} },
      schema: {
        operationId: 'logout',
        summary: 'End this session',
        tags: TAGS_AUTH,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        response: responses(200, ref(MessageResponseSchema)),
      },
    },
    async (req) => {
      const auth = authOf(req);
      // Forget the token before identity ends it, so no request on this replica can use it after.
      authenticator.evict(auth.token);
      const r = await identity.logout({ sessionToken: auth.token }, { headers: auth.rpcHeaders });
      return { message: r.message };
    },
  );

  app.post<{ Body: BodyOf<typeof OnboardBodySchema> }>(
    '/onboard-user',
    {
      config: { auth: {} },
      schema: {
        operationId: 'onboardUser',
        summary: 'Complete onboarding',
        tags: TAGS_AUTH,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        body: ref(OnboardBodySchema),
        response: responses(200, { type: 'object', properties: { user: ref(UserSchema) }, required: ['user'], additionalProperties: false }),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const b = req.body;
      const r = await identity.onboardUser(
        {
          sessionToken: auth.token,
          maxTeamSize: b.maxTeamSize,
          companyName: b.companyName,
          role: b.role,
          phoneNumber: b.phoneNumber,
          city: b.city,
          country: b.country,
          heardAboutUs: b.heardAboutUs,
        },
        { headers: auth.rpcHeaders },
      );
      // Onboarding creates the user's organization and workspace: resolve the token afresh next time.
      authenticator.evict(auth.token);
      // A firm owner's company is their firm (as in QuickBooks Online Accountant and Xero HQ): the company name and
      // country confirmed here are the firm's. Identity has them first; a failure here leaves the firm's earlier name.
      const u = r.user;
      if (u?.userType === 'firm' && u.profile?.firmName) {
        await firm.updateFirm(
          {
            firmName: u.profile.firmName,
            country: u.profile.country,
            caller: { email: u.email, firstName: u.firstName, middleName: u.middleName, lastName: u.lastName },
          },
          { headers: tenantHeaders({ userId: u.id }) },
        );
      }
      return { user: userJson(r.user) };
    },
  );

  const securitySettings = {
    type: 'object',
    description: 'Sign-in security of the signed-in user.',
    properties: {
      requireCodeAlways: { type: 'boolean', description: 'Every password sign-in asks for the emailed code, even on a trusted device.' },
      trustedDevices: { type: 'integer', description: 'Browsers that passed a code check within the last 30 days.' },
    },
    required: ['requireCodeAlways', 'trustedDevices'],
    additionalProperties: false,
  } as const;

  app.get(
    '/users/me/security',
    {
      config: { auth: {} },
      schema: {
        operationId: 'getSecuritySettings',
        summary: 'Sign-in security settings',
        tags: TAGS_USERS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        response: responses(200, securitySettings),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.getSecuritySettings({ sessionToken: auth.token }, { headers: auth.rpcHeaders });
      return { requireCodeAlways: r.settings?.requireCodeAlways ?? false, trustedDevices: r.settings?.trustedDevices ?? 0 };
    },
  );

  app.patch<{ Body: { requireCodeAlways?: boolean } }>(
    '/users/me/security',
    {
      config: { auth: {} },
      schema: {
        operationId: 'updateSecuritySettings',
        summary: 'Change sign-in security settings',
        tags: TAGS_USERS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        body: { type: 'object', properties: { requireCodeAlways: { type: 'boolean' } }, additionalProperties: false },
        response: responses(200, securitySettings),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.updateSecuritySettings(
        { sessionToken: auth.token, requireCodeAlways: req.body?.requireCodeAlways },
        { headers: auth.rpcHeaders },
      );
      return { requireCodeAlways: r.settings?.requireCodeAlways ?? false, trustedDevices: r.settings?.trustedDevices ?? 0 };
    },
  );

  app.get(
    '/users/me',
    {
      config: { auth: {} },
      schema: {
        operationId: 'getMe',
        summary: 'The signed-in user',
        tags: TAGS_USERS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        response: responses(200, ref(UserSchema)),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const r = await identity.getMe({ sessionToken: auth.token }, { headers: auth.rpcHeaders });
      return userJson(r.user);
    },
  );

  app.patch<{ Body: BodyOf<typeof UpdateMeBodySchema> }>(
    '/users/me',
    {
      config: { auth: {} },
      schema: {
        operationId: 'updateMe',
        summary: "Change the signed-in user's names",
        tags: TAGS_USERS,
        security: BEARER,
        headers: WORKSPACE_HEADER_SCHEMA,
        body: ref(UpdateMeBodySchema),
        response: responses(200, ref(UserSchema)),
      },
    },
    async (req) => {
      const auth = authOf(req);
      const b = req.body;
      const r = await identity.updateMe(
        { sessionToken: auth.token, firstName: b.firstName, middleName: b.middleName, lastName: b.lastName },
        { headers: auth.rpcHeaders },
      );
      return userJson(r.user);
    },
  );
}
