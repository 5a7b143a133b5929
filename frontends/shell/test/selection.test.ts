// Spec platform-core §4 selection rules and the session transitions that apply them (src/session/selection.ts,
// store.ts), and the controller's switch: the header of the next requests follows, cached answers are dropped.
import type { User, Workspace } from '@ledgerline/api';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createSessionController } from '../src/session/controller';
import { defaultWorkspaceIn, organizationsOf, resolveSelection, selectOrganization, selectWorkspace } from '../src/session/selection';
import { createSessionStore, initialSessionState, signedIn, withSelection, withUser, type KeyValueStorage } from '../src/session/store';

const ORG_A = '0190a000-0000-7000-8000-00000000000a';
const ORG_B = '0190b000-0000-7000-8000-00000000000b';
const ws = (id: string, organizationId: string, extra: Partial<Workspace> = {}): Workspace => ({
  id,
  name: `Workspace ${id.slice(-2)}`,
  organizationId,
  organizationName: organizationId === ORG_A ? 'Acme' : 'Bravo',
  role: 'Owner',
  isDefault: false,
  ...extra,
});
const A1 = ws('0190a000-0000-7000-8000-0000000000a1', ORG_A);
const A2 = ws('0190a000-0000-7000-8000-0000000000a2', ORG_A, { isDefault: true });
const A3 = ws('0190a000-0000-7000-8000-0000000000a3', ORG_A);
const B1 = ws('0190b000-0000-7000-8000-0000000000b1', ORG_B);
const B2 = ws('0190b000-0000-7000-8000-0000000000b2', ORG_B);

const userWith = (workspaces: Workspace[], extra: Partial<User> = {}): User => ({
  id: '0190c000-0000-7000-8000-000000000001',
  firstName: 'Ada',
  middleName: 'K',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  isVerified: true,
  userType: 'business',
  role: 'Owner',
  workspace: workspaces[0] ?? null,
  supportHash: '',
  isOnboarded: true,
  workspaces,
  hasPassword: true,
  profile: null,
  ...extra,
});
const none = { workspaceId: null, organizationId: null };

describe('organizations and defaults', () => {
  it('groups workspaces by organization, by name, keeping the server order inside each', () => {
    const groups = organizationsOf([B1, A1, B2, A2]);
    expect(groups.map((g) => g.name)).toEqual(['Acme', 'Bravo']);
    expect(groups[0]?.workspaces.map((w) => w.id)).toEqual([A1.id, A2.id]);
    expect(groups[1]?.workspaces.map((w) => w.id)).toEqual([B1.id, B2.id]);
  });

  it("an organization's default workspace, else its first, else none", () => {
    expect(defaultWorkspaceIn([A1, A2, B1], ORG_A)?.id).toBe(A2.id);
    expect(defaultWorkspaceIn([A1, B2, B1], ORG_B)?.id).toBe(B2.id);
    expect(defaultWorkspaceIn([A1], ORG_B)).toBeNull();
  });
});

describe('resolveSelection (spec §4)', () => {
  it('keeps the selected workspace while the user is a member, with its organization', () => {
    expect(resolveSelection(userWith([A1, A2, B1]), { workspaceId: B1.id, organizationId: null })).toEqual({ workspaceId: B1.id, organizationId: ORG_B });
  });

  it("a deleted selected workspace: its organization's default, else its first", () => {
    expect(resolveSelection(userWith([A1, A2, B1]), { workspaceId: A3.id, organizationId: ORG_A })).toEqual({ workspaceId: A2.id, organizationId: ORG_A });
    expect(resolveSelection(userWith([A1, A3, B1]), { workspaceId: A2.id, organizationId: ORG_A })).toEqual({ workspaceId: A1.id, organizationId: ORG_A });
  });

  it('exactly one organization: it and its default (else first) workspace, for a firm user too', () => {
    expect(resolveSelection(userWith([A1, A2], { userType: 'firm', workspace: null }), none)).toEqual({ workspaceId: A2.id, organizationId: ORG_A });
    expect(resolveSelection(userWith([A1, A3], { userType: 'firm', workspace: null }), none)).toEqual({ workspaceId: A1.id, organizationId: ORG_A });
  });

  it('a firm user with several organizations, or none, selects nothing (they choose on /select-organization)', () => {
    expect(resolveSelection(userWith([A1, B1], { userType: 'firm' }), none)).toEqual(none);
    expect(resolveSelection(userWith([], { userType: 'firm', workspace: null }), none)).toEqual(none);
    // Their organization gone altogether (removed from the firm): back to choosing.
    expect(
      resolveSelection(userWith([A1, B1], { userType: 'firm' }), {
        workspaceId: '0190d000-0000-7000-8000-000000000001',
        organizationId: '0190d000-0000-7000-8000-00000000000d',
      }),
    ).toEqual(none);
  });

  it("a business user with several organizations: the server's current workspace, else the default, else the first", () => {
    expect(resolveSelection(userWith([A1, B1, B2], { workspace: B2 }), none)).toEqual({ workspaceId: B2.id, organizationId: ORG_B });
    expect(resolveSelection(userWith([A1, A2, B1], { workspace: null }), none)).toEqual({ workspaceId: A2.id, organizationId: ORG_A });
    expect(resolveSelection(userWith([B1, A1], { workspace: null }), none)).toEqual({ workspaceId: B1.id, organizationId: ORG_B });
    expect(resolveSelection(userWith([], { workspace: null }), none)).toEqual(none);
  });
});

describe('choosing', () => {
  it('a workspace the user is a member of, else nothing', () => {
    expect(selectWorkspace([A1, B1], B1.id.toUpperCase())).toEqual({ workspaceId: B1.id, organizationId: ORG_B });
    expect(selectWorkspace([A1], B1.id)).toBeNull();
  });

  it("an organization: its default (else first) workspace; the firm's list when the user's has not caught up", () => {
    expect(selectOrganization([A1, A2, B1], ORG_A)).toEqual({ workspaceId: A2.id, organizationId: ORG_A });
    expect(selectOrganization([A1], ORG_B, [B2.id, B1.id])).toEqual({ workspaceId: B2.id, organizationId: ORG_B });
    expect(selectOrganization([A1], ORG_B)).toBeNull();
  });
});

describe('session transitions', () => {
  it('signing in applies the rules; a reload of the user keeps a chosen workspace; deleting it falls back', () => {
    let state = signedIn(initialSessionState, { user: userWith([A1, A2, B1]), sessionToken: 't' });
    expect(state.user.selectedWorkspaceId).toBe(A1.id);
    state = withSelection(state, { workspaceId: B1.id, organizationId: ORG_B });
    state = withUser(state, userWith([A1, A2, B1]));
    expect(state.user.selectedWorkspaceId).toBe(B1.id);
    state = withSelection(state, { workspaceId: A1.id, organizationId: ORG_A });
    state = withUser(state, userWith([A2, A3, B1], { workspace: null }));
    expect([state.user.selectedWorkspaceId, state.user.selectedOrganizationId]).toEqual([A2.id, ORG_A]);
  });

  it('withSelection returns the same state when nothing changes (no re-render, no write)', () => {
    const state = withSelection(initialSessionState, { workspaceId: A1.id, organizationId: ORG_A });
    expect(withSelection(state, { workspaceId: A1.id, organizationId: ORG_A })).toBe(state);
  });
});

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

describe('switching workspace through the controller', () => {
  it('the next requests carry the new workspace, cached answers are dropped and the shown ones fetched again, the choice is stored', async () => {
    const seen: Array<string | null> = [];
    const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      seen.push(new Headers(init?.headers).get('x-workspace-id'));
      return new Response(JSON.stringify({ n: seen.length }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const storage = memoryStorage();
    const store = createSessionStore(storage);
    store.setState((s) => signedIn(s, { user: userWith([A1, B1]), sessionToken: 'token' }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const controller = createSessionController({ apiUrl: 'http://api.test', store, queryClient, fetch });

    // A screen watching a report, and an answer cached from a screen no longer shown.
    const { QueryObserver } = await import('@tanstack/react-query');
    const observer = new QueryObserver(queryClient, {
      queryKey: ['report'],
      queryFn: () => controller.client.get('/financial-data/runway'),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await queryClient.fetchQuery({ queryKey: ['report'], queryFn: () => controller.client.get('/financial-data/runway') });
    queryClient.setQueryData(['hidden'], { n: 0 });
    expect(seen.at(-1)).toBe(A1.id);

    await controller.selectWorkspace({ workspaceId: B1.id, organizationId: ORG_B });
    expect(seen.at(-1)).toBe(B1.id);
    expect(queryClient.getQueryData(['hidden'])).toBeUndefined();
    expect(queryClient.getQueryData<{ n: number }>(['report'])?.n).toBe(seen.length);
    expect(JSON.parse(storage.data.get('ledgerline') ?? '{}').user.selectedWorkspaceId).toBe(B1.id);
    // A reload starts from what was stored.
    expect(createSessionStore(storage).getState().user.selectedWorkspaceId).toBe(B1.id);

    // Choosing the workspace already selected changes nothing and fetches nothing.
    const count = seen.length;
    await controller.selectWorkspace({ workspaceId: B1.id, organizationId: ORG_B });
    expect(seen.length).toBe(count);
    unsubscribe();
  });
});
