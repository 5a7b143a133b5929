import {
  describeError,
  flowOf,
  transactionRestriction,
  useAccrualSchedule,
  useCategoriseTransaction,
  useDeleteAccrual,
  useFinalizeTransactions,
  useStopAccrual,
  useTransaction,
  useTransactionAuditLogs,
  type Transaction,
  type TransactionAuditLog,
} from '@ledgerline/api';
import { Button, CloseIcon, Dialog, Spinner, formatMoney, formatRelativeTime, shortId, useErrorNotice, useNotice } from '@ledgerline/ui';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useEditAccess } from './access';
import { AccrualDialog } from './AccrualDialog';
import { CategoryPicker } from './CategoryPicker';
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
      className="fixed inset-y-0 right-0 z-40 flex w-full max-w-lg flex-col overflow-y-auto border-l border-slate-200 bg-white shadow-2xl focus:outline-none dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4 dark:border-slate-800">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-slate-100">
          {query.data ? describeTransaction(query.data) : 'Transaction'}
        </h2>
        <button type="button" onClick={onClose} aria-label="Close transaction details" className="rounded p-1 text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800">
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
  const restriction = transactionRestriction(t);
  const splitRestriction = transactionRestriction(t, { splitting: true });
  const editable = access.canEdit && restriction === null;

  return (
    <div className="space-y-6">
      <div>
        <p className={t.amount > 0 ? 'text-2xl font-semibold text-emerald-700 tabular-nums dark:text-emerald-400' : 'text-2xl font-semibold text-slate-900 tabular-nums dark:text-slate-100'}>
          {formatMoney(t.amount)}
        </p>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          {formatTxnDate(t.dateTime)} · {bankAccountName(t)} · {t.isTransactionFinalized ? 'Finalized' : 'Not finalized'}
          {t.pending ? ' · Pending' : ''}
        </p>
      </div>

      {(restriction ?? access.reason) && (
        <p role="note" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {access.reason ?? restriction?.message}
        </p>
      )}

      <CategoryPicker
        label="Category"
        name="drawer-category"
        value={t.category?.id ?? null}
        flow={flowOf(t.amount)}
        disabled={!editable || categorise.isPending}
        onChange={(categoryId) => {
          if (categoryId === t.category?.id) return;
          categorise.mutate({ id: t.id, categoryId }, { onSuccess: (answer) => notice.success(answer.message), onError: showError });
        }}
      />

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
          onClick={() => finalize.mutate({ transactionIds: [t.id], isTxnFinalized: !t.isTransactionFinalized }, { onSuccess: (answer) => notice.success(answer.message), onError: showError })}
        >
          {t.isTransactionFinalized ? 'Un-finalize' : 'Finalize'}
        </Button>
      </div>

      <Section title="Details">
        <dl className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-2 text-sm">
          <Term label="Biller">{t.biller?.name ?? '—'}</Term>
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
              <span className="tabular-nums">{formatMoney(Math.sign(t.amount) * (Math.abs(t.amount) - t.splittedChildren.reduce((s, c) => s + Math.abs(c.amount), 0)))}</span>
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

      <History id={t.id} />

      {splitting && <SplitDialog transaction={t} open={splitting} onClose={() => setSplitting(false)} />}
      {accruing && <AccrualDialog transaction={t} open={accruing} onClose={() => setAccruing(false)} />}
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
            <Button size="sm" variant="secondary" disabled={!allowed || stopped} title={access.reason ?? restriction?.message} onClick={() => setConfirming('stop')}>
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
};

const eventLabel = (event: TransactionAuditLog['event']): string => EVENT_LABELS[event] ?? event.replace(/_/g, ' ');

function History({ id }: { id: string }) {
  const logs = useTransactionAuditLogs(id);
  return (
    <Section title="History">
      {logs.isPending ? (
        <Spinner label="Loading the history" />
      ) : logs.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400">{describeError(logs.error)?.message ?? 'The history could not be loaded'}</p>
      ) : logs.data.data.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No changes yet.</p>
      ) : (
        <ol className="space-y-2 text-sm">
          {logs.data.data.map((log) => {
            const to = typeof log.details.toCategoryName === 'string' ? `: ${log.details.toCategoryName}` : '';
            return (
              <li key={log.id} className="flex justify-between gap-3">
                <span className="text-slate-800 dark:text-slate-200">
                  {eventLabel(log.event)}
                  {to}
                </span>
                <time dateTime={log.createdAt} className="shrink-0 text-slate-500 dark:text-slate-400">
                  {formatRelativeTime(log.createdAt)}
                </time>
              </li>
            );
          })}
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
