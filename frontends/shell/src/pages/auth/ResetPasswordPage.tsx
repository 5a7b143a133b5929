import { describeError, validateNewPassword, type NewPasswordFormValues } from '@ledgerline/api';
import { Button, PasswordField, useForm, useNotice, useErrorNotice } from '@ledgerline/ui';
import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { AuthHeading } from '../../layout/AuthLayout';
import { TextLink } from '../../layout/TextLink';
import { useSessionController } from '../../session/context';
import { signedIn } from '../../session/store';

const initial: NewPasswordFormValues = { password: '', confirmPassword: '' };

export function ResetPasswordPage() {
  const { client, store } = useSessionController();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const form = useForm(initial, validateNewPassword);

  const reset = useMutation({
    mutationFn: (v: NewPasswordFormValues) => client.resetPassword({ token, password: v.password, confirmPassword: v.confirmPassword }),
    onSuccess: (answer) => {
      notice.success(answer.message);
      store.setState((s) => signedIn(s, answer));
    },
    onError: showError,
  });

  if (token === '') {
    return (
      <>
        <AuthHeading title="This link is incomplete" subtitle="The password reset link is missing its token. Request a new link and open it from the email." />
        <TextLink to="/forgot-password">Request a new link</TextLink>
      </>
    );
  }

  return (
    <>
      <AuthHeading
        title="Set a new password"
        subtitle="Choose a password of at least 8 characters, with an uppercase letter, a lowercase letter and a number."
      />
      <form
        noValidate
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          reset.mutate(form.values);
        }}
      >
        <PasswordField label="New password" autoComplete="new-password" required {...form.field('password')} />
        <PasswordField label="Confirm password" autoComplete="new-password" required {...form.field('confirmPassword')} />
        <Button type="submit" fullWidth size="lg" loading={reset.isPending}>
          Set password
        </Button>
      </form>
    </>
  );
}
