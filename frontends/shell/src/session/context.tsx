import { ApiProvider, type User } from '@ledgerline/api';
import { useNotice } from '@ledgerline/ui';
import { createContext, useCallback, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { SessionController } from './controller';
import { withUser, type SessionState } from './store';

const SessionContext = createContext<SessionController | null>(null);

export function useSessionController(): SessionController {
  const controller = useContext(SessionContext);
  if (controller === null) throw new Error('useSessionController must be used inside <SessionProvider>');
  return controller;
}

export function useSession(): SessionState {
  const { store } = useSessionController();
  return useSyncExternalStore(store.subscribe, store.getState);
}

/**
 * Shows the spec's 'Session expired' warning once each time a 401 ends the session: it follows the controller's count
 * of expiries (not the 2-second flag, which a render delayed past 2 s would miss).
 */
function SessionExpiredNotice() {
  const { sessionExpiries, subscribeSessionExpired } = useSessionController();
  const expiries = useSyncExternalStore(subscribeSessionExpired, sessionExpiries);
  const shown = useRef(0);
  const notice = useNotice();
  useEffect(() => {
    if (expiries > shown.current) {
      shown.current = expiries;
      notice.notify({ id: 'session-expired', message: 'Session expired', type: 'warning' });
    }
  }, [expiries, notice]);
  return null;
}

/**
 * Shows the gateway's message when the selected workspace is lost while the user works (the controller has already
 * moved them to what is left): once, as an error, whichever screen made the refused call.
 */
function WorkspaceLostNotice() {
  const { subscribeWorkspaceLost } = useSessionController();
  const notice = useNotice();
  useEffect(() => subscribeWorkspaceLost((message) => notice.notify({ id: 'workspace-lost', message, type: 'error' })), [subscribeWorkspaceLost, notice]);
  return null;
}

export function SessionProvider({ controller, children }: { controller: SessionController; children: ReactNode }) {
  const { store, client } = controller;
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const onUserChange = useCallback((user: User) => store.setState((s) => withUser(s, user)), [store]);
  return (
    <SessionContext.Provider value={controller}>
      <ApiProvider client={client} user={state.auth.isAuthenticated ? state.user.user : null} onUserChange={onUserChange}>
        <SessionExpiredNotice />
        <WorkspaceLostNotice />
        {children}
      </ApiProvider>
    </SessionContext.Provider>
  );
}
