import { describeError, useCurrentUser, useUpdateMe, validateNames, type NamesFormValues } from '@ledgerline/api';
import { Button, Card, TextField, useForm, useNotice, useErrorNotice } from '@ledgerline/ui';

export function ProfileTab() {
  const user = useCurrentUser();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const updateMe = useUpdateMe();
  const form = useForm<NamesFormValues>(
    { firstName: user?.firstName ?? '', middleName: user?.middleName ?? '', lastName: user?.lastName ?? '' },
    validateNames,
  );

  return (
    <Card title="Profile" description="Your name as your team and your accountant see it.">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          updateMe.mutate(
            { firstName: form.values.firstName.trim(), middleName: form.values.middleName.trim(), lastName: form.values.lastName.trim() },
            { onSuccess: () => notice.success('Your profile has been updated.'), onError: showError },
          );
        }}
      >
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="First Name" autoComplete="given-name" required {...form.field('firstName')} />
          <TextField label="Middle Name" autoComplete="additional-name" required {...form.field('middleName')} />
          <TextField label="Last Name" autoComplete="family-name" required {...form.field('lastName')} />
        </div>
        <TextField label="Email" name="email" value={user?.email ?? ''} readOnly disabled hint="Your sign-in email cannot be changed here." />
        <div className="flex justify-end">
          <Button type="submit" loading={updateMe.isPending}>
            Save profile
          </Button>
        </div>
      </form>
    </Card>
  );
}
