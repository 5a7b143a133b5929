import {
  describeError,
  isApiError,
  useCredit,
  useCreditList,
  useCustomerList,
  useDeleteCredit,
  useSaveCredit,
  useVendorList,
  type CreditKind,
  type PartyCredit,
} from '@ledgerline/api';
import {
  AmountInput,
  Button,
  DatePicker,
  RecordLink,
  Spinner,
  TextField,
  addYears,
  formatMoney,
  formatShortDate,
  todayIso,
  useNotice,
  useSearchWriter,
  Combobox,
} from '@ledgerline/ui';
import { useEffect, useState } from 'react';
import { LineItemsEditor, TotalsList } from '../documents/LineItems';
import { CategoryPicker } from '../transactions/CategoryPicker';
import { useEditAccess } from '../transactions/access';
import { EditorDialog, RecordDialog, Terms, TextArea } from '../parties/common';
import { uniqueRows } from '../parties/state';
import { CategoryName } from '../records/CategoryName';
import { RecordList, type RecordColumn } from '../records/RecordList';
import {
  CREDIT_SPECS,
  creditBody,
  creditForm,
  creditScreenFromSearch,
  creditSearch,
  emptyLine,
  formTotal,
  hasErrors,
  serverErrorOnForm,
  validateCreditForm,
  type CreditForm,
  type CreditFormErrors,
  type CreditLineForm,
  type CreditScreen,
  type CreditSpec,
} from './state';

/**
 * Expenses → Vendor Credit (`?tab=vendor-credit`, `?vendorCredit=<id>`) and Revenue → Credit Memo (`?tab=credit-memo`,
 * `?creditMemo=<id>`): one list, one view and one editor for both kinds (spec §2, §3, §5; issue #17 item 8). `mode`
 * is create, edit or view (the default for an open one).
 */
export function CreditsTab({ kind }: { kind: CreditKind }) {
  const spec = CREDIT_SPECS[kind];
  const [params, writeSearch] = useSearchWriter();
  const screen = creditScreenFromSearch(spec, params);
  const go = (next: CreditScreen) => writeSearch(() => creditSearch(spec, next));
  const list = useCreditList(kind);
  const access = useEditAccess();
  const plural = `${spec.what}s`;

  return (
    <section aria-label={plural}>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {kind === 'vendor'
            ? 'Money your vendors owe you back: refunds and credits to set against their bills.'
            : 'Credits you issued to customers, to set against their invoices.'}
        </p>
        <Button
          size="sm"
          className="ml-auto"
          disabled={!access.canEdit}
          title={access.reason ?? undefined}
          onClick={() => go({ openId: null, mode: 'create' })}
        >
          New {spec.what.toLowerCase()}
        </Button>
      </div>
      {access.reason && <p className="mb-2 text-sm text-amber-700 dark:text-amber-400">{access.reason}</p>}

      <RecordList<PartyCredit>
        label={plural}
        list={list}
        columns={creditColumns(spec, (id) => go({ openId: id, mode: 'view' }))}
        openId={screen.openId}
        empty={{
          title: `No ${plural.toLowerCase()}`,
          description: kind === 'vendor' ? 'Record a credit a vendor gave you.' : 'Record a credit you gave a customer.',
        }}
      />

      {screen.mode === 'create' && (
        <CreditEditor spec={spec} credit={null} onDone={(id) => go(id === null ? { openId: null, mode: 'idle' } : { openId: id, mode: 'view' })} />
      )}
      {screen.openId !== null && <CreditView spec={spec} id={screen.openId} editing={screen.mode === 'edit'} go={go} />}
    </section>
  );
}

/** The list's columns: secondary ones fold away below 48em (RecordList). */
function creditColumns(spec: CreditSpec, onOpen: (id: string) => void): RecordColumn<PartyCredit>[] {
  return [
    { header: 'Date', width: 'w-24', cell: (c) => <span className="tabular-nums">{formatShortDate(c.paymentDate)}</span> },
    {
      header: spec.party,
      cell: (c) => (
        <RecordLink label={`${spec.what} ${c.party.name} ${formatShortDate(c.paymentDate)}`} onOpen={() => onOpen(c.id)}>
          {c.party.name}
        </RecordLink>
      ),
    },
    ...(spec.hasRefNo ? [{ header: 'Ref no', width: 'w-28', fold: true, cell: (c: PartyCredit) => c.refNo || '—' }] : []),
    { header: 'Description', fold: true, cell: (c) => c.description || '—' },
    { header: 'Total', width: 'w-28', numeric: true, fold: true, cell: (c) => formatMoney(c.totalAmount) },
    { header: 'Applied', width: 'w-28', numeric: true, fold: true, cell: (c) => formatMoney(c.appliedAmount) },
    { header: 'Balance', width: 'w-28', numeric: true, cell: (c) => formatMoney(c.runningBalance) },
  ];
}

function CreditView({ spec, id, editing, go }: { spec: CreditSpec; id: string; editing: boolean; go: (next: CreditScreen) => void }) {
  const credit = useCredit(spec.kind, id);
  const remove = useDeleteCredit(spec.kind);
  const notice = useNotice();
  const [refused, setRefused] = useState<string | null>(null);
  const close = () => go({ openId: null, mode: 'idle' });
  const c = credit.data;
  if (editing && c) return <CreditEditor spec={spec} credit={c} onDone={() => go({ openId: id, mode: 'view' })} />;
  return (
    <RecordDialog
      title={c ? `${spec.what}: ${c.party.name}` : credit.isError ? `${spec.what} not found` : spec.what}
      description={c ? `${formatShortDate(c.paymentDate)}${c.refNo ? ` · Ref ${c.refNo}` : ''}` : undefined}
      loaded={c !== undefined}
      deleteQuestion={`Delete this ${spec.what.toLowerCase()}? Its ledger entry is reversed.`}
      deleteLabel={`Delete ${spec.what.toLowerCase()}`}
      deleting={remove.isPending}
      onDelete={() =>
        remove.mutate(id, {
          onSuccess: (answer) => {
            notice.success(answer.message);
            close();
          },
          onError: (error) => setRefused(describeError(error)?.message ?? 'Something went wrong'),
        })
      }
      onEdit={() => go({ openId: id, mode: 'edit' })}
      onClose={close}
      size="lg"
      message={refused === null ? null : { text: refused, tone: 'error' }}
    >
      {credit.isPending ? (
        <Spinner label={`Loading the ${spec.what.toLowerCase()}`} />
      ) : credit.isError ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{describeError(credit.error)?.message}</p>
      ) : (
        c && (
          <div className="grid gap-4">
            <Terms
              items={[
                [spec.party, c.party.name],
                ['Payment date', formatShortDate(c.paymentDate)],
                ...(spec.hasRefNo ? ([['Ref no', c.refNo]] as [string, string][]) : []),
                ['Description', c.description],
              ]}
            />
            <LineItemsTable credit={c} />
            <CreditTotals total={c.totalAmount} applied={c.appliedAmount} balance={c.runningBalance} />
          </div>
        )
      )}
    </RecordDialog>
  );
}

function LineItemsTable({ credit }: { credit: PartyCredit }) {
  return (
    <table aria-label="Line items" className="w-full table-fixed text-sm">
      <thead className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
        <tr className="border-b border-slate-200 dark:border-slate-800">
          <th scope="col" className="py-1.5 pr-2 text-left">
            Description
          </th>
          <th scope="col" className="py-1.5 pr-2 text-left">
            Category
          </th>
          <th scope="col" className="w-24 py-1.5 text-right">
            Amount
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
        {credit.lineItems.map((l) => (
          <tr key={l.id}>
            <td className="truncate py-1.5 pr-2">{l.description || '—'}</td>
            <td className="truncate py-1.5 pr-2">
              <CategoryName id={l.categoryId} />
            </td>
            <td className="py-1.5 text-right tabular-nums">{formatMoney(l.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** totalAmount, appliedAmount and runningBalance (spec §3), as a credit shows them. */
function CreditTotals({ total, applied, balance }: { total: number; applied: number | null; balance: number | null }) {
  return (
    <TotalsList
      rows={[
        ['Total', total, true],
        ['Applied', applied],
        ['Running balance', balance],
      ]}
    />
  );
}

/** Create (credit null) or edit a vendor credit or a credit memo. `onDone(id)` with the saved one's id, or null when cancelled. */
function CreditEditor({ spec, credit, onDone }: { spec: CreditSpec; credit: PartyCredit | null; onDone: (id: string | null) => void }) {
  const today = todayIso();
  const [form, setForm] = useState<CreditForm>(() => creditForm(credit, today));
  // After the first Save the checks follow the form (a fixed field loses its message at once); a refusal from the
  // server shows until the form changes.
  const [tried, setTried] = useState(false);
  const [refusedFields, setRefusedFields] = useState<CreditFormErrors>({});
  const [refused, setRefused] = useState<string | null>(null);
  const errors: CreditFormErrors = { ...(tried ? validateCreditForm(spec, form) : {}), ...refusedFields };
  const save = useSaveCredit(spec.kind);
  const notice = useNotice();
  const change = (next: (f: CreditForm) => CreditForm) => {
    setRefusedFields({});
    setForm(next);
  };
  const set = <K extends keyof CreditForm>(key: K, value: CreditForm[K]) => change((f) => ({ ...f, [key]: value }));
  const setLine = (key: string, patch: Partial<CreditLineForm>) =>
    change((f) => ({ ...f, lines: f.lines.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));
  const total = formTotal(form);
  const applied = credit?.appliedAmount ?? 0;

  const submit = () => {
    setTried(true);
    setRefusedFields({});
    setRefused(null);
    if (hasErrors(validateCreditForm(spec, form))) return;
    save.mutate(
      { id: credit?.id ?? null, body: creditBody(spec, form) },
      {
        onSuccess: (answer) => {
          notice.success(answer.message);
          onDone(answer.credit.id);
        },
        onError: (error) => {
          const message = describeError(error)?.message ?? 'Something went wrong';
          const onForm = serverErrorOnForm(spec, form, isApiError(error) ? error.field : undefined, message);
          if (onForm === null) setRefused(message);
          else setRefusedFields(onForm);
        },
      },
    );
  };

  return (
    <EditorDialog
      title={credit === null ? `New ${spec.what.toLowerCase()}` : `Edit ${spec.what.toLowerCase()}`}
      saveLabel={`Save ${spec.what.toLowerCase()}`}
      saving={save.isPending}
      onSave={submit}
      onCancel={() => onDone(credit?.id ?? null)}
      refused={refused}
      label={spec.what}
      size="lg"
    >
      <PartyPicker spec={spec} value={form.partyId} current={credit?.party ?? null} error={errors.partyId} onChange={(id) => set('partyId', id)} />
      <div className="grid gap-3 sm:grid-cols-2">
        <DatePicker
          label="Payment date"
          name="paymentDate"
          required
          value={form.paymentDate || null}
          max={addYears(today, 1)}
          error={errors.paymentDate}
          onChange={(d) => set('paymentDate', d)}
        />
        {spec.hasRefNo && (
          <TextField label="Ref no" name="refNo" maxLength={100} value={form.refNo} error={errors.refNo} onChange={(e) => set('refNo', e.target.value)} />
        )}
      </div>
      <TextArea label="Description" name="description" value={form.description} error={errors.description} onChange={(v) => set('description', v)} />
      <LineItemsEditor
        lines={form.lines}
        columns={CREDIT_COLUMNS}
        error={errors.lines}
        onAdd={() => set('lines', [...form.lines, emptyLine()])}
        onRemove={(key) =>
          set(
            'lines',
            form.lines.filter((l) => l.key !== key),
          )
        }
        renderLine={(line, i) => creditLineCells(spec, i, line, errors.line?.[line.key], (change) => setLine(line.key, change))}
      />
      <CreditTotals total={total} applied={credit === null ? null : applied} balance={credit === null ? null : Math.round((total - applied) * 100) / 100} />
    </EditorDialog>
  );
}

const CREDIT_COLUMNS = [
  { header: 'Description', track: 'minmax(0,3fr)' },
  { header: 'Category', track: 'minmax(0,3fr)' },
  { header: 'Amount', track: '8rem', numeric: true },
] as const;

/** A credit line's fields for the shared grid: description, category, amount. */
function creditLineCells(
  spec: CreditSpec,
  index: number,
  line: CreditLineForm,
  errors: Partial<Record<'categoryId' | 'amount' | 'description', string>> | undefined,
  onChange: (change: Partial<CreditLineForm>) => void,
) {
  const n = index + 1;
  return [
    <TextField
      key="d"
      label={`Line ${n} description`}
      name={`lineItems.${index}.description`}
      value={line.description}
      error={errors?.description}
      onChange={(e) => onChange({ description: e.target.value })}
    />,
    <CategoryPicker
      key="c"
      label={`Line ${n} category`}
      name={`lineItems.${index}.categoryId`}
      flow={spec.flow}
      required
      value={line.categoryId || null}
      error={errors?.categoryId}
      onChange={(categoryId) => onChange({ categoryId })}
    />,
    <AmountInput
      key="a"
      label={`Line ${n} amount`}
      name={`lineItems.${index}.amount`}
      required
      className="[&_input]:text-right"
      value={line.amount}
      error={errors?.amount}
      onValueChange={(amount) => onChange({ amount })}
    />,
  ];
}

/** The vendor or customer the credit is for: every active one (up to 10 pages of 20), and the credit's own. */
export function PartyPicker(props: {
  spec: CreditSpec;
  value: string;
  current: { id: string; name: string } | null;
  error: string | undefined;
  onChange: (id: string) => void;
}) {
  return props.spec.kind === 'vendor' ? <VendorPicker {...props} /> : <CustomerPicker {...props} />;
}

const PICKER_PAGES = 10;
type PickerProps = Parameters<typeof PartyPicker>[0];

/** Fetches the pages of a picker's list, up to PICKER_PAGES, so it offers more than the first 20. */
export function usePickerPages(q: { hasNextPage: boolean; isFetching: boolean; fetchNextPage: () => unknown; data?: { pages: unknown[] } | undefined }) {
  const pages = q.data?.pages.length ?? 0;
  const more = q.hasNextPage && !q.isFetching && pages < PICKER_PAGES;
  useEffect(() => {
    if (more) void q.fetchNextPage();
  }, [more, pages, q]);
}

function VendorPicker(props: PickerProps) {
  const list = useVendorList({ search: '', status: 'active', filter: '' });
  usePickerPages(list);
  return <PickerBox {...props} rows={uniqueRows(list.data?.pages)} loading={list.isPending} />;
}

function CustomerPicker(props: PickerProps) {
  const list = useCustomerList({ search: '', status: 'active' });
  usePickerPages(list);
  return <PickerBox {...props} rows={uniqueRows(list.data?.pages)} loading={list.isPending} />;
}

function PickerBox({
  spec,
  value,
  current,
  error,
  onChange,
  rows,
  loading,
}: PickerProps & { rows: readonly { id: string; name: string }[]; loading: boolean }) {
  const options = rows.map((r) => ({ value: r.id, title: r.name }));
  if (current && !options.some((o) => o.value === current.id)) options.push({ value: current.id, title: current.name });
  return (
    <Combobox
      label={spec.party}
      name={spec.kind === 'vendor' ? 'vendorId' : 'customerId'}
      required
      options={options}
      value={value || null}
      error={error}
      onChange={onChange}
      placeholder={loading ? `Loading ${spec.party.toLowerCase()}s…` : `Choose a ${spec.party.toLowerCase()}`}
    />
  );
}
