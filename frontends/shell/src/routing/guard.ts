import type { User } from '@ledgerline/api';

/** Spec §2 auth routes a signed-out visitor may open. /onboard is not one: it needs a session. */
export const PUBLIC_ROUTES: readonly string[] = [
  '/login',
  '/signup',
  '/verify-otp',
  '/forgot-password',
  '/reset-password',
  '/verify-invite',
  '/login-workspace',
  // Google's answer to "Continue with Google" (session/google.ts).
  '/oauth/google',
];
export const ONBOARDING_ROUTE = '/onboard';
export const LOGIN_ROUTE = '/login';
export const HOME_ROUTE = '/dashboard';
export const SELECT_ORGANIZATION_ROUTE = '/select-organization';
export const SETTINGS_ROUTE = '/settings';
export const VERIFY_INVITE_ROUTE = '/verify-invite';
export const LOGIN_WORKSPACE_ROUTE = '/login-workspace';

/**
 * Public routes that act on the session rather than start one: an invite link (a signed-in user accepts with one
 * click) and a workspace link (a signed-in user is switched into it). They open for a signed-in user too, and a
 * signed-out visitor sent to /login comes back to them (`next`).
 */
export const SESSION_ROUTES: readonly string[] = [VERIFY_INVITE_ROUTE, LOGIN_WORKSPACE_ROUTE];

/** What a firm user without a selected organization may open (spec §2: only Home; settings stays reachable). */
export const FIRM_HOME_ROUTES: readonly string[] = [SELECT_ORGANIZATION_ROUTE, SETTINGS_ROUTE];

/** The query parameter that carries the page a signed-out visitor asked for through login and back. */
export const NEXT_PARAM = 'next';

export interface GuardInput {
  pathname: string;
  /** The location's query string (with or without '?'); it carries `next` on the auth pages. */
  search?: string;
  isAuthenticated: boolean;
  user: Pick<User, 'isOnboarded' | 'userType'> | null;
  selectedOrganizationId: string | null;
}

export type GuardDecision = { kind: 'open' } | { kind: 'redirect'; to: string } | { kind: 'wait' };

const normalize = (pathname: string): string => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

export const isPublicRoute = (pathname: string): boolean => PUBLIC_ROUTES.includes(normalize(pathname));
export const isSessionRoute = (pathname: string): boolean => SESSION_ROUTES.includes(normalize(pathname));

/** A firm user who has not chosen an organization yet (spec §2). */
export const needsOrganization = (user: Pick<User, 'userType'>, selectedOrganizationId: string | null): boolean =>
  user.userType === 'firm' && selectedOrganizationId === null;

export function homeFor(user: Pick<User, 'userType'>, selectedOrganizationId: string | null): string {
  return needsOrganization(user, selectedOrganizationId) ? SELECT_ORGANIZATION_ROUTE : HOME_ROUTE;
}

/**
 * A `next` value that stays inside the app: a path starting with one '/', not an auth route (the session routes
 * excepted: an invite or workspace link resumes after login), no scheme,
 * no backslash (browsers read '/\\evil' as '//evil'). Anything else is dropped, so login cannot be turned
 * into an open redirect.
 */
export function safeNext(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || [...value].some((c) => c.charCodeAt(0) < 0x20)) return null;
  const path = normalize(value.split(/[?#]/)[0] ?? '');
  if ((isPublicRoute(path) && !isSessionRoute(path)) || path === ONBOARDING_ROUTE) return null;
  return value;
}

/** The page asked for, from a location's query string. */
export function nextFrom(search: string | undefined): string | null {
  return safeNext(new URLSearchParams(search ?? '').get(NEXT_PARAM));
}

/** /login, remembering `requested` (path + query) when it is worth coming back to. */
export function loginRouteFor(requested: string): string {
  const next = requested === '/' ? null : safeNext(requested);
  return next ? `${LOGIN_ROUTE}?${new URLSearchParams({ [NEXT_PARAM]: next }).toString()}` : LOGIN_ROUTE;
}

/** The route guard of spec §2, in its order; the first rule that applies wins. */
export function guardRoute({ pathname, search, isAuthenticated, user, selectedOrganizationId }: GuardInput): GuardDecision {
  const path = normalize(pathname);
  const isPublic = isPublicRoute(path);
  // 1. Signed out: public routes only; the page asked for comes along as ?next= (deep links survive login).
  if (!isAuthenticated) return isPublic ? { kind: 'open' } : { kind: 'redirect', to: loginRouteFor(`${pathname}${search ?? ''}`) };
  // A session restored without its user waits for GET /users/me instead of guessing.
  if (user === null) return { kind: 'wait' };
  // 2. Not onboarded: onboarding only.
  if (!user.isOnboarded) return path === ONBOARDING_ROUTE ? { kind: 'open' } : { kind: 'redirect', to: ONBOARDING_ROUTE };
  // 3. Onboarded on a public (or the onboarding) route: the page asked for before login, else home. An invite or
  //    workspace link is the exception: it is for the signed-in user to act on.
  if (isSessionRoute(path)) return { kind: 'open' };
  if (isPublic || path === ONBOARDING_ROUTE) return { kind: 'redirect', to: (isPublic ? nextFrom(search) : null) ?? homeFor(user, selectedOrganizationId) };
  // A firm user without an organization: only Home (/select-organization) and settings.
  if (needsOrganization(user, selectedOrganizationId) && !FIRM_HOME_ROUTES.includes(path)) return { kind: 'redirect', to: SELECT_ORGANIZATION_ROUTE };
  // 4. Everything else opens.
  return { kind: 'open' };
}
