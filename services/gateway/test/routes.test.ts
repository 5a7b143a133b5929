import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, NEWCOMER_TOKEN, OWNER_ID, OWNER_TOKEN, startFakeIdentity, startGateway, WS_OWNED, type FakeIdentity } from './support/fake-identity.js';

let identity: FakeIdentity;
let app: FastifyInstance;

beforeAll(async () => {
  identity = await startFakeIdentity();
  app = await startGateway(identity.url);
});

afterAll(async () => {
  await app.close();
  await identity.close();
});

beforeEach(() => {
  identity.calls.length = 0;
  for (const key of Object.keys(identity.handlers)) delete identity.handlers[key as keyof typeof identity.handlers];
});

const USER_KEYS = [
  'id',
  'firstName',
  'middleName',
  'lastName',
  'email',
  'isVerified',
  'userType',
  'role',
  'workspace',
  'supportHash',
  'isOnboarded',
  'workspaces',
  'hasPassword',
  'profile',
].sort();

describe('public auth routes call identity and answer the documented shapes', () => {
  it('POST /signup → 201 { sessionToken, methodId, message }, every field passed camelCase → proto', async () => {
    const body = {
      firstName: 'Ada',
      middleName: 'M',
      lastName: 'Lovelace',
      companyName: 'Acme',
      maxTeamSize: 5,
      email: 'ada@example.com',
      password: 'Secret123',
    };
    const res = await app.inject({ method: 'POST', url: '/signup', payload: body });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ sessionToken: 'st-signup', methodId: 'method-1', message: 'We sent a code to your email' });
    const [call] = identity.callsTo('signUp');
    expect(call?.request).toMatchObject(body);
    // Public routes carry no tenancy.
    expect(call?.tenant).toEqual({ workspaceId: null, userId: null, role: null });
  });

  it('POST /login with a user → { user, sessionToken }', async () => {
    const res = await app.inject({ method: 'POST', url: '/login', payload: { email: 'ada@example.com', password: 'Secret123' } });
    expect(res.statusCode).toBe(200);
    const json = res.json();
    expect(Object.keys(json).sort()).toEqual(['sessionToken', 'user']);
    expect(Object.keys(json.user).sort()).toEqual(USER_KEYS);
    expect(json.user.workspace).toMatchObject({ id: WS_OWNED, role: 'Owner', isDefault: true, organizationName: 'Acme' });
    expect(json.user.profile).toEqual({
      maxTeamSize: 5,
      companyName: 'Acme',
      role: 'CFO',
      phoneNumber: '5551234567',
      city: 'Austin',
      country: 'US',
      heardAboutUs: 'Google',
      firmName: '',
    });
    expect(json.user.workspaces).toHaveLength(3);
  });

  it('POST /login needing a code → { sessionToken, methodId, message } without user', async () => {
    const res = await app.inject({ method: 'POST', url: '/login', payload: { email: 'code@example.com', password: 'Secret123' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sessionToken: 'st-pending', methodId: 'method-2', message: 'We sent a code to your email' });
  });

  it('POST /authenticate-otp → { user, sessionToken }', async () => {
    const res = await app.inject({ method: 'POST', url: '/authenticate-otp', payload: { methodId: 'method-2', code: '123456', sessionToken: 'st-pending' } });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['sessionToken', 'user']);
    expect(identity.callsTo('authenticateOtp')[0]?.request).toMatchObject({ methodId: 'method-2', code: '123456', sessionToken: 'st-pending' });
  });

  it('POST /resend-otp → { methodId, message }', async () => {
    const res = await app.inject({ method: 'POST', url: '/resend-otp', payload: { email: 'ada@example.com', sessionToken: 'st-pending' } });
    expect(res.json()).toEqual({ methodId: 'method-3', message: 'We sent a new code' });
  });

  it('POST /login-oauth and /signup-oauth → { user, sessionToken, userCreated }', async () => {
    const login = await app.inject({ method: 'POST', url: '/login-oauth', payload: { token: 'jwt' } });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ sessionToken: OWNER_TOKEN, userCreated: false });
    const signup = await app.inject({ method: 'POST', url: '/signup-oauth', payload: { token: 'jwt', companyName: 'Acme', maxTeamSize: 3 } });
    expect(signup.statusCode).toBe(200);
    const json = signup.json();
    expect(json).toMatchObject({ sessionToken: NEWCOMER_TOKEN, userCreated: true });
    // No workspace yet: null, not absent; the role defaults to Viewer (spec §3).
    expect(json.user.workspace).toBeNull();
    expect(json.user.profile).toBeNull();
    expect(json.user.role).toBe('Viewer');
    expect(identity.callsTo('signupOauth')[0]?.request).toMatchObject({ token: 'jwt', companyName: 'Acme', maxTeamSize: 3 });
  });

  it('POST /forgot-password → { message }; POST /reset-password → { user, sessionToken, message }', async () => {
    const forgot = await app.inject({ method: 'POST', url: '/forgot-password', payload: { email: 'ada@example.com' } });
    expect(forgot.json()).toEqual({ message: 'If the email is known, a reset link was sent' });
    const reset = await app.inject({
      method: 'POST',
      url: '/reset-password',
      payload: { token: 'reset-token', password: 'NewSecret1', confirmPassword: 'NewSecret1' },
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ sessionToken: 'tok-after-reset', message: 'Your password has been reset.', user: { id: OWNER_ID } });
    expect(identity.callsTo('resetPassword')[0]?.request).toMatchObject({ token: 'reset-token', password: 'NewSecret1', confirmPassword: 'NewSecret1' });
  });
});

describe('authenticated auth routes pass the bearer token as sessionToken', () => {
  it('POST /update-credentials → { user, message }', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/update-credentials',
      headers: bearer(OWNER_TOKEN),
      payload: { password: 'NewSecret1', confirmPassword: 'NewSecret1', firstName: 'Ada' },
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['message', 'user']);
    expect(identity.callsTo('updateCredentials')[0]?.request).toMatchObject({
      sessionToken: OWNER_TOKEN,
      password: 'NewSecret1',
      confirmPassword: 'NewSecret1',
      firstName: 'Ada',
    });
  });

  it('POST /update-password-by-existing-password → { message, endedSessions }', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/update-password-by-existing-password',
      headers: bearer(OWNER_TOKEN),
      payload: { existingPassword: 'Secret123', newPassword: 'NewSecret1', endOtherSessions: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Password updated', endedSessions: 2 });
    expect(identity.callsTo('updatePasswordByExistingPassword')[0]?.request).toMatchObject({
      sessionToken: OWNER_TOKEN,
      existingPassword: 'Secret123',
      newPassword: 'NewSecret1',
      endOtherSessions: true,
    });
  });

  it('POST /onboard-user → { user }', async () => {
    const body = { maxTeamSize: 5, companyName: 'Acme', role: 'CFO', phoneNumber: '5551234567', city: 'Austin', country: 'US', heardAboutUs: 'Google' };
    const res = await app.inject({ method: 'POST', url: '/onboard-user', headers: bearer(OWNER_TOKEN), payload: body });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['user']);
    expect(identity.callsTo('onboardUser')[0]?.request).toMatchObject({ sessionToken: OWNER_TOKEN, ...body });
  });

  it('GET /users/me → the User; PATCH /users/me changes the names', async () => {
    const me = await app.inject({ method: 'GET', url: '/users/me', headers: bearer(OWNER_TOKEN) });
    expect(me.statusCode).toBe(200);
    expect(Object.keys(me.json()).sort()).toEqual(USER_KEYS);
    const patched = await app.inject({ method: 'PATCH', url: '/users/me', headers: bearer(OWNER_TOKEN), payload: { firstName: 'Augusta' } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ firstName: 'Augusta', lastName: 'Lovelace' });
    const [call] = identity.callsTo('updateMe');
    expect(call?.request).toMatchObject({ sessionToken: OWNER_TOKEN, firstName: 'Augusta' });
    expect(call?.request.lastName).toBeUndefined();
  });

  it('a newcomer without a workspace can use the identity routes (workspace null)', async () => {
    const me = await app.inject({ method: 'GET', url: '/users/me', headers: bearer(NEWCOMER_TOKEN) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ workspace: null, workspaces: [], isOnboarded: false });
  });

  it('POST /logout → { message }, also without a body', async () => {
    identity.sessions.set('tok-logout', { userId: OWNER_ID, workspaces: [], defaultWorkspaceId: '' });
    const res = await app.inject({ method: 'POST', url: '/logout', headers: bearer('tok-logout') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out' });
  });

  it('a response field identity leaves out breaks the contract loudly (500), never silently', async () => {
    identity.handlers.getMe = () => ({});
    const res = await app.inject({ method: 'GET', url: '/users/me', headers: bearer(OWNER_TOKEN) });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Something went wrong', appErrorCode: 'INTERNAL', statusCode: 500 });
  });
});
