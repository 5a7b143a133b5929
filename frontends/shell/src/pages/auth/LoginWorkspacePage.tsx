import { useMe } from '@ledgerline/api';
import { Button, Spinner } from '@ledgerline/ui';
import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AuthHeading } from '../../layout/AuthLayout';
import { TextLink } from '../../layout/TextLink';
import { HOME_ROUTE, LOGIN_ROUTE, homeFor, loginRouteFor } from '../../routing/guard';
import { useSession, useSessionController } from '../../session/context';
import { workspaceLink } from '../../session/links';
import { selectWorkspace } from '../../session/selection';

/**
 * Spec §2 /login-workspace?workspaceId=<id>(&organizationId=<id>): a link into one workspace (a firm's client, a
 * workspace shared with the user). Signed out: to /login, coming back here afterwards. Signed in: once the user's
 * workspaces are fresh from the server, a member is switched into it and sent to the dashboard; anyone else is told
 * plainly and offered their home.
 */
export function LoginWorkspacePage() {
  const [params] = useSearchParams();
  const link = workspaceLink(params);
  const { pathname, search } = useLocation();
  const { auth } = useSession();

  if (link === null) {
    return (
      <>
        <AuthHeading
          title="This link is incomplete"
          subtitle="A workspace link names the workspace to open (workspaceId). Open it again from where you found it."
        />
        <TextLink to={LOGIN_ROUTE}>Go to log in</TextLink>
      </>
    );
  }
  if (!auth.isAuthenticated) return <Navigate to={loginRouteFor(`${pathname}${search}`)} replace />;
  return <SwitchInto workspaceId={link.workspaceId} />;
}

function SwitchInto({ workspaceId }: { workspaceId: string }) {
  const { selectWorkspace: switchTo } = useSessionController();
  const { user: userState } = useSession();
  const navigate = useNavigate();
  // The user's workspaces as the server has them now: access given a minute ago counts.
  const me = useMe();
  const fresh = me.isSuccess && !me.isFetching;
  const selection = fresh ? selectWorkspace(me.data.workspaces, workspaceId) : null;
  const switched = useRef(false);

  useEffect(() => {
    if (!selection || switched.current) return;
    switched.current = true;
    void switchTo(selection).then(() => navigate(HOME_ROUTE, { replace: true }));
  }, [selection, switchTo, navigate]);

  if (!fresh || selection) {
    return (
      <div className="flex justify-center py-16 text-brand-600">
        <Spinner label="Opening the workspace" />
      </div>
    );
  }
  const user = userState.user;
  const home = user ? homeFor(user, userState.selectedOrganizationId) : HOME_ROUTE;
  return (
    <>
      <AuthHeading
        title="You do not have access to this workspace"
        subtitle="The link is for a workspace you are not a member of, or your access was removed. Ask its owner to invite you."
      />
      <Button fullWidth size="lg" onClick={() => void navigate(home, { replace: true })}>
        Go to your home
      </Button>
    </>
  );
}
