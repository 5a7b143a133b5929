import { describeError, normalizeEmail, validateSignUp, type SignUpBody, type SignUpFormValues } from '@ledgerline/api';
import { Button, PasswordField, TextField, useForm, useNotice, useErrorNotice } from '@ledgerline/ui';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AuthHeading } from '../../layout/AuthLayout';
import { TextLink } from '../../layout/TextLink';
import { useSessionController } from '../../session/context';
import { awaitingCode, withStatus } from '../../session/store';

const initial: SignUpFormValues = { firstName: '', middleName: '', lastName: '', companyName: '', maxTeamSize: '', email: '', password: '' };

export function SignupPage() {
  const { client, store } = useSessionController();
  const navigate = useNavigate();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const form = useForm(initial, validateSignUp);

  const signup = useMutation({
    mutationFn: (body: SignUpBody) => client.signup(body),
    onMutate: () => store.setState((s) => withStatus(s, 'loading')),
    onSuccess: (answer, body) => {
      store.setState((s) => awaitingCode(s, { sessionToken: answer.sessionToken, methodId: answer.methodId, email: body.email ?? "" }));
      notice.success(answer.message);
      void navigate('/verify-otp');
    },
    onError: (error) => {
      store.setState((s) => withStatus(s, 'failed'));
      showError(error);
    },
  });

  return (
    <>
      <AuthHeading title="Create your account" subtitle="Set up Ledgerline for your company in a couple of minutes." />
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          const v = form.values;
          signup.mutate({
            firstName: v.firstName.trim(),
            middleName: v.middleName.trim(),
            lastName: v.lastName.trim(),
            companyName: v.companyName.trim(),
            maxTeamSize: Number(v.maxTeamSize),
            email: normalizeEmail(v.email),
            password: v.password,
          });
        }}
      >
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="First Name" autoComplete="given-name" required {...form.field('firstName')} />
          <TextField label="Middle Name" autoComplete="additional-name" required {...form.field('middleName')} />
          <TextField label="Last Name" autoComplete="family-name" required {...form.field('lastName')} />
        </div>
        <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <TextField label="Company Name" autoComplete="organization" required {...form.field('companyName')} />
          <TextField label="Team Size" inputMode="numeric" placeholder="e.g. 10" required {...form.field('maxTeamSize')} />
        </div>
        <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
        <PasswordField label="Password" autoComplete="new-password" hint="At least 8 characters, with an uppercase letter, a lowercase letter and a number." required {...form.field('password')} />
        <Button type="submit" fullWidth size="lg" loading={signup.isPending} className="mt-2">
          Create account
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-slate-600 dark:text-slate-400">
        Already have an account? <TextLink to="/login">Log in</TextLink>
      </p>
    </>
  );
}
