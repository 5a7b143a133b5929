import {
  describeError,
  inviteFromSearch,
  useAcceptFirmInvite,
  useVerifyInvite,
  validateNewPassword,
  type InviteLink,
  type NewPasswordFormValues,
  type VerifyInviteResponse,
} from '@ledgerline/api';
import { Button, PasswordField, Spinner, useErrorNotice, useForm, useNotice } from '@ledgerline/ui';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { AuthHeading } from '../../layout/AuthLayout';
import { TextLink } from '../../layout/TextLink';
import { LOGIN_ROUTE, SELECT_ORGANIZATION_ROUTE, homeFor, loginRouteFor } from '../../routing/guard';
import { useSession, useSessionController } from '../../session/context';
import { signedIn } from '../../session/store';

type Step =
  | { kind: 'asking' }
  | { kind: 'password'; invite: VerifyInviteResponse }
  | { kind: 'accepted'; message: string }
  | { kind: 'sign-in'; message: string; email: string }
  | { kind: 'failed'; message: string };

const initial: NewPasswordFormValues = { password: '', confirmPassword: '' };

/**
 * Spec §2 /verify-invite: the link of a workspace invite (`?token=`) or a firm invite (`?token=&kind=firm`).
 * Signed out, the server is asked at once: a new address sets a password (spec §5 rules) and is signed in; an
 * existing account is accepted (workspace invites) or asked to log in and come back (firm invites). Signed in, one
 * click accepts. A used, revoked or expired link shows the server's message and a way to log in.
 */
export function VerifyInvitePage() {
  const [params] = useSearchParams();
  const invite = inviteFromSearch(params);
  const { auth, user } = useSession();
  const signedInUser = auth.isAuthenticated ? user.user : null;

  if (invite === null) {
    return (
      <>
        <AuthHeading
          title="This link is incomplete"
          subtitle="The invitation link is missing its token. Open it again from the email, or ask for a new invitation."
        />
        <TextLink to={LOGIN_ROUTE}>Go to log in</TextLink>
      </>
    );
  }
  return signedInUser ? <AcceptAsSignedIn invite={invite} email={signedInUser.email} /> : <AcceptAsVisitor invite={invite} />;
}

/** The link's own address, so /login can come back to it. */
function useLoginBack(): string {
  const { pathname, search } = useLocation();
  return loginRouteFor(`${pathname}${search}`);
}

function AcceptAsSignedIn({ invite, email }: { invite: InviteLink; email: string }) {
  const { store } = useSessionController();
  const navigate = useNavigate();
  const notice = useNotice();
  const verify = useVerifyInvite();
  const acceptFirm = useAcceptFirmInvite();
  const [failure, setFailure] = useState<string | null>(null);
  const pending = verify.isPending || acceptFirm.isPending;

  const accepted = (message: string, firm: boolean) => {
    notice.success(message);
    const { user } = store.getState();
    void navigate(firm ? SELECT_ORGANIZATION_ROUTE : user.user ? homeFor(user.user, user.selectedOrganizationId) : '/dashboard', { replace: true });
  };
  const failed = (error: unknown) => setFailure(describeError(error)?.message ?? 'This invite link is invalid or has expired');

  const accept = () => {
    setFailure(null);
    if (invite.kind === 'firm') {
      acceptFirm.mutate(invite.token, { onSuccess: (answer) => accepted(answer.message, true), onError: failed });
      return;
    }
    verify.mutate(
      { token: invite.token },
      {
        onSuccess: (answer) => {
          if (answer.status === 'accepted') accepted(answer.message, false);
          else setFailure(`This invitation is for ${answer.email}. Log out, then open the link again to set a password for that address.`);
        },
        onError: failed,
      },
    );
  };

  return (
    <>
      <AuthHeading
        title={invite.kind === 'firm' ? 'Join the accounting firm' : 'Join the workspace'}
        subtitle={
          <>
            You are signed in as <strong className="font-medium text-slate-900 dark:text-slate-100">{email}</strong>. Accept the invitation to add it to your
            account.
          </>
        }
      />
      {failure && (
        <p
          role="alert"
          className="mb-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {failure}
        </p>
      )}
      <Button fullWidth size="lg" loading={pending} onClick={accept}>
        Accept invitation
      </Button>
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        <TextLink to="/dashboard">Not now</TextLink>
      </p>
    </>
  );
}

function AcceptAsVisitor({ invite }: { invite: InviteLink }) {
  const { store } = useSessionController();
  const navigate = useNavigate();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const verify = useVerifyInvite();
  const loginBack = useLoginBack();
  const [step, setStep] = useState<Step>({ kind: 'asking' });
  const form = useForm(initial, validateNewPassword);
  const asked = useRef(false);

  const answered = (answer: VerifyInviteResponse) => {
    if (answer.status === 'password-required') {
      setStep({ kind: 'password', invite: answer });
      return;
    }
    if (answer.status === 'sign-in-required') {
      setStep({ kind: 'sign-in', message: answer.message, email: answer.email });
      return;
    }
    if (answer.user && answer.sessionToken) {
      const { user, sessionToken } = answer;
      store.setState((s) => signedIn(s, { user, sessionToken }));
      notice.success(answer.message);
      const selected = store.getState().user.selectedOrganizationId;
      void navigate(homeFor(user, selected), { replace: true });
      return;
    }
    setStep({ kind: 'accepted', message: answer.message });
  };

  useEffect(() => {
    // Once per link (StrictMode runs effects twice in development).
    if (asked.current) return;
    asked.current = true;
    verify.mutate(
      { token: invite.token, kind: invite.kind },
      { onSuccess: answered, onError: (error) => setStep({ kind: 'failed', message: describeError(error)?.message ?? 'Something went wrong' }) },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked once for the link the page opened with
  }, [invite.token]);

  if (step.kind === 'asking') {
    return (
      <div className="flex justify-center py-16 text-brand-600">
        <Spinner label="Checking your invitation" />
      </div>
    );
  }
  if (step.kind === 'failed') {
    return (
      <>
        <AuthHeading title="This invitation cannot be used" />
        <p
          role="alert"
          className="mb-6 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {step.message}
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {invite.kind === 'firm' ? (
            <>
              Already have an account? <TextLink to={loginBack}>Log in to accept</TextLink>. Otherwise ask the firm for a new invitation.
            </>
          ) : (
            <>
              Ask for a new invitation, or <TextLink to={LOGIN_ROUTE}>log in</TextLink> if you already have an account.
            </>
          )}
        </p>
      </>
    );
  }
  if (step.kind === 'sign-in') {
    return (
      <>
        <AuthHeading
          title="Log in to accept"
          subtitle={
            <>
              <strong className="font-medium break-all text-slate-900 dark:text-slate-100">{step.email}</strong> already has a Ledgerline account.{' '}
              {step.message}
            </>
          }
        />
        <TextLink to={loginBack}>Log in and accept the invitation</TextLink>
      </>
    );
  }
  if (step.kind === 'accepted') {
    return (
      <>
        <AuthHeading title="Invitation accepted" subtitle={step.message} />
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Log in with your existing account to open it. <TextLink to={LOGIN_ROUTE}>Log in</TextLink>
        </p>
      </>
    );
  }

  const { invite: details } = step;
  const name = [details.firstName, details.lastName].filter(Boolean).join(' ');
  return (
    <>
      <AuthHeading
        title={name ? `Welcome, ${details.firstName}` : 'Welcome to Ledgerline'}
        subtitle={
          <>
            Set a password for <strong className="font-medium break-all text-slate-900 dark:text-slate-100">{details.email}</strong> to accept the invitation.
          </>
        }
      />
      <form
        noValidate
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.check()) return;
          verify.mutate(
            { token: invite.token, kind: invite.kind, password: form.values.password, confirmPassword: form.values.confirmPassword },
            { onSuccess: answered, onError: showError },
          );
        }}
      >
        <PasswordField
          label="Password"
          autoComplete="new-password"
          hint="At least 8 characters, with an uppercase letter, a lowercase letter and a number."
          required
          {...form.field('password')}
        />
        <PasswordField label="Confirm password" autoComplete="new-password" required {...form.field('confirmPassword')} />
        <Button type="submit" fullWidth size="lg" loading={verify.isPending}>
          Set password and join
        </Button>
      </form>
      <p className="mt-8 text-center text-sm text-slate-600 dark:text-slate-400">
        Already have an account? <TextLink to={loginBack}>Log in</TextLink>
      </p>
    </>
  );
}
