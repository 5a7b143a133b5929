import { describeError, type OauthResponse } from '@ledgerline/api';
import { Spinner } from '@ledgerline/ui';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { AuthHeading } from '../../layout/AuthLayout';
import { TextLink } from '../../layout/TextLink';
import { useSessionController } from '../../session/context';
import { readGoogleAnswer, takePendingGoogleSignIn, type PendingGoogleSignIn } from '../../session/google';
import { signedIn, withStatus } from '../../session/store';

/**
 * /oauth/google: where Google sends the browser back. The ID token in the fragment is checked against this tab's
 * pending sign-in (state, nonce, time) and handed to POST /login-oauth or /signup-oauth; identity verifies it. Signed
 * in, the route guard opens the page asked for, the onboarding of a new account, or home.
 */
export function GoogleCallbackPage() {
  const { client, store } = useSessionController();
  const navigate = useNavigate();
  const { hash } = useLocation();
  const [problem, setProblem] = useState<string | null>(null);
  const started = useRef(false);

  const exchange = useMutation<OauthResponse, unknown, { idToken: string; pending: PendingGoogleSignIn }>({
    mutationFn: ({ idToken, pending }) => (pending.mode === 'signup' ? client.signupOauth({ token: idToken }) : client.loginOauth({ token: idToken })),
    onMutate: () => store.setState((s) => withStatus(s, 'loading')),
    onSuccess: (answer, { pending }) => {
      store.setState((s) => signedIn(s, { user: answer.user, sessionToken: answer.sessionToken }));
      void navigate(pending.next ?? '/', { replace: true });
    },
    onError: (error) => {
      store.setState((s) => withStatus(s, 'failed'));
      setProblem(describeError(error)?.message ?? 'Google sign-in did not finish. Try again.');
    },
  });

  useEffect(() => {
    // Once: the pending sign-in is taken out of storage, so a reload of this page cannot use the token again.
    if (started.current) return;
    started.current = true;
    const answer = readGoogleAnswer(hash, takePendingGoogleSignIn(window.sessionStorage));
    // The token leaves the address bar (and the history entry) at once.
    window.history.replaceState(null, '', window.location.pathname);
    if (answer.kind === 'refused') setProblem(answer.message);
    else exchange.mutate({ idToken: answer.idToken, pending: answer.pending });
  }, [hash, exchange]);

  if (problem !== null) {
    return (
      <>
        <AuthHeading title="Google sign-in did not finish" subtitle={problem} />
        <p className="text-center text-sm">
          <TextLink to="/login">Back to sign in</TextLink>
        </p>
      </>
    );
  }
  return (
    <div className="flex flex-col items-center gap-3 py-8 text-sm text-slate-600 dark:text-slate-400" role="status">
      <Spinner />
      Signing you in with Google…
    </div>
  );
}
