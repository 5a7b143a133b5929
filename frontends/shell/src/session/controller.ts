import { createApiClient, type ApiClient } from '@ledgerline/api';
import type { QueryClient } from '@tanstack/react-query';
import { sameSelection, type Selection } from './selection';
import { withSelection, type SessionStore } from './store';

/** Spec §9: the session-expired flag resets after 2000 ms. */
export const SESSION_EXPIRED_RESET_MS = 2000;

export interface SessionController {
  store: SessionStore;
  client: ApiClient;
  /** POST /logout with the token, then clear all stored data and state (spec §4). */
  logout: () => Promise<void>;
  /** The 401 path: clear local data, mark the session expired for 2 s; the guard then sends the user to /login. */
  forceLogout: () => void;
  /**
   * Works in another workspace (and its organization) from now on: every later request carries its id in
   * `x-workspace-id`, and every cached answer is dropped and the shown ones fetched again, so no screen keeps the
   * previous workspace's numbers.
   */
  selectWorkspace: (selection: Selection) => Promise<void>;
}

export interface SessionControllerOptions {
  apiUrl: string;
  store: SessionStore;
  queryClient: QueryClient;
  fetch?: typeof fetch;
}

export function createSessionController({ apiUrl, store, queryClient, fetch }: SessionControllerOptions): SessionController {
  let loggingOut = false;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;

  const clearEverything = () => {
    queryClient.clear();
    store.reset();
  };

  const forceLogout = () => {
    clearEverything();
    store.setState((s) => ({ ...s, auth: { ...s.auth, hasSessionExpired: true } }));
    clearTimeout(expiryTimer);
    expiryTimer = setTimeout(() => {
      store.setState((s) => ({ ...s, auth: { ...s.auth, hasSessionExpired: false } }));
    }, SESSION_EXPIRED_RESET_MS);
  };

  const client = createApiClient({
    baseUrl: apiUrl,
    getToken: () => store.getState().auth.accessToken,
    getWorkspaceId: () => {
      const { auth, user } = store.getState();
      return auth.isAuthenticated ? user.selectedWorkspaceId : null;
    },
    isSessionExpired: () => store.getState().auth.hasSessionExpired,
    onUnauthorized: () => {
      // A 401 on the logout call itself needs no second logout; a 401 before sign-in (wrong password,
      // wrong code) is the page's error to show, not an expired session.
      if (loggingOut) return true;
      if (!store.getState().auth.isAuthenticated) return false;
      forceLogout();
      return true;
    },
    // The workspace being worked in is gone (deleted elsewhere, or the firm removed this member's access): its
    // selection is dropped, keeping the organization, and every answer refetched without it, so the spec §4 rules
    // pick what is left (the organization's default workspace, else Home for a firm user) instead of a screen
    // that keeps showing books the user may no longer open. The refused call still shows its own message.
    onWorkspaceLost: (workspaceId) => {
      const { auth, user } = store.getState();
      if (!auth.isAuthenticated || user.selectedWorkspaceId !== workspaceId) return;
      void selectWorkspace({ workspaceId: null, organizationId: user.selectedOrganizationId });
    },
    ...(fetch ? { fetch } : {}),
  });

  const selectWorkspace = async (selection: Selection) => {
    const { user } = store.getState();
    if (sameSelection(selection, { workspaceId: user.selectedWorkspaceId, organizationId: user.selectedOrganizationId })) return;
    // The store first: from this moment every request (the refetches below included) carries the new workspace.
    store.setState((s) => withSelection(s, selection));
    // Answers still on their way are for the previous workspace: cancel them, then drop every cached answer
    // (no placeholder keeps the old numbers) and refetch what is on screen.
    await queryClient.cancelQueries();
    await queryClient.resetQueries();
  };

  return {
    store,
    client,
    forceLogout,
    selectWorkspace,
    async logout() {
      loggingOut = true;
      try {
        await client.logout();
      } catch {
        // Signing out locally must not depend on the server answering.
      } finally {
        loggingOut = false;
        clearEverything();
      }
    },
  };
}
