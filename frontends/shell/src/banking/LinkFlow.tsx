import { Button, Dialog, Spinner, cx } from '@ledgerline/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { PlaidWebConfig } from '../config';
import { completeSandboxLink, fetchSandboxInstitutions, openPlaidLink, type LinkSuccess } from './link';

export interface LinkFlowProps {
  plaid: PlaidWebConfig;
  /** A link token from POST /plaid/link-token, or one in update mode from POST /plaid/update-token. */
  token: string;
  /** Update mode (reconnect): the bank whose login is repaired. */
  reconnect?: { institutionName: string };
  onSuccess: (success: LinkSuccess) => void;
  /** The user closed Link, or it failed (with the reason). */
  onExit: (error?: Error) => void;
}

/** Plaid Link's part of linking: the sandbox's stand-in in development, Plaid's own widget in production. */
export function LinkFlow(props: LinkFlowProps) {
  if (props.plaid.mode === 'sandbox') return <SandboxLink {...props} sandboxUrl={props.plaid.sandboxUrl} />;
  return <PlaidLink {...props} />;
}

function PlaidLink({ token, onSuccess, onExit }: LinkFlowProps) {
  // The callbacks change on every render of the page; Link must open once per token.
  const callbacks = useRef({ onSuccess, onExit });
  useEffect(() => {
    callbacks.current = { onSuccess, onExit };
  });
  useEffect(() => {
    const link = openPlaidLink(token);
    // A Link closed by this cleanup (the page went away, or StrictMode's second run) reports nothing.
    let active = true;
    link.result.then(
      (success) => {
        if (!active) return;
        if (success) callbacks.current.onSuccess(success);
        else callbacks.current.onExit();
      },
      (error: unknown) => {
        if (active) callbacks.current.onExit(error instanceof Error ? error : new Error('Plaid Link failed'));
      },
    );
    return () => {
      active = false;
      link.cancel();
    };
  }, [token]);
  return <Spinner label="Opening Plaid" />;
}

function SandboxLink({ token, reconnect, onSuccess, onExit, sandboxUrl }: LinkFlowProps & { sandboxUrl: string }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [completing, setCompleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const groupName = useId();
  const institutions = useQuery({
    queryKey: ['plaid-sandbox', sandboxUrl, 'institutions'],
    queryFn: ({ signal }) => fetchSandboxInstitutions(sandboxUrl, signal),
    enabled: reconnect === undefined,
    staleTime: Infinity,
  });

  const complete = async () => {
    setCompleting(true);
    setFailure(null);
    try {
      const success = await completeSandboxLink(sandboxUrl, { linkToken: token, ...(chosen ? { institutionId: chosen } : {}) });
      onSuccess(success);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The Plaid sandbox could not complete the link');
      setCompleting(false);
    }
  };

  const canContinue = reconnect !== undefined || chosen !== null;
  return (
    <Dialog
      open
      onClose={() => {
        if (!completing) onExit();
      }}
      title={reconnect ? `Reconnect ${reconnect.institutionName}` : 'Choose your bank'}
      description={
        reconnect
          ? 'Sign in to your bank again so its transactions keep arriving. (Development: the local Plaid sandbox stands in for Plaid Link.)'
          : 'Development: the local Plaid sandbox stands in for Plaid Link. Its sample banks hold checking, savings and credit-card accounts.'
      }
      actions={
        <>
          <Button variant="secondary" disabled={completing} onClick={() => onExit()}>
            Cancel
          </Button>
          <Button loading={completing} disabled={!canContinue} onClick={() => void complete()}>
            {reconnect ? 'Reconnect' : 'Continue'}
          </Button>
        </>
      }
    >
      {reconnect === undefined && (
        <div>
          {institutions.isPending && <Spinner label="Loading banks" />}
          {institutions.isError && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {institutions.error instanceof Error ? institutions.error.message : 'The Plaid sandbox could not be reached'}
            </p>
          )}
          {institutions.data && (
            <fieldset>
              <legend className="sr-only">Bank</legend>
              <div className="max-h-80 space-y-2 overflow-y-auto">
                {institutions.data.map((institution) => (
                  <label
                    key={institution.institutionId}
                    className={cx(
                      'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm',
                      chosen === institution.institutionId
                        ? 'border-brand-500 bg-brand-50 dark:border-brand-400 dark:bg-brand-950'
                        : 'border-slate-200 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800',
                    )}
                  >
                    <input
                      type="radio"
                      name={groupName}
                      value={institution.institutionId}
                      checked={chosen === institution.institutionId}
                      onChange={() => setChosen(institution.institutionId)}
                      className="mt-0.5 accent-brand-600"
                    />
                    <span className="min-w-0">
                      <span className="block font-medium text-slate-900 dark:text-slate-100">{institution.name}</span>
                      <span className="block text-slate-500 dark:text-slate-400">{institution.accounts.map((a) => `${a.name} ${a.mask}`).join(' · ')}</span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          )}
        </div>
      )}
      {failure && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {failure}
        </p>
      )}
    </Dialog>
  );
}
