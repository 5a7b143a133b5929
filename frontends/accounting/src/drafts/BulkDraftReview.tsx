import { describeError, useCustomerList, useDraftActions, useDrafts, useVendorList, type Draft, type DraftEntity } from '@ledgerline/api';
import {
  AmountInput,
  Button,
  Checkbox,
  DatePicker,
  EmptyState,
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
import { useMemo, useState, type ReactNode } from 'react';
import { CREDIT_SPECS } from '../credits/state';
import { PartyPicker } from '../credits/CreditsTab';
import { EditorDialog, TD, TH, TextArea } from '../parties/common';
import { uniqueRows } from '../parties/state';
import { CategoryPicker } from '../transactions/CategoryPicker';
import { useEditAccess } from '../transactions/access';
import { LineItemsEditor, type LineColumn } from '../documents/LineItems';
import { UploadDocumentsButton } from './BulkUpload';
import { conversionMessage, draftForm, draftMetaData, draftRow, emptyDraftLine, listSearch, type DraftForm, type DraftLine } from './state';
import { usePickPartiesByName } from './use-picked-parties';

const WHAT: Readonly<Record<DraftEntity, { one: string; many: string; party: 'Vendor' | 'Customer'; reference: string; date: string }>> = {
  bill: { one: 'bill', many: 'bills', party: 'Vendor', reference: 'Invoice code', date: 'Bill date' },
  invoice: { one: 'invoice', many: 'invoices', party: 'Customer', reference: 'Ref no', date: 'Invoice date' },
};

/**
 * Bills / Invoices with mode=bulk-draft (spec §2; issue #19 item 5): the drafts made from uploads, each with its first
 * error (spec §5), edited in the editor, selected and created as bills or invoices (spec §8 messages) or deleted.
 */
export function BulkDraftReview({ entity }: { entity: DraftEntity }) {
  const w = WHAT[entity];
  const [, writeSearch] = useSearchWriter();
  const drafts = useDrafts(entity);
  const actions = useDraftActions(entity);
  const access = useEditAccess();
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<Draft | null>(null);
  /** What the last conversion said of the drafts it could not create (a vendor deleted since...). */
  const [refusals, setRefusals] = useState<ReadonlyMap<string, { field: string; message: string }>>(new Map());
  const names = usePartyNames(entity);
  const rows = drafts.data?.data ?? [];
  const shown = rows.filter((d) => selected.has(d.id));
  const allOn = rows.length > 0 && shown.length === rows.length;
  usePickPartiesByName(entity, rows, access.canEdit);

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const create = () =>
    actions.convert.mutate(
      shown.map((d) => d.id),
      {
        onSuccess: (batch) => {
          const message = conversionMessage(entity, batch.createdCount, batch.failedCount);
          if (batch.failedCount === 0) notice.success(message);
          else if (batch.createdCount === 0) notice.error(message);
          else notice.warning(message);
          setRefusals(new Map(batch.results.flatMap((r) => (r.error ? [[r.draftId, r.error] as const] : []))));
          setSelected(new Set(batch.results.filter((r) => r.error).map((r) => r.draftId)));
        },
        onError: showError,
      },
    );
  const remove = () =>
    actions.remove.mutate(
      shown.map((d) => d.id),
      {
        onSuccess: (batch) => {
          notice.success(batch.message);
          setSelected(new Set());
        },
        onError: showError,
      },
    );

  return (
    <section aria-label={`${w.one[0]?.toUpperCase()}${w.one.slice(1)} drafts`}>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <Button size="sm" variant="secondary" onClick={() => writeSearch(() => listSearch(entity))}>
          Back to {w.many}
        </Button>
        <p className="min-w-0 flex-1 text-sm text-slate-600 max-sm:order-last max-sm:basis-full dark:text-slate-400">
          Drafts read from your uploads. Fix what each one is missing, then create the {w.many}.
        </p>
        <div className="ml-auto">
          <UploadDocumentsButton entity={entity} />
        </div>
      </div>
      <div className="mb-3 flex flex-wrap items-center gap-2" role="toolbar" aria-label="Draft actions">
        <span className="text-sm text-slate-600 dark:text-slate-400">{shown.length} selected</span>
        <div className="ml-auto flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            disabled={!access.canEdit || shown.length === 0}
            title={access.reason ?? undefined}
            loading={actions.remove.isPending}
            onClick={remove}
          >
            Delete selected
          </Button>
          <Button
            size="sm"
            disabled={!access.canEdit || shown.length === 0}
            title={access.reason ?? undefined}
            loading={actions.convert.isPending}
            onClick={create}
          >
            Create {w.many}
          </Button>
        </div>
      </div>
      {access.reason && <p className="mb-2 text-sm text-amber-700 dark:text-amber-400">{access.reason}</p>}
      {drafts.isPending ? (
        <Spinner label="Loading the drafts" />
      ) : drafts.isError ? (
        <EmptyState title="The drafts could not be loaded" description={describeError(drafts.error)?.message} />
      ) : rows.length === 0 ? (
        <EmptyState
          title={`No ${w.one} drafts`}
          description={`Upload ${w.many} to have them read into drafts here.`}
          action={<UploadDocumentsButton entity={entity} />}
        />
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white max-md:overflow-x-auto dark:border-slate-800 dark:bg-slate-900">
          <table aria-label={`${w.one} drafts`} className="w-full table-fixed text-sm max-md:[&_td]:px-2 max-md:[&_th]:px-2">
            <thead className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400 [&_th]:border-b [&_th]:border-slate-200 [&_th]:bg-slate-50 dark:[&_th]:border-slate-800 dark:[&_th]:bg-slate-900">
              <tr>
                <th scope="col" className={`${TH} w-9 md:w-10`}>
                  <Checkbox
                    label="Select all drafts"
                    name="selectAll"
                    className="[&_label]:sr-only"
                    checked={allOn}
                    onChange={(e) => setSelected(new Set(e.target.checked ? rows.map((d) => d.id) : []))}
                  />
                </th>
                <th scope="col" className={`${TH} w-24 max-sm:hidden`}>
                  Date
                </th>
                <th scope="col" className={TH}>
                  {w.party}
                </th>
                <th scope="col" className={`${TH} w-28 max-md:hidden`}>
                  {w.reference}
                </th>
                <th scope="col" className={`${TH} w-20 text-right md:w-24`}>
                  Total
                </th>
                <th scope="col" className={`${TH} w-[34%] md:w-[36%]`}>
                  To fix
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {rows.map((d) => {
                const r = draftRow(d, refusals.get(d.id));
                const party = names.get(r.partyId) ?? r.merchant;
                return (
                  <tr key={d.id} className="h-10 hover:bg-slate-50 dark:hover:bg-slate-800/50" aria-selected={selected.has(d.id) || undefined}>
                    <td className={TD}>
                      <Checkbox
                        label={`Select draft ${party || r.reference || d.id.slice(-6)}`}
                        name={`select-${d.id}`}
                        className="[&_label]:sr-only"
                        checked={selected.has(d.id)}
                        onChange={(e) => toggle(d.id, e.target.checked)}
                      />
                    </td>
                    <td className={`${TD} tabular-nums max-sm:hidden`}>{r.date ? formatShortDate(r.date) : '—'}</td>
                    <td className={cx(TD, 'whitespace-normal')}>
                      {/* A long name wraps (a phone has room for a few letters only), the whole of it also in the title. */}
                      <button
                        type="button"
                        title={party || undefined}
                        className="max-w-full text-left font-medium break-words text-sky-700 underline-offset-2 hover:underline dark:text-sky-300"
                        onClick={() => setEditing(d)}
                      >
                        {party || `Draft ${d.id.slice(-6).toUpperCase()}`}
                      </button>
                    </td>
                    <td className={`${TD} max-md:hidden`}>{r.reference || '—'}</td>
                    <td className={`${TD} text-right tabular-nums`}>{r.total === null ? '—' : formatMoney(r.total)}</td>
                    <td className={cx(TD, 'whitespace-normal')}>
                      {r.error ? (
                        <span className="text-xs text-red-700 dark:text-red-300" title={r.errorField}>
                          {r.error}
                        </span>
                      ) : (
                        <span className="text-xs text-emerald-700 dark:text-emerald-300">Ready</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <DraftEditor
          entity={entity}
          draft={editing}
          onDone={() => {
            setRefusals((m) => new Map([...m].filter(([id]) => id !== editing.id)));
            setEditing(null);
          }}
        />
      )}
    </section>
  );
}

/** The names of the workspace's vendors (bills) or customers (invoices), by id. */
function usePartyNames(entity: DraftEntity): ReadonlyMap<string, string> {
  const vendors = useVendorList({ search: '', status: '', filter: '' });
  const customers = useCustomerList({ search: '', status: '' });
  const rows: readonly { id: string; name: string }[] = entity === 'bill' ? uniqueRows(vendors.data?.pages) : uniqueRows(customers.data?.pages);
  return useMemo(() => new Map(rows.map((p) => [p.id, p.name])), [rows]);
}

const COLUMNS: Readonly<Record<DraftEntity, readonly LineColumn[]>> = {
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
};
const right = '[&_input]:text-right';

/** The draft's fields in the editor; Save keeps it a draft (PATCH /drafts), its first error then recomputed. */
function DraftEditor({ entity, draft, onDone }: { entity: DraftEntity; draft: Draft; onDone: () => void }) {
  const w = WHAT[entity];
  const actions = useDraftActions(entity);
  const notice = useNotice();
  const [form, setForm] = useState<DraftForm>(() => draftForm(entity, draft.metaData));
  const [refused, setRefused] = useState<string | null>(null);
  const today = todayIso();
  const set = <K extends keyof DraftForm>(key: K, value: DraftForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const setLine = (key: string, patch: Partial<DraftLine>) => setForm((f) => ({ ...f, lines: f.lines.map((l) => (l.key === key ? { ...l, ...patch } : l)) }));
  const error = draft.firstError;
  const save = () =>
    actions.save.mutate(
      { id: draft.id, metaData: draftMetaData(entity, draft.metaData, form) },
      {
        onSuccess: () => {
          notice.success('Draft saved');
          onDone();
        },
        onError: (e) => setRefused(describeError(e)?.message ?? 'The draft could not be saved'),
      },
    );
  const cells = (line: DraftLine, i: number): ReactNode[] => {
    const n = i + 1;
    const service = (
      <TextField
        key="t"
        label={`Line ${n} service`}
        name={`lineItems.${i}.serviceName`}
        maxLength={150}
        value={line.serviceName}
        onChange={(e) => setLine(line.key, { serviceName: e.target.value })}
      />
    );
    const category = (
      <CategoryPicker
        key="c"
        label={`Line ${n} category`}
        name={`lineItems.${i}.categoryId`}
        flow={entity === 'bill' ? 'outflow' : 'inflow'}
        value={line.categoryId || null}
        onChange={(categoryId) => setLine(line.key, { categoryId })}
      />
    );
    if (entity === 'bill')
      return [
        service,
        category,
        <AmountInput
          key="a"
          label={`Line ${n} amount`}
          name={`lineItems.${i}.amount`}
          className={right}
          value={line.amount}
          onValueChange={(amount) => setLine(line.key, { amount })}
        />,
      ];
    return [
      service,
      category,
      <TextField
        key="q"
        label={`Line ${n} quantity`}
        name={`lineItems.${i}.quantity`}
        inputMode="decimal"
        autoComplete="off"
        className={right}
        value={line.quantity}
        onChange={(e) => setLine(line.key, { quantity: e.target.value.replace(/[^\d.]/g, '') })}
      />,
      <AmountInput
        key="r"
        label={`Line ${n} rate`}
        name={`lineItems.${i}.rate`}
        className={right}
        value={line.rate}
        onValueChange={(rate) => setLine(line.key, { rate })}
      />,
      <AmountInput
        key="a"
        label={`Line ${n} amount`}
        name={`lineItems.${i}.amount`}
        className={right}
        value={line.amount}
        onValueChange={(amount) => setLine(line.key, { amount })}
      />,
    ];
  };
  return (
    <EditorDialog
      title={`Edit ${w.one} draft`}
      size="lg"
      label={`${w.one} draft`}
      saveLabel="Save draft"
      saving={actions.save.isPending}
      onSave={save}
      onCancel={onDone}
      refused={refused}
    >
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error.message}
        </p>
      )}
      <PartyPicker
        spec={CREDIT_SPECS[entity === 'bill' ? 'vendor' : 'customer']}
        value={form.partyId}
        current={null}
        error={undefined}
        onChange={(id) => set('partyId', id)}
      />
      <div className="grid gap-3 sm:grid-cols-3">
        <DatePicker label={w.date} name="date" value={form.date || null} max={addYears(today, 1)} onChange={(d) => set('date', d)} />
        <DatePicker label="Due date" name="dueDate" value={form.dueDate || null} max={addYears(today, 2)} onChange={(d) => set('dueDate', d)} />
        <TextField label={w.reference} name="reference" maxLength={100} value={form.reference} onChange={(e) => set('reference', e.target.value)} />
      </div>
      <TextArea label="Description" name="description" value={form.description} onChange={(v) => set('description', v)} />
      <LineItemsEditor
        lines={form.lines}
        columns={COLUMNS[entity]}
        renderLine={cells}
        onAdd={() => set('lines', [...form.lines, emptyDraftLine()])}
        onRemove={(key) =>
          set(
            'lines',
            form.lines.filter((l) => l.key !== key),
          )
        }
      />
    </EditorDialog>
  );
}
