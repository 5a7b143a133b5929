import { create } from '@bufbuild/protobuf';
import { newId, writeEvent, type Knex } from '@ledgerline/platform';
import { EntryLineSchema, EntryPostedSchema } from '@ledgerline/proto/events/v1/ledger_pb';
import { monthStart } from '../domain/dates.js';
import { isBalanced, reversalLines, type PostingLine } from '../domain/posting.js';

export const SOURCE = 'ledger';

export type SourceType = 'WorkspaceTransaction' | 'OpeningBalance' | 'ManualEntry' | 'Bill' | 'Invoice' | 'FixedAsset' | 'VendorCredit' | 'CreditMemo';

export interface NewEntry {
  workspaceId: string;
  date: string;
  sourceType: SourceType;
  sourceId?: string | null;
  description: string;
  lines: PostingLine[];
  reversesEntryId?: string | null;
  transactionId?: string | null;
}

/**
 * Posts one balanced entry: the entry row, its lines (one INSERT from unnest arrays), the monthly
 * balances (an atomic upsert, so concurrent postings lose no update) and `entry.posted` in the outbox,
 * all in the caller's transaction. The database checks the balance again at commit.
 */
export async function postEntry(trx: Knex.Transaction, e: NewEntry): Promise<string> {
  if (!isBalanced(e.lines)) throw new Error(`refusing to post an unbalanced entry (${JSON.stringify(e.lines)})`);
  const id = newId();
  const byAccount = new Map<string, { debit: number; credit: number; count: number }>();
  // Each line's place among this entry's lines of its account (1-based) and their net before it.
  const inEntry = e.lines.map((l) => {
    const b = byAccount.get(l.accountId) ?? { debit: 0, credit: 0, count: 0 };
    const place = { k: b.count + 1, netBefore: b.debit - b.credit };
    if (l.direction === 'debit') b.debit += l.amountCents;
    else b.credit += l.amountCents;
    b.count += 1;
    byAccount.set(l.accountId, b);
    return place;
  });
  const accounts = [...byAccount.keys()].sort();
  const total = (a: string) => byAccount.get(a) ?? { debit: 0, credit: 0, count: 0 };
  // A line's day_seq = the day row's new line count − this entry's lines of the account + k; its
  // day_net_before likewise from the day row's new net. The day row's upsert locks it, so concurrent
  // postings get consecutive places; the month rows are locked first, in account order, as before.
  const seqOffsets = e.lines.map((l, i) => inEntry[i]!.k - total(l.accountId).count);
  const netOffsets = e.lines.map((l, i) => inEntry[i]!.netBefore - (total(l.accountId).debit - total(l.accountId).credit));
  const accountArrays = [accounts, accounts.map((a) => total(a).debit), accounts.map((a) => total(a).credit), accounts.map((a) => total(a).count)];
  // One round trip: the entry, the monthly and daily balances (atomic upserts, so concurrent postings
  // lose no update) and the lines (from unnest arrays, placed from the daily rows' new totals). The
  // foreign key of the lines is checked at the statement's end.
  const result = (await trx.raw(
    `with entry as (
       insert into journal_entries (id, workspace_id, entry_date, source_type, source_id, description, reverses_entry_id, transaction_id)
       values (?, ?, ?, ?, ?, ?, ?, ?) returning seq
     ), months as (
       insert into account_balances (workspace_id, account_id, month, debit_cents, credit_cents, line_count)
       select ?, t.account_id, ?::date, t.debit, t.credit, t.n from unnest(?::uuid[], ?::bigint[], ?::bigint[], ?::int[]) as t(account_id, debit, credit, n)
       order by t.account_id
       on conflict (workspace_id, account_id, month) do update set
         debit_cents = account_balances.debit_cents + excluded.debit_cents,
         credit_cents = account_balances.credit_cents + excluded.credit_cents,
         line_count = account_balances.line_count + excluded.line_count
       returning 1
     ), days as (
       insert into account_day_balances (workspace_id, account_id, day, debit_cents, credit_cents, line_count)
       select ?, t.account_id, ?::date, t.debit, t.credit, t.n from unnest(?::uuid[], ?::bigint[], ?::bigint[], ?::int[]) as t(account_id, debit, credit, n)
       where (select count(*) from months) > 0
       order by t.account_id
       on conflict (workspace_id, account_id, day) do update set
         debit_cents = account_day_balances.debit_cents + excluded.debit_cents,
         credit_cents = account_day_balances.credit_cents + excluded.credit_cents,
         line_count = account_day_balances.line_count + excluded.line_count
       returning account_id, line_count, debit_cents - credit_cents as net
     ), lines as (
       insert into journal_lines (workspace_id, entry_id, account_id, direction, amount_cents, entry_date, transaction_id, day_seq, day_net_before)
       select ?, ?, t.account_id, t.direction, t.amount_cents, ?, ?, d.line_count + t.seq_offset, d.net + t.net_offset
       from unnest(?::uuid[], ?::text[], ?::bigint[], ?::int[], ?::bigint[]) with ordinality as t(account_id, direction, amount_cents, seq_offset, net_offset, n)
       join days d on d.account_id = t.account_id
       order by t.n
       returning id, account_id, direction, amount_cents
     )
     select (select seq from entry) as seq,
            (select json_agg(json_build_object('id', id, 'account_id', account_id, 'direction', direction, 'amount_cents', amount_cents) order by id) from lines) as lines`,
    [
      id, e.workspaceId, e.date, e.sourceType, e.sourceId ?? null, e.description, e.reversesEntryId ?? null, e.transactionId ?? null,
      e.workspaceId, monthStart(e.date), ...accountArrays,
      e.workspaceId, e.date, ...accountArrays,
      e.workspaceId, id, e.date, e.transactionId ?? null, e.lines.map((l) => l.accountId), e.lines.map((l) => l.direction), e.lines.map((l) => l.amountCents), seqOffsets, netOffsets,
    ],
  )).rows[0] as { seq: number; lines: { id: number; account_id: string; direction: 'debit' | 'credit'; amount_cents: number }[] };
  const entry = { seq: result.seq };
  const lineRows = result.lines;

  await writeEvent(trx, SOURCE, {
    type: 'entry.posted',
    workspaceId: e.workspaceId,
    schema: EntryPostedSchema,
    payload: create(EntryPostedSchema, {
      entryId: id,
      seq: BigInt(entry?.seq ?? 0),
      date: e.date,
      sourceType: e.sourceType,
      sourceId: e.sourceId ?? '',
      description: e.description,
      reversesEntryId: e.reversesEntryId ?? '',
      transactionId: e.transactionId ?? '',
      lines: lineRows.map((l) => create(EntryLineSchema, { lineId: String(l.id), accountId: l.account_id, direction: l.direction, amountCents: BigInt(l.amount_cents) })),
    }),
  });
  return id;
}

export async function entryLines(trx: Knex.Transaction, entryId: string): Promise<PostingLine[]> {
  const rows = (await trx('journal_lines').where({ entry_id: entryId }).orderBy('id').select('account_id', 'direction', 'amount_cents')) as { account_id: string; direction: 'debit' | 'credit'; amount_cents: number }[];
  return rows.map((r) => ({ accountId: r.account_id, direction: r.direction, amountCents: r.amount_cents }));
}

/** Posts the reversal of an entry, dated like the entry it reverses (a second reversal is refused by the database). */
export async function reverseEntry(trx: Knex.Transaction, entryId: string, description: string): Promise<string> {
  // The entry and its lines in one round trip (every re-categorisation and bank change reverses one).
  const rows = (await trx.raw(
    `select e.workspace_id, e.entry_date, e.source_type, e.source_id, e.transaction_id, l.account_id, l.direction, l.amount_cents
     from journal_entries e join journal_lines l on l.entry_id = e.id where e.id = ? order by l.id`,
    [entryId],
  )).rows as { workspace_id: string; entry_date: string; source_type: SourceType; source_id: string | null; transaction_id: string | null; account_id: string; direction: 'debit' | 'credit'; amount_cents: number }[];
  const original = rows[0];
  if (!original) throw new Error(`no entry ${entryId} to reverse`);
  return postEntry(trx, {
    workspaceId: original.workspace_id,
    date: original.entry_date,
    sourceType: original.source_type,
    sourceId: original.source_id,
    description,
    lines: reversalLines(rows.map((r) => ({ accountId: r.account_id, direction: r.direction, amountCents: r.amount_cents }))),
    reversesEntryId: entryId,
    transactionId: original.transaction_id,
  });
}
