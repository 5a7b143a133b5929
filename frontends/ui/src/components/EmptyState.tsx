import type { ReactNode } from 'react';
import { cx } from '../cx';
import { InboxIcon } from '../icons';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  className?: string;
}

export function EmptyState({ title, description, icon, action, className }: EmptyStateProps) {
  return (
    <div
      className={cx(
        'flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-300 px-6 py-14 text-center dark:border-slate-700',
        className,
      )}
    >
      <div className="mb-3 flex size-11 items-center justify-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
        {icon ?? <InboxIcon className="size-5" />}
      </div>
      <h3 className="text-base font-semibold text-slate-900 dark:text-slate-100">{title}</h3>
      {description && <div className="mt-1 max-w-md text-sm text-slate-500 dark:text-slate-400">{description}</div>}
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
}
