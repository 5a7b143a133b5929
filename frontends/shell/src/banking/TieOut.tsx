import { type TieOut, type TieOutStatus } from '@ledgerline/api';
import { ledgerHref, tieOutLabel } from './tie-out';
import { CheckIcon, Spinner, WarningIcon, cx, formatMoney } from '@ledgerline/ui';
import { TextLink } from '../layout/TextLink';

const TONE = {
  ok: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-400/30',
  warn: 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-400/30',
  busy: 'bg-sky-50 text-sky-900 ring-sky-600/20 dark:bg-sky-950 dark:text-sky-100 dark:ring-sky-400/30',
  muted: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/20',
} as const;

/** "Matches bank" (green check), "Differs by $X" (amber) or "Updating from the bank…": the books against the bank. */
export function TieOutBadge({
  status,
  difference,
  long = false,
  className,
}: {
  status: TieOutStatus;
  difference: number | null;
  long?: boolean;
  className?: string;
}) {
  const label = tieOutLabel(status, difference, { long });
  return (
    <span
      data-tie-out={status}
      className={cx(
        'inline-flex max-w-full items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-normal ring-1 ring-inset',
        TONE[label.tone],
        className,
      )}
    >
      {label.tone === 'ok' && <CheckIcon className="size-3.5 shrink-0" />}
      {label.tone === 'warn' && <WarningIcon className="size-3.5 shrink-0" />}
      {label.tone === 'busy' && <Spinner decorative className="shrink-0 [&_svg]:size-3.5" />}
      <span>{label.text}</span>
    </span>
  );
}

/** One account's books against its bank: both balances, the badge, and its ledger. */
export function AccountTieOut({ tieOut, currentBalance }: { tieOut: TieOut | null | undefined; currentBalance: number | null }) {
  const bank = tieOut?.bankBalance ?? currentBalance;
  const books = tieOut?.booksBalance ?? null;
  return (
    <div className="min-w-0 space-y-1.5">
      <dl className="grid grid-cols-2 gap-4 text-sm">
        <div>
          <dt className="text-slate-500 dark:text-slate-400">Bank</dt>
          <dd className="font-medium tabular-nums">{bank === null ? '—' : formatMoney(bank)}</dd>
        </div>
        <div>
          <dt className="text-slate-500 dark:text-slate-400">Books</dt>
          <dd className="font-medium tabular-nums">{books === null ? '—' : formatMoney(books)}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <TieOutBadge status={tieOut?.status ?? 'unknown'} difference={tieOut?.difference ?? null} />
        {tieOut?.ledgerAccountId && (
          <TextLink to={ledgerHref(tieOut.ledgerAccountId)} className="text-xs">
            Ledger
          </TextLink>
        )}
      </div>
      {tieOut && (tieOut.pendingAmount ?? 0) !== 0 && (
        <p className="text-xs text-slate-500 dark:text-slate-400">{formatMoney(tieOut.pendingAmount ?? 0)} pending, not in either balance yet</p>
      )}
    </div>
  );
}
