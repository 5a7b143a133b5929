import { describeError, useUpdatePasswordByExistingPassword, validateChangePassword, type ChangePasswordFormValues } from '@ledgerline/api';
import { Button, Card, Checkbox, PasswordField, useForm, useNotice, useErrorNotice } from '@ledgerline/ui';
import { useState } from 'react';

const initial: ChangePasswordFormValues = { existingPassword: '', newPassword: '', confirmPassword: '' };

export function SecurityTab() {
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
        <PasswordField label="New password" autoComplete="new-password" hint="At least 8 characters, with an uppercase letter, a lowercase letter and a number." required {...form.field('newPassword')} />
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
