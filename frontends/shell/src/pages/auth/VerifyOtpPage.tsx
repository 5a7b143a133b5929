import { describeError, OTP_LENGTH, validateOtpCode } from '@ledgerline/api';
import { Button, TextField, useForm, useNotice, useErrorNotice } from '@ledgerline/ui';
import { useMutation } from '@tanstack/react-query';
import { AuthHeading } from '../../layout/AuthLayout';
import { TextLink } from '../../layout/TextLink';
import { useSession, useSessionController } from '../../session/context';
import { readDeviceToken, rememberDeviceToken } from '../../session/device';
import { signedIn, withStatus } from '../../session/store';
import { CODE_SENT_NOTICE } from './code-notice';

const validate = (v: { code: string }) => {
  const code = validateOtpCode(v.code);
  return code === undefined ? {} : { code };
};

export function VerifyOtpPage() {
  const { client, store } = useSessionController();
  const { auth } = useSession();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const form = useForm({ code: '' }, validate);
  const pending = auth.accessToken !== null && auth.methodId !== null;

  const verify = useMutation({
    mutationFn: (code: string) => {
      const deviceToken = readDeviceToken();
      return client.authenticateOtp({ methodId: auth.methodId ?? '', sessionToken: auth.accessToken ?? '', code, ...(deviceToken ? { deviceToken } : {}) });
    },
    onMutate: () => store.setState((s) => withStatus(s, 'loading')),
    // This browser is now trusted for 30 days. The guard moves the signed-in user on to onboarding, the
    // page asked for before login (?next=), or the dashboard.
    onSuccess: (answer) => {
      rememberDeviceToken(answer.deviceToken);
      notice.dismiss(CODE_SENT_NOTICE);
      store.setState((s) => signedIn(s, answer));
    },
    onError: (error) => {
      store.setState((s) => withStatus(s, 'failed'));
      showError(error);
    },
  });

  const resend = useMutation({
    mutationFn: () => client.resendOtp({ email: auth.pendingEmail ?? '', sessionToken: auth.accessToken ?? '' }),
    onSuccess: (answer) => {
      store.setState((s) => ({ ...s, auth: { ...s.auth, methodId: answer.methodId } }));
      notice.success(answer.message, { id: CODE_SENT_NOTICE });
    },
    onError: showError,
  });

  return (
    <>
      <AuthHeading
        title="Check your email"
        subtitle={
          pending && auth.pendingEmail ? (
            <>
              We sent a {OTP_LENGTH}-digit code to <span className="font-medium text-slate-900 dark:text-white">{auth.pendingEmail}</span>. Enter it below to
              continue.
            </>
          ) : (
            <>Enter the {OTP_LENGTH}-digit code we emailed you when you signed up or logged in.</>
          )
        }
      />
      {!pending && (
        <p className="mb-6 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          There is no sign-in waiting for a code in this browser. <TextLink to="/login">Log in</TextLink> or <TextLink to="/signup">sign up</TextLink> to get
          one.
        </p>
      )}
      <form
        noValidate
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          verify.mutate(form.values.code.trim());
        }}
      >
        <TextField
          label="Verification code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          placeholder="000000"
          className="[&_input]:text-center [&_input]:font-mono [&_input]:text-lg [&_input]:tracking-[0.5em]"
          required
          {...form.field('code')}
        />
        <Button type="submit" fullWidth size="lg" loading={verify.isPending} disabled={!pending}>
          Verify
        </Button>
      </form>
      <div className="mt-6 flex items-center justify-center gap-2 text-sm text-slate-600 dark:text-slate-400">
        <span>Didn&apos;t get it?</span>
        <Button variant="ghost" size="sm" loading={resend.isPending} disabled={!pending || auth.pendingEmail === null} onClick={() => resend.mutate()}>
          Resend code
        </Button>
      </div>
    </>
  );
}
