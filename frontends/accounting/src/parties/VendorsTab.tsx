import {
  type VendorListFilters,
  ADDED_FILTERS,
  describeError,
  useCreateVendor,
  useDeleteVendor,
  useMergeVendors,
  useUpdateVendor,
  useVendor,
  useVendorList,
  useVendorsCsv,
  type AddedFilter,
  type Vendor,
} from '@ledgerline/api';
import { Button, Checkbox, EmptyState, formatMoney, RecordLink, Select, Spinner, TextField, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { useEditAccess } from '../transactions/access';
import {
  ContactFields,
  CsvButton,
  DialogMessage,
  EditorDialog,
  FOLD,
  ListFoot,
  PartyDialog,
  PartyStatusSelect,
  PartyTable,
  RecordDialog,
  SearchBox,
  StatusBadge,
  StatusFilter,
  TD,
  TH,
  Terms,
  refusalHandler,
  serverError,
  usePartyScreen,
  usePartyScroll,
} from './common';
import type { PartyWrite } from './common';
import {
  EMPTY_MERGE,
  chooseParent,
  mergeBody,
  mergeConfirmation,
  mergeProblem,
  toggleMerging,
  uniqueRows,
  validateVendorForm,
  vendorBody,
  vendorForm,
  vendorScreenFromSearch,
  type MergeSelection,
  type VendorForm,
} from './state';

const ADDED_OPTIONS = [{ value: '', label: 'Added and not added' }, ...ADDED_FILTERS] as { value: AddedFilter | ''; label: string }[];

/** Transactions → Vendors (`?tab=vendors`, `?vendor=<id>` opens one): spec §2, §3; issue #17 item 8. */
export function VendorsTab() {
  const { screen, write } = usePartyScreen('vendors', vendorScreenFromSearch);
  const { filters } = screen;
  const list = useVendorList(filters);
  usePartyScroll(list);
  const rows = uniqueRows(list.data?.pages);
  const total = list.data?.pages.at(-1)?.meta.itemCount;
  const access = useEditAccess();
  const [merging, setMerging] = useState(false);
  const onSearch = (search: string) => write({ filters: { search } }, true);

  return (
    <section aria-label="Vendors">
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <SearchBox label="Search vendors" value={filters.search} onSettled={onSearch} />
        <Select<AddedFilter | ''>
          label="Added"
          name="filter"
          className="w-full sm:w-52"
          options={ADDED_OPTIONS}
          value={filters.filter}
          onChange={(filter) => write({ filters: { filter } })}
        />
        <StatusFilter value={filters.status} onChange={(status) => write({ filters: { status } })} />
        <div className="ml-auto flex flex-wrap gap-2">
          <CsvButton exporter={useVendorsCsv()} filters={filters} fallbackName="vendors.csv" />
          <Button size="sm" variant="secondary" disabled={!access.canEdit} title={access.reason ?? undefined} onClick={() => setMerging(true)}>
            Merge vendors
          </Button>
          <Button size="sm" disabled={!access.canEdit} title={access.reason ?? undefined} onClick={() => write({ mode: 'create', openId: null })}>
            New vendor
          </Button>
        </div>
      </div>
      {access.reason && <p className="mb-2 text-sm text-amber-700 dark:text-amber-400">{access.reason}</p>}

      {list.isPending ? (
        <Spinner label="Loading vendors" />
      ) : list.isError ? (
        <EmptyState title="Vendors could not be loaded" description={describeError(list.error)?.message} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="No vendors"
          description={
            filters.search || filters.filter || filters.status
              ? 'No vendor matches these filters.'
              : 'Vendors appear as your bank transactions are imported, or add one.'
          }
        />
      ) : (
        <>
          <PartyTable
            label="Vendors"
            head={
              <tr>
                <th scope="col" className={TH}>
                  Name
                </th>
                <th scope="col" className={`${TH} w-24 ${FOLD}`}>
                  Status
                </th>
                <th scope="col" className={`${TH} w-36 text-right ${FOLD}`}>
                  Transactions
                </th>
                <th scope="col" className={`${TH} w-32 text-right`}>
                  Spending
                </th>
                <th scope="col" className={`${TH} w-32 text-right ${FOLD}`}>
                  Inflow
                </th>
                <th scope="col" className={`${TH} w-20 text-right ${FOLD}`}>
                  Bills
                </th>
                <th scope="col" className={`${TH} w-28 ${FOLD}`}>
                  Added
                </th>
                <th scope="col" className={`${TH} w-16 ${FOLD}`}>
                  Rule
                </th>
              </tr>
            }
          >
            {rows.map((v) => (
              <tr key={v.id} className="h-9 hover:bg-slate-50 dark:hover:bg-slate-800/50" aria-selected={v.id === screen.openId || undefined}>
                <td className={TD}>
                  <RecordLink onOpen={() => write({ openId: v.id, mode: 'view' })}>{v.name}</RecordLink>
                  {v.is1099Eligible && <span className="ml-2 text-xs text-slate-500">1099</span>}
                </td>
                <td className={`${TD} ${FOLD}`}>
                  <StatusBadge status={v.status} />
                </td>
                <td className={`${TD} text-right tabular-nums ${FOLD}`}>{v.transactionCount}</td>
                <td className={`${TD} text-right tabular-nums`}>{formatMoney(v.spending)}</td>
                <td className={`${TD} text-right tabular-nums ${FOLD}`}>{formatMoney(v.inflow)}</td>
                <td className={`${TD} text-right tabular-nums ${FOLD}`}>{v.billCount}</td>
                <td className={`${TD} ${FOLD}`}>{v.isAdded ? 'Added' : 'Not added'}</td>
                <td className={`${TD} ${FOLD}`}>{v.hasRule ? 'Yes' : '—'}</td>
              </tr>
            ))}
          </PartyTable>
          <ListFoot shown={rows.length} total={total} loading={list.isFetchingNextPage} />
        </>
      )}

      {screen.mode === 'create' && <VendorEditor vendor={null} onDone={(id) => write(id === null ? { mode: 'idle' } : { mode: 'view', openId: id })} />}
      {screen.openId !== null && <VendorView id={screen.openId} editing={screen.mode === 'edit'} write={write} />}
      {merging && <MergeDialog vendors={rows} onClose={() => setMerging(false)} />}
    </section>
  );
}

function VendorView({ id, editing, write }: { id: string; editing: boolean; write: PartyWrite<VendorListFilters> }) {
  const vendor = useVendor(id);
  const remove = useDeleteVendor();
  const notice = useNotice();
  const [message, setMessage] = useState<{ text: string; tone: 'error' | 'warning' } | null>(null);
  const close = () => write({ openId: null, mode: 'idle' });
  const v = vendor.data;
  if (editing && v) return <VendorEditor vendor={v} onDone={() => write({ openId: id, mode: 'view' })} />;
  return (
    <RecordDialog
      title={v?.name ?? (vendor.isError ? 'Vendor not found' : 'Vendor')}
      description={
        v
          ? `${v.status === 'active' ? 'Active' : 'Inactive'} vendor${v.merchantNames.length > 0 ? ` · bank name ${v.merchantNames.join(', ')}` : ''}`
          : undefined
      }
      loaded={v !== undefined}
      deleteQuestion={`Delete ${v?.name ?? 'this vendor'}?`}
      deleteLabel="Delete vendor"
      deleting={remove.isPending}
      onDelete={(stop) =>
        remove.mutate(id, {
          onSuccess: (answer) => {
            stop();
            if (answer.deleted) {
              notice.success(answer.message);
              close();
            } else setMessage({ text: answer.message, tone: 'warning' });
          },
          onError: (error) => setMessage({ text: serverError(error, []).message, tone: 'error' }),
        })
      }
      onEdit={() => write({ openId: id, mode: 'edit' })}
      onClose={close}
      message={message}
    >
      {vendor.isPending ? (
        <Spinner label="Loading the vendor" />
      ) : vendor.isError ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{describeError(vendor.error)?.message}</p>
      ) : (
        v && (
          <Terms
            items={[
              ['Email', v.email.email],
              ['Description', v.description],
              ['Address', v.address],
              ['Bank details', v.bankDetails],
              ['1099 eligible', v.is1099Eligible ? 'Yes' : 'No'],
              ['EIN', v.ein],
              ['Transactions', String(v.transactionCount)],
              ['Spending', formatMoney(v.spending)],
              ['Inflow', formatMoney(v.inflow)],
              ['Bills', `${v.billCount} · ${formatMoney(v.billAmount)}`],
              ['Due bills', `${v.dueBillCount} · ${formatMoney(v.dueBillAmount)}`],
              ['Overdue', formatMoney(v.overdueAmount)],
              ['Vendor credits', `${v.vendorCreditCount} · ${formatMoney(v.vendorCreditTotal)} (${formatMoney(v.vendorCreditRemainingBalance)} left)`],
              ['Rule', v.hasRule ? 'Has a rule' : 'No rule'],
            ]}
          />
        )
      )}
    </RecordDialog>
  );
}

/** Create (vendor null) or edit: every spec §3 field. `onDone(id)` with the saved vendor's id, or null when cancelled. */
function VendorEditor({ vendor, onDone }: { vendor: Vendor | null; onDone: (id: string | null) => void }) {
  const [form, setForm] = useState<VendorForm>(() => vendorForm(vendor));
  const [errors, setErrors] = useState<Partial<Record<keyof VendorForm, string>>>({});
  const [refused, setRefused] = useState<string | null>(null);
  const create = useCreateVendor();
  const update = useUpdateVendor();
  const notice = useNotice();
  const onError = refusalHandler(Object.keys(form) as (keyof VendorForm)[], setErrors, setRefused);
  const set = <K extends keyof VendorForm>(key: K, value: VendorForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const save = () => {
    const found = validateVendorForm(form);
    setErrors(found);
    setRefused(null);
    if (Object.keys(found).length > 0) return;
    const body = vendorBody(form);
    const done = { onSuccess: (answer: { message: string; vendor: Vendor }) => (notice.success(answer.message), onDone(answer.vendor.id)), onError };
    if (vendor === null) create.mutate(body, done);
    else update.mutate({ id: vendor.id, body }, done);
  };
  return (
    <EditorDialog
      title={vendor === null ? 'New vendor' : `Edit ${vendor.name}`}
      saveLabel={vendor === null ? 'Create vendor' : 'Save vendor'}
      saving={create.isPending || update.isPending}
      onSave={save}
      onCancel={() => onDone(vendor?.id ?? null)}
      refused={refused}
    >
      <TextField
        label="Name"
        name="name"
        required
        value={form.name}
        error={errors.name}
        onChange={(e) => set('name', e.target.value)}
        maxLength={150}
        autoFocus
      />
      <ContactFields form={form} errors={errors} set={set} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="EIN" name="ein" placeholder="XX-XXXXXXX" value={form.ein} error={errors.ein} onChange={(e) => set('ein', e.target.value)} />
        <PartyStatusSelect label="Vendor status" name="vendorStatus" value={form.status} onChange={(v) => set('status', v)} />
      </div>
      <Checkbox label="Eligible for 1099" name="is1099Eligible" checked={form.is1099Eligible} onChange={(e) => set('is1099Eligible', e.target.checked)} />
    </EditorDialog>
  );
}

function MergeDialog({ vendors, onClose }: { vendors: readonly Vendor[]; onClose: () => void }) {
  const [selection, setSelection] = useState<MergeSelection>(EMPTY_MERGE);
  const [confirming, setConfirming] = useState(false);
  const [tried, setTried] = useState(false);
  const merge = useMergeVendors();
  const notice = useNotice();
  const [refused, setRefused] = useState<string | null>(null);
  const nameOf = (id: string) => vendors.find((v) => v.id === id)?.name ?? id;
  const problem = mergeProblem(selection);
  return (
    <PartyDialog
      open
      onClose={onClose}
      title="Merge vendors"
      description="Keep one vendor and merge duplicates into it."
      actions={
        confirming ? (
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Back
            </Button>
            <Button
              variant="danger"
              loading={merge.isPending}
              onClick={() => {
                const body = mergeBody(selection);
                if (body)
                  merge.mutate(body, {
                    onSuccess: (answer) => {
                      notice.success(
                        `${answer.message}: ${answer.movedTransactions} transaction${answer.movedTransactions === 1 ? '' : 's'} moved to ${answer.vendor.name}`,
                      );
                      onClose();
                    },
                    onError: (error) => setRefused(serverError(error, []).message),
                  });
              }}
            >
              Merge
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                setTried(true);
                if (problem === null) setConfirming(true);
              }}
            >
              Continue
            </Button>
          </>
        )
      }
    >
      {confirming ? (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-200">{mergeConfirmation(selection, nameOf)}</p>
          <DialogMessage text={refused} />
        </>
      ) : (
        <div className="grid gap-3">
          <Select
            label="Vendor to keep"
            name="parentVendorId"
            placeholder="Choose a vendor"
            options={vendors.map((v) => ({ value: v.id, label: v.name }))}
            value={selection.parentId}
            error={tried && problem !== null && selection.parentId === null ? problem : undefined}
            onChange={(id) => setSelection((s) => chooseParent(s, id))}
          />
          <fieldset>
            <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Vendors to merge into it</legend>
            <div className="mt-1 max-h-64 overflow-y-auto rounded-lg border border-slate-200 p-2 dark:border-slate-800">
              {vendors
                .filter((v) => v.id !== selection.parentId)
                .map((v) => (
                  <Checkbox
                    key={v.id}
                    name={`merge-${v.id}`}
                    label={v.name}
                    checked={selection.mergingIds.includes(v.id)}
                    onChange={() => setSelection((s) => toggleMerging(s, v.id))}
                  />
                ))}
            </div>
            {tried && problem !== null && selection.parentId !== null && <p className="mt-1 text-sm text-red-600 dark:text-red-400">{problem}</p>}
          </fieldset>
        </div>
      )}
    </PartyDialog>
  );
}
