import {
  describeError,
  usePairTransfer,
  useTransferCandidates,
  useUnpairTransfer,
  useAccrualSchedule,
  useCategoriseTransaction,
  useDeleteAccrual,
  useFinalizeTransactions,
  useStopAccrual,
  useTransaction,
  useTaggableUsers,
  useTransactionAuditLogs,
  type Transaction,
  type TransactionAuditLog,
  type TransferTransaction,
} from '@ledgerline/api';
import { isTransfer, rankCandidates } from './transfers';
import { flowOf } from './filters';
import { transactionRestriction } from './restrictions';
import { Button, CloseIcon, Dialog, Spinner, formatMoney, formatRelativeTime, shortId, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { documentLink } from '../documents/state';
import { useEditAccess } from './access';
import { RuleEditor } from '../parties/RulesTab';
import { ruleFormFromTransaction } from '../parties/state';
import { VendorLink } from '../parties/VendorLink';
import { AccrualDialog } from './AccrualDialog';
import { SuggestionDetails } from './Suggestion';
import { CategoryPicker } from './CategoryPicker';
import { CommentsSection, ReceiptsSection } from './DrawerAttachments';
import { bankAccountName, describeTransaction } from './present';
import { formatTxnDate } from './rules';
import { ScheduleTable } from './ScheduleTable';
import { SplitDialog } from './SplitDialog';

/**
 * The transaction drawer at `?txn=<id>`: details, category, entry accounts, split parts, accrual, history.
 * A side panel in the page rather than a modal of its own: the remote bundles its own copy of headlessui, and a
 * modal from it would take clicks in the ui kit's dialogs (split, accrual; the shell's copy) for clicks outside
 * and close. Escape or the close button closes it.
 */
export function TransactionDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const query = useTransaction(id);
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);

  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);

  // Focus moves into the panel when it opens and back to what opened it (the row's Details button) when it closes.
  useEffect(() => {
    if (id === null) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    return () => opener?.focus();
  }, [id]);

  // Escape closes it wherever focus is, unless a dialog of the ui kit is open above it (that one closes first).
  useEffect(() => {
    if (id === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [id]);

  if (id === null) return null;
  return (
    // Outside the area's root: data-remote scopes this remote's styles to the drawer (postcss-remote).
    <div data-remote="accounting">
      <aside
        ref={panel}
        role="dialog"
        aria-modal="false"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="fixed inset-y-0 right-0 z-40 flex w-full flex-col overflow-y-auto border-l md:max-w-lg border-slate-200 bg-white shadow-2xl focus:outline-none dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4 dark:border-slate-800">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-slate-100">
            {query.data ? describeTransaction(query.data) : 'Transaction'}
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close transaction details"
            className="rounded p-1 text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            <CloseIcon className="size-5" />
          </button>
        </div>
        <div className="flex-1 px-6 py-5">
          {query.isPending ? (
            <div className="flex justify-center py-10">
              <Spinner label="Loading the transaction" />
            </div>
          ) : query.isError ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {describeError(query.error)?.message ?? 'The transaction could not be loaded'}
            </p>
          ) : (
            <Details transaction={query.data} />
          )}
        </div>
      </aside>
    </div>
  );
}

function Details({ transaction: t }: { transaction: Transaction }) {
  const access = useEditAccess();
  const categorise = useCategoriseTransaction();
  const finalize = useFinalizeTransactions();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const [splitting, setSplitting] = useState(false);
  const [accruing, setAccruing] = useState(false);
  const [makingRule, setMakingRule] = useState(false);
  const restriction = transactionRestriction(t);
  const splitRestriction = transactionRestriction(t, { splitting: true });
  const editable = access.canEdit && restriction === null;
  // Spec platform-core §4: a transaction paying a bill or invoice (or booked by a journal) is edited through it.
  const linked = t.entityType && t.entityId ? documentLink(t.entityType, t.entityId) : null;

  return (
    <div className="space-y-6">
      <div>
        <p
          className={
            t.amount > 0
              ? 'text-2xl font-semibold text-emerald-700 tabular-nums dark:text-emerald-400'
              : 'text-2xl font-semibold text-slate-900 tabular-nums dark:text-slate-100'
          }
        >
          {formatMoney(t.amount)}
        </p>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          {formatTxnDate(t.dateTime)} · {bankAccountName(t)} · {t.isTransactionFinalized ? 'Finalized' : 'Not finalized'}
          {t.pending ? ' · Pending' : ''}
        </p>
      </div>

      {(restriction ?? access.reason) && (
        <div
          role="note"
          className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          <p>{access.reason ?? restriction?.message}</p>
          {access.reason && restriction && <p className="mt-1">{restriction.message}</p>}
          {linked && (
            <p className="mt-1">
              <Link to={linked.to} className="font-medium text-brand-700 underline dark:text-brand-300">
                Open the linked {linked.what}
              </Link>
            </p>
          )}
        </div>
      )}

      <CategoryPicker
        label="Category"
        name="drawer-category"
        value={t.category?.id ?? null}
        flow={flowOf(t.amount)}
        disabled={!editable}
        onChange={(categoryId) => {
          if (categoryId === t.category?.id) return;
          categorise.mutate({ id: t.id, categoryId }, { onSuccess: (answer) => notice.success(answer.message), onError: showError });
        }}
      />
      <SuggestionDetails transaction={t} editable={editable} />

      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          disabled={!access.canEdit || splitRestriction !== null}
          title={access.reason ?? splitRestriction?.message}
          onClick={() => setSplitting(true)}
        >
          {t.isSplittedParent ? 'Edit split' : 'Split'}
        </Button>
        {!t.isAccruedParent && (
          <Button variant="secondary" disabled={!editable} title={access.reason ?? restriction?.message} onClick={() => setAccruing(true)}>
            Accrue
          </Button>
        )}
        <Button
          disabled={!access.canEdit}
          title={access.reason ?? undefined}
          loading={finalize.isPending}
          onClick={() =>
            finalize.mutate(
              { transactionIds: [t.id], isTxnFinalized: !t.isTransactionFinalized },
              { onSuccess: (answer) => notice.success(answer.message), onError: showError },
            )
          }
        >
          {t.isTransactionFinalized ? 'Un-finalize' : 'Finalize'}
        </Button>
        <Button variant="secondary" disabled={!access.canEdit} title={access.reason ?? undefined} onClick={() => setMakingRule(true)}>
          Create rule
        </Button>
      </div>

      {isTransfer(t) && <TransferSection transaction={t} />}

      <Section title="Details">
        <dl className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-2 text-sm">
          <Term label="Biller">{t.biller?.name ?? '—'}</Term>
          {t.vendorId && (
            <Term label="Vendor">
              <VendorLink id={t.vendorId} />
            </Term>
          )}
          {t.appliedRuleId && (
            <Term label="Rule">
              <Link to={`/transactions?tab=rules&rule=${encodeURIComponent(t.appliedRuleId)}`} className="text-brand-700 hover:underline dark:text-brand-300">
                Categorised by a rule
              </Link>
            </Term>
          )}
          {linked && (
            <Term label="Linked to">
              <Link to={linked.to} className="text-brand-700 hover:underline dark:text-brand-300">
                {linked.what[0]!.toUpperCase() + linked.what.slice(1)}
              </Link>
            </Term>
          )}
          <Term label="Bank text">{t.memo || '—'}</Term>
          <Term label="Debit account">{t.debitAccount.name || '—'}</Term>
          <Term label="Credit account">{t.creditAccount.name || '—'}</Term>
          <Term label="Currency">{t.isoCurrencyCode}</Term>
          <Term label="Reference">{shortId(t.vendorTransactionId || t.id)}</Term>
        </dl>
      </Section>

      {t.isSplittedParent && (
        <Section title="Split parts">
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800">
            <li className="flex justify-between px-3 py-2">
              <span>{t.category?.name ?? 'Uncategorised'}</span>
              <span className="tabular-nums">
                {formatMoney(Math.sign(t.amount) * (Math.abs(t.amount) - t.splittedChildren.reduce((s, c) => s + Math.abs(c.amount), 0)))}
              </span>
            </li>
            {t.splittedChildren.map((c) => (
              <li key={c.id} className="flex justify-between px-3 py-2">
                <span>{c.categoryName}</span>
                <span className="tabular-nums">{formatMoney(c.amount)}</span>
              </li>
            ))}
          </ul>
        </Section>
      )}

      {t.isAccruedParent && <AccrualSection transaction={t} />}

      <ReceiptsSection transactionId={t.id} />

      <CommentsSection transactionId={t.id} />

      <History id={t.id} />

      {splitting && <SplitDialog transaction={t} open={splitting} onClose={() => setSplitting(false)} />}
      {accruing && <AccrualDialog transaction={t} open={accruing} onClose={() => setAccruing(false)} />}
      {makingRule && <RuleEditor rule={null} initial={ruleFormFromTransaction(t)} onClose={() => setMakingRule(false)} />}
    </div>
  );
}

/** `?txn=` of the other side, the rest of the address kept (tab, filters). */
function useTxnSearch(): (id: string) => string {
  const [params] = useSearchParams();
  return (id) => {
    const next = new URLSearchParams(params);
    next.set('txn', id);
    return `?${next.toString()}`;
  };
}

/**
 * A transfer between two linked accounts (issue #12): the other side with a link to it, and "Unpair transfer" (after
 * confirming) to undo a wrong match; a one-sided transfer offers the likeliest other sides with "Pair".
 */
function TransferSection({ transaction }: { transaction: Transaction }) {
  const t = transaction as TransferTransaction;
  const access = useEditAccess();
  const unpair = useUnpairTransfer();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const txnSearch = useTxnSearch();
  const [confirming, setConfirming] = useState(false);
  const pair = t.transferPair ?? null;
  const paired = pair !== null || t.transferStatus === 'paired';

  return (
    <Section title="Transfer">
      {pair ? (
        <div
          data-testid="transfer-pair"
          className="space-y-3 rounded-lg border border-indigo-200 bg-indigo-50/60 p-3 text-sm dark:border-indigo-900 dark:bg-indigo-950/40"
        >
          <p className="text-slate-700 dark:text-slate-300">Money moved between two of your accounts. It is left out of income, expenses and spending.</p>
          <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-4 gap-y-1">
            <Term label="Other side">{pair.accountName}</Term>
            <Term label="Date">{formatTxnDate(pair.dateTime)}</Term>
            <Term label="Amount">
              <span className="tabular-nums">{formatMoney(pair.amount)}</span>
            </Term>
            <Term label="Description">
              <span className="break-words">{pair.name}</span>
            </Term>
          </dl>
          <Link to={{ search: txnSearch(pair.id) }} className="inline-block font-medium text-brand-700 hover:underline dark:text-brand-300">
            Open the other side
          </Link>
        </div>
      ) : (
        <OneSidedTransfer transaction={t} />
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" disabled={!access.canEdit} title={access.reason ?? undefined} onClick={() => setConfirming(true)}>
          {paired ? 'Unpair transfer' : 'Not a transfer'}
        </Button>
      </div>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={paired ? 'Unpair this transfer?' : 'Not a transfer?'}
        description={
          paired
            ? 'Both sides go back to uncategorised and count as income or expense again until you categorise them. You can pair them again later.'
            : 'The transaction goes back to uncategorised and can be categorised again.'
        }
        actions={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              loading={unpair.isPending}
              onClick={() =>
                unpair.mutate(t.id, {
                  onSuccess: (answer) => {
                    notice.success(answer.message);
                    setConfirming(false);
                  },
                  onError: showError,
                })
              }
            >
              {paired ? 'Unpair transfer' : 'Not a transfer'}
            </Button>
          </>
        }
      />
    </Section>
  );
}

/** A transfer whose other side is not paired yet: the candidates from the linked accounts, best first, each with "Pair". */
function OneSidedTransfer({ transaction: t }: { transaction: TransferTransaction }) {
  const access = useEditAccess();
  const candidates = useTransferCandidates(t.id);
  const pairTransfer = usePairTransfer();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const ranked = rankCandidates(candidates.data ?? [], t.dateTime);
  return (
    <div className="space-y-2 text-sm">
      <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
        Transfer to review: its other side is not paired. Pair it with the matching transaction of another linked account, or leave it for an account that is
        not linked.
      </p>
      {candidates.isPending ? (
        <Spinner label="Looking for the other side" />
      ) : candidates.isError ? (
        <p className="text-red-600 dark:text-red-400">{describeError(candidates.error)?.message ?? 'The candidates could not be loaded'}</p>
      ) : ranked.length === 0 ? (
        <p className="text-slate-500 dark:text-slate-400">No transaction of another linked account matches it (same amount, opposite sign, within 5 days).</p>
      ) : (
        <ul
          aria-label="Possible other sides"
          className="divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
        >
          {ranked.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-900 dark:text-slate-100">{c.name}</span>
                <span className="text-xs text-slate-500 dark:text-slate-400">
                  {c.accountName} · {formatTxnDate(c.dateTime)} · <span className="tabular-nums">{formatMoney(c.amount)}</span>
                </span>
              </span>
              <Button
                size="sm"
                disabled={!access.canEdit}
                title={access.reason ?? undefined}
                loading={pairTransfer.isPending && pairTransfer.variables?.counterpartTransactionId === c.id}
                aria-label={`Pair with ${c.name} on ${c.accountName}`}
                onClick={() =>
                  pairTransfer.mutate(
                    { transactionId: t.id, counterpartTransactionId: c.id },
                    { onSuccess: (answer) => notice.success(answer.message), onError: showError },
                  )
                }
              >
                Pair
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

// Keyed by string: an event the server adds later shows by its name rather than breaking the list.
/** An accrued transaction's schedule, with edit, stop and delete (spec §4 accrual lifecycle). */
function AccrualSection({ transaction: t }: { transaction: Transaction }) {
  const access = useEditAccess();
  const schedule = useAccrualSchedule(t.id);
  const stop = useStopAccrual();
  const remove = useDeleteAccrual();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState<'stop' | 'delete' | null>(null);
  const restriction = transactionRestriction(t, { accrual: true });
  const allowed = access.canEdit && restriction === null;
  const s = schedule.data;
  const stopped = s?.accrualStatus === 'stopped';

  return (
    <Section title="Accrual">
      {schedule.isPending ? (
        <Spinner label="Loading the accrual schedule" />
      ) : schedule.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400">{describeError(schedule.error)?.message ?? 'The schedule could not be loaded'}</p>
      ) : (
        <div className="space-y-3">
          <dl className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 text-sm">
            <Term label="Period">
              {formatTxnDate(schedule.data.accrualStartDate)} – {formatTxnDate(schedule.data.accrualEndDate)}
            </Term>
            <Term label="Accrual account">{schedule.data.accrualCategory}</Term>
            <Term label="Recognised into">{schedule.data.recogniseCategoryName}</Term>
            <Term label="Status">{stopped ? `Stopped${schedule.data.stoppedOn ? ` on ${formatTxnDate(schedule.data.stoppedOn)}` : ''}` : 'Active'}</Term>
          </dl>
          <ScheduleTable schedule={schedule.data} />
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="secondary" disabled={!allowed || stopped} title={access.reason ?? restriction?.message} onClick={() => setEditing(true)}>
              Edit accrual
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={!allowed || stopped}
              title={access.reason ?? restriction?.message}
              onClick={() => setConfirming('stop')}
            >
              Stop accrual
            </Button>
            <Button size="sm" variant="danger" disabled={!allowed} title={access.reason ?? restriction?.message} onClick={() => setConfirming('delete')}>
              Delete accrual
            </Button>
          </div>
          {editing && <AccrualDialog transaction={t} schedule={schedule.data} open={editing} onClose={() => setEditing(false)} />}
        </div>
      )}
      <Dialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming === 'stop' ? 'Stop the accrual?' : 'Delete the accrual?'}
        description={
          confirming === 'stop'
            ? 'Months up to today stay as they are; what the later months hold is recognised today.'
            : 'Every month is reversed and the transaction is booked to its category again.'
        }
        actions={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              loading={stop.isPending || remove.isPending}
              onClick={() => {
                const done = {
                  onSuccess: (answer: { message: string }) => {
                    notice.success(answer.message);
                    setConfirming(null);
                  },
                  onError: showError,
                };
                if (confirming === 'stop') stop.mutate(t.id, done);
                else remove.mutate(t.id, done);
              }}
            >
              {confirming === 'stop' ? 'Stop accrual' : 'Delete accrual'}
            </Button>
          </>
        }
      />
    </Section>
  );
}

const EVENT_LABELS: Readonly<Record<string, string>> = {
  imported: 'Imported from the bank',
  bank_modified: 'Changed by the bank',
  bank_removed: 'Removed by the bank',
  categorised: 'Categorised',
  finalized: 'Finalized',
  unfinalized: 'Un-finalized',
  split: 'Split',
  split_updated: 'Split changed',
  unsplit: 'Split removed',
  biller_changed: 'Biller changed',
  accrued: 'Accrued',
  accrual_updated: 'Accrual changed',
  accrual_stopped: 'Accrual stopped',
  unaccrued: 'Accrual deleted',
  transfer_paired: 'Paired as a transfer',
  transfer_unpaired: 'Transfer unpaired',
  commented: 'Commented',
  receipt_uploaded: 'Receipt attached',
};

const eventLabel = (event: TransactionAuditLog['event']): string => EVENT_LABELS[event] ?? event.replace(/_/g, ' ');

/** What an entry of the trail adds to its label: the new category, the comment, the receipt's file. */
function eventDetail(log: TransactionAuditLog): string {
  const d = log.details;
  // The drawer's events (issue #13) are newer than the generated list of event names.
  const event: string = log.event;
  if (typeof d.toCategoryName === 'string') return `: ${d.toCategoryName}`;
  if (event === 'commented' && typeof d.comment === 'string') return `: “${d.comment.length > 80 ? `${d.comment.slice(0, 79)}…` : d.comment}”`;
  if (event === 'receipt_uploaded' && typeof d.fileName === 'string') return `: ${d.fileName}`;
  return '';
}

/** The transaction's trail, newest first: what changed, who changed it (the bank when nobody), when. */
function History({ id }: { id: string }) {
  const logs = useTransactionAuditLogs(id);
  const users = useTaggableUsers();
  const nameOf = (userId: string | null | undefined): string => {
    if (!userId) return 'Bank feed';
    return users.data?.find((u) => u.id === userId)?.name || `User ${shortId(userId)}`;
  };
  return (
    <Section title="History">
      {logs.isPending ? (
        <Spinner label="Loading the history" />
      ) : logs.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400">{describeError(logs.error)?.message ?? 'The history could not be loaded'}</p>
      ) : logs.data.data.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No changes yet.</p>
      ) : (
        <ol aria-label="History" className="space-y-2 text-sm">
          {logs.data.data.map((log) => (
            <li key={log.id} data-event={log.event} className="flex justify-between gap-3">
              <span className="min-w-0 break-words text-slate-800 dark:text-slate-200">
                {eventLabel(log.event)}
                {eventDetail(log)}
                <span className="block text-xs text-slate-500 dark:text-slate-400">{nameOf(log.userId)}</span>
              </span>
              <time dateTime={log.createdAt} title={new Date(log.createdAt).toLocaleString()} className="shrink-0 text-slate-500 dark:text-slate-400">
                {formatRelativeTime(log.createdAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">{title}</h3>
      {children}
    </section>
  );
}

function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-slate-900 dark:text-slate-100">{children}</dd>
    </>
  );
}
