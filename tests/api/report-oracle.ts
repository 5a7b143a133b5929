// The oracle the report tests share: report rows as the REST answers carry them, and what a row's cell must
// be — the sum of the ledger's own journal lines of the accounts in its subtree, read from the ledger's database.
import type { Knex } from '@ledgerline/platform';

export interface Row {
  id: string | null;
  name: string;
  coaId: number | null;
  type: string | null;
  rowType: string;
  amounts: number[];
  total: number;
  children: Row[];
}
export interface Column {
  startDate: string;
  endDate: string;
}

export const cents = (x: number) => Math.round(x * 100);
export const debitNormal = (type: string | null) => type === 'Assets' || type === 'Expenses' || type === 'Transfer';

export type LineSums = Map<string, { d: number; c: number }>;

/** The ledger's lines per account for dates in [from, to], of the given entry source types (null: all). */
export async function lineSums(ledgerDb: Knex, workspaceId: string, from: string, to: string, sourceTypes: readonly string[] | null = null): Promise<LineSums> {
  const rows = (
    await ledgerDb.raw(
      `select l.account_id, coalesce(sum(l.amount_cents) filter (where l.direction = 'debit'), 0)::bigint as d, coalesce(sum(l.amount_cents) filter (where l.direction = 'credit'), 0)::bigint as c
     from journal_lines l join journal_entries e on e.id = l.entry_id
     where l.workspace_id = ? and l.entry_date between ? and ? and (?::text[] is null or e.source_type = any(?::text[])) group by l.account_id`,
      [workspaceId, from, to, sourceTypes as string[] | null, sourceTypes as string[] | null],
    )
  ).rows as { account_id: string; d: string; c: string }[];
  return new Map(rows.map((r) => [r.account_id, { d: Number(r.d), c: Number(r.c) }]));
}

export const subtreeIds = (r: Row): string[] => [...(r.id ? [r.id] : []), ...r.children.flatMap(subtreeIds)];
// Sections without an account (the P&L's Income, Cost of Goods Sold, …) are looked into too.
export const accountRows = (rows: Row[]): Row[] => rows.flatMap((r) => (r.id ? [r, ...accountRows(r.children)] : accountRows(r.children)));

/** A row's cell in cents: its subtree's lines in the row's normal direction. */
export const expected = (sums: LineSums, r: Row) =>
  subtreeIds(r).reduce((s, id) => {
    const x = sums.get(id) ?? { d: 0, c: 0 };
    return s + (debitNormal(r.type) ? x.d - x.c : x.c - x.d);
  }, 0);

/** Income − expenses of the lines, in cents, given each account's class group. */
export const netIncomeOf = (sums: LineSums, types: ReadonlyMap<string, string>) =>
  [...sums].reduce((s, [id, x]) => s + (types.get(id) === 'Income' || types.get(id) === 'Expenses' ? x.c - x.d : 0), 0);

/** The Retained Earnings account's row or a row above it: its balance-sheet cells also hold every earlier fiscal year's net income. */
export const holdsRetained = (r: Row): boolean => (r.type === 'Equity' && r.name === 'Retained Earnings') || r.children.some(holdsRetained);

/** The day before the (calendar) fiscal year of `date`. */
export const beforeFiscalYear = (date: string) => `${Number(date.slice(0, 4)) - 1}-12-31`;
