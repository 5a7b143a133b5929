import { createApiClient, type ApiClient } from '@ledgerline/api';
import type { QueryClient } from '@tanstack/react-query';
import { NO_SELECTION, resolveSelection, sameSelection, type Selection } from './selection';
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
  /**
   * Tells `listener` the gateway's message each time the selected workspace is lost while the user works (deleted
   * elsewhere, or their access removed); the shell shows it as a notice, since the screen that made the call is
   * leaving. Returns the unsubscribe.
   */
  subscribeWorkspaceLost: (listener: (message: string) => void) => () => void;
  /**
   * How many times a 401 has ended the session since the app started, and a subscription to it: the shell's
   * 'Session expired' warning follows this count, not the 2-second flag, so a render delayed past the flag's
   * 2 s (a busy machine, a page still loading its code) still shows it.
   */
  sessionExpiries: () => number;
  subscribeSessionExpired: (listener: () => void) => () => void;
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
  const workspaceLostListeners = new Set<(message: string) => void>();
  const expiredListeners = new Set<() => void>();
  let expiries = 0;

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
    expiries += 1;
    for (const listener of expiredListeners) listener();
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
    // The workspace being worked in is gone (deleted elsewhere, or the firm removed this member's access): the spec
    // §4 rules choose again among the user's other workspaces (the organization's default, else Home for a firm
    // user) and every answer is fetched again there, instead of a screen that keeps showing books the user may no
    // longer open; GET /users/me, refetched with the rest, then brings the server's list. The refused call still
    // shows its own message.
    onWorkspaceLost: (workspaceId, error) => {
      const { auth, user } = store.getState();
      if (!auth.isAuthenticated || user.selectedWorkspaceId !== workspaceId) return false;
      const current = { workspaceId: null, organizationId: user.selectedOrganizationId };
      const next = user.user ? resolveSelection({ ...user.user, workspaces: user.workspaces.filter((w) => w.id !== workspaceId) }, current) : NO_SELECTION;
      void selectWorkspace(next);
      for (const listener of workspaceLostListeners) listener(error.message);
      return true;
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
    subscribeWorkspaceLost(listener) {
      workspaceLostListeners.add(listener);
      return () => workspaceLostListeners.delete(listener);
    },
    sessionExpiries: () => expiries,
    subscribeSessionExpired(listener) {
      expiredListeners.add(listener);
      return () => expiredListeners.delete(listener);
    },
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
