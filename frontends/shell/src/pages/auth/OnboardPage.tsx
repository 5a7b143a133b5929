import { describeError, REFERRAL_OPTIONS, isReferralSource, queryKeys, validateOnboard, type OnboardFormValues } from '@ledgerline/api';
import { Button, Select, TextField, useForm, useErrorNotice } from '@ledgerline/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AuthHeading } from '../../layout/AuthLayout';
import { useSession, useSessionController } from '../../session/context';
import { withUser } from '../../session/store';

const referralOptions = REFERRAL_OPTIONS.map((value) => ({ value, label: value }));

export function OnboardPage() {
  const { client, store, logout } = useSessionController();
  const { user } = useSession().user;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const showError = useErrorNotice(describeError);
  // Sign-up already asked for the company and team size; start from what the server kept.
  const form = useForm<OnboardFormValues>(
    {
      companyName: user?.profile?.companyName ?? '',
      maxTeamSize: user?.profile?.maxTeamSize ? String(user.profile.maxTeamSize) : '',
      role: user?.profile?.role ?? '',
      phoneNumber: user?.profile?.phoneNumber ?? '',
      city: user?.profile?.city ?? '',
      country: user?.profile?.country ?? '',
      heardAboutUs: user?.profile?.heardAboutUs ?? '',
    },
    validateOnboard,
  );

  const onboard = useMutation({
    mutationFn: (v: OnboardFormValues) => {
      if (!isReferralSource(v.heardAboutUs)) throw new Error('unreachable: validated before sending');
      return client.onboardUser({
        companyName: v.companyName.trim(),
        maxTeamSize: Number(v.maxTeamSize),
        role: v.role.trim(),
        phoneNumber: v.phoneNumber.trim(),
        city: v.city.trim(),
        country: v.country.trim(),
        heardAboutUs: v.heardAboutUs,
      });
    },
    onSuccess: async (answer) => {
      // A GET /users/me still in flight from sign-in would answer "not onboarded" and send the user back
      // here: drop it and keep the onboarded user as the current answer.
      await queryClient.cancelQueries({ queryKey: queryKeys.me });
      queryClient.setQueryData(queryKeys.me, answer.user);
      store.setState((s) => withUser(s, answer.user));
      void navigate('/dashboard', { replace: true });
    },
    onError: showError,
  });

  return (
    <>
      <AuthHeading
        title={user ? `Welcome, ${user.firstName}` : 'Tell us about your company'}
        subtitle="A few details about your company so we can set up your workspace."
      />
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          onboard.mutate(form.values);
        }}
      >
        <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <TextField label="Company Name" autoComplete="organization" required {...form.field('companyName')} />
          <TextField label="Team Size" inputMode="numeric" required {...form.field('maxTeamSize')} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Your Role" placeholder="Founder, CFO, …" autoComplete="organization-title" required {...form.field('role')} />
          <TextField
            label="Phone Number"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            maxLength={10}
            placeholder="10 digits"
            required
            {...form.field('phoneNumber')}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="City" autoComplete="address-level2" required {...form.field('city')} />
          <TextField label="Country" autoComplete="country-name" required {...form.field('country')} />
        </div>
        <Select
          label="How did you hear about us?"
          name="heardAboutUs"
          options={referralOptions}
          value={isReferralSource(form.values.heardAboutUs) ? form.values.heardAboutUs : null}
          onChange={(value) => form.setValue('heardAboutUs', value)}
          error={form.errors.heardAboutUs}
          required
        />
        <Button type="submit" fullWidth size="lg" loading={onboard.isPending} className="mt-2">
          Continue
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-slate-600 dark:text-slate-400">
        Not you?{' '}
        <button type="button" className="font-medium text-brand-700 hover:underline dark:text-brand-300" onClick={() => void logout()}>
          Log out
        </button>
      </p>
    </>
  );
}
