import { firmApi, firmQueryKeys, isApiError, useApiClient, useMe } from '@ledgerline/api';
import { Spinner } from '@ledgerline/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession, useSessionController } from '../session/context';
import { withUser } from '../session/store';
import { guardRoute } from './guard';

/** Spec §4, §9: a firm user's firm data loads 500 ms after login. */
export const FIRM_DATA_DELAY_MS = 500;

/**
 * Refreshes the signed-in user from GET /users/me; a 401 there ends a stale session. A 404 means the selected
 * workspace is no longer the user's (deleted, access removed): the selection is dropped, keeping its organization,
 * and the user is fetched again without it, so the spec §4 rules pick the organization's default workspace.
 */
function UserRefresh({ enabled }: { enabled: boolean }) {
  const { store, selectWorkspace } = useSessionController();
  const me = useMe({ enabled });
  useEffect(() => {
    if (me.data) store.setState((s) => (s.auth.isAuthenticated ? withUser(s, me.data) : s));
  }, [me.data, store]);
  const lostWorkspace = isApiError(me.error) && me.error.statusCode === 404;
  useEffect(() => {
    if (!lostWorkspace) return;
    const { user } = store.getState();
    if (user.selectedWorkspaceId !== null) void selectWorkspace({ workspaceId: null, organizationId: user.selectedOrganizationId });
  }, [lostWorkspace, store, selectWorkspace]);
  return null;
}

/** After login a firm user's firm and its organizations load (spec §4), 500 ms later (spec §9). */
function FirmDataLoader({ enabled }: { enabled: boolean }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => {
      void queryClient.prefetchQuery({ queryKey: firmQueryKeys.me, queryFn: ({ signal }) => firmApi.me(client, signal) });
      void queryClient.prefetchQuery({ queryKey: firmQueryKeys.organizations, queryFn: ({ signal }) => firmApi.organizations(client, signal) });
    }, FIRM_DATA_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled, client, queryClient]);
  return null;
}

export function RouteGuard() {
  const { pathname, search } = useLocation();
  const { auth, user } = useSession();
  const decision = guardRoute({
    pathname,
    search,
    isAuthenticated: auth.isAuthenticated,
    user: user.user,
    selectedOrganizationId: user.selectedOrganizationId,
  });
  return (
    <>
      <UserRefresh enabled={auth.isAuthenticated} />
      <FirmDataLoader enabled={auth.isAuthenticated && user.user?.userType === 'firm'} />
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
