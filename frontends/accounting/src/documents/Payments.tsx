// Payment by bank transaction (spec §3 connectedTransactions, §5; issue #18 item 4): the editor connects the bank
// transactions that paid a bill (money out) or an invoice (money in), with what each pays; the view lists them, each
// leading to its transaction, with the server's differenceMessages.
import { usePaymentCandidates, useTransaction, type DocumentConnectedTransaction, type Transaction } from '@ledgerline/api';
import { AmountInput, CloseIcon, Combobox, formatMoney, shortId } from '@ledgerline/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { amountText } from '../credits/state';
import { describeTransaction } from '../transactions/present';
import { formatTxnDate } from '../transactions/rules';
import { paidTotal, type PaymentForm } from './state';

const paymentTitle = (t: Transaction) => `${describeTransaction(t)} · ${formatTxnDate(t.dateTime)} · ${formatMoney(Math.abs(t.amount))}`;

export function PaymentsEditor({ kind, documentId, total, payments, error, onChange }: {
  kind: 'bill' | 'invoice';
  documentId: string | null;
  total: number;
  payments: readonly PaymentForm[];
  error: string | undefined;
  onChange: (payments: PaymentForm[]) => void;
}) {
  const candidates = usePaymentCandidates(kind, documentId);
  // The picker starts empty again after each choice (a new key remounts it).
  const [round, setRound] = useState(0);
  const byId = new Map((candidates.data ?? []).map((t) => [t.id, t]));
  const options = (candidates.data ?? []).filter((t) => !payments.some((p) => p.id === t.id)).map((t) => ({ value: t.id, title: paymentTitle(t) }));
  const paid = paidTotal(payments);
  const add = (id: string) => {
    const t = byId.get(id);
    if (!t) return;
    const open = Math.round((total - paid) * 100) / 100;
    const amount = open > 0 ? Math.min(Math.abs(t.amount), open) : Math.abs(t.amount);
    onChange([...payments, { id, amount: amountText(amount) }]);
    setRound((r) => r + 1);
  };
  return (
    <fieldset className="grid gap-2 border-t border-slate-200 pt-3 dark:border-slate-800">
      <legend className="sr-only">Payments</legend>
      <h3 className="text-sm font-medium text-slate-700 dark:text-slate-200">Payments</h3>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {kind === 'bill' ? 'Connect the bank transaction (money out) that paid this bill.' : 'Connect the deposit (money in) that paid this invoice.'} A connected transaction is booked against{' '}
        {kind === 'bill' ? 'Accounts Payable' : 'Accounts Receivable'} and can no longer be edited on its own.
      </p>
      {payments.length > 0 && (
        <ul aria-label="Connected payments" className="grid gap-2">
          {payments.map((p, i) => {
            const t = byId.get(p.id);
            return (
              <li key={p.id} className="grid grid-cols-[minmax(0,1fr)_8rem_2.25rem] items-start gap-2">
                <span className="truncate pt-7 text-sm text-slate-800 md:pt-2 dark:text-slate-100" title={t ? paymentTitle(t) : p.id}>
                  {t ? paymentTitle(t) : `Transaction ${shortId(p.id)}`}
                </span>
                <AmountInput label={`Payment ${i + 1} amount`} name={`connectedTransactions.${i}.amount`} className="md:[&_label]:sr-only [&_input]:text-right" value={p.amount} onValueChange={(amount) => onChange(payments.map((q) => (q.id === p.id ? { ...q, amount } : q)))} />
                <button
                  type="button"
                  aria-label={`Remove payment ${i + 1}`}
                  title={`Remove payment ${i + 1}`}
                  onClick={() => onChange(payments.filter((q) => q.id !== p.id))}
                  className="mt-6 rounded p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 md:mt-1 dark:hover:bg-slate-800"
                >
                  <CloseIcon className="size-4" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      <Combobox
        key={round}
        label="Connect a bank transaction"
        name="connectTransaction"
        options={options}
        value={null}
        onChange={add}
        placeholder={candidates.isPending ? 'Loading transactions…' : options.length === 0 ? 'No unconnected transactions' : 'Search by payee, date or amount'}
        error={candidates.isError ? 'Transactions could not be loaded' : undefined}
      />
      <p className="text-sm text-slate-600 tabular-nums dark:text-slate-300" aria-live="polite">
        Paid {formatMoney(paid)} of {formatMoney(total)}
      </p>
    </fieldset>
  );
}

/** The view's payments: each connected transaction (a link to its drawer) and what it pays; why the total differs. */
export function PaymentsList({ kind, payments, messages }: { kind: 'bill' | 'invoice'; payments: readonly DocumentConnectedTransaction[]; messages: readonly string[] }) {
  return (
    <section aria-label="Payments" className="grid gap-2 border-t border-slate-200 pt-3 dark:border-slate-800">
      <h3 className="text-sm font-medium text-slate-700 dark:text-slate-200">Payments</h3>
      {payments.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No payment connected yet. Edit the {kind} to connect the bank transaction that paid it.</p>
      ) : (
        <ul className="grid gap-1 text-sm">
          {payments.map((p) => (
            <PaymentRow key={p.id} payment={p} />
          ))}
        </ul>
      )}
      {messages.map((m) => (
        <p key={m} className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {m}
        </p>
      ))}
    </section>
  );
}

function PaymentRow({ payment }: { payment: DocumentConnectedTransaction }) {
  const t = useTransaction(payment.id);
  return (
    <li className="flex items-center justify-between gap-3">
      <Link to={`/transactions?tab=all&txn=${encodeURIComponent(payment.id)}`} className="truncate font-medium text-brand-700 hover:underline dark:text-brand-300">
        {t.data ? paymentTitle(t.data) : `Transaction ${shortId(payment.id)}`}
      </Link>
      <span className="shrink-0 tabular-nums">{formatMoney(payment.amount)}</span>
    </li>
  );
}

