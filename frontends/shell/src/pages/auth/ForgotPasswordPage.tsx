import { describeError, checkEmail, normalizeEmail } from '@ledgerline/api';
import { Button, TextField, useForm, useNotice, useErrorNotice } from '@ledgerline/ui';
import { useMutation } from '@tanstack/react-query';
import { AuthHeading } from '../../layout/AuthLayout';
import { TextLink } from '../../layout/TextLink';
import { useSessionController } from '../../session/context';

const validate = (v: { email: string }) => {
  const email = checkEmail(v.email);
  return email === undefined ? {} : { email };
};

export function ForgotPasswordPage() {
  const { client } = useSessionController();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const form = useForm({ email: '' }, validate);

  const send = useMutation({
    mutationFn: (email: string) => client.forgotPassword({ email }),
    onSuccess: (answer) => notice.success(answer.message),
    onError: showError,
  });

  return (
    <>
      <AuthHeading title="Reset your password" subtitle="Enter the email you sign in with and we will send you a link to set a new password." />
      {send.isSuccess ? (
        <div
          role="status"
          className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
        >
          {send.data.message}
        </div>
      ) : (
        <form
          noValidate
          className="space-y-5"
          onSubmit={(event) => {
            event.preventDefault();
            if (!form.check()) return;
            send.mutate(normalizeEmail(form.values.email));
          }}
        >
          <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
          <Button type="submit" fullWidth size="lg" loading={send.isPending}>
            Send reset link
          </Button>
        </form>
      )}
      <p className="mt-8 text-center text-sm text-slate-600 dark:text-slate-400">
        Remembered it? <TextLink to="/login">Back to log in</TextLink>
      </p>
    </>
  );
}
