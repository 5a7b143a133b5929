import {
  describeError,
  ledgerSearch,
  useChartOfAccounts,
  useGeneralLedger,
  useLedgerLines,
  type AccountTreeNode,
  type GeneralLedgerAccount,
  type LedgerLine,
} from '@ledgerline/api';
import { Button, Card, DateRangePicker, EmptyState, Spinner, cx, formatMoney, formatShortDate, type DateRange } from '@ledgerline/ui';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { periodOf } from './period';
import { GeneralLedgerExportButton } from '../transactions/ExportCsvButton';
import { findLedgerLine, generalLedgerTotals, INFINITE_SCROLL_THROTTLE_MS, nearScrollEnd, transactionLinkOf } from './rules';

/** How many pages the tab fetches on its own looking for the line `ledgerTxn` names. */
const MAX_PAGES_SEEKING_LINE = 25;

const money = (n: number) => formatMoney(n);
const amountOrBlank = (n: number) => (n === 0 ? '' : money(n));

/** /accounting?tab=ledger: every account's totals for the period, or one account's lines (`ledgerAccount`). */
export function GeneralLedgerTab() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const period = periodOf(params);
  const ledgerAccount = params.get('ledgerAccount');
  const ledgerTxn = params.get('ledgerTxn');
  const accounts = useGeneralLedger(period.startDate, period.endDate);
  // An account without lines in the period is not in the general ledger's answer: the chart still names it.
  const chart = useChartOfAccounts();

  const go = (next: { ledgerAccount?: string | null; ledgerTxn?: string | null; period?: DateRange }) =>
    navigate({
      search: ledgerSearch({
        ...(next.period ?? period),
        ledgerAccount: next.ledgerAccount === undefined ? ledgerAccount : next.ledgerAccount,
        ledgerTxn: next.ledgerTxn ?? null,
      }),
    });

  const picker = (
    <div className="flex flex-wrap items-end gap-2">
      <DateRangePicker label="Period" value={period} onChange={(range) => go({ period: range })} />
      <GeneralLedgerExportButton startDate={period.startDate} endDate={period.endDate} ledgerAccountId={ledgerAccount} />
    </div>
  );

  if (ledgerAccount !== null) {
    const account = accounts.data?.find((a) => a.ledgerAccountId === ledgerAccount) ?? null;
    return (
      <AccountLedger
        name={account ? `${account.name} (${account.coaId})` : chartName(chart.data?.chartOfAccounts ?? [], ledgerAccount)}
        ledgerAccountId={ledgerAccount}
        account={account}
        period={period}
        picker={picker}
        selectedLine={ledgerTxn}
        onSelectLine={(id) => go({ ledgerTxn: id })}
        onBack={() => go({ ledgerAccount: null })}
      />
    );
  }

  const rows = accounts.data ?? [];
  const totals = generalLedgerTotals(rows);
  return (
    <Card title="General Ledger" description="Each account's opening balance, debits, credits and closing balance for the period." actions={picker}>
      {accounts.isPending && (
        <div className="flex justify-center py-10">
          <Spinner label="Loading the general ledger" />
        </div>
      )}
      {accounts.isError && <LoadError error={accounts.error} retry={() => void accounts.refetch()} what="The general ledger" />}
      {accounts.isSuccess && rows.length === 0 && (
        <EmptyState title="No accounts in the ledger" description="Accounts appear here once your chart of accounts exists." />
      )}
      {accounts.isSuccess && rows.length > 0 && (
        <div className="relative -mx-6 overflow-x-auto">
          {/* Below 48em the code, type and period columns stack under the account's name (as QuickBooks Online's
              mobile lists do): the name and the closing balance get the width. */}
          <table className="w-full text-sm md:min-w-[48rem]" aria-label="General ledger">
            <thead>
              <tr className={headRow}>
                <th scope="col" className="py-2 pr-3 pl-4 md:px-6">
                  Account
                </th>
                <th scope="col" className={cx('px-3 py-2', WIDE)}>
                  coaId
                </th>
                <th scope="col" className={cx('px-3 py-2', WIDE)}>
                  Type
                </th>
                <Num wide>Opening balance</Num>
                <Num wide>Debits</Num>
                <Num wide>Credits</Num>
                <Num last>Closing balance</Num>
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <GeneralLedgerRow key={a.ledgerAccountId} account={a} onOpen={() => go({ ledgerAccount: a.ledgerAccountId })} />
              ))}
            </tbody>
            <tfoot>
              <tr className="border-t-2 border-slate-200 font-semibold dark:border-slate-700">
                <td className="py-2 pr-3 pl-4 md:px-6">
                  Total
                  <span className={cx('block text-xs font-normal text-slate-500 tabular-nums dark:text-slate-400', NARROW)}>
                    <span className="whitespace-nowrap">Debits {money(totals.debit)}</span> ·{' '}
                    <span className="whitespace-nowrap">Credits {money(totals.credit)}</span>
                  </span>
                </td>
                <td className={cx('px-3 py-2', WIDE)} colSpan={3} />
                <td className={cx('px-3 py-2 text-right tabular-nums', WIDE)}>{money(totals.debit)}</td>
                <td className={cx('px-3 py-2 text-right tabular-nums', WIDE)}>{money(totals.credit)}</td>
                <td className="py-2 pr-4 pl-3 md:px-6" />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </Card>
  );
}

const headRow = 'border-b border-slate-200 text-left text-xs font-medium tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:text-slate-400';

/** A column shown from 48em up; below, what it holds is stacked in the row's first cell (NARROW). */
const WIDE = 'hidden md:table-cell';
/** Shown below 48em only: the stacked form of the WIDE columns. */
const NARROW = 'md:hidden';

function Num({ children, last = false, wide = false }: { children: string; last?: boolean; wide?: boolean }) {
  return (
    <th scope="col" className={cx('py-2 text-right', last ? 'pr-4 pl-3 md:px-6' : 'px-3', wide && WIDE)}>
      {children}
    </th>
  );
}

function GeneralLedgerRow({ account, onOpen }: { account: GeneralLedgerAccount; onOpen: () => void }) {
  return (
    <tr className="border-b border-slate-100 last:border-0 dark:border-slate-800/70">
      <td className="py-1.5 pr-3 pl-4 md:px-6">
        <button
          type="button"
          onClick={onOpen}
          className="rounded text-left font-medium text-brand-700 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 dark:text-brand-300"
        >
          {account.name}
        </button>
        <span data-stacked className={cx('block text-xs text-slate-500 tabular-nums dark:text-slate-400', NARROW)}>
          <span className="font-mono">{account.coaId}</span> · {account.type}
          <span className="block">
            <span className="whitespace-nowrap">Opening {money(account.openingBalance)}</span> ·{' '}
            <span className="whitespace-nowrap">Dr {money(account.debit)}</span> · <span className="whitespace-nowrap">Cr {money(account.credit)}</span>
          </span>
        </span>
      </td>
      <td className={cx('px-3 py-1.5 font-mono text-xs text-slate-600 tabular-nums dark:text-slate-400', WIDE)}>{account.coaId}</td>
      <td className={cx('px-3 py-1.5 text-slate-600 dark:text-slate-400', WIDE)}>{account.type}</td>
      <td className={cx('px-3 py-1.5 text-right tabular-nums', WIDE)}>{money(account.openingBalance)}</td>
      <td className={cx('px-3 py-1.5 text-right tabular-nums', WIDE)}>{money(account.debit)}</td>
      <td className={cx('px-3 py-1.5 text-right tabular-nums', WIDE)}>{money(account.credit)}</td>
      <td className="py-1.5 pr-4 pl-3 text-right align-top font-medium whitespace-nowrap tabular-nums md:px-6 md:align-middle">
        {money(account.closingBalance)}
      </td>
    </tr>
  );
}

function LoadError({ error, retry, what }: { error: unknown; retry: () => void; what: string }) {
  return (
    <EmptyState
      title={`${what} could not be loaded`}
      description={describeError(error)?.message}
      action={
        <Button variant="secondary" onClick={retry}>
          Try again
        </Button>
      }
    />
  );
}

/** 'Name (coaId)' of an account of the chart, or a neutral title while the chart loads. */
function chartName(nodes: readonly AccountTreeNode[], id: string): string {
  const stack = [...nodes];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.id === id) return `${node.name} (${node.coaId})`;
    stack.push(...node.children);
  }
  return 'Account ledger';
}

interface AccountLedgerProps {
  name: string;
  ledgerAccountId: string;
  account: GeneralLedgerAccount | null;
  period: DateRange;
  picker: ReactNode;
  selectedLine: string | null;
  onSelectLine: (id: string | null) => void;
  onBack: () => void;
}

/** One account's lines with running balances, page by page as the person scrolls (spec §9). */
function AccountLedger({ name, ledgerAccountId, account, period, picker, selectedLine, onSelectLine, onBack }: AccountLedgerProps) {
  const lines = useLedgerLines(ledgerAccountId, period.startDate, period.endDate);
  const scroller = useRef<HTMLDivElement>(null);
  const lastCheck = useRef(0);
  const all = lines.data?.pages.flatMap((p) => p.data) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = lines;
  const pagesLoaded = lines.data?.pages.length ?? 0;
  const selected = findLedgerLine(all, selectedLine);

  const fetchIfNear = useCallback(() => {
    const el = scroller.current;
    if (!el || !hasNextPage || isFetchingNextPage) return;
    if (nearScrollEnd({ scrollTop: el.scrollTop, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight })) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // A first page shorter than the viewport leaves nothing to scroll: fetch on until it fills or ends.
  useEffect(() => {
    fetchIfNear();
  }, [fetchIfNear, pagesLoaded]);

  // The line named in the URL may sit on a later page: fetch on until it is found (bounded).
  useEffect(() => {
    if (selectedLine !== null && selected === null && hasNextPage && !isFetchingNextPage && pagesLoaded > 0 && pagesLoaded < MAX_PAGES_SEEKING_LINE)
      void fetchNextPage();
  }, [selectedLine, selected, hasNextPage, isFetchingNextPage, pagesLoaded, fetchNextPage]);

  // Scroll the selected line into view once it is there.
  useEffect(() => {
    if (selected?.id) scroller.current?.querySelector(`[data-line-id="${CSS.escape(selected.id)}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected?.id]);

  // Spec §9: throttled at 200 ms, with a trailing check: a scroll that lands at the end inside the window (say,
  // while the previous page was still loading) is checked when the window closes, not dropped.
  const latestFetchIfNear = useRef(fetchIfNear);
  latestFetchIfNear.current = fetchIfNear;
  const trailing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(trailing.current), []);
  const onScroll = () => {
    const wait = INFINITE_SCROLL_THROTTLE_MS - (Date.now() - lastCheck.current);
    if (wait > 0) {
      trailing.current ??= setTimeout(() => {
        trailing.current = undefined;
        lastCheck.current = Date.now();
        latestFetchIfNear.current();
      }, wait);
      return;
    }
    lastCheck.current = Date.now();
    fetchIfNear();
  };

  const itemCount = lines.data?.pages[0]?.meta.itemCount;
  return (
    <Card
      title={name}
      description={
        <>
          <button
            type="button"
            onClick={onBack}
            className="rounded font-medium text-brand-700 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 dark:text-brand-300"
          >
            ← All accounts
          </button>
          {account && (
            <span className="ml-3">
              Opening {money(account.openingBalance)} · Debits {money(account.debit)} · Credits {money(account.credit)} · Closing{' '}
              {money(account.closingBalance)}
            </span>
          )}
        </>
      }
      actions={picker}
    >
      {lines.isPending && (
        <div className="flex justify-center py-10">
          <Spinner label="Loading the account's lines" />
        </div>
      )}
      {lines.isError && <LoadError error={lines.error} retry={() => void lines.refetch()} what="The account's lines" />}
      {lines.isSuccess && (
        <>
          <div ref={scroller} onScroll={onScroll} className="relative -mx-6 max-h-[60vh] overflow-auto" tabIndex={-1}>
            {/* Below 48em the date stacks under the description, and one Amount column (Dr/Cr, the running balance under
                it) stands for Debit, Credit and Balance, as QuickBooks Online's mobile register does. */}
            <table className="w-full text-sm md:min-w-[44rem]" aria-label="Ledger lines">
              <thead className="sticky top-0 bg-white dark:bg-slate-900">
                <tr className={headRow}>
                  <th scope="col" className={cx('px-6 py-2', WIDE)}>
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-3 pl-4 md:px-3">
                    Description
                  </th>
                  <Num wide>Debit</Num>
                  <Num wide>Credit</Num>
                  <th scope="col" className={cx('py-2 pr-4 pl-3 text-right', NARROW)}>
                    Amount
                  </th>
                  <Num last wide>
                    Balance
                  </Num>
                </tr>
              </thead>
              <tbody>
                {all.map((line, index) => (
                  <LineRow key={line.id ?? `opening-${index}`} line={line} selected={line === selected} onSelect={() => onSelectLine(line.id)} />
                ))}
              </tbody>
            </table>
            {all.every(isBroughtForward) && (
              <p className="px-6 py-6 text-center text-sm text-slate-500 dark:text-slate-400">Nothing was booked to this account in the period.</p>
            )}
            {isFetchingNextPage && (
              <div className="flex justify-center py-3">
                <Spinner label="Loading more lines" />
              </div>
            )}
          </div>
          <div className="mt-3 flex items-center justify-between text-sm text-slate-500 dark:text-slate-400">
            <span>{itemCount === undefined ? '' : `${all.filter((l) => !isBroughtForward(l)).length} of ${itemCount} lines`}</span>
            {hasNextPage && (
              <Button variant="secondary" size="sm" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                Load more
              </Button>
            )}
          </div>
          {selected && <LineDetail line={selected} onClose={() => onSelectLine(null)} />}
        </>
      )}
    </Card>
  );
}

/** The row the server puts first on page 1: the balance brought forward (no id; a posted opening-balance entry has one). */
const isBroughtForward = (line: LedgerLine) => line.isOpeningBalance && line.id === null;

function LineRow({ line, selected, onSelect }: { line: LedgerLine; selected: boolean; onSelect: () => void }) {
  if (isBroughtForward(line)) {
    return (
      <tr className="border-b border-slate-100 bg-slate-50 font-medium dark:border-slate-800/70 dark:bg-slate-800/40">
        <td className={cx('px-6 py-1.5 text-slate-500 dark:text-slate-400', WIDE)}>{line.dateTime ? formatShortDate(line.dateTime) : ''}</td>
        <td className="py-1.5 pr-3 pl-4 md:px-3">
          Opening balance
          {line.dateTime && (
            <span className={cx('block text-xs font-normal text-slate-500 dark:text-slate-400', NARROW)}>{formatShortDate(line.dateTime)}</span>
          )}
        </td>
        <td className={cx('px-3 py-1.5', WIDE)} />
        <td className={cx('px-3 py-1.5', WIDE)} />
        <td className={cx('py-1.5 pr-4 pl-3 text-right whitespace-nowrap tabular-nums', NARROW)}>
          <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">Bal.</span>
          {money(line.ledgerRunningBalance)}
        </td>
        <td className={cx('px-6 py-1.5 text-right whitespace-nowrap tabular-nums', WIDE)}>{money(line.ledgerRunningBalance)}</td>
      </tr>
    );
  }
  return (
    <tr
      data-line-id={line.id ?? undefined}
      aria-selected={selected}
      className={cx(
        'border-b border-slate-100 last:border-0 dark:border-slate-800/70',
        selected ? 'bg-brand-50 dark:bg-brand-950' : 'hover:bg-slate-50 dark:hover:bg-slate-800/40',
      )}
    >
      <td className={cx('px-6 py-1.5 whitespace-nowrap text-slate-600 tabular-nums dark:text-slate-400', WIDE)}>
        {line.dateTime ? formatShortDate(line.dateTime) : ''}
      </td>
      <td className="py-1.5 pr-3 pl-4 md:px-3">
        <button
          type="button"
          onClick={onSelect}
          aria-pressed={selected}
          className="rounded text-left break-words text-slate-900 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500/50 dark:text-slate-100"
        >
          {line.description || '(no description)'}
        </button>
        {line.counterAccount && <span className="block text-xs text-slate-500 md:ml-2 md:inline dark:text-slate-400">{line.counterAccount}</span>}
        {line.dateTime && <span className={cx('block text-xs text-slate-500 tabular-nums dark:text-slate-400', NARROW)}>{formatShortDate(line.dateTime)}</span>}
      </td>
      <td className={cx('px-3 py-1.5 text-right tabular-nums', WIDE)}>{amountOrBlank(line.debit)}</td>
      <td className={cx('px-3 py-1.5 text-right tabular-nums', WIDE)}>{amountOrBlank(line.credit)}</td>
      <td className={cx('py-1.5 pr-4 pl-3 text-right align-top whitespace-nowrap tabular-nums', NARROW)}>
        <span data-amount>{line.debit > 0 ? `${money(line.debit)} Dr` : line.credit > 0 ? `${money(line.credit)} Cr` : ''}</span>
        <span data-balance className="block text-xs text-slate-500 dark:text-slate-400">
          Bal. {money(line.ledgerRunningBalance)}
        </span>
      </td>
      <td className={cx('px-6 py-1.5 text-right font-medium whitespace-nowrap tabular-nums', WIDE)}>{money(line.ledgerRunningBalance)}</td>
    </tr>
  );
}

function LineDetail({ line, onClose }: { line: LedgerLine; onClose: () => void }) {
  const link = transactionLinkOf(line);
  return (
    <section
      aria-label="Selected line"
      className="mt-4 rounded-lg border border-brand-200 bg-brand-50/60 p-4 text-sm dark:border-brand-900 dark:bg-brand-950/40"
    >
      <div className="flex items-start justify-between gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-slate-500 dark:text-slate-400">Date</dt>
          <dd>{line.dateTime ? formatShortDate(line.dateTime) : ''}</dd>
          <dt className="text-slate-500 dark:text-slate-400">Description</dt>
          <dd>{line.description}</dd>
          <dt className="text-slate-500 dark:text-slate-400">Against</dt>
          <dd>{line.counterAccount || '—'}</dd>
          <dt className="text-slate-500 dark:text-slate-400">Amount</dt>
          <dd className="tabular-nums">{line.debit > 0 ? `Debit ${money(line.debit)}` : `Credit ${money(line.credit)}`}</dd>
          <dt className="text-slate-500 dark:text-slate-400">Source</dt>
          <dd>{line.sourceType}</dd>
        </dl>
        <div className="flex flex-col items-end gap-2">
          {link && (
            <Link to={link} className="font-medium text-brand-700 hover:underline dark:text-brand-300">
              Open transaction
            </Link>
          )}
          <Button variant="ghost" size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    </section>
  );
}
