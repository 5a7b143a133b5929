import {
  describeError,
  useSecuritySettings,
  useUpdatePasswordByExistingPassword,
  useUpdateSecuritySettings,
  validateChangePassword,
  type ChangePasswordFormValues,
} from '@ledgerline/api';
import { Button, Card, Checkbox, PasswordField, useForm, useNotice, useErrorNotice } from '@ledgerline/ui';
import { useState } from 'react';

const initial: ChangePasswordFormValues = { existingPassword: '', newPassword: '', confirmPassword: '' };

/** Settings → Security: ask for the emailed code at every sign-in, even on a trusted browser (decision 0006). */
function SignInCodeCard() {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const settings = useSecuritySettings();
  const update = useUpdateSecuritySettings();
  const trusted = settings.data?.trustedDevices ?? 0;
  return (
    <Card title="Sign-in code" description="After your password we email you a 6-digit code. A browser where you entered one is trusted for 30 days.">
      <div className="max-w-md space-y-2">
        <Checkbox
          label="Always ask for a code"
          name="requireCodeAlways"
          description="Ask for the emailed code at every sign-in, even in a browser you used before."
          checked={settings.data?.requireCodeAlways ?? false}
          disabled={!settings.data || update.isPending}
          onChange={(event) =>
            update.mutate(
              { requireCodeAlways: event.target.checked },
              {
                onSuccess: (answer) =>
                  notice.success(answer.requireCodeAlways ? 'Every sign-in will ask for a code.' : 'Trusted browsers skip the code for 30 days.'),
                onError: showError,
              },
            )
          }
        />
        {settings.data && (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="trusted-devices">
            {trusted === 1 ? '1 trusted browser' : `${trusted} trusted browsers`}
          </p>
        )}
        {settings.isError && <p className="text-sm text-red-600">{describeError(settings.error)?.message}</p>}
      </div>
    </Card>
  );
}

export function SecurityTab() {
  return (
    <div className="space-y-6">
      <SignInCodeCard />
      <PasswordCard />
    </div>
  );
}

function PasswordCard() {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const update = useUpdatePasswordByExistingPassword();
  const form = useForm(initial, validateChangePassword);
  const [endOtherSessions, setEndOtherSessions] = useState(false);

  return (
    <Card title="Password" description="Change the password you sign in with.">
      <form
        noValidate
        className="max-w-md space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          update.mutate(
            { existingPassword: form.values.existingPassword, newPassword: form.values.newPassword, endOtherSessions },
            {
              // Spec §8: a password update shows the server's message.
              onSuccess: (answer) => {
                notice.success(answer.message);
                form.setValues(initial);
              },
              onError: showError,
            },
          );
        }}
      >
        <PasswordField label="Current password" required {...form.field('existingPassword')} />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          hint="At least 8 characters, with an uppercase letter, a lowercase letter and a number."
          required
          {...form.field('newPassword')}
        />
        <PasswordField label="Confirm new password" autoComplete="new-password" required {...form.field('confirmPassword')} />
        <Checkbox
          label="Sign out of other devices"
          name="endOtherSessions"
          description="Ends every other session signed in to your account."
          checked={endOtherSessions}
          onChange={(event) => setEndOtherSessions(event.target.checked)}
        />
        <div className="flex justify-end">
          <Button type="submit" loading={update.isPending}>
            Update password
          </Button>
        </div>
      </form>
    </Card>
  );
}
