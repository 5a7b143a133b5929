import type { ReactNode } from 'react';

/**
 * A list's record name that opens the record (a URL parameter, a dialog): the brand's link colour, cut with an
 * ellipsis inside its cell. One look for every list of records (team, firm, vendors, customers, rules).
 */
export function RecordLink({ onOpen, children, label }: { onOpen: () => void; children: ReactNode; label?: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      onClick={onOpen}
      className="max-w-full truncate text-left font-medium text-brand-700 hover:underline focus-visible:underline focus-visible:outline-none dark:text-brand-300"
    >
      {children}
    </button>
  );
}
