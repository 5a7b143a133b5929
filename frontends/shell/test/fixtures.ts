/// <reference types="node" />
// Test doubles for browser checks that run without the gateway: a signed-in state for localStorage and
// canned gateway answers served through Playwright's request interception. Never used by the app itself.
import type { User } from '@ledgerline/api';
import type { Page, Route } from 'playwright-core';

export const fakeUser: User = {
  id: '0190b2a4-7c1e-7aa0-9f1c-4c1d2e3f4a5b',
  firstName: 'Ada',
  middleName: 'King',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  isVerified: true,
  userType: 'business',
  role: 'Owner',
  workspace: {
    id: '0190b2a4-7c1e-7aa0-9f1c-000000000001',
    name: 'Analytical Engines Inc.',
    organizationId: '0190b2a4-7c1e-7aa0-9f1c-000000000002',
    organizationName: 'Analytical Engines',
    role: 'Owner',
    isDefault: true,
  },
  supportHash: 'test',
  isOnboarded: true,
  workspaces: [],
  hasPassword: true,
  profile: null,
};
fakeUser.workspaces = fakeUser.workspace ? [fakeUser.workspace] : [];

/** The shell's persisted state (root key `ledgerline`) for a signed-in, onboarded user. */
export function signedInState(user: User = fakeUser): string {
  return JSON.stringify({
    auth: { accessToken: 'test-token', methodId: null, isAuthenticated: true, hasSessionExpired: false, status: 'succeeded', pendingEmail: null },
    user: {
      user,
      isDemoModeActive: false,
      selectedWorkspaceId: user.workspace?.id ?? null,
      selectedOrganizationId: user.workspace?.organizationId ?? null,
      workspaces: user.workspaces,
    },
  });
}

/** Writes the signed-in state into the app's origin, then opens `path`. */
export async function openSignedIn(page: Page, baseUrl: string, path: string, user: User = fakeUser): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.evaluate((state) => window.localStorage.setItem('ledgerline', state), signedInState(user));
  await page.goto(`${baseUrl}${path}`);
}

const json = (route: Route, status: number, body: unknown) =>
  route.fulfill({ status, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify(body) });

/** Answers the calls the signed-in pages make, as the gateway would. */
export async function fakeGateway(page: Page, apiUrl: string, user: User = fakeUser): Promise<void> {
  let current = user;
  await page.route(`${apiUrl}/**`, async (route) => {
    const request = route.request();
    const path = new URL(request.url()).pathname;
    if (request.method() === 'OPTIONS') {
      await route.fulfill({ status: 204, headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': '*' } });
      return;
    }
    if (path === '/users/me' && request.method() === 'GET') return json(route, 200, current);
    if (path === '/users/me' && request.method() === 'PATCH') {
      current = { ...current, ...(request.postDataJSON() as Partial<User>) };
      return json(route, 200, current);
    }
    if (path === '/update-password-by-existing-password') return json(route, 200, { message: 'Your password has been updated.', endedSessions: 0 });
    if (path === '/logout') return json(route, 200, { message: 'Logged out' });
    return json(route, 404, { message: 'Not Found', appErrorCode: 'NOT_FOUND', statusCode: 404 });
  });
}
