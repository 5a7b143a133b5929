/** `compact`: below 40em only the mark, so the top bar has room for the workspace switcher on a phone. */
export function Logo({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold tracking-tight ${className ?? ''}`}>
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
        <rect width="32" height="32" rx="8" className="fill-brand-600 dark:fill-brand-500" />
        <path d="M9 9v14h14" fill="none" stroke="white" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M14 18l4-4 3 3" fill="none" stroke="white" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" opacity="0.85" />
      </svg>
      <span className={compact ? 'hidden text-lg sm:inline' : 'text-lg'}>Ledgerline</span>
    </span>
  );
}
