// The accounting remote's one list of records (bills, invoices, manual journals, vendor credits, credit memos): a
// page-by-page list (spec §2 infinite scroll) shown as loading, failed, empty, or a compact table whose columns are
// data, with "Showing N of M" below. The documents and credits tabs give it their columns; nothing else differs.
import { describeError, type ApiError } from '@ledgerline/api';
import { EmptyState, Spinner, cx } from '@ledgerline/ui';
import type { ReactNode } from 'react';
import { FOLD, ListFoot, PartyTable, TD, TH, usePartyScroll } from '../parties/common';
import { uniqueRows } from '../parties/state';

export interface RecordColumn<R> {
  header: string;
  /** The header cell's width classes (`w-24 md:w-28`); none: it takes what is left. */
  width?: string;
  /** Right-aligned figures. */
  numeric?: boolean;
  /** Hidden below 48em, so a phone never scrolls sideways. */
  fold?: boolean;
  cell: (row: R) => ReactNode;
}

/** What RecordList needs of an infinite query of pages `{ data, meta: { itemCount } }`. */
export interface RecordPages<R> {
  data?: { pages: { data: R[]; meta: { itemCount: number } }[] } | undefined;
  isPending: boolean;
  isError: boolean;
  error: ApiError | null;
  hasNextPage: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

export function RecordList<R extends { id: string }>({
  label,
  list,
  columns,
  openId,
  empty,
}: {
  /** The table's name and the plural the messages use ("Bills", "Vendor credits"). */
  label: string;
  list: RecordPages<R>;
  columns: readonly RecordColumn<R>[];
  /** The open record's row is marked selected. */
  openId: string | null;
  empty: { title: string; description: string };
}) {
  usePartyScroll(list);
  const rows = uniqueRows(list.data?.pages);
  if (list.isPending) return <Spinner label={`Loading ${label.toLowerCase()}`} />;
  if (list.isError) return <EmptyState title={`${label} could not be loaded`} description={describeError(list.error)?.message} />;
  if (rows.length === 0) return <EmptyState title={empty.title} description={empty.description} />;
  const place = (c: RecordColumn<R>) => cx(c.numeric && 'text-right tabular-nums', c.fold && FOLD);
  return (
    <>
      <PartyTable
        label={label}
        scrollOnPhone
        head={
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={cx(TH, c.width, c.numeric && 'text-right', c.fold && FOLD)}>
                {c.header}
              </th>
            ))}
          </tr>
        }
      >
        {rows.map((r) => (
          <tr key={r.id} className="h-9 hover:bg-slate-50 dark:hover:bg-slate-800/50" aria-selected={r.id === openId || undefined}>
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
