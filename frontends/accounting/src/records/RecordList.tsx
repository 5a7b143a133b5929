// The accounting remote's one list scaffold (bills, invoices, manual journals, vendor credits, credit memos, receipts,
// fixed assets): the toolbar (the tab's filters, kept in the URL by the tab, and its actions), then a page-by-page list
// (spec §2 infinite scroll) shown as loading, failed (with Try again), empty (with the tab's next step), or a compact
// table whose columns are data, with "Showing N of M" below. A tab gives it its columns and words; nothing else differs.
import { describeError, type ApiError } from '@ledgerline/api';
import { Button, EmptyState, Spinner, cx } from '@ledgerline/ui';
import type { ReactNode } from 'react';
import { FOLD, ListFoot, PartyTable, TD, TH, usePartyScroll } from '../parties/common';
import { uniqueRows } from '../parties/state';

export interface RecordColumn<R> {
  header: string;
  /** The header is read by assistive technology only (a file icon's or the actions' column). */
  hideHeader?: boolean;
  /** The header cell's width classes (`w-24 md:w-28`); none: it takes what is left. */
  width?: string;
  /** Right-aligned figures. */
  numeric?: boolean;
  /** Right-aligned, not figures (a row's buttons). */
  end?: boolean;
  /** Hidden below 48em, so a phone never scrolls sideways. */
  fold?: boolean;
  cell: (row: R) => ReactNode;
}

/** What RecordList needs of an infinite query of pages `{ data, meta: { itemCount } }` (or of one list: `onePage`). */
export interface RecordPages<R> {
  data?: { pages: { data: R[]; meta: { itemCount: number } }[] } | undefined;
  isPending: boolean;
  isError: boolean;
  error: ApiError | null;
  hasNextPage: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  refetch: () => unknown;
}

/** A query that answers the whole list at once (`{ data: R[] }`) as RecordList's one page. */
export function onePage<R>(query: {
  data?: { data: R[] } | undefined;
  isPending: boolean;
  isError: boolean;
  error: ApiError | null;
  isFetching: boolean;
  refetch: () => unknown;
}): RecordPages<R> {
  const rows = query.data?.data;
  return {
    data: rows === undefined ? undefined : { pages: [{ data: rows, meta: { itemCount: rows.length } }] },
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    hasNextPage: false,
    isFetching: query.isFetching,
    isFetchingNextPage: false,
    fetchNextPage: () => undefined,
    refetch: query.refetch,
  };
}

/** Above a list: its filters (the tab keeps them in the URL) at the start, its actions at the end. */
export function ListToolbar({ filters, actions }: { filters?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-3 flex flex-wrap items-end gap-3">
      {filters}
      {actions && <div className="ml-auto flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

export function RecordList<R extends { id: string }>({
  label,
  list,
  columns,
  openId = null,
  empty,
  rowLabel,
  tall = false,
}: {
  /** The table's name and the plural the messages use ("Bills", "Vendor credits"). */
  label: string;
  list: RecordPages<R>;
  columns: readonly RecordColumn<R>[];
  /** The open record's row is marked selected. */
  openId?: string | null;
  empty: { title: string; description: string; action?: ReactNode };
  /** A row's accessible name ("Receipt lunch.pdf"). */
  rowLabel?: (row: R) => string;
  /** Rows of 3rem (a file's icon), not 2.25rem. */
  tall?: boolean;
}) {
  usePartyScroll(list);
  const rows = uniqueRows(list.data?.pages);
  if (list.isPending) return <Spinner label={`Loading ${label.toLowerCase()}`} />;
  if (list.isError)
    return (
      <EmptyState
        title={`${label} could not be loaded`}
        description={describeError(list.error)?.message}
        action={
          <Button variant="secondary" onClick={() => void list.refetch()}>
            Try again
          </Button>
        }
      />
    );
  if (rows.length === 0) return <EmptyState title={empty.title} description={empty.description} action={empty.action} />;
  const place = (c: RecordColumn<R>) => cx((c.numeric || c.end) && 'text-right', c.numeric && 'tabular-nums', c.fold && FOLD);
  return (
    <>
      <PartyTable
        label={label}
        scrollOnPhone
        head={
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={cx(TH, c.width, place(c))}>
                {c.hideHeader ? <span className="sr-only">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        }
      >
        {rows.map((r) => (
          <tr
            key={r.id}
            className={cx(tall ? 'h-12' : 'h-9', 'hover:bg-slate-50 dark:hover:bg-slate-800/50')}
            aria-selected={r.id === openId || undefined}
            aria-label={rowLabel?.(r)}
          >
            {columns.map((c) => (
              <td key={c.header} className={cx(TD, place(c))}>
                {c.cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </PartyTable>
      <ListFoot shown={rows.length} total={list.data?.pages.at(-1)?.meta.itemCount} loading={list.isFetchingNextPage} />
    </>
  );
}
