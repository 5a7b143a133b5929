import { useMe } from '@ledgerline/api';
import { Spinner } from '@ledgerline/ui';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession, useSessionController } from '../session/context';
import { withUser } from '../session/store';
import { guardRoute } from './guard';

/** Refreshes the signed-in user from GET /users/me; a 401 there ends a stale session. */
function UserRefresh({ enabled }: { enabled: boolean }) {
  const { store } = useSessionController();
  const me = useMe({ enabled });
  useEffect(() => {
    if (me.data) store.setState((s) => (s.auth.isAuthenticated ? withUser(s, me.data) : s));
  }, [me.data, store]);
  return null;
}

export function RouteGuard() {
  const { pathname, search } = useLocation();
  const { auth, user } = useSession();
  const decision = guardRoute({ pathname, search, isAuthenticated: auth.isAuthenticated, user: user.user, selectedOrganizationId: user.selectedOrganizationId });
  return (
    <>
      <UserRefresh enabled={auth.isAuthenticated} />
      {decision.kind === 'redirect' ? (
        <Navigate to={decision.to} replace />
      ) : decision.kind === 'wait' ? (
        <div className="flex min-h-screen items-center justify-center text-brand-600">
          <Spinner label="Loading your account" />
        </div>
      ) : (
        <Outlet />
      )}
    </>
  );
}
