import type { ReactNode } from 'react';
import { cx } from '../cx';

export const inputClass = (invalid: boolean) =>
  cx(
    'block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400',
    'focus:outline-none focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-100',
    'dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500 dark:disabled:bg-slate-800',
    invalid
      ? 'border-red-500 focus:border-red-500 focus:ring-red-500/30 dark:border-red-500'
      : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30 dark:border-slate-700',
  );

export function RequiredMark() {
  // Hidden from the accessible name so "Email" finds the field, not "Email *".
  return (
    <span aria-hidden="true" className="ml-0.5 text-red-600 dark:text-red-400">
      *
    </span>
  );
}

export function LabelText({ label, required }: { label: ReactNode; required: boolean | undefined }) {
  return (
    <span className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
      {label}
      {required && <RequiredMark />}
    </span>
  );
}

export function FieldMessage({ id, error, hint }: { id: string; error?: string | undefined; hint?: ReactNode }) {
  if (error) {
    return (
      <p id={id} className="mt-1.5 text-sm text-red-600 dark:text-red-400">
        {error}
      </p>
    );
  }
  if (hint) {
    return (
      <p id={id} className="mt-1.5 text-sm text-slate-500 dark:text-slate-400">
        {hint}
      </p>
    );
  }
  return null;
}
