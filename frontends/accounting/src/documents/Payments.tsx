// What pays a bill or an invoice, and what a manual journal pays (spec §3 connectedTransactions,
// connectedManualEntries, connectedVendorCredits / connectedCreditMemos, paidBills / paidInvoices; decision 0020).
// One editor of connections serves them all: a picker of what can be connected, then one row per connection with the
// amount it pays. The view lists them, each leading to its record, with the server's paymentStatus and
// differenceMessages.
import {
  useCreditList,
  useCredit,
  useDocument,
  useDocumentList,
  usePaymentCandidates,
  usePaymentDetailsCheck,
  useTransaction,
  describeError,
  type Bill,
  type DocumentConnectedTransaction,
  type Invoice,
  type ManualEntry,
  type PaymentDetail,
  type Transaction,
} from '@ledgerline/api';
import { AmountInput, CloseIcon, Combobox, cx, formatMoney, formatShortDate, shortId } from '@ledgerline/ui';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { usePickerPages } from '../credits/CreditsTab';
import { amountCents } from '../credits/state';
import { uniqueRows } from '../parties/state';
import { describeTransaction } from '../transactions/present';
import { formatTxnDate } from '../transactions/rules';
import { PAYMENT_STATUS_LABELS, creditLink, defaultConnectionAmount, documentLink, paymentStatusOf, type PaymentForm } from './state';

export function StatusPill({ status }: { status: string }) {
  const tone: Readonly<Record<string, string>> = {
    Posted: 'bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
    Voided: 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300',
    PAID: 'bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
    PARTIALLY_PAID: 'bg-amber-50 text-amber-800 dark:bg-amber-950 dark:text-amber-200',
    OVERPAID: 'bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-200',
    UNPAID: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  };
  return (
    <span className={cx('inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap', tone[status] ?? tone.UNPAID)}>
      {PAYMENT_STATUS_LABELS[status] ?? status}
    </span>
  );
}

/** Something that can be connected: its id, how the picker and the row name it, and how much it has to give. */
export interface ConnectionOption {
  value: string;
  title: string;
  available: number;
}

/**
 * One kind of connection: its rows (what each pays, editable, removable) and a picker for one more. A choice is
 * added with what is still open (or all the payer has, if less) and the picker empties again. `name` is the field of
 * the body (`connectedManualEntries`), so each amount is named as the server names it in a refusal.
 */
export function ConnectionsEditor({
  heading,
  hint,
  pickerLabel,
  itemLabel,
  name,
  options,
  loading,
  loadError,
  connections,
  error,
  total,
  paid,
  onChange,
}: {
  heading: string;
  hint: ReactNode;
  pickerLabel: string;
  /** "Payment", "Journal", "Credit", "Bill", "Invoice": the row's amount is "<itemLabel> N amount". */
  itemLabel: string;
  name: string;
  options: readonly ConnectionOption[];
  loading: boolean;
  loadError: boolean;
  connections: readonly PaymentForm[];
  error: string | undefined;
  /** The document's total and what all its connections pay now (for a new row's amount). */
  total: number;
  paid: number;
  onChange: (connections: PaymentForm[]) => void;
}) {
  // The picker starts empty again after each choice (a new key remounts it).
  const [round, setRound] = useState(0);
  const byId = new Map(options.map((o) => [o.value, o]));
  const free = options.filter((o) => !connections.some((c) => c.id === o.value));
  const what = heading.toLowerCase();
  const add = (id: string) => {
    const o = byId.get(id);
    if (!o) return;
    onChange([...connections, { id, amount: defaultConnectionAmount(o.available, total, paid) }]);
    setRound((r) => r + 1);
  };
  return (
    <fieldset className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2 border-t border-slate-200 pt-3 dark:border-slate-800" data-connections={name}>
      <legend className="sr-only">{heading}</legend>
      <h3 className="text-sm font-medium text-slate-700 dark:text-slate-200">{heading}</h3>
      <p className="text-xs text-slate-500 dark:text-slate-400">{hint}</p>
      {connections.length > 0 && (
        <ul aria-label={`Connected ${what}`} className="grid grid-cols-[minmax(0,1fr)] gap-2">
          {connections.map((c, i) => {
            const o = byId.get(c.id);
            return (
              <li key={c.id} className="grid grid-cols-[minmax(0,1fr)_8rem_2.25rem] items-start gap-2">
                <span className="truncate pt-7 text-sm text-slate-800 md:pt-2 dark:text-slate-100" title={o?.title ?? c.id}>
                  {o?.title ?? `${itemLabel} ${shortId(c.id)}`}
                </span>
                <AmountInput
                  label={`${itemLabel} ${i + 1} amount`}
                  name={`${name}.${i}.amount`}
                  className="md:[&_label]:sr-only [&_input]:text-right"
                  value={c.amount}
                  onValueChange={(amount) => onChange(connections.map((q) => (q.id === c.id ? { ...q, amount } : q)))}
                />
                <button
                  type="button"
                  aria-label={`Remove ${itemLabel.toLowerCase()} ${i + 1}`}
                  title={`Remove ${itemLabel.toLowerCase()} ${i + 1}`}
                  onClick={() => onChange(connections.filter((q) => q.id !== c.id))}
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
        label={pickerLabel}
        name={`${name}.new`}
        options={free.map((o) => ({ value: o.value, title: o.title }))}
        value={null}
        onChange={add}
        placeholder={loading ? 'Loading…' : free.length === 0 ? `Nothing to connect` : 'Search by name, date or amount'}
        error={loadError ? `The ${what} could not be loaded` : undefined}
      />
    </fieldset>
  );
}

/** "Paid $X of $Y" and the status it makes (spec §3), as the editor's connections stand. */
export function PaidSummary({ total, paid }: { total: number; paid: number }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600 tabular-nums dark:text-slate-300" aria-live="polite">
      <span>
        Paid {formatMoney(paid)} of {formatMoney(total)}
      </span>
      <StatusPill status={paymentStatusOf(total, paid)} />
    </p>
  );
}

const paymentTitle = (t: Transaction) => `${describeTransaction(t)} · ${formatTxnDate(t.dateTime)} · ${formatMoney(Math.abs(t.amount))}`;
const journalTitle = (m: ManualEntry) => `${m.memo} · ${formatShortDate(m.postingDate)} · ${formatMoney(m.totalAmount)}`;
const open = (d: Bill | Invoice) => Math.round((d.totalAmount - d.paidAmount) * 100) / 100;
const billTitle = (b: Bill) => `${b.vendor.name}${b.invoiceCode ? ` · ${b.invoiceCode}` : ''} · ${formatShortDate(b.billDate)} · ${formatMoney(open(b))} due`;
const invoiceTitle = (v: Invoice) =>
  `${v.customer.name}${v.referenceNo ? ` · ${v.referenceNo}` : ''} · ${formatShortDate(v.invoiceDate)} · ${formatMoney(open(v))} due`;

interface DocumentConnectionsProps {
  kind: 'bill' | 'invoice';
  documentId: string | null;
  partyId: string;
  total: number;
  paid: number;
  payments: readonly PaymentForm[];
  journals: readonly PaymentForm[];
  credits: readonly PaymentForm[];
  errors: { payments?: string | undefined; journals?: string | undefined; credits?: string | undefined };
  onChange: (key: 'payments' | 'journals' | 'credits', connections: PaymentForm[]) => void;
}

/** A bill's or an invoice's payments: bank transactions, manual journals, and the party's credits; then paid of total. */
export function DocumentPaymentsEditor(props: DocumentConnectionsProps) {
  const { kind, documentId, partyId, total, paid, errors, onChange } = props;
  const bill = kind === 'bill';
  const candidates = usePaymentCandidates(kind, documentId);
  const journals = useDocumentList('manualEntry', { status: 'Posted' });
  usePickerPages(journals);
  const credits = useCreditList(bill ? 'vendor' : 'customer');
  usePickerPages(credits);
  const shared = { total, paid };
  return (
    <section aria-label="Payments" className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3">
      <ConnectionsEditor
        {...shared}
        heading="Payments"
        hint={
          <>
            {bill ? 'Connect the bank transaction (money out) that paid this bill.' : 'Connect the deposit (money in) that paid this invoice.'} A connected
            transaction is booked against {bill ? 'Accounts Payable' : 'Accounts Receivable'} and can no longer be edited on its own.
          </>
        }
        pickerLabel="Connect a bank transaction"
        itemLabel="Payment"
        name="connectedTransactions"
        options={(candidates.data ?? []).map((t) => ({ value: t.id, title: paymentTitle(t), available: Math.abs(t.amount) }))}
        loading={candidates.isPending}
        loadError={candidates.isError}
        connections={props.payments}
        error={errors.payments}
        onChange={(c) => onChange('payments', c)}
      />
      <ConnectionsEditor
        {...shared}
        heading="Manual journals"
        hint={
          bill ? 'A journal pays a bill up to what it debits to Accounts Payable.' : 'A journal pays an invoice up to what it credits to Accounts Receivable.'
        }
        pickerLabel="Connect a manual journal"
        itemLabel="Journal"
        name="connectedManualEntries"
        options={(uniqueRows(journals.data?.pages) as ManualEntry[]).map((m) => ({ value: m.id, title: journalTitle(m), available: m.totalAmount }))}
        loading={journals.isPending}
        loadError={journals.isError}
        connections={props.journals}
        error={errors.journals}
        onChange={(c) => onChange('journals', c)}
      />
      <ConnectionsEditor
        {...shared}
        heading={bill ? 'Vendor credits' : 'Credit memos'}
        hint={
          bill
            ? 'Apply a credit this vendor gave you: it pays the bill with no new entry.'
            : 'Apply a credit memo of this customer: it pays the invoice with no new entry.'
        }
        pickerLabel={bill ? 'Apply a vendor credit' : 'Apply a credit memo'}
        itemLabel="Credit"
        name={bill ? 'connectedVendorCredits' : 'connectedCreditMemos'}
        options={uniqueRows(credits.data?.pages)
          .filter((c) => c.party.id === partyId || props.credits.some((p) => p.id === c.id))
          .map((c) => {
            const available = c.runningBalance ?? c.totalAmount;
            return {
              value: c.id,
              title: `${c.party.name}${c.refNo ? ` · ${c.refNo}` : ''} · ${formatShortDate(c.paymentDate)} · ${formatMoney(available)} left`,
              available,
            };
          })}
        loading={credits.isPending}
        loadError={credits.isError}
        connections={props.credits}
        error={errors.credits}
        onChange={(c) => onChange('credits', c)}
      />
      <PaidSummary total={total} paid={paid} />
    </section>
  );
}

/**
 * A manual journal's bills and invoices it pays (connectedBills / connectedInvoices), with what each would then be,
 * asked of the server as the amounts are typed (POST /accounting/payment-details/check).
 */
export function JournalPaysEditor({
  journalId,
  bills,
  invoices,
  errors,
  onChange,
}: {
  journalId: string | null;
  bills: readonly PaymentForm[];
  invoices: readonly PaymentForm[];
  errors: { bills?: string | undefined; invoices?: string | undefined };
  onChange: (key: 'bills' | 'invoices', connections: PaymentForm[]) => void;
}) {
  const billList = useDocumentList('bill', { status: 'Posted' });
  usePickerPages(billList);
  const invoiceList = useDocumentList('invoice', { status: 'Posted' });
  usePickerPages(invoiceList);
  const valid = [...bills, ...invoices].every((c) => amountCents(c.amount) !== null);
  const body =
    bills.length + invoices.length === 0 || !valid
      ? null
      : {
          connectedBills: bills.map((c) => ({ id: c.id, amount: (amountCents(c.amount) ?? 0) / 100 })),
          connectedInvoices: invoices.map((c) => ({ id: c.id, amount: (amountCents(c.amount) ?? 0) / 100 })),
          ...(journalId ? { manualEntryId: journalId } : {}),
        };
  const check = usePaymentDetailsCheck(body);
  const payable = <D extends Bill | Invoice>(rows: D[], chosen: readonly PaymentForm[], title: (d: D) => string) =>
    rows.filter((d) => !d.voided && (open(d) > 0 || chosen.some((c) => c.id === d.id))).map((d) => ({ value: d.id, title: title(d), available: open(d) }));
  const lists = [
    {
      key: 'bills' as const,
      heading: 'Bills paid',
      hint: 'A journal that debits Accounts Payable can pay bills, up to that debit.',
      pickerLabel: 'Pay a bill',
      itemLabel: 'Bill',
      name: 'connectedBills',
      query: billList,
      connections: bills,
      options: payable(uniqueRows(billList.data?.pages) as Bill[], bills, billTitle),
    },
    {
      key: 'invoices' as const,
      heading: 'Invoices paid',
      hint: 'A journal that credits Accounts Receivable can pay invoices, up to that credit.',
      pickerLabel: 'Pay an invoice',
      itemLabel: 'Invoice',
      name: 'connectedInvoices',
      query: invoiceList,
      connections: invoices,
      options: payable(uniqueRows(invoiceList.data?.pages) as Invoice[], invoices, invoiceTitle),
    },
  ];
  return (
    <section aria-label="What this journal pays" className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3">
      {lists.map((l) => (
        <ConnectionsEditor
          key={l.key}
          total={0}
          paid={0}
          heading={l.heading}
          hint={l.hint}
          pickerLabel={l.pickerLabel}
          itemLabel={l.itemLabel}
          name={l.name}
          options={l.options}
          loading={l.query.isPending}
          loadError={l.query.isError}
          connections={l.connections}
          error={errors[l.key]}
          onChange={(c) => onChange(l.key, c)}
        />
      ))}
      {body !== null && (
        <div aria-label="Payment check" role="region" className="grid grid-cols-[minmax(0,1fr)] gap-1 text-sm">
          {check.isError ? (
            <p className="text-amber-800 dark:text-amber-300">{describeError(check.error)?.message ?? 'The payments could not be checked'}</p>
          ) : (
            [...(check.data?.bills ?? []), ...(check.data?.invoices ?? [])].map((d) => <DetailRow key={d.id} detail={d} />)
          )}
        </div>
      )}
    </section>
  );
}

function DetailRow({ detail }: { detail: PaymentDetail }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-1 rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
      <p className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 truncate">
          {detail.kind === 'bill' ? 'Bill' : 'Invoice'} {detail.party.name}
          {detail.reference ? ` · ${detail.reference}` : ''}: pays {formatMoney(detail.amount)}, leaves {formatMoney(detail.remainingAmount)}
        </span>
        <StatusPill status={detail.paymentStatus} />
      </p>
      {detail.differenceMessages.map((m) => (
        <p key={m} className="text-amber-900 dark:text-amber-200">
          {m}
        </p>
      ))}
    </div>
  );
}

// ——— The view ———

function LinkedRow({ to, title, amount }: { to: string; title: string; amount: number }) {
  return (
    <li className="flex min-w-0 items-center justify-between gap-3">
      <Link to={to} className="min-w-0 truncate font-medium text-brand-700 hover:underline dark:text-brand-300">
        {title}
      </Link>
      <span className="shrink-0 tabular-nums">{formatMoney(amount)}</span>
    </li>
  );
}

function TransactionRow({ payment }: { payment: DocumentConnectedTransaction }) {
  const t = useTransaction(payment.id);
  return (
    <LinkedRow
      to={`/transactions?tab=all&txn=${encodeURIComponent(payment.id)}`}
      title={t.data ? paymentTitle(t.data) : `Transaction ${shortId(payment.id)}`}
      amount={payment.amount}
    />
  );
}

function JournalRow({ id, amount }: { id: string; amount: number }) {
  const m = useDocument('manualEntry', id);
  return (
    <LinkedRow
      to={documentLink('ManualEntry', id)?.to ?? '/accounting?tab=manual-journal'}
      title={m.data ? `Manual journal: ${journalTitle(m.data)}` : `Manual journal ${shortId(id)}`}
      amount={amount}
    />
  );
}

function CreditRow({ kind, id, amount }: { kind: 'vendor' | 'customer'; id: string; amount: number }) {
  const c = useCredit(kind, id);
  const what = kind === 'vendor' ? 'Vendor credit' : 'Credit memo';
  return (
    <LinkedRow
      to={creditLink(kind, id)}
      title={c.data ? `${what}: ${c.data.party.name} · ${formatShortDate(c.data.paymentDate)}` : `${what} ${shortId(id)}`}
      amount={amount}
    />
  );
}

function PaidDocumentRow({ kind, id, amount }: { kind: 'bill' | 'invoice'; id: string; amount: number }) {
  const d = useDocument(kind, id);
  const title = d.data
    ? kind === 'bill'
      ? `Bill: ${billTitle(d.data as Bill)}`
      : `Invoice: ${invoiceTitle(d.data as Invoice)}`
    : `${kind === 'bill' ? 'Bill' : 'Invoice'} ${shortId(id)}`;
  return <LinkedRow to={documentLink(kind === 'bill' ? 'Bill' : 'Invoice', id)?.to ?? '/accounting'} title={title} amount={amount} />;
}

/** The view's payments of a bill or an invoice: each connection (a link to it) and what it pays; why the total differs. */
export function PaymentsList({ kind, doc }: { kind: 'bill' | 'invoice'; doc: Bill | Invoice }) {
  const credits = kind === 'bill' ? ((doc as Bill).connectedVendorCredits ?? []) : ((doc as Invoice).connectedCreditMemos ?? []);
  const journals = doc.connectedManualEntries ?? [];
  const none = doc.connectedTransactions.length + journals.length + credits.length === 0;
  return (
    <section aria-label="Payments" className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2 border-t border-slate-200 pt-3 dark:border-slate-800">
      <h3 className="text-sm font-medium text-slate-700 dark:text-slate-200">Payments</h3>
      {none ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          No payment connected yet. Edit the {kind} to connect the bank transaction, manual journal or {kind === 'bill' ? 'vendor credit' : 'credit memo'} that
          paid it.
        </p>
      ) : (
        <ul className="grid grid-cols-[minmax(0,1fr)] gap-1 text-sm">
          {doc.connectedTransactions.map((p) => (
            <TransactionRow key={p.id} payment={p} />
          ))}
          {journals.map((p) => (
            <JournalRow key={p.id} id={p.id} amount={p.amount} />
          ))}
          {credits.map((p) => (
            <CreditRow key={p.id} kind={kind === 'bill' ? 'vendor' : 'customer'} id={p.id} amount={p.amount} />
          ))}
        </ul>
      )}
      {doc.differenceMessages.map((m) => (
        <p key={m} className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {m}
        </p>
      ))}
    </section>
  );
}

/** The view's "Pays" of a manual journal: paidBills and paidInvoices, each a link to the document. */
export function JournalPaysList({ journal }: { journal: ManualEntry }) {
  const bills = journal.paidBills ?? [];
  const invoices = journal.paidInvoices ?? [];
  return (
    <section aria-label="Pays" className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-2 border-t border-slate-200 pt-3 dark:border-slate-800">
      <h3 className="text-sm font-medium text-slate-700 dark:text-slate-200">Pays</h3>
      {bills.length + invoices.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">This journal pays no bill or invoice.</p>
      ) : (
        <ul className="grid grid-cols-[minmax(0,1fr)] gap-1 text-sm">
          {bills.map((p) => (
            <PaidDocumentRow key={p.id} kind="bill" id={p.id} amount={p.amount} />
          ))}
          {invoices.map((p) => (
            <PaidDocumentRow key={p.id} kind="invoice" id={p.id} amount={p.amount} />
          ))}
        </ul>
      )}
    </section>
  );
}
