import {
  VIEWER_DISABLED_MESSAGE,
  canEdit,
  describeError,
  useAccountsTieOut,
  useBankAccounts,
  useCreateLinkToken,
  useCreateUpdateToken,
  useLinkAccounts,
  useRemoveAccount,
  useSyncJobsInProgress,
  useSyncTransactions,
  type BankAccount,
} from '@ledgerline/api';
import { accountKindLabel, maskLabel } from '../../banking/accounts';
import { Button, Card, Dialog, EmptyState, Spinner, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { AccountsList } from '../../banking/AccountsList';
import { useImportNotices } from '../../banking/ImportNotices';
import { linkAccountsBody, type LinkSuccess } from '../../banking/link';
import { LinkFlow } from '../../banking/LinkFlow';
import { useRuntimeConfig } from '../../runtime-config';
import { useSession } from '../../session/context';
import { PageHeader } from './PageHeader';

type Flow =
  | { kind: 'idle' }
  | { kind: 'link'; token: string }
  | { kind: 'saving' }
  | { kind: 'duplicate'; success: LinkSuccess; matching: BankAccount[] }
  | { kind: 'reconnect'; token: string; account: BankAccount };

/** Spec §2 /connect-accounts: link a bank through Plaid Link (the sandbox in development) and manage the linked accounts. */
export function ConnectAccountsPage() {
  const { plaid } = useRuntimeConfig();
  const role = useSession().user.user?.role ?? 'Viewer';
  const editable = canEdit(role);
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const imports = useImportNotices();
  const accounts = useBankAccounts();
  const tieOut = useAccountsTieOut();
  const tieOuts = new Map((tieOut.data?.accounts ?? []).map((a) => [a.id, a.tieOut ?? null]));
  const syncing = useSyncJobsInProgress();
  const createLinkToken = useCreateLinkToken();
  const createUpdateToken = useCreateUpdateToken();
  const linkAccounts = useLinkAccounts();
  const removeAccount = useRemoveAccount();
  const syncTransactions = useSyncTransactions();
  const [flow, setFlow] = useState<Flow>({ kind: 'idle' });
  const [removing, setRemoving] = useState<BankAccount | null>(null);
  const [busyAccountId, setBusyAccountId] = useState<string | null>(null);

  const startLink = () =>
    createLinkToken.mutate(undefined, {
      onSuccess: ({ linkToken }) => setFlow({ kind: 'link', token: linkToken }),
      onError: showError,
    });

  const save = (success: LinkSuccess, ignoreDuplicateAccounts: boolean) => {
    setFlow({ kind: 'saving' });
    linkAccounts.mutate(linkAccountsBody(success, ignoreDuplicateAccounts), {
      onSuccess: (answer) => {
        if (answer.resultCode === 'duplicate_account') {
          setFlow({ kind: 'duplicate', success, matching: answer.matchingAccounts });
          return;
        }
        setFlow({ kind: 'idle' });
        const first = answer.accounts[0];
        if (first) imports.track({ accountId: first.id, jobIds: answer.jobs.map((j) => j.id), institutionName: first.institution.name });
      },
      onError: (error) => {
        setFlow({ kind: 'idle' });
        showError(error);
      },
    });
  };

  const startReconnect = (account: BankAccount) => {
    setBusyAccountId(account.id);
    createUpdateToken.mutate(account.id, {
      onSuccess: ({ linkToken }) => setFlow({ kind: 'reconnect', token: linkToken, account }),
      onError: showError,
      onSettled: () => setBusyAccountId(null),
    });
  };

  const sync = (account: BankAccount) => {
    setBusyAccountId(account.id);
    syncTransactions.mutate(account.id, {
      onSuccess: (answer) => notice.success(answer.message),
      onError: showError,
      onSettled: () => setBusyAccountId(null),
    });
  };

  const confirmRemove = () => {
    if (removing === null) return;
    const account = removing;
    removeAccount.mutate(account.id, {
      onSuccess: (answer) => {
        setRemoving(null);
        notice.success(answer.message);
      },
      onError: (error) => {
        setRemoving(null);
        showError(error);
      },
    });
  };

  const linking = createLinkToken.isPending || flow.kind === 'link' || flow.kind === 'saving' || flow.kind === 'duplicate';
  const connectButton = (
    <Button onClick={startLink} loading={linking} disabled={plaid === null || !editable} title={!editable ? VIEWER_DISABLED_MESSAGE : undefined}>
      Connect a bank
    </Button>
  );
  const list = accounts.data ?? [];

  return (
    <>
      <PageHeader
        title="Connect Accounts"
        description="Link your business bank and card accounts. Their transactions import on their own and keep arriving."
        actions={connectButton}
      />
      {plaid === null && (
        <p
          role="alert"
          className="mb-6 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          Bank linking is not configured for this server (config.json has no plaid section).
        </p>
      )}
      {!editable && <p className="mb-6 text-sm text-slate-500 dark:text-slate-400">{VIEWER_DISABLED_MESSAGE}</p>}

      <Card title="Connected accounts">
        {accounts.isPending && <Spinner label="Loading accounts" />}
        {accounts.isError && (
          <EmptyState
            title="Your accounts could not be loaded"
            description={describeError(accounts.error)?.message}
            action={
              <Button variant="secondary" onClick={() => void accounts.refetch()}>
                Try again
              </Button>
            }
          />
        )}
        {accounts.isSuccess && list.length === 0 && (
          <EmptyState title="No bank accounts connected" description="Connect a bank to import its checking, savings and credit-card transactions." />
        )}
        {list.length > 0 && (
          <AccountsList
            accounts={list}
            jobs={syncing.data ?? []}
            tieOuts={tieOuts}
            actions={
              editable ? { onReconnect: startReconnect, onSync: sync, onRemove: setRemoving, busyAccountId } : { disabledReason: VIEWER_DISABLED_MESSAGE }
            }
          />
        )}
      </Card>

      {plaid !== null && flow.kind === 'link' && (
        <LinkFlow
          plaid={plaid}
          token={flow.token}
          onSuccess={(success) => save(success, false)}
          onExit={(error) => {
            setFlow({ kind: 'idle' });
            if (error) notice.error(error.message);
          }}
        />
      )}
      {plaid !== null && flow.kind === 'reconnect' && (
        <LinkFlow
          plaid={plaid}
          token={flow.token}
          reconnect={{ institutionName: flow.account.institution.name || flow.account.name }}
          onSuccess={() => {
            const { account } = flow;
            setFlow({ kind: 'idle' });
            // The repaired login syncs at once, which also clears the account's reconnect flag.
            sync(account);
          }}
          onExit={(error) => {
            setFlow({ kind: 'idle' });
            if (error) notice.error(error.message);
          }}
        />
      )}

      <Dialog
        open={flow.kind === 'duplicate'}
        onClose={() => setFlow({ kind: 'idle' })}
        title="These accounts are already connected"
        description="The bank you linked has accounts that match accounts already in this workspace. Connecting them again imports their transactions twice."
        actions={
          <>
            <Button variant="secondary" onClick={() => setFlow({ kind: 'idle' })}>
              Cancel
            </Button>
            <Button loading={linkAccounts.isPending} onClick={() => flow.kind === 'duplicate' && save(flow.success, true)}>
              Connect anyway
            </Button>
          </>
        }
      >
        {flow.kind === 'duplicate' && (
          <ul className="space-y-1 text-sm">
            {flow.matching.map((a) => (
              <li key={a.id}>
                {a.institution.name} · {a.name} {maskLabel(a.mask)} ({accountKindLabel(a)})
              </li>
            ))}
          </ul>
        )}
      </Dialog>

      <Dialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={removing ? `Remove ${removing.name} ${maskLabel(removing.mask)}?` : 'Remove account?'}
        description="Ledgerline stops importing its transactions. The transactions already imported stay in your books."
        actions={
          <>
            <Button variant="secondary" onClick={() => setRemoving(null)}>
              Cancel
            </Button>
            <Button variant="danger" loading={removeAccount.isPending} onClick={confirmRemove}>
              Remove account
            </Button>
          </>
        }
      />
    </>
  );
}
