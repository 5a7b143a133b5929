import type { User } from '@ledgerline/api';

/** Spec §2 auth routes a signed-out visitor may open. /onboard is not one: it needs a session. */
export const PUBLIC_ROUTES: readonly string[] = ['/login', '/signup', '/verify-otp', '/forgot-password', '/reset-password', '/verify-invite', '/login-workspace'];
export const ONBOARDING_ROUTE = '/onboard';
export const LOGIN_ROUTE = '/login';
export const HOME_ROUTE = '/dashboard';
export const SELECT_ORGANIZATION_ROUTE = '/select-organization';

export interface GuardInput {
  pathname: string;
  isAuthenticated: boolean;
  user: Pick<User, 'isOnboarded' | 'userType'> | null;
  selectedOrganizationId: string | null;
}

export type GuardDecision = { kind: 'open' } | { kind: 'redirect'; to: string } | { kind: 'wait' };

const normalize = (pathname: string): string => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

export const isPublicRoute = (pathname: string): boolean => PUBLIC_ROUTES.includes(normalize(pathname));

export function homeFor(user: Pick<User, 'userType'>, selectedOrganizationId: string | null): string {
  return user.userType === 'firm' && selectedOrganizationId === null ? SELECT_ORGANIZATION_ROUTE : HOME_ROUTE;
}

/** The route guard of spec §2, in its order; the first rule that applies wins. */
export function guardRoute({ pathname, isAuthenticated, user, selectedOrganizationId }: GuardInput): GuardDecision {
  const path = normalize(pathname);
  const isPublic = isPublicRoute(path);
  // 1. Signed out: public routes only.
  if (!isAuthenticated) return isPublic ? { kind: 'open' } : { kind: 'redirect', to: LOGIN_ROUTE };
  // A session restored without its user waits for GET /users/me instead of guessing.
  if (user === null) return { kind: 'wait' };
  // 2. Not onboarded: onboarding only.
  if (!user.isOnboarded) return path === ONBOARDING_ROUTE ? { kind: 'open' } : { kind: 'redirect', to: ONBOARDING_ROUTE };
  // 3. Onboarded on a public (or the onboarding) route: home.
  if (isPublic || path === ONBOARDING_ROUTE) return { kind: 'redirect', to: homeFor(user, selectedOrganizationId) };
  // 4. Everything else opens.
  return { kind: 'open' };
}
