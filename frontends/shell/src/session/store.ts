import type { User, Workspace } from '@ledgerline/api';
import { resolveSelection, sameSelection, type Selection } from './selection';

export type AsyncStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

/** Spec §3 auth state, plus the email of a sign-in waiting for its one-time code (needed to resend it). */
export interface AuthState {
  accessToken: string | null;
  methodId: string | null;
  isAuthenticated: boolean;
  hasSessionExpired: boolean;
  status: AsyncStatus;
  pendingEmail: string | null;
}

/** Spec §3 user state. */
export interface UserState {
  user: User | null;
  isDemoModeActive: boolean;
  selectedWorkspaceId: string | null;
  selectedOrganizationId: string | null;
  workspaces: Workspace[];
}

export interface SessionState {
  auth: AuthState;
  user: UserState;
}

/** The one localStorage key the client store persists under (spec §9). */
export const STORAGE_ROOT_KEY = 'ledgerline';

export const initialSessionState: SessionState = {
  auth: { accessToken: null, methodId: null, isAuthenticated: false, hasSessionExpired: false, status: 'idle', pendingEmail: null },
  user: { user: null, isDemoModeActive: false, selectedWorkspaceId: null, selectedOrganizationId: null, workspaces: [] },
};

export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface SessionStore {
  getState: () => SessionState;
  setState: (update: (state: SessionState) => SessionState) => void;
  subscribe: (listener: () => void) => () => void;
  /** Back to the signed-out state and nothing left in storage. */
  reset: () => void;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function restore(storage: KeyValueStorage | undefined): SessionState {
  try {
    const raw = storage?.getItem(STORAGE_ROOT_KEY);
    if (!raw) return initialSessionState;
    const parsed: unknown = JSON.parse(raw);
    if (!isRecord(parsed) || !isRecord(parsed.auth) || !isRecord(parsed.user)) return initialSessionState;
    const stored = parsed as unknown as SessionState;
    return {
      // A loading status or an expiry flag belongs to a page that no longer exists; its timers are gone.
      auth: { ...initialSessionState.auth, ...stored.auth, status: stored.auth.status === 'loading' ? 'idle' : stored.auth.status, hasSessionExpired: false },
      user: { ...initialSessionState.user, ...stored.user },
    };
  } catch {
    return initialSessionState;
  }
}

export function createSessionStore(storage: KeyValueStorage | undefined): SessionStore {
  let state = restore(storage);
  const listeners = new Set<() => void>();

  const persist = () => {
    try {
      storage?.setItem(STORAGE_ROOT_KEY, JSON.stringify(state));
    } catch {
      // Storage full or blocked: the session still works for this page.
    }
  };

  const emit = () => {
    for (const listener of listeners) listener();
  };

  return {
    getState: () => state,
    setState(update) {
      const next = update(state);
      if (next === state) return;
      state = next;
      persist();
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reset() {
      state = initialSessionState;
      try {
        storage?.removeItem(STORAGE_ROOT_KEY);
      } catch {
        // Nothing to clear when storage is unavailable.
      }
      emit();
    },
  };
}

// Pure state transitions, so the flows are testable without a browser.

/** Spec §4 selection after the user's workspaces are (re)loaded (`resolveSelection` in selection.ts). */
export function withUser(state: SessionState, user: User): SessionState {
  const next = resolveSelection(user, { workspaceId: state.user.selectedWorkspaceId, organizationId: state.user.selectedOrganizationId });
  return {
    ...state,
    user: { ...state.user, user, workspaces: user.workspaces, selectedWorkspaceId: next.workspaceId, selectedOrganizationId: next.organizationId },
  };
}

/** A chosen workspace and organization (the switcher, /select-organization, /login-workspace). */
export function withSelection(state: SessionState, selection: Selection): SessionState {
  if (sameSelection(selection, { workspaceId: state.user.selectedWorkspaceId, organizationId: state.user.selectedOrganizationId })) return state;
  return { ...state, user: { ...state.user, selectedWorkspaceId: selection.workspaceId, selectedOrganizationId: selection.organizationId } };
}

export function signedIn(state: SessionState, answer: { user: User; sessionToken: string }): SessionState {
  return withUser(
    {
      ...state,
      auth: {
        ...state.auth,
        accessToken: answer.sessionToken,
        methodId: null,
        pendingEmail: null,
        isAuthenticated: true,
        hasSessionExpired: false,
        status: 'succeeded',
      },
    },
    answer.user,
  );
}

export function awaitingCode(state: SessionState, pending: { sessionToken: string; methodId: string; email: string }): SessionState {
  return {
    ...state,
    auth: {
      ...state.auth,
      accessToken: pending.sessionToken,
      methodId: pending.methodId,
      pendingEmail: pending.email,
      isAuthenticated: false,
      status: 'succeeded',
    },
  };
}

export function withStatus(state: SessionState, status: AsyncStatus): SessionState {
  return state.auth.status === status ? state : { ...state, auth: { ...state.auth, status } };
}
