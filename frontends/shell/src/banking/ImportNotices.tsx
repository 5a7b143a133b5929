import { importState, useImportJobs } from '@ledgerline/api';
import { useNotice } from '@ledgerline/ui';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';

/** Spec §4 finished-import notices. */
export const IMPORT_NOTICE = {
  importingTitle: 'Importing',
  importingMessage: 'Please wait while we finish uploading',
  completeTitle: 'Import Complete!',
  completeMessage: 'Click here to review and save them',
  action: 'View',
} as const;

/** Where View takes the user: the transactions waiting for review. */
export const REVIEW_ROUTE = '/transactions?tab=review';

export interface TrackedImport {
  /** One of the linked accounts: GET /jobs lists the jobs of the link by it. */
  accountId: string;
  /** The jobs POST /accounts started. */
  jobIds: string[];
  institutionName: string;
}

interface ImportNoticesApi {
  /** Shows 'Importing' for the accounts just linked until their sync jobs finish, then 'Import Complete!'. */
  track: (entry: TrackedImport) => void;
}

const ImportNoticesContext = createContext<ImportNoticesApi | null>(null);

export function useImportNotices(): ImportNoticesApi {
  const api = useContext(ImportNoticesContext);
  if (api === null) throw new Error('useImportNotices must be used inside <ImportNoticesProvider>');
  return api;
}

const noticeId = (accountId: string) => `bank-import-${accountId}`;

/** Lives in the signed-in layout, so an import keeps being watched while the user moves between pages. */
export function ImportNoticesProvider({ children }: { children: ReactNode }) {
  const [imports, setImports] = useState<TrackedImport[]>([]);
  const notice = useNotice();
  const shown = useRef(new Set<string>());

  const track = useCallback((entry: TrackedImport) => {
    shown.current.add(noticeId(entry.accountId));
    setImports((list) => [...list.filter((i) => i.accountId !== entry.accountId), entry]);
  }, []);
  const finish = useCallback((accountId: string) => setImports((list) => list.filter((i) => i.accountId !== accountId)), []);

  // Signing out unmounts the layout: the import notices (not others, such as 'Session expired') go with it.
  useEffect(() => {
    const ids = shown.current;
    return () => {
      for (const id of ids) notice.dismiss(id);
      ids.clear();
    };
  }, [notice]);

  const api = useMemo(() => ({ track }), [track]);
  return (
    <ImportNoticesContext.Provider value={api}>
      {children}
      {imports.map((entry) => (
        <ImportWatcher key={entry.accountId} entry={entry} onFinished={finish} />
      ))}
    </ImportNoticesContext.Provider>
  );
}

function ImportWatcher({ entry, onFinished }: { entry: TrackedImport; onFinished: (accountId: string) => void }) {
  const notice = useNotice();
  const navigate = useNavigate();
  const jobs = useImportJobs(entry.accountId, entry.jobIds);
  const state = jobs.data === undefined ? 'importing' : importState(jobs.data, entry.jobIds);
  const failedReason = jobs.data?.find((job) => entry.jobIds.includes(job.id) && job.status === 'failed')?.failedReason ?? null;
  const { accountId, institutionName } = entry;

  useEffect(() => {
    const id = noticeId(accountId);
    if (state === 'importing') {
      notice.notify({ id, type: 'custom', title: IMPORT_NOTICE.importingTitle, message: IMPORT_NOTICE.importingMessage });
      return;
    }
    if (state === 'complete') {
      notice.notify({
        id,
        type: 'custom',
        title: IMPORT_NOTICE.completeTitle,
        message: IMPORT_NOTICE.completeMessage,
        action: { label: IMPORT_NOTICE.action, onClick: () => void navigate(REVIEW_ROUTE) },
      });
    } else {
      notice.dismiss(id);
      notice.error(
        `Importing transactions from ${institutionName || 'your bank'} failed${failedReason ? `: ${failedReason}` : ''}. Sync the account again from Connect Accounts.`,
      );
    }
    onFinished(accountId);
  }, [state, accountId, institutionName, failedReason, notice, navigate, onFinished]);

  // A failed poll keeps the last answer and tries again on the next interval; nothing to show meanwhile.
  return null;
}
