import { describeError, firmApi, type FirmSignUpBody, type FirmSignUpFormValues, type SignUpBody, type SignUpKind } from '@ledgerline/api';
import { Button, PasswordField, TextField, cx, useForm, useNotice, useErrorNotice } from '@ledgerline/ui';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AuthHeading } from '../../layout/AuthLayout';
import { TextLink } from '../../layout/TextLink';
import { useSessionController } from '../../session/context';
import { awaitingCode, withStatus } from '../../session/store';
import { SIGN_UP_KINDS, signUpBodyFor, signUpValidator } from './signup';
import { CODE_SENT_NOTICE } from './code-notice';
import { GoogleButton } from './GoogleButton';

const initial: FirmSignUpFormValues = {
  firstName: '',
  middleName: '',
  lastName: '',
  companyName: '',
  maxTeamSize: '',
  email: '',
  password: '',
  firmName: '',
  country: '',
};

export function SignupPage() {
  const { client, store } = useSessionController();
  const navigate = useNavigate();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const [kind, setKind] = useState<SignUpKind>('business');
  const form = useForm(initial, signUpValidator(kind));

  const signup = useMutation({
    mutationFn: (body: SignUpBody | FirmSignUpBody) => firmApi.signUp(client, body),
    onMutate: () => store.setState((s) => withStatus(s, 'loading')),
    onSuccess: (answer, body) => {
      store.setState((s) => awaitingCode(s, { sessionToken: answer.sessionToken, methodId: answer.methodId, email: body.email ?? '' }));
      notice.success(answer.message, { id: CODE_SENT_NOTICE });
      void navigate('/verify-otp');
    },
    onError: (error) => {
      store.setState((s) => withStatus(s, 'failed'));
      showError(error);
    },
  });

  return (
    <>
      <AuthHeading
        title="Create your account"
        subtitle={
          kind === 'firm'
            ? 'Set up Ledgerline for your firm and its clients in a couple of minutes.'
            : 'Set up Ledgerline for your company in a couple of minutes.'
        }
      />
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          signup.mutate(signUpBodyFor(kind, form.values));
        }}
      >
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-300">Sign up as</legend>
          <div className="grid grid-cols-2 gap-3">
            {SIGN_UP_KINDS.map((option) => (
              <label
                key={option.kind}
                className={cx(
                  'flex min-w-0 cursor-pointer flex-col rounded-lg border px-3 py-2.5 text-sm has-focus-visible:ring-2 has-focus-visible:ring-brand-500/40',
                  kind === option.kind ? 'border-brand-500 bg-brand-50 dark:border-brand-400 dark:bg-brand-950' : 'border-slate-300 dark:border-slate-700',
                )}
              >
                <span className="flex items-center gap-2 font-medium text-slate-900 dark:text-slate-100">
                  <input
                    type="radio"
                    name="signup-kind"
                    value={option.kind}
                    checked={kind === option.kind}
                    onChange={() => setKind(option.kind)}
                    className="accent-brand-600"
                  />
                  {option.label}
                </span>
                <span className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">{option.description}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="First Name" autoComplete="given-name" required {...form.field('firstName')} />
          <TextField label="Middle Name" autoComplete="additional-name" required {...form.field('middleName')} />
          <TextField label="Last Name" autoComplete="family-name" required {...form.field('lastName')} />
        </div>
        {kind === 'firm' ? (
          <>
            <TextField label="Firm Name" autoComplete="organization" required {...form.field('firmName')} />
            <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
              <TextField label="Country" autoComplete="country-name" required {...form.field('country')} />
              <TextField label="Team Size" inputMode="numeric" placeholder="Optional" {...form.field('maxTeamSize')} />
            </div>
          </>
        ) : (
          <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <TextField label="Company Name" autoComplete="organization" required {...form.field('companyName')} />
            <TextField label="Team Size" inputMode="numeric" placeholder="e.g. 10" required {...form.field('maxTeamSize')} />
          </div>
        )}
        <TextField label="Email" type="email" autoComplete="email" required {...form.field('email')} />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          hint="At least 8 characters, with an uppercase letter, a lowercase letter and a number."
          required
          {...form.field('password')}
        />
        <Button type="submit" fullWidth size="lg" loading={signup.isPending} className="mt-2">
          Create account
        </Button>
      </form>
      {/* A firm's sign-up needs the firm's name and country, which Google does not give: email and password only. */}
      {kind === 'business' && <GoogleButton mode="signup" />}
      <p className="mt-8 text-center text-sm text-slate-600 dark:text-slate-400">
        Already have an account? <TextLink to="/login">Log in</TextLink>
      </p>
    </>
  );
}
