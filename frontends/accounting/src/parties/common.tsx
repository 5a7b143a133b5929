// What the vendors and customers tabs share: their state in the URL, the search box that settles before it is
// written, the infinite scroll of spec §2 and the pieces of their tables and forms.
import { describeError, isApiError, saveDownload, type ApiError, type Download } from '@ledgerline/api';
import { Button, Dialog, Select, TextField, cx, inputClass, useErrorNotice, useSearchWriter, type DialogProps } from '@ledgerline/ui';
import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useInfiniteScroll } from '../transactions/use-infinite-scroll';
import { useEditAccess } from '../transactions/access';
import { partySearch, type PartyScreen } from './state';

/** A change of a parties tab: the filters named (the others kept), the open one, the mode. */
export interface PartyChange<F> {
  filters?: Partial<F>;
  openId?: string | null;
  mode?: PartyScreen<F>['mode'];
}
export type PartyWrite<F> = (change: PartyChange<F>, replace?: boolean) => void;

/**
 * The tab's state read from the URL and a writer based on the latest URL (the ui kit's useSearchWriter: a settled
 * search and a filter chosen just before it never undo each other). A typed search replaces the history entry, every
 * other change adds one.
 */
export function usePartyScreen<F extends PartyScreen<{ search: string; status: string }>['filters']>(
  tab: 'vendors' | 'customers',
  read: (params: URLSearchParams) => PartyScreen<F>,
) {
  const [params, writeSearch] = useSearchWriter();
  const screen = read(params);
  const write: PartyWrite<F> = (change, replace = false) =>
    writeSearch(
      (latest) => {
        const current = read(latest);
        const next: PartyScreen<F> = {
          filters: { ...current.filters, ...change.filters },
          openId: change.openId === undefined ? current.openId : change.openId,
          mode: change.mode ?? current.mode,
        };
        return partySearch(tab, next as PartyScreen<never>);
      },
      { replace },
    );
  return { screen, write };
}

/** A search box that writes the URL 300 ms after the last key (and follows the URL on back/forward). */
export function SearchBox({ value, onSettled, label }: { value: string; onSettled: (v: string) => void; label: string }) {
  const [text, setText] = useState(value);
  const typed = useRef(value);
  // The latest callback, so a re-render (a page arriving) does not restart the 300 ms wait.
  const settled = useRef(onSettled);
  settled.current = onSettled;
  useEffect(() => {
    if (value !== typed.current) {
      typed.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === typed.current) return;
    const timer = setTimeout(() => {
      typed.current = text;
      settled.current(text);
    }, 300);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <TextField
      label={label}
      name="search"
      type="search"
      className="w-full sm:w-64"
      value={text}
      placeholder="Search by name"
      onChange={(e) => setText(e.target.value)}
    />
  );
}

export const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
] as const;

export function StatusFilter<T extends '' | 'active' | 'inactive'>({ value, onChange }: { value: T; onChange: (v: T) => void }) {
  return (
    <Select<T>
      label="Status"
      name="status"
      className="w-full sm:w-40"
      options={STATUS_OPTIONS as unknown as { value: T; label: string }[]}
      value={value}
      onChange={onChange}
    />
  );
}

/** Spec §2 infinite scroll over an infinite query: the next page when the rest is within 2.2 viewports (throttled 200 ms). */
export function usePartyScroll(q: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetching: boolean;
  fetchNextPage: () => unknown;
  data?: { pages: unknown[] } | undefined;
}) {
  useInfiniteScroll(q.hasNextPage && !q.isFetching, () => void q.fetchNextPage(), q.data?.pages.length ?? 0);
}

/** "Export CSV" of a list with its filters; the server names the file (content-disposition). */
export function CsvButton<F>({ exporter, filters, fallbackName }: { exporter: UseMutationResult<Download, ApiError, F>; filters: F; fallbackName: string }) {
  const showError = useErrorNotice(describeError);
  return (
    <Button
      size="sm"
      variant="secondary"
      className="whitespace-nowrap"
      loading={exporter.isPending}
      onClick={() => exporter.mutate(filters, { onSuccess: (file) => saveDownload(file.blob, file.fileName ?? fallbackName), onError: showError })}
    >
      Export CSV
    </Button>
  );
}

/** A compact table that fits its container: secondary columns (`fold`) are hidden below 48em, so a phone never scrolls sideways. */
export const TH = 'px-3 py-2 text-left';
export const TD = 'px-3 py-1.5 truncate';
export const FOLD = 'max-md:hidden';

/**
 * `scrollOnPhone`: below 48em the table scrolls inside its own box if it must, with tighter cells (the header is then
 * sticky from 48em only: a scrolling box would hold it).
 */
export function PartyTable({ label, head, children, scrollOnPhone = false }: { label: string; head: ReactNode; children: ReactNode; scrollOnPhone?: boolean }) {
  return (
    <div className={cx('rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900', scrollOnPhone && 'max-md:overflow-x-auto')}>
      <table aria-label={label} className={cx('w-full table-fixed text-sm', scrollOnPhone && 'max-md:[&_td]:px-2 max-md:[&_th]:px-2')}>
        <thead
          className={cx(
            'text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400 [&_th]:z-10 [&_th]:border-b [&_th]:border-slate-200 [&_th]:bg-slate-50 dark:[&_th]:border-slate-800 dark:[&_th]:bg-slate-900',
            scrollOnPhone ? 'md:[&_th]:sticky md:[&_th]:top-16' : '[&_th]:sticky [&_th]:top-16',
          )}
        >
          {head}
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

/** The list's foot: how many are shown, a loading line while the next page comes. */
export function ListFoot({ shown, total, loading }: { shown: number; total: number | undefined; loading: boolean }) {
  return (
    <p className="mt-2 text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
      {loading ? 'Loading more…' : `Showing ${shown} of ${total ?? shown}`}
    </p>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cx(
        'rounded-full px-2 py-0.5 text-xs font-medium',
        status === 'active'
          ? 'bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300'
          : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300',
      )}
    >
      {status === 'active' ? 'Active' : 'Inactive'}
    </span>
  );
}

export function Terms({ items }: { items: readonly [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
          <dd className="break-words text-slate-900 dark:text-slate-100">{value === '' || value === null || value === undefined ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function TextArea({
  label,
  name,
  value,
  onChange,
  error,
  disabled,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const id = `${name}-area`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={2}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
        className={cx('mt-1', inputClass(Boolean(error)))}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A refused save shown inside its dialog (a modal dialog hides the page's notices from assistive technology): on the
 * field the server names when the form has it, else above the buttons.
 */
export function serverError<K extends string>(error: unknown, fields: readonly K[]): { field: K | null; message: string } {
  const message = describeError(error)?.message ?? 'Something went wrong';
  const named = isApiError(error) ? error.field : undefined;
  const field = fields.find((f) => f === named) ?? null;
  return { field, message };
}

export function DialogMessage({ text, tone = 'error' }: { text: string | null; tone?: 'error' | 'warning' }) {
  if (text === null) return null;
  return (
    <p
      role="alert"
      className={cx(
        'mt-3 rounded-lg px-3 py-2 text-sm',
        tone === 'error' ? 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200' : 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
      )}
    >
      {text}
    </p>
  );
}

/** The ui kit's dialog with its content (and buttons) inside `data-remote`: it is portaled out of the page, and this remote's styles are scoped to that attribute. */
export function PartyDialog({ children, actions, ...props }: DialogProps) {
  return (
    <Dialog
      {...props}
      actions={
        actions && (
          <div data-remote="accounting" style={{ display: 'contents' }}>
            {actions}
          </div>
        )
      }
    >
      <div data-remote="accounting">{children}</div>
    </Dialog>
  );
}

/**
 * One record opened in a dialog (a vendor, a customer, a vendor credit, a credit memo): its details, and Delete (after
 * a confirmation), Edit and Close. `onDelete(stop)` deletes; `stop()` leaves the confirmation (e.g. when the server
 * kept the record and said why). Until the record is loaded only Close is offered.
 */
export function RecordDialog({
  title,
  description,
  loaded,
  deleteQuestion,
  deleteLabel,
  deleting,
  onDelete,
  onEdit,
  onClose,
  message,
  children,
  size,
  extraActions,
  editLocked,
}: {
  title: string;
  /** Why this record cannot be edited (e.g. it is voided): Edit is disabled and says so. */
  editLocked?: string | null;
  /** The kit dialog's width from 48em (documents with line items: lg). */
  size?: DialogProps['size'];
  /** More actions of the record (void, recur, PDF), before Delete and Edit. */
  extraActions?: ReactNode;
  description?: ReactNode;
  loaded: boolean;
  deleteQuestion: string;
  deleteLabel: string;
  deleting: boolean;
  onDelete: (stop: () => void) => void;
  onEdit: () => void;
  onClose: () => void;
  message: { text: string; tone: 'error' | 'warning' } | null;
  children: ReactNode;
}) {
  const access = useEditAccess();
  const [confirming, setConfirming] = useState(false);
  const editing = { disabled: !access.canEdit, title: access.reason ?? undefined };
  return (
    <PartyDialog
      open
      onClose={onClose}
      title={title}
      description={description}
      size={size}
      actions={
        !loaded ? (
          <Button onClick={onClose}>Close</Button>
        ) : confirming ? (
          <>
            <span className="self-center text-sm text-slate-700 dark:text-slate-200">{deleteQuestion}</span>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Keep
            </Button>
            <Button variant="danger" loading={deleting} onClick={() => onDelete(() => setConfirming(false))}>
              {deleteLabel}
            </Button>
          </>
        ) : (
          <>
            {extraActions}
            <Button variant="secondary" {...editing} onClick={() => setConfirming(true)}>
              Delete
            </Button>
            <Button variant="secondary" disabled={editing.disabled || Boolean(editLocked)} title={editing.title ?? editLocked ?? undefined} onClick={onEdit}>
              Edit
            </Button>
            <Button onClick={onClose}>Close</Button>
          </>
        )
      }
    >
      {children}
      <DialogMessage text={message?.text ?? null} tone={message?.tone} />
      {access.reason && <p className="mt-3 text-sm text-amber-700 dark:text-amber-400">{access.reason}</p>}
    </PartyDialog>
  );
}

/** A record's create or edit form in a dialog: Cancel and Save, Enter saves, the server's refusal above the buttons. */
export function EditorDialog({
  title,
  saveLabel,
  saving,
  onSave,
  onCancel,
  refused,
  label,
  children,
  size,
}: {
  title: string;
  /** The kit dialog's width from 48em (editors with a line-item grid: lg). */
  size?: DialogProps['size'];
  saveLabel: string;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
  refused: string | null;
  /** The form's accessible name. */
  label?: string;
  children: ReactNode;
}) {
  const access = useEditAccess();
  return (
    <PartyDialog
      open
      onClose={onCancel}
      title={title}
      size={size}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button loading={saving} disabled={!access.canEdit} title={access.reason ?? undefined} onClick={onSave}>
            {saveLabel}
          </Button>
        </>
      }
    >
      <form
        className="grid gap-3"
        aria-label={label}
        onSubmit={(e) => {
          e.preventDefault();
          onSave();
        }}
      >
        {children}
        <button type="submit" hidden />
      </form>
      <DialogMessage text={refused} />
    </PartyDialog>
  );
}

/** What a vendor's and a customer's forms both hold (spec §3): email, description, address, bank details. */
export interface ContactForm {
  email: string;
  description: string;
  address: string;
  bankDetails: string;
}

export function ContactFields<F extends ContactForm>({
  form,
  errors,
  set,
}: {
  form: F;
  errors: Partial<Record<keyof F, string>>;
  set: <K extends keyof F>(key: K, value: F[K]) => void;
}) {
  return (
    <>
      <TextField label="Email" name="email" type="email" value={form.email} error={errors.email} onChange={(e) => set('email', e.target.value as F['email'])} />
      <TextArea label="Description" name="description" value={form.description} onChange={(v) => set('description', v as F['description'])} />
      <TextArea label="Address" name="address" value={form.address} onChange={(v) => set('address', v as F['address'])} />
      <TextField label="Bank details" name="bankDetails" value={form.bankDetails} onChange={(e) => set('bankDetails', e.target.value as F['bankDetails'])} />
    </>
  );
}

export function PartyStatusSelect({
  label,
  name,
  value,
  onChange,
}: {
  label: string;
  name: string;
  value: 'active' | 'inactive';
  onChange: (v: 'active' | 'inactive') => void;
}) {
  return (
    <Select<'active' | 'inactive'>
      label={label}
      name={name}
      options={STATUS_OPTIONS.slice(1) as unknown as { value: 'active' | 'inactive'; label: string }[]}
      value={value}
      onChange={onChange}
    />
  );
}

/**
 * A save refused by the server, on the form: on the field it names when the form has it, else above the buttons.
 * Returns the handler for a mutation's onError.
 */
export function refusalHandler<K extends string>(fields: readonly K[], setErrors: (e: Partial<Record<K, string>>) => void, setRefused: (m: string) => void) {
  return (error: unknown) => {
    const { field, message } = serverError(error, fields);
    if (field === null) setRefused(message);
    else setErrors({ [field]: message } as Partial<Record<K, string>>);
  };
}
