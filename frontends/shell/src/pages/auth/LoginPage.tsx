import { describeError, normalizeEmail, validateLogin, type LoginFormValues, type LoginResponse } from '@ledgerline/api';
import { Button, PasswordField, TextField, useForm, useNotice, useErrorNotice } from '@ledgerline/ui';
import { useMutation } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { AuthHeading } from '../../layout/AuthLayout';
import { TextLink } from '../../layout/TextLink';
import { useSessionController } from '../../session/context';
import { readDeviceToken } from '../../session/device';
import { awaitingCode, signedIn, withStatus } from '../../session/store';
import { CODE_SENT_NOTICE } from './code-notice';
import { GoogleButton } from './GoogleButton';

const initial: LoginFormValues = { email: '', password: '' };

export function LoginPage() {
  const { client, store } = useSessionController();
  const navigate = useNavigate();
  // ?next= (the page asked for) travels on to the code step; the guard returns there once signed in.
  const { search } = useLocation();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const form = useForm(initial, validateLogin);

  const login = useMutation({
    mutationFn: (body: LoginFormValues) => {
      const deviceToken = readDeviceToken();
      return client.login({ ...body, ...(deviceToken ? { deviceToken } : {}) });
    },
    onMutate: () => store.setState((s) => withStatus(s, 'loading')),
    onSuccess: (answer: LoginResponse, body) => {
      // With a user the session is open; without one a code was sent and the token + method id are kept.
      if ('user' in answer) {
        store.setState((s) => signedIn(s, { user: answer.user, sessionToken: answer.sessionToken }));
        return;
      }
      store.setState((s) => awaitingCode(s, { sessionToken: answer.sessionToken, methodId: answer.methodId, email: body.email }));
      notice.info(answer.message, { id: CODE_SENT_NOTICE });
      void navigate(`/verify-otp${search}`);
    },
    onError: (error) => {
      store.setState((s) => withStatus(s, 'failed'));
      showError(error);
    },
  });

  return (
    <>
      <AuthHeading title="Log in to Ledgerline" subtitle="Welcome back. Enter your email and password to continue." />
      <form
        noValidate
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          login.mutate({ email: normalizeEmail(form.values.email), password: form.values.password });
        }}
      >
        <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
        <div>
          <PasswordField label="Password" required {...form.field('password')} />
          <div className="mt-2 text-right text-sm">
            <TextLink to="/forgot-password">Forgot password?</TextLink>
          </div>
        </div>
        <Button type="submit" fullWidth size="lg" loading={login.isPending}>
          Log in
        </Button>
      </form>
      <GoogleButton mode="login" />
      <p className="mt-8 text-center text-sm text-slate-600 dark:text-slate-400">
        New to Ledgerline? <TextLink to="/signup">Create an account</TextLink>
      </p>
    </>
  );
}
