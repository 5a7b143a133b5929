// The route guard of spec platform-core §2 for both user types (src/routing/guard.ts), and the links that carry a
// workspace (src/session/links.ts).
import { describe, expect, it } from 'vitest';
import { guardRoute, homeFor, loginRouteFor, safeNext, type GuardInput } from '../src/routing/guard';
import { loginWorkspaceHref, workspaceLink } from '../src/session/links';

const business = { isOnboarded: true, userType: 'business' as const };
const firm = { isOnboarded: true, userType: 'firm' as const };
const ORG = '0190a000-0000-7000-8000-00000000000a';
const WS = '0190a000-0000-7000-8000-0000000000a1';
const at = (pathname: string, input: Partial<GuardInput> = {}): ReturnType<typeof guardRoute> =>
  guardRoute({ pathname, search: '', isAuthenticated: true, user: business, selectedOrganizationId: ORG, ...input });

describe('guardRoute', () => {
  it('1. signed out: public routes only; others go to /login remembering the page', () => {
    expect(at('/verify-invite', { isAuthenticated: false, user: null, search: '?token=x' })).toEqual({ kind: 'open' });
    expect(at('/login-workspace', { isAuthenticated: false, user: null })).toEqual({ kind: 'open' });
    expect(at('/select-organization', { isAuthenticated: false, user: null })).toEqual({ kind: 'redirect', to: '/login?next=%2Fselect-organization' });
  });

  it('2. not onboarded: onboarding only, invite and workspace links included', () => {
    expect(at('/login-workspace', { user: { ...business, isOnboarded: false } })).toEqual({ kind: 'redirect', to: '/onboard' });
  });

  it('3. onboarded on a public route: next, else home — firm users without an organization to /select-organization', () => {
    expect(at('/login', { search: '?next=%2Freports' })).toEqual({ kind: 'redirect', to: '/reports' });
    expect(at('/login')).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(at('/login', { user: firm, selectedOrganizationId: null })).toEqual({ kind: 'redirect', to: '/select-organization' });
    expect(at('/login', { user: firm, selectedOrganizationId: ORG })).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('a login coming back to an invite or workspace link returns there, and those links open for a signed-in user', () => {
    const next = `/login-workspace?workspaceId=${WS}`;
    expect(at('/login', { search: `?next=${encodeURIComponent(next)}` })).toEqual({ kind: 'redirect', to: next });
    expect(at('/login-workspace', { search: `?workspaceId=${WS}` })).toEqual({ kind: 'open' });
    expect(at('/verify-invite', { search: '?token=abc&kind=firm', user: firm, selectedOrganizationId: null })).toEqual({ kind: 'open' });
  });

  it('a firm user without an organization: only Home and settings open', () => {
    const noOrg = { user: firm, selectedOrganizationId: null };
    expect(at('/select-organization', noOrg)).toEqual({ kind: 'open' });
    expect(at('/settings', noOrg)).toEqual({ kind: 'open' });
    for (const path of ['/dashboard', '/transactions', '/reports', '/accounting', '/connect-accounts']) {
      expect(at(path, noOrg)).toEqual({ kind: 'redirect', to: '/select-organization' });
    }
    // With an organization chosen, everything opens; a business user is never held back.
    expect(at('/transactions', { user: firm })).toEqual({ kind: 'open' });
    expect(at('/transactions', { selectedOrganizationId: null })).toEqual({ kind: 'open' });
  });

  it('home for each user type', () => {
    expect(homeFor(firm, null)).toBe('/select-organization');
    expect(homeFor(firm, ORG)).toBe('/dashboard');
    expect(homeFor(business, null)).toBe('/dashboard');
  });
});

describe('next', () => {
  it('keeps invite and workspace links, still refuses other auth routes and anything leaving the app', () => {
    expect(safeNext('/verify-invite?token=abc&kind=firm')).toBe('/verify-invite?token=abc&kind=firm');
    expect(safeNext(`/login-workspace?workspaceId=${WS}`)).toBe(`/login-workspace?workspaceId=${WS}`);
    expect(safeNext('/login?next=/x')).toBeNull();
    expect(safeNext('/signup')).toBeNull();
    expect(safeNext('//evil.example/login-workspace')).toBeNull();
    expect(loginRouteFor(`/login-workspace?workspaceId=${WS}`)).toBe(`/login?next=${encodeURIComponent(`/login-workspace?workspaceId=${WS}`)}`);
  });
});

describe('workspace links', () => {
  it('reads workspaceId (and organizationId) as UUIDs; anything else is no link', () => {
    expect(workspaceLink(`?workspaceId=${WS.toUpperCase()}&organizationId=${ORG}`)).toEqual({ workspaceId: WS, organizationId: ORG });
    expect(workspaceLink(`?workspaceId=${WS}&organizationId=nope`)).toEqual({ workspaceId: WS, organizationId: null });
    expect(workspaceLink('?workspaceId=1')).toBeNull();
    expect(workspaceLink('')).toBeNull();
    expect(workspaceLink(new URLSearchParams(loginWorkspaceHref(WS, ORG).split('?')[1]))).toEqual({ workspaceId: WS, organizationId: ORG });
  });
});

describe('navigation (spec §2)', () => {
  it('business items; demo items in demo mode; only Home for a firm user without an organization, Home first once they have one', async () => {
    const { navigationFor } = await import('../src/layout/navigation');
    const labels = (items: ReadonlyArray<{ label: string }>) => items.map((i) => i.label);
    expect(labels(navigationFor(business, { isDemoModeActive: false, selectedOrganizationId: ORG }))).toEqual([
      'Dashboard',
      'Expenses',
      'Transactions',
      'Revenue',
      'Accounting',
      'Reports',
      'Accounting Sync',
    ]);
    expect(labels(navigationFor(business, { isDemoModeActive: true, selectedOrganizationId: ORG }))).toEqual(['Demo View', 'Connect Accounts']);
    expect(labels(navigationFor(firm, { isDemoModeActive: false, selectedOrganizationId: null }))).toEqual(['Home']);
    expect(labels(navigationFor(firm, { isDemoModeActive: false, selectedOrganizationId: ORG }))[0]).toBe('Home');
    expect(navigationFor(firm, { isDemoModeActive: false, selectedOrganizationId: ORG })).toHaveLength(8);
  });
});
