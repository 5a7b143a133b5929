import { ThemeToggle } from '@ledgerline/ui';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { Logo } from './Logo';

export function AuthLayout() {
  return (
    <div className="grid min-h-screen lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      <aside className="relative hidden flex-col justify-between overflow-hidden bg-brand-900 p-10 text-brand-50 lg:flex dark:bg-brand-950">
        <Logo className="text-white" />
        <div className="relative z-10 max-w-md">
          <p className="text-3xl font-semibold leading-tight text-white">Books that close themselves, ledgers you can trust.</p>
          <p className="mt-4 text-brand-100/80">
            Bank feeds, categorisation, accruals and reports for startups — and for the accounting firms that keep their books.
          </p>
        </div>
        <p className="relative z-10 text-sm text-brand-200/70">Double-entry, every cent accounted for.</p>
        <div aria-hidden="true" className="absolute -right-24 -bottom-24 size-96 rounded-full bg-brand-700/40 blur-2xl" />
      </aside>
      <main className="flex flex-col">
        <div className="flex items-center justify-between p-4 lg:justify-end">
          <Logo className="text-slate-900 lg:hidden dark:text-white" />
          <ThemeToggle />
        </div>
        <div className="flex flex-1 items-start justify-center px-4 pt-4 pb-16 sm:items-center sm:pt-0">
          <div className="w-full max-w-md">
            <Outlet />
          </div>
        </div>
      </main>
    </div>
  );
}

export function AuthHeading({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  return (
    <div className="mb-8">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">{title}</h1>
      {subtitle && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p>}
    </div>
  );
}
