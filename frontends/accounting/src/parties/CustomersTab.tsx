import {
  type CustomerListFilters,
  describeError,
  useCreateCustomer,
  useCustomer,
  useCustomerList,
  useCustomersCsv,
  useDeleteCustomer,
  useUpdateCustomer,
  type Customer,
} from '@ledgerline/api';
import { Button, EmptyState, formatMoney, RecordLink, Spinner, TextField, useNotice } from '@ledgerline/ui';
import { useState } from 'react';
import { useEditAccess } from '../transactions/access';
import {
  ContactFields,
  CsvButton,
  EditorDialog,
  FOLD,
  ListFoot,
  PartyStatusSelect,
  PartyTable,
  RecordDialog,
  SearchBox,
  StatusBadge,
  StatusFilter,
  TD,
  TH,
  Terms,
  TextArea,
  refusalHandler,
  serverError,
  usePartyScreen,
  usePartyScroll,
} from './common';
import type { PartyWrite } from './common';
import { customerBody, customerForm, customerScreenFromSearch, uniqueRows, validateCustomerForm, type CustomerForm } from './state';

/** Revenue → Customers (`?tab=customers`, `?customer=<id>` opens one): spec §2, §3; issue #17 item 8. */
export function CustomersTab() {
  const { screen, write } = usePartyScreen('customers', customerScreenFromSearch);
  const { filters } = screen;
  const list = useCustomerList(filters);
  usePartyScroll(list);
  const rows = uniqueRows(list.data?.pages);
  const total = list.data?.pages.at(-1)?.meta.itemCount;
  const access = useEditAccess();
  const onSearch = (search: string) => write({ filters: { search } }, true);

  return (
    <section aria-label="Customers">
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <SearchBox label="Search customers" value={filters.search} onSettled={onSearch} />
        <StatusFilter value={filters.status} onChange={(status) => write({ filters: { status } })} />
        <div className="ml-auto flex flex-wrap gap-2">
          <CsvButton exporter={useCustomersCsv()} filters={filters} fallbackName="customers.csv" />
          <Button size="sm" disabled={!access.canEdit} title={access.reason ?? undefined} onClick={() => write({ mode: 'create', openId: null })}>
            New customer
          </Button>
        </div>
      </div>
      {access.reason && <p className="mb-2 text-sm text-amber-700 dark:text-amber-400">{access.reason}</p>}

      {list.isPending ? (
        <Spinner label="Loading customers" />
      ) : list.isError ? (
        <EmptyState title="Customers could not be loaded" description={describeError(list.error)?.message} />
      ) : rows.length === 0 ? (
        <EmptyState
          title="No customers"
          description={filters.search || filters.status ? 'No customer matches these filters.' : 'Add the customers you invoice.'}
        />
      ) : (
        <>
          <PartyTable
            label="Customers"
            head={
              <tr>
                <th scope="col" className={TH}>
                  Name
                </th>
                <th scope="col" className={`${TH} ${FOLD}`}>
                  Company
                </th>
                <th scope="col" className={`${TH} ${FOLD}`}>
                  Email
                </th>
                <th scope="col" className={`${TH} w-28 ${FOLD}`}>
                  Status
                </th>
                <th scope="col" className={`${TH} w-24 text-right ${FOLD}`}>
                  Invoices
                </th>
                <th scope="col" className={`${TH} w-32 text-right`}>
                  Overdue
                </th>
              </tr>
            }
          >
            {rows.map((c) => (
              <tr key={c.id} className="h-9 hover:bg-slate-50 dark:hover:bg-slate-800/50">
                <td className={TD}>
                  <RecordLink onOpen={() => write({ openId: c.id, mode: 'view' })}>{c.name}</RecordLink>
                </td>
                <td className={`${TD} ${FOLD}`}>{c.companyName || '—'}</td>
                <td className={`${TD} ${FOLD}`}>{c.email.email || '—'}</td>
                <td className={`${TD} ${FOLD}`}>
                  <StatusBadge status={c.status} />
                </td>
                <td className={`${TD} text-right tabular-nums ${FOLD}`}>{c.invoiceCount}</td>
                <td className={`${TD} text-right tabular-nums`}>{formatMoney(c.overduePaymentAmount)}</td>
              </tr>
            ))}
          </PartyTable>
          <ListFoot shown={rows.length} total={total} loading={list.isFetchingNextPage} />
        </>
      )}

      {screen.mode === 'create' && <CustomerEditor customer={null} onDone={(id) => write(id === null ? { mode: 'idle' } : { mode: 'view', openId: id })} />}
      {screen.openId !== null && <CustomerView id={screen.openId} editing={screen.mode === 'edit'} write={write} />}
    </section>
  );
}

function CustomerView({ id, editing, write }: { id: string; editing: boolean; write: PartyWrite<CustomerListFilters> }) {
  const customer = useCustomer(id);
  const remove = useDeleteCustomer();
  const notice = useNotice();
  const [message, setMessage] = useState<{ text: string; tone: 'error' | 'warning' } | null>(null);
  const close = () => write({ openId: null, mode: 'idle' });
  const c = customer.data;
  if (editing && c) return <CustomerEditor customer={c} onDone={() => write({ openId: id, mode: 'view' })} />;
  return (
    <RecordDialog
      title={c?.name ?? (customer.isError ? 'Customer not found' : 'Customer')}
      description={c ? [c.companyName, c.status === 'active' ? 'Active' : 'Inactive'].filter(Boolean).join(' · ') : undefined}
      loaded={c !== undefined}
      deleteQuestion={`Delete ${c?.name ?? 'this customer'}?`}
      deleteLabel="Delete customer"
      deleting={remove.isPending}
      onDelete={(stop) =>
        remove.mutate(id, {
          onSuccess: (answer) => {
            // A customer with invoices or credit memos is made inactive instead: the dialog stays and says why (as a vendor's).
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
      {customer.isPending ? (
        <Spinner label="Loading the customer" />
      ) : customer.isError ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{describeError(customer.error)?.message}</p>
      ) : (
        c && (
          <Terms
            items={[
              ['Company', c.companyName],
              ['Email', c.email.email],
              ['Description', c.description],
              ['Address', c.address],
              ['Bank details', c.bankDetails],
              ['Invoices', `${c.invoiceCount} · ${formatMoney(c.invoiceAmount)}`],
              ['Due invoices', `${c.dueInvoiceCount} · ${formatMoney(c.dueInvoiceAmount)}`],
              ['Overdue', formatMoney(c.overduePaymentAmount)],
              ['Credit memos', `${c.creditMemoCount} · ${formatMoney(c.creditMemoAmount)}`],
              ...Object.entries(c.metaData).map(([k, v]) => [k, String(v)] as [string, string]),
            ]}
          />
        )
      )}
    </RecordDialog>
  );
}

function CustomerEditor({ customer, onDone }: { customer: Customer | null; onDone: (id: string | null) => void }) {
  const [form, setForm] = useState<CustomerForm>(() => customerForm(customer));
  const [errors, setErrors] = useState<Partial<Record<keyof CustomerForm, string>>>({});
  const [refused, setRefused] = useState<string | null>(null);
  const create = useCreateCustomer();
  const update = useUpdateCustomer();
  const notice = useNotice();
  const onError = refusalHandler(Object.keys(form) as (keyof CustomerForm)[], setErrors, setRefused);
  const set = <K extends keyof CustomerForm>(key: K, value: CustomerForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const save = () => {
    const found = validateCustomerForm(form);
    setErrors(found);
    setRefused(null);
    if (Object.keys(found).length > 0) return;
    const body = customerBody(form);
    const done = { onSuccess: (answer: { message: string; customer: Customer }) => (notice.success(answer.message), onDone(answer.customer.id)), onError };
    if (customer === null) create.mutate(body, done);
    else update.mutate({ id: customer.id, body }, done);
  };
  return (
    <EditorDialog
      title={customer === null ? 'New customer' : `Edit ${customer.name}`}
      saveLabel={customer === null ? 'Create customer' : 'Save customer'}
      saving={create.isPending || update.isPending}
      onSave={save}
      onCancel={() => onDone(customer?.id ?? null)}
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
      <TextField label="Company name" name="companyName" value={form.companyName} onChange={(e) => set('companyName', e.target.value)} maxLength={100} />
      <ContactFields form={form} errors={errors} set={set} />
      <PartyStatusSelect label="Customer status" name="customerStatus" value={form.status} onChange={(v) => set('status', v)} />
      <TextArea
        label="Other details (key: value per line)"
        name="metaData"
        value={form.metaData}
        error={errors.metaData}
        onChange={(v) => set('metaData', v)}
      />
    </EditorDialog>
  );
}
