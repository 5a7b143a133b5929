import {
  DOCUMENT_STATUSES,
  describeError,
  isApiError,
  saveDownload,
  useDeleteDocument,
  useDocument,
  useDocumentList,
  useCheckManualEntry,
  useDocumentsCsv,
  useInvoicePdf,
  useSaveDocument,
  useVoidDocument,
  type AnyDocument,
  type Bill,
  type DocumentKind,
  type DocumentStatusFilter,
  type Invoice,
  type ManualEntry,
} from '@ledgerline/api';
import {
  AmountInput,
  Button,
  DatePicker,
  RecordLink,
  Select,
  Spinner,
  TextField,
  addYears,
  cx,
  formatMoney,
  formatShortDate,
  todayIso,
  useErrorNotice,
  useNotice,
  useSearchWriter,
} from '@ledgerline/ui';
import { useState, type ReactNode } from 'react';
import { CREDIT_SPECS } from '../credits/state';
import { PartyPicker } from '../credits/CreditsTab';
import { CsvButton, EditorDialog, FOLD, RecordDialog, Terms, TextArea } from '../parties/common';
import { CategoryName } from '../records/CategoryName';
import { ListToolbar, RecordList, type RecordColumn, type RecordPages } from '../records/RecordList';
import { CategoryPicker } from '../transactions/CategoryPicker';
import { useEditAccess } from '../transactions/access';
import { LineItemsEditor, TotalsList, type LineColumn } from './LineItems';
import { DocumentPaymentsEditor, JournalPaysEditor, JournalPaysList, PaymentsList, StatusPill } from './Payments';
import { RecurDialog } from './RecurDialog';
import {
  DOCUMENT_SPECS,
  billBody,
  documentPaid,
  documentErrorOnForm,
  documentForm,
  documentScreenFromSearch,
  documentSearch,
  documentTotals,
  emptyDocumentLine,
  hasDocumentErrors,
  invoiceBody,
  invoiceLineAmount,
  manualEntryBody,
  recurrenceSummary,
  validateDocumentForm,
  type DocumentForm,
  type DocumentFormErrors,
  type DocumentLineForm,
  type DocumentScreen,
  type DocumentSpec,
  type LineField,
} from './state';

/** Spec §5 tooltip of an invoice line's Amount. */
export const QTY_RATE_TOOLTIP = 'Enter Qty and Rate to update Amount';

const STATUS_OPTIONS: { value: DocumentStatusFilter; label: string }[] = [
  { value: '', label: 'All statuses' },
  ...DOCUMENT_STATUSES.map((s) => ({ value: s, label: s })),
];

const INTRO: Readonly<Record<DocumentKind, string>> = {
  bill: 'Bills you owe vendors, booked to Accounts Payable on their date; pay one by connecting the bank transaction, manual journal or vendor credit that paid it.',
  invoice: 'Invoices you sent customers, booked to Accounts Receivable; connect the deposit, manual journal or credit memo that paid one.',
  manualEntry: 'Journal entries you post by hand: debits must equal credits. A journal that moves Accounts Payable or Receivable can pay bills and invoices.',
};

/** A date that may be absent (a bill or invoice with no due date): '' rather than a made-up date. */
const optionalDate = (iso: string): string => (iso ? formatShortDate(iso) : '');

const partyOf = (kind: DocumentKind, d: AnyDocument): string =>
  kind === 'bill' ? (d as Bill).vendor.name : kind === 'invoice' ? (d as Invoice).customer.name : (d as ManualEntry).memo;
const dateOf = (kind: DocumentKind, d: AnyDocument): string =>
  kind === 'bill' ? (d as Bill).billDate : kind === 'invoice' ? (d as Invoice).invoiceDate : (d as ManualEntry).postingDate;
const referenceOf = (kind: DocumentKind, d: AnyDocument): string =>
  kind === 'bill' ? (d as Bill).invoiceCode : kind === 'invoice' ? (d as Invoice).referenceNo : '';

/**
 * Accounting → Bills, Invoices, Manual Journal (spec §2: `?tab=bills|invoices|manual-journal`, the open one in
 * `?bill=` / `?invoice=` / `?manualJournal=` with mode=view or edit, mode=create for a new one, `filter` Posted or
 * Voided): one list, one view and one editor for the three documents (issue #18 item 7).
 */
export function DocumentsTab({
  kind,
  actions,
}: {
  kind: DocumentKind;
  /** More buttons in the toolbar (the bills' and invoices' upload). */ actions?: ReactNode;
}) {
  const spec = DOCUMENT_SPECS[kind];
  const [params, writeSearch] = useSearchWriter();
  const screen = documentScreenFromSearch(spec, params);
  const go = (next: Partial<DocumentScreen>) =>
    writeSearch((latest) => documentSearch(spec, { ...documentScreenFromSearch(spec, latest), openId: null, mode: 'idle', ...next }));
  const list = useDocumentList(kind, { status: screen.status });
  const access = useEditAccess();
  const plural = kind === 'manualEntry' ? 'Manual journals' : `${spec.what}s`;

  return (
    <section aria-label={plural}>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{INTRO[kind]}</p>
      <ListToolbar
        filters={
          <Select<DocumentStatusFilter>
            label="Status"
            name="filter"
            className="w-full sm:w-40"
            options={STATUS_OPTIONS}
            value={screen.status}
            onChange={(status) => go({ status })}
          />
        }
        actions={
          <>
            {actions}
            {kind !== 'manualEntry' && <DocumentsCsv kind={kind} status={screen.status} />}
            <Button size="sm" disabled={!access.canEdit} title={access.reason ?? undefined} onClick={() => go({ mode: 'create' })}>
              New {spec.what.toLowerCase()}
            </Button>
          </>
        }
      />
      {access.reason && <p className="mb-2 text-sm text-amber-700 dark:text-amber-400">{access.reason}</p>}

      <RecordList<AnyDocument>
        label={plural}
        list={list as RecordPages<AnyDocument>}
        columns={documentColumns(kind, spec, (id) => go({ openId: id, mode: 'view' }))}
        openId={screen.openId}
        empty={{
          title: `No ${plural.toLowerCase()}${screen.status ? ` (${screen.status})` : ''}`,
          description: `Record a ${spec.what.toLowerCase()} with “New ${spec.what.toLowerCase()}”.`,
        }}
      />

      {screen.mode === 'create' && <DocumentEditor spec={spec} doc={null} onDone={(id) => go(id === null ? {} : { openId: id, mode: 'view' })} />}
      {screen.openId !== null && <DocumentView spec={spec} id={screen.openId} editing={screen.mode === 'edit'} go={go} />}
    </section>
  );
}

function DocumentsCsv({ kind, status }: { kind: 'bill' | 'invoice'; status: DocumentStatusFilter }) {
  const exporter = useDocumentsCsv(kind);
  return <CsvButton exporter={exporter} filters={{ status }} fallbackName={`${kind}s.csv`} />;
}

/** The list's columns: secondary ones fold away below 48em (RecordList). */
function documentColumns(kind: DocumentKind, spec: DocumentSpec, onOpen: (id: string) => void): RecordColumn<AnyDocument>[] {
  const payable = kind !== 'manualEntry';
  return [
    { header: 'Date', width: 'w-20 md:w-24', cell: (d) => <span className="tabular-nums">{formatShortDate(dateOf(kind, d))}</span> },
    {
      header: spec.party ?? 'Memo',
      cell: (d) => (
        <RecordLink label={`${spec.what} ${partyOf(kind, d)} ${formatShortDate(dateOf(kind, d))}`} onOpen={() => onOpen(d.id)}>
          {partyOf(kind, d) || '—'}
        </RecordLink>
      ),
    },
    ...(payable
      ? [
          { header: kind === 'bill' ? 'Invoice code' : 'Ref no', width: 'w-32', fold: true, cell: (d: AnyDocument) => referenceOf(kind, d) || '—' },
          {
            header: 'Due',
            width: 'w-24',
            fold: true,
            cell: (d: AnyDocument) => <span className="tabular-nums">{optionalDate((d as Bill).dueDate) || '—'}</span>,
          },
        ]
      : []),
    { header: 'Total', width: 'w-24 md:w-28', numeric: true, cell: (d) => formatMoney(d.totalAmount) },
    ...(payable ? [{ header: 'Payment', width: 'w-36', fold: true, cell: (d: AnyDocument) => <StatusPill status={(d as Bill).paymentStatus} /> }] : []),
    { header: 'Status', width: 'w-20 md:w-24', cell: (d) => <StatusPill status={d.status} /> },
  ];
}

function DocumentView({ spec, id, editing, go }: { spec: DocumentSpec; id: string; editing: boolean; go: (next: Partial<DocumentScreen>) => void }) {
  const kind = spec.kind;
  const query = useDocument(kind, id);
  const remove = useDeleteDocument(kind);
  const voider = useVoidDocument(kind);
  const pdf = useInvoicePdf();
  const access = useEditAccess();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const [message, setMessage] = useState<string | null>(null);
  const [confirmVoid, setConfirmVoid] = useState(false);
  const [recurring, setRecurring] = useState(false);
  const close = () => go({});
  const d = query.data;
  if (editing && d && !d.voided) return <DocumentEditor spec={spec} doc={d} onDone={() => go({ openId: id, mode: 'view' })} />;
  const what = spec.what.toLowerCase();
  const refuse = (error: unknown) => setMessage(describeError(error)?.message ?? 'Something went wrong');
  const can = { disabled: !access.canEdit, title: access.reason ?? undefined };

  const extra =
    d === undefined ? null : confirmVoid ? (
      <>
        <span className="self-center text-sm text-slate-700 dark:text-slate-200">Void this {what}? Its entry is reversed; it stays listed as Voided.</span>
        <Button variant="secondary" onClick={() => setConfirmVoid(false)}>
          Keep
        </Button>
        <Button
          variant="danger"
          loading={voider.isPending}
          onClick={() =>
            voider.mutate(id, {
              onSuccess: (answer) => {
                notice.success(answer.message);
                setConfirmVoid(false);
              },
              onError: (error) => {
                setConfirmVoid(false);
                refuse(error);
              },
            })
          }
        >
          Void {what}
        </Button>
      </>
    ) : (
      <>
        {kind === 'invoice' && (
          <Button
            variant="secondary"
            loading={pdf.isPending}
            onClick={() => pdf.mutate(id, { onSuccess: (file) => saveDownload(file.blob, file.fileName ?? `invoice-${id}.pdf`), onError: showError })}
          >
            Download PDF
          </Button>
        )}
        {!d.voided && (
          <>
            <Button variant="secondary" {...can} onClick={() => setRecurring(true)}>
              Recur
            </Button>
            <Button variant="secondary" {...can} onClick={() => setConfirmVoid(true)}>
              Void
            </Button>
          </>
        )}
      </>
    );

  const title = d
    ? `${spec.what}: ${kind === 'manualEntry' ? formatShortDate(dateOf(kind, d)) : partyOf(kind, d)}`
    : query.isError
      ? `${spec.what} not found`
      : spec.what;
  // The schedule's dialog takes the view's place rather than opening over it: Headless UI leaves the page inert
  // after a dialog nested in another closes (notices included); closing it brings the view back.
  if (recurring && d) return <RecurDialog kind={kind} id={id} what={spec.what} start={dateOf(kind, d)} onClose={() => setRecurring(false)} />;
  return (
    <>
      <RecordDialog
        title={title}
        description={d ? `${formatShortDate(dateOf(kind, d))} · ${d.status}` : undefined}
        loaded={d !== undefined}
        size="lg"
        deleteQuestion={`Delete this ${what}? Its entry is reversed and it is no longer listed.`}
        deleteLabel={`Delete ${what}`}
        deleting={remove.isPending}
        onDelete={(stop) =>
          remove.mutate(id, {
            onSuccess: (answer) => {
              notice.success(answer.message);
              close();
            },
            onError: (error) => {
              stop();
              refuse(error);
            },
          })
        }
        onEdit={() => go({ openId: id, mode: 'edit' })}
        onClose={close}
        editLocked={d?.voided ? `A voided ${what} cannot be changed` : null}
        extraActions={extra}
        message={message === null ? null : { text: message, tone: 'error' }}
      >
        {query.isPending ? (
          <Spinner label={`Loading the ${what}`} />
        ) : query.isError ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{describeError(query.error)?.message}</p>
        ) : (
          d && <DocumentDetails kind={kind} doc={d} />
        )}
      </RecordDialog>
    </>
  );
}

function DocumentDetails({ kind, doc }: { kind: DocumentKind; doc: AnyDocument }) {
  const items: [string, ReactNode][] = [];
  if (kind === 'bill') {
    const b = doc as Bill;
    items.push(
      ['Vendor', b.vendor.name],
      ['Bill date', formatShortDate(b.billDate)],
      ['Due date', optionalDate(b.dueDate)],
      ['Invoice code', b.invoiceCode],
      ['Description', b.description],
    );
  } else if (kind === 'invoice') {
    const v = doc as Invoice;
    items.push(
      ['Customer', v.customer.name],
      ['Invoice date', formatShortDate(v.invoiceDate)],
      ['Due date', optionalDate(v.dueDate)],
      ['Ref no', v.referenceNo],
      ['Description', v.description],
      ['Company', v.companyName],
      ['Address', v.companyAddress],
    );
  } else {
    const m = doc as ManualEntry;
    items.push(['Posting date', formatShortDate(m.postingDate)], ['Memo', m.memo]);
  }
  items.push(['Status', <StatusPill key="s" status={doc.status} />]);
  const recurs = recurrenceSummary(doc.recurrence, formatShortDate);
  if (recurs) items.push(['Recurrence', recurs]);
  const payable = kind !== 'manualEntry' ? (doc as Bill | Invoice) : null;
  if (payable) items.push(['Payment status', <StatusPill key="p" status={payable.paymentStatus} />]);
  return (
    <div className="grid gap-4">
      <Terms items={items} />
      <DocumentLinesTable kind={kind} doc={doc} />
      {payable ? (
        <TotalsList
          rows={[
            ['Total', payable.totalAmount, true],
            ['Paid', payable.paidAmount],
            ['Balance due', Math.round((payable.totalAmount - payable.paidAmount) * 100) / 100],
          ]}
        />
      ) : (
        <TotalsList
          rows={[
            ['Total debits', doc.totalAmount, true],
            ['Total credits', (doc as ManualEntry).lineItems.reduce((s, l) => s + l.credit, 0)],
          ]}
        />
      )}
      {payable ? <PaymentsList kind={kind as 'bill' | 'invoice'} doc={payable} /> : <JournalPaysList journal={doc as ManualEntry} />}
    </div>
  );
}

function DocumentLinesTable({ kind, doc }: { kind: DocumentKind; doc: AnyDocument }) {
  const th = 'py-1.5 pr-2 text-left';
  const num = 'w-24 py-1.5 pr-2 text-right';
  return (
    <div className="max-md:overflow-x-auto">
      <table aria-label="Line items" className="w-full table-fixed text-sm">
        <thead className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
          <tr className="border-b border-slate-200 dark:border-slate-800">
            {/* A journal line's description is optional: it folds away on a phone, where the account needs the room. */}
            <th scope="col" className={cx(th, kind === 'manualEntry' && FOLD)}>
              {kind === 'manualEntry' ? 'Description' : 'Service'}
            </th>
            <th scope="col" className={th}>
              {kind === 'manualEntry' ? 'Account' : 'Category'}
            </th>
            {kind === 'invoice' && (
              <th scope="col" className={`${num} ${FOLD}`}>
                Qty
              </th>
            )}
            {kind === 'invoice' && (
              <th scope="col" className={`${num} ${FOLD}`}>
                Rate
              </th>
            )}
            {kind === 'manualEntry' ? (
              <>
                <th scope="col" className={num}>
                  Debit
                </th>
                <th scope="col" className={num}>
                  Credit
                </th>
              </>
            ) : (
              <th scope="col" className={num}>
                Amount
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {doc.lineItems.map((l) => (
            <tr key={l.id}>
              <td className={cx('truncate py-1.5 pr-2', kind === 'manualEntry' && FOLD)}>{('serviceName' in l ? l.serviceName : l.description) || '—'}</td>
              <td className="truncate py-1.5 pr-2">
                <CategoryName id={l.categoryId} />
              </td>
              {'quantity' in l && <td className={`py-1.5 pr-2 text-right tabular-nums ${FOLD}`}>{l.quantity}</td>}
              {'rate' in l && <td className={`py-1.5 pr-2 text-right tabular-nums ${FOLD}`}>{formatMoney(l.rate)}</td>}
              {'debit' in l ? (
                <>
                  <td className="py-1.5 pr-2 text-right tabular-nums">{l.debit ? formatMoney(l.debit) : ''}</td>
                  <td className="py-1.5 pr-2 text-right tabular-nums">{l.credit ? formatMoney(l.credit) : ''}</td>
                </>
              ) : (
                <td className="py-1.5 pr-2 text-right tabular-nums">{formatMoney(l.amount)}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const COLUMNS: Readonly<Record<DocumentKind, readonly LineColumn[]>> = {
  bill: [
    { header: 'Service', track: 'minmax(0,3fr)' },
    { header: 'Category', track: 'minmax(0,3fr)' },
    { header: 'Amount', track: '8rem', numeric: true },
  ],
  invoice: [
    { header: 'Service', track: 'minmax(0,3fr)' },
    { header: 'Category', track: 'minmax(0,3fr)' },
    { header: 'Qty', track: '5rem', numeric: true, phone: 'third' },
    { header: 'Rate', track: '7rem', numeric: true, phone: 'third' },
    { header: 'Amount', track: '7rem', numeric: true, phone: 'third' },
  ],
  manualEntry: [
    { header: 'Account', track: 'minmax(0,3fr)' },
    { header: 'Description', track: 'minmax(0,3fr)' },
    { header: 'Debit', track: '7rem', numeric: true, phone: 'half' },
    { header: 'Credit', track: '7rem', numeric: true, phone: 'half' },
  ],
};

const right = '[&_input]:text-right';

function lineCells(
  spec: DocumentSpec,
  i: number,
  line: DocumentLineForm,
  errors: Partial<Record<LineField, string>> | undefined,
  onChange: (patch: Partial<DocumentLineForm>) => void,
): ReactNode[] {
  const n = i + 1;
  const category = (
    <CategoryPicker
      key="c"
      label={spec.kind === 'manualEntry' ? `Line ${n} account` : `Line ${n} category`}
      name={`lineItems.${i}.categoryId`}
      flow={spec.flow === 'inflow' ? 'inflow' : 'outflow'}
      required
      value={line.categoryId || null}
      error={errors?.categoryId}
      onChange={(categoryId) => onChange({ categoryId })}
    />
  );
  if (spec.kind === 'manualEntry') {
    return [
      category,
      <TextField
        key="t"
        label={`Line ${n} description`}
        name={`lineItems.${i}.description`}
        value={line.text}
        onChange={(e) => onChange({ text: e.target.value })}
      />,
      <AmountInput
        key="d"
        label={`Line ${n} debit`}
        name={`lineItems.${i}.debit`}
        className={right}
        value={line.debit}
        error={errors?.debit}
        onValueChange={(debit) => onChange({ debit, ...(debit ? { credit: '' } : {}) })}
      />,
      <AmountInput
        key="r"
        label={`Line ${n} credit`}
        name={`lineItems.${i}.credit`}
        className={right}
        value={line.credit}
        onValueChange={(credit) => onChange({ credit, ...(credit ? { debit: '' } : {}) })}
      />,
    ];
  }
  const service = (
    <TextField
      key="t"
      label={`Line ${n} service`}
      name={`lineItems.${i}.serviceName`}
      required
      maxLength={150}
      value={line.text}
      error={errors?.text}
      onChange={(e) => onChange({ text: e.target.value })}
    />
  );
  if (spec.kind === 'bill') {
    return [
      service,
      category,
      <AmountInput
        key="a"
        label={`Line ${n} amount`}
        name={`lineItems.${i}.amount`}
        required
        className={right}
        value={line.amount}
        error={errors?.amount}
        onValueChange={(amount) => onChange({ amount })}
      />,
    ];
  }
  return [
    service,
    category,
    <TextField
      key="q"
      label={`Line ${n} quantity`}
      name={`lineItems.${i}.quantity`}
      required
      inputMode="decimal"
      autoComplete="off"
      className={right}
      value={line.quantity}
      error={errors?.quantity}
      onChange={(e) => onChange({ quantity: e.target.value.replace(/[^\d.]/g, '') })}
    />,
    <AmountInput
      key="r"
      label={`Line ${n} rate`}
      name={`lineItems.${i}.rate`}
      required
      className={right}
      value={line.rate}
      error={errors?.rate}
      onValueChange={(rate) => onChange({ rate })}
    />,
    <TextField
      key="a"
      label={`Line ${n} amount`}
      name={`lineItems.${i}.amount`}
      readOnly
      tabIndex={-1}
      title={QTY_RATE_TOOLTIP}
      placeholder="—"
      hint={undefined}
      className={cx(right, '[&_input]:bg-slate-50 dark:[&_input]:bg-slate-800')}
      value={invoiceLineAmount(line)}
      aria-description={QTY_RATE_TOOLTIP}
    />,
  ];
}

/** Create (doc null) or edit a bill, an invoice or a manual journal. `onDone(id)` with the saved one's id, or null when cancelled. */
function DocumentEditor({ spec, doc, onDone }: { spec: DocumentSpec; doc: AnyDocument | null; onDone: (id: string | null) => void }) {
  const kind = spec.kind;
  const today = todayIso();
  const [form, setForm] = useState<DocumentForm>(() => documentForm(kind, doc, today));
  const [tried, setTried] = useState(false);
  const [refusedFields, setRefusedFields] = useState<DocumentFormErrors>({});
  const [refused, setRefused] = useState<string | null>(null);
  const errors: DocumentFormErrors = { ...(tried ? validateDocumentForm(spec, form) : {}), ...refusedFields };
  const save = useSaveDocument(kind);
  const notice = useNotice();
  const change = (next: (f: DocumentForm) => DocumentForm) => {
    setRefusedFields({});
    setForm(next);
  };
  const set = <K extends keyof DocumentForm>(key: K, value: DocumentForm[K]) => change((f) => ({ ...f, [key]: value }));
  const setLine = (key: string, patch: Partial<DocumentLineForm>) =>
    change((f) => ({ ...f, lines: f.lines.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));
  const totals = documentTotals(kind, form);
  const what = spec.what.toLowerCase();

  const submit = () => {
    setTried(true);
    setRefusedFields({});
    setRefused(null);
    if (hasDocumentErrors(validateDocumentForm(spec, form))) return;
    const body = kind === 'bill' ? billBody(form) : kind === 'invoice' ? invoiceBody(form) : manualEntryBody(form);
    save.mutate({ id: doc?.id ?? null, body } as never, {
      onSuccess: (answer) => {
        notice.success(answer.message);
        onDone(answer.document.id);
      },
      onError: (error) => {
        const message = describeError(error)?.message ?? 'Something went wrong';
        const onForm = documentErrorOnForm(kind, form, isApiError(error) ? error.field : undefined, message);
        if (onForm === null) setRefused(message);
        else setRefusedFields(onForm);
      },
    });
  };

  const partyCurrent = doc === null ? null : kind === 'bill' ? (doc as Bill).vendor : kind === 'invoice' ? (doc as Invoice).customer : null;
  return (
    <EditorDialog
      title={doc === null ? `New ${what}` : `Edit ${what}`}
      saveLabel={`Save ${what}`}
      saving={save.isPending}
      onSave={submit}
      onCancel={() => onDone(doc?.id ?? null)}
      refused={refused}
      label={spec.what}
      size={kind === 'invoice' ? 'xl' : 'lg'}
    >
      {spec.party !== null && (
        <PartyPicker
          spec={CREDIT_SPECS[spec.party === 'Vendor' ? 'vendor' : 'customer']}
          value={form.partyId}
          current={partyCurrent}
          error={errors.partyId}
          onChange={(id) => set('partyId', id)}
        />
      )}
      <div className="grid gap-3 sm:grid-cols-3">
        <DatePicker
          label={spec.dateLabel}
          name="date"
          required
          value={form.date || null}
          max={addYears(today, 1)}
          error={errors.date}
          onChange={(d) => set('date', d)}
        />
        {kind !== 'manualEntry' && (
          <DatePicker
            label="Due date"
            name="dueDate"
            value={form.dueDate || null}
            max={addYears(today, 2)}
            error={errors.dueDate}
            onChange={(d) => set('dueDate', d)}
          />
        )}
        {kind !== 'manualEntry' && (
          <TextField
            label={kind === 'bill' ? 'Invoice code' : 'Ref no'}
            name="reference"
            maxLength={100}
            value={form.reference}
            error={errors.reference}
            onChange={(e) => set('reference', e.target.value)}
          />
        )}
      </div>
      {kind === 'manualEntry' ? (
        <TextField label="Memo" name="memo" required value={form.description} error={errors.description} onChange={(e) => set('description', e.target.value)} />
      ) : (
        <TextArea label="Description" name="description" value={form.description} error={errors.description} onChange={(v) => set('description', v)} />
      )}
      {kind === 'invoice' && (
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="Company name"
            name="companyName"
            maxLength={100}
            value={form.companyName}
            error={errors.companyName}
            onChange={(e) => set('companyName', e.target.value)}
          />
          <TextField
            label="Company address"
            name="companyAddress"
            maxLength={300}
            value={form.companyAddress}
            error={errors.companyAddress}
            onChange={(e) => set('companyAddress', e.target.value)}
          />
        </div>
      )}
      {kind === 'invoice' && <p className="text-xs text-slate-500 dark:text-slate-400">{QTY_RATE_TOOLTIP}.</p>}
      <LineItemsEditor
        lines={form.lines}
        columns={COLUMNS[kind]}
        minLines={kind === 'manualEntry' ? 2 : 1}
        error={errors.lines}
        onAdd={() => set('lines', [...form.lines, emptyDocumentLine()])}
        onRemove={(key) =>
          set(
            'lines',
            form.lines.filter((l) => l.key !== key),
          )
        }
        renderLine={(line, i) => lineCells(spec, i, line, errors.line?.[line.key], (patch) => setLine(line.key, patch))}
      />
      {kind === 'manualEntry' ? (
        <>
          <TotalsList
            rows={[
              ['Total debits', totals.debit, true],
              ['Total credits', totals.credit, true],
              ['Difference', Math.round((totals.debit - totals.credit) * 100) / 100],
            ]}
          />
          <BalanceCheck
            form={form}
            spec={spec}
            onRefused={(field, message) => {
              const onForm = documentErrorOnForm(kind, form, field, message);
              if (onForm === null) setRefused(message);
              else setRefusedFields(onForm);
            }}
            onInvalid={() => setTried(true)}
          />
        </>
      ) : (
        <TotalsList rows={[['Total', totals.total, true]]} />
      )}
      {kind === 'manualEntry' ? (
        <JournalPaysEditor journalId={doc?.id ?? null} bills={form.bills} invoices={form.invoices} errors={errors} onChange={(key, list) => set(key, list)} />
      ) : (
        <DocumentPaymentsEditor
          kind={kind}
          documentId={doc?.id ?? null}
          partyId={form.partyId}
          total={totals.total}
          paid={documentPaid(form)}
          payments={form.payments}
          journals={form.journals}
          credits={form.credits}
          errors={errors}
          onChange={(key, list) => set(key, list)}
        />
      )}
    </EditorDialog>
  );
}

/** POST /accounting/manual-entry/check: whether the journal balances, asked of the server without posting it. */
function BalanceCheck({
  form,
  spec,
  onRefused,
  onInvalid,
}: {
  form: DocumentForm;
  spec: DocumentSpec;
  onRefused: (field: string | undefined, message: string) => void;
  onInvalid: () => void;
}) {
  const check = useCheckManualEntry();
  // What the server said, about the form as it was checked: a changed form hides it.
  const [said, setSaid] = useState<{ text: string; ok: boolean; about: string } | null>(null);
  const current = JSON.stringify(manualEntryBody(form));
  const run = () => {
    setSaid(null);
    if (hasDocumentErrors(validateDocumentForm(spec, form))) {
      onInvalid();
      return;
    }
    check.mutate(manualEntryBody(form), {
      onSuccess: (r) =>
        setSaid(
          r.balanced
            ? { text: `The entry balances: debits and credits are ${formatMoney(r.totalDebit)}`, ok: true, about: current }
            : { text: r.differenceData.differenceMessages.join(' ') || 'The entry does not balance', ok: false, about: current },
        ),
      onError: (error) => onRefused(isApiError(error) ? error.field : undefined, describeError(error)?.message ?? 'Something went wrong'),
    });
  };
  return (
    <div className="flex flex-wrap items-center justify-end gap-3">
      {said?.about === current && (
        <p role="status" className={cx('text-sm', said.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-800 dark:text-amber-300')}>
          {said.text}
        </p>
      )}
      <Button size="sm" variant="secondary" loading={check.isPending} onClick={run}>
        Check balance
      </Button>
    </div>
  );
}
