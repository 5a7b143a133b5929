import { canEdit, describeError, useAccountsTieOut, useSyncJobsInProgress, useSyncTransactions } from '@ledgerline/api';
import { ledgerHref, openingBalanceHref, persistentDifferences, tieOutProblemMessage, type TieOutProblem } from './tie-out';
import { useErrorNotice, useNotice, type NoticeAction } from '@ledgerline/ui';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../session/context';

const noticeId = (accountId: string) => `tie-out-${accountId}`;

/**
 * Lives in the signed-in layout, like the import notices: an account whose books still differ from the bank after
 * its sync raises a notice that stays until dismissed, with what the user can do about it — sync again, set the
 * account's opening balance (the chart of accounts' edit), or see its ledger lines. A dismissed notice comes back
 * only when the difference changes (a new sync, another amount).
 */
export function TieOutNotices() {
  const role = useSession().user.user?.role ?? 'Viewer';
  const editable = canEdit(role);
  const tieOut = useAccountsTieOut();
  const jobs = useSyncJobsInProgress();
  const sync = useSyncTransactions();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const navigate = useNavigate();
  const shown = useRef(new Map<string, string>());

  const syncingIds = new Set((jobs.data ?? []).map((j) => j.data.accountId));
  const problems = persistentDifferences(tieOut.data?.accounts ?? [], syncingIds);
  const signature = problems.map((p) => p.key).join('|');

  useEffect(() => {
    const current = new Map(problems.map((p) => [p.accountId, p]));
    // A difference that went away takes its notice with it.
    for (const accountId of [...shown.current.keys()]) {
      if (!current.has(accountId)) {
        notice.dismiss(noticeId(accountId));
        shown.current.delete(accountId);
      }
    }
    for (const p of problems) {
      if (shown.current.get(p.accountId) === p.key) continue;
      shown.current.set(p.accountId, p.key);
      notice.notify({ id: noticeId(p.accountId), type: 'custom', ...tieOutProblemMessage(p), actions: actionsFor(p) });
    }
    // `signature` stands for `problems`: a new array each render, the same differences.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature, notice]);

  function actionsFor(p: TieOutProblem): NoticeAction[] {
    const actions: NoticeAction[] = [];
    if (editable) {
      actions.push({
        label: 'Re-sync',
        onClick: () => sync.mutate(p.accountId, { onSuccess: (answer) => notice.success(answer.message), onError: showError }),
      });
      if (p.ledgerAccountId) actions.push({ label: 'Set opening balance', onClick: () => void navigate(openingBalanceHref(p.ledgerAccountId!)) });
    }
    if (p.ledgerAccountId) actions.push({ label: 'See ledger lines', onClick: () => void navigate(ledgerHref(p.ledgerAccountId!)) });
    return actions;
  }

  // Signing out unmounts the layout: these notices go with it.
  useEffect(() => {
    const ids = shown.current;
    return () => {
      for (const accountId of ids.keys()) notice.dismiss(noticeId(accountId));
      ids.clear();
    };
  }, [notice]);

  return null;
}
