// Pieces the team and firm tabs share: tables that fit a phone, row menus, badges, the "why you cannot edit"
// note and a confirmation for destructive actions.
import { describeError } from '@ledgerline/api';
import { Button, Dialog, Menu, TextField, WarningIcon, cx, useErrorNotice, useNotice, type BoundField, type DialogProps, type MenuEntry } from '@ledgerline/ui';
import type { ReactNode } from 'react';

/** Dialog content is portaled to the end of the body: this wrapper brings the remote's scoped styles along. */
export function SettingsDialog({ children, ...props }: DialogProps) {
  return <Dialog {...props}>{children !== undefined && <div data-remote="settings">{children}</div>}</Dialog>;
}

/** The reason editing is off, shown once above the controls it disables (spec §6 for a Viewer). */
export function BlockedNote({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="note"
      className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      <WarningIcon className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </p>
  );
}

const tones = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950 dark:text-emerald-200',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-950 dark:text-amber-200',
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300',
  brand: 'bg-brand-50 text-brand-800 ring-brand-600/20 dark:bg-brand-950 dark:text-brand-200',
} as const;

export function Badge({ children, tone = 'slate' }: { children: ReactNode; tone?: keyof typeof tones }) {
  return (
    <span className={cx('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset', tones[tone])}>
      {children}
    </span>
  );
}

/** Active green, Pending amber, Inactive (and Expired) grey. */
export function StatusBadge({ label }: { label: string }) {
  return <Badge tone={label === 'Active' ? 'green' : label === 'Pending' ? 'amber' : 'slate'}>{label}</Badge>;
}

/**
 * A table that fits its card: fixed layout, dense rows (spec issue #13: 32–36 px of text), long text cut with an
 * ellipsis. Columns marked `wide` only show from 48em; on a phone the first cell carries their content as a
 * second line, so nothing scrolls sideways.
 */
export function Table({
  label,
  head,
  children,
}: {
  label: string;
  head: readonly { label: string; wide?: boolean; className?: string }[];
  children: ReactNode;
}) {
  return (
    <div className="-mx-6 overflow-x-auto sm:mx-0">
      <table aria-label={label} className="w-full table-fixed border-collapse text-left text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-xs font-medium tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:text-slate-400">
            {head.map((h) => (
              <th
                key={h.label}
                scope="col"
                className={cx('px-3 py-2 font-medium first:pl-6 last:pr-6 sm:first:pl-3 sm:last:pr-3', h.wide && 'hidden md:table-cell', h.className)}
              >
                {h.label === '' ? <span className="sr-only">Actions</span> : h.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

export const cellClass = 'px-3 py-2 align-middle first:pl-6 last:pr-6 sm:first:pl-3 sm:last:pr-3';
export const wideCellClass = cx(cellClass, 'hidden truncate md:table-cell');

/** A row's actions: a menu, or (when editing is off) the same button disabled with the reason as its description. */
export function RowMenu({ label, items, blocked }: { label: string; items: readonly MenuEntry[]; blocked: string | null }) {
  const dots = (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-5">
      <path d="M10 6a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3Zm0 5.5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3Zm0 5.5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3Z" />
    </svg>
  );
  if (blocked || items.length === 0) {
    return (
      <button
        type="button"
        disabled
        aria-label={label}
        title={blocked ?? undefined}
        className="rounded-lg px-2 py-1.5 text-slate-400 disabled:cursor-not-allowed"
      >
        {dots}
      </button>
    );
  }
  return (
    <div className="flex justify-end">
      <Menu trigger={dots} triggerLabel={label} items={items} />
    </div>
  );
}

/** "Are you sure?" for a destructive action: names what goes, and the button says what it does. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  pending,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <SettingsDialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}

/** The mutation a confirmation runs: the target's id in, the server's answer (with its message) out. */
interface ConfirmedMutation {
  isPending: boolean;
  mutate: (id: string, callbacks: { onSuccess: (answer: { message: string }) => void; onError: (error: unknown) => void }) => void;
}

/**
 * A ConfirmDialog that runs one mutation on its target, open while there is one: the server's message becomes a
 * success notice (then `onDone`), an error an error notice, and the dialog closes either way.
 */
export function ConfirmMutationDialog<T extends { id: string }>({
  target,
  mutation,
  onDone,
  onClose,
  ...text
}: {
  target: T | null;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  mutation: ConfirmedMutation;
  onDone?: (target: T) => void;
  onClose: () => void;
}) {
  const notice = useNotice();
  const showError = useErrorNotice(describeError);
  return (
    <ConfirmDialog
      {...text}
      open={target !== null}
      pending={mutation.isPending}
      onClose={onClose}
      onConfirm={() => {
        if (!target) return;
        mutation.mutate(target.id, {
          onSuccess: (answer) => {
            notice.success(answer.message);
            onDone?.(target);
            onClose();
          },
          onError: (error) => {
            showError(error);
            onClose();
          },
        });
      }}
    />
  );
}

/** A card's header action that is disabled, with its reason, when editing is off. */
export function HeaderAction({ label, onClick, blocked }: { label: string; onClick: () => void; blocked: string | null }) {
  return (
    <Button size="sm" onClick={onClick} disabled={blocked !== null} title={blocked ?? undefined}>
      {label}
    </Button>
  );
}

export function formatDate(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

/**
 * A dialog form's buttons: Cancel (Close when nothing can be changed) and the submit button saying what it does.
 * `align` 'end' for a creating dialog's footer, 'start' beside other controls.
 */
export function FormActions({
  onCancel,
  submitLabel,
  pending,
  disabled = false,
  submitDisabled = false,
  align = 'end',
  className,
}: {
  onCancel: () => void;
  submitLabel: string;
  pending: boolean;
  /** Nothing can be changed (a Viewer): the cancel button reads Close and submitting is off. */
  disabled?: boolean;
  submitDisabled?: boolean;
  align?: 'start' | 'end';
  className?: string;
}) {
  return (
    <div className={cx('flex flex-wrap gap-3', align === 'end' && 'justify-end', className)}>
      <Button variant="secondary" onClick={onCancel}>
        {disabled ? 'Close' : 'Cancel'}
      </Button>
      <Button type="submit" disabled={disabled || submitDisabled} loading={pending}>
        {submitLabel}
      </Button>
    </div>
  );
}

/** First, middle and last name side by side (stacked on a phone), as sign-up and invites ask for them. */
export function NameFields({ field }: { field: (name: 'firstName' | 'middleName' | 'lastName') => BoundField }) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <TextField label="First Name" {...field('firstName')} />
      <TextField label="Middle Name" {...field('middleName')} />
      <TextField label="Last Name" {...field('lastName')} />
    </div>
  );
}

/** The first cell's record link (the ui kit's, shared with the accounting remote's lists). */
export { RecordLink } from '@ledgerline/ui';
