import { EventType, newId, writeEvents, type EventPayload, type Knex, type OutgoingEvent } from '@ledgerline/platform';
import { monthStart } from '../domain/dates.js';
import { isBalanced, reversalLines, type PostingLine } from '../domain/posting.js';
import { notePosted } from './seq.js';

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
  /** The merchant (biller) of the entry: the transaction's biller; a reversal takes its entry's. */
  billerId?: string | null;
}

/**
 * Posts one balanced entry: the entry row, its lines (one INSERT from unnest arrays), the monthly
 * balances (an atomic upsert, so concurrent postings lose no update) and `entry.posted` in the outbox,
 * all in the caller's transaction. The database checks the balance again at commit.
 */
export async function postEntry(trx: Knex.Transaction, e: NewEntry): Promise<string> {
  return (await postEntries(trx, [e]))[0] as string;
}

interface Totals {
  debit: number;
  credit: number;
  count: number;
}

/** Totals per key, in first-seen order of the keys. */
function totalsBy<T>(items: readonly T[], key: (t: T) => string, line: (t: T) => PostingLine): Map<string, Totals> {
  const out = new Map<string, Totals>();
  for (const it of items) {
    const l = line(it);
    const k = key(it);
    const b = out.get(k) ?? { debit: 0, credit: 0, count: 0 };
    if (l.direction === 'debit') b.debit += l.amountCents;
    else b.credit += l.amountCents;
    b.count += 1;
    out.set(k, b);
  }
  return out;
}

/**
 * Posts balanced entries in the given order as if posted one after another with `postEntry`, in two
 * round trips: one statement for the entry rows, the month and day balances (one upsert per account ×
 * month and account × day, month rows first, then day rows, each in (account, period) order, so
 * concurrent postings queue rather than deadlock) and the lines, each placed from its day row's new
 * totals in posting order; then `entry.posted` for each entry in one outbox insert.
 */
export async function postEntries(trx: Knex.Transaction, entries: readonly NewEntry[]): Promise<string[]> {
  if (entries.length === 0) return [];
  for (const e of entries) if (!isBalanced(e.lines)) throw new Error(`refusing to post an unbalanced entry (${JSON.stringify(e.lines)})`);
  const ids = entries.map(() => newId());
  const flat = entries.flatMap((e, i) => e.lines.map((l) => ({ e, entryId: ids[i] as string, l })));
  type Flat = (typeof flat)[number];
  const dayKey = (f: Flat) => `${f.e.workspaceId}|${f.l.accountId}|${f.e.date}`;
  const monthKey = (f: Flat) => `${f.e.workspaceId}|${f.l.accountId}|${monthStart(f.e.date)}`;
  const days = totalsBy(flat, dayKey, (f) => f.l);
  const months = totalsBy(flat, monthKey, (f) => f.l);
  // A line's day_seq = the day row's new line count − this batch's lines of the account × day + k (its
  // 1-based place among them); its day_net_before likewise from the day row's new net. The day row's
  // upsert locks it, so concurrent postings get consecutive places.
  const running = new Map<string, Totals>();
  const seqOffsets: number[] = [];
  const netOffsets: number[] = [];
  for (const f of flat) {
    const k = dayKey(f);
    const r = running.get(k) ?? { debit: 0, credit: 0, count: 0 };
    const total = days.get(k) as Totals;
    seqOffsets.push(r.count + 1 - total.count);
    netOffsets.push(r.debit - r.credit - (total.debit - total.credit));
    if (f.l.direction === 'debit') r.debit += f.l.amountCents;
    else r.credit += f.l.amountCents;
    r.count += 1;
    running.set(k, r);
  }
  const periodArrays = (m: Map<string, Totals>) => {
    const keys = [...m.keys()].map((k) => k.split('|') as [string, string, string]).sort((a, b) => (a[0] + a[1] + a[2] < b[0] + b[1] + b[2] ? -1 : 1));
    const t = (k: [string, string, string]) => m.get(k.join('|')) as Totals;
    return [
      keys.map((k) => k[0]),
      keys.map((k) => k[1]),
      keys.map((k) => k[2]),
      keys.map((k) => t(k).debit),
      keys.map((k) => t(k).credit),
      keys.map((k) => t(k).count),
    ];
  };
  // One round trip: the entries, the monthly and daily balances (atomic upserts, so concurrent postings
  // lose no update) and the lines (from unnest arrays, placed from the daily rows' new totals). The
  // foreign key of the lines is checked at the statement's end.
  const result = (
    await trx.raw(
      `with entry as (
       insert into journal_entries (id, workspace_id, entry_date, source_type, source_id, description, reverses_entry_id, transaction_id, biller_id)
       select t.id, t.w, t.d, t.st, t.si, t.de, t.re, t.tx, t.b from unnest(?::uuid[], ?::uuid[], ?::date[], ?::text[], ?::uuid[], ?::text[], ?::uuid[], ?::uuid[], ?::uuid[]) with ordinality as t(id, w, d, st, si, de, re, tx, b, n)
       order by n
       returning id, seq
     ), months as (
       insert into account_balances (workspace_id, account_id, month, debit_cents, credit_cents, line_count)
       select t.w, t.account_id, t.period, t.debit, t.credit, t.n from unnest(?::uuid[], ?::uuid[], ?::date[], ?::bigint[], ?::bigint[], ?::int[]) as t(w, account_id, period, debit, credit, n)
       order by t.w, t.account_id, t.period
       on conflict (workspace_id, account_id, month) do update set
         debit_cents = account_balances.debit_cents + excluded.debit_cents,
         credit_cents = account_balances.credit_cents + excluded.credit_cents,
         line_count = account_balances.line_count + excluded.line_count
       returning 1
     ), days as (
       insert into account_day_balances (workspace_id, account_id, day, debit_cents, credit_cents, line_count)
       select t.w, t.account_id, t.period, t.debit, t.credit, t.n from unnest(?::uuid[], ?::uuid[], ?::date[], ?::bigint[], ?::bigint[], ?::int[]) as t(w, account_id, period, debit, credit, n)
       where (select count(*) from months) > 0
       order by t.w, t.account_id, t.period
       on conflict (workspace_id, account_id, day) do update set
         debit_cents = account_day_balances.debit_cents + excluded.debit_cents,
         credit_cents = account_day_balances.credit_cents + excluded.credit_cents,
         line_count = account_day_balances.line_count + excluded.line_count
       returning workspace_id, account_id, day, line_count, debit_cents - credit_cents as net
     ), lines as (
       insert into journal_lines (workspace_id, entry_id, account_id, direction, amount_cents, entry_date, transaction_id, day_seq, day_net_before)
       select t.w, t.entry_id, t.account_id, t.direction, t.amount_cents, t.d, t.tx, d.line_count + t.seq_offset, d.net + t.net_offset
       from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::bigint[], ?::date[], ?::uuid[], ?::int[], ?::bigint[]) with ordinality as t(w, entry_id, account_id, direction, amount_cents, d, tx, seq_offset, net_offset, n)
       join days d on d.workspace_id = t.w and d.account_id = t.account_id and d.day = t.d
       order by t.n
       returning id, entry_id, account_id, direction, amount_cents
     )
     select (select json_object_agg(id, seq) from entry) as seqs,
            (select json_agg(json_build_object('id', id, 'entry_id', entry_id, 'account_id', account_id, 'direction', direction, 'amount_cents', amount_cents) order by id) from lines) as lines,
            (select json_object_agg(id, name) from billers where id = any(?::uuid[])) as billers`,
      [
        ids,
        entries.map((e) => e.workspaceId),
        entries.map((e) => e.date),
        entries.map((e) => e.sourceType),
        entries.map((e) => e.sourceId ?? null),
        entries.map((e) => e.description),
        entries.map((e) => e.reversesEntryId ?? null),
        entries.map((e) => e.transactionId ?? null),
        entries.map((e) => e.billerId ?? null),
        ...periodArrays(months),
        ...periodArrays(days),
        flat.map((f) => f.e.workspaceId),
        flat.map((f) => f.entryId),
        flat.map((f) => f.l.accountId),
        flat.map((f) => f.l.direction),
        flat.map((f) => f.l.amountCents),
        flat.map((f) => f.e.date),
        flat.map((f) => f.e.transactionId ?? null),
        seqOffsets,
        netOffsets,
        [...new Set(entries.map((e) => e.billerId).filter((b): b is string => !!b))],
      ] as unknown as Knex.RawBinding[],
    )
  ).rows[0] as {
    seqs: Record<string, number | string>;
    billers: Record<string, string> | null;
    lines: { id: number; entry_id: string; account_id: string; direction: 'debit' | 'credit'; amount_cents: number }[];
  };
  notePosted(trx, Object.values(result.seqs));
  const linesOf = new Map<string, typeof result.lines>();
  for (const l of result.lines) {
    const list = linesOf.get(l.entry_id) ?? [];
    list.push(l);
    linesOf.set(l.entry_id, list);
  }

  const payloads = entries.map((e, i) => {
    const id = ids[i] as string;
    return {
      entryId: id,
      seq: BigInt(result.seqs[id] ?? 0),
      date: e.date,
      sourceType: e.sourceType,
      sourceId: e.sourceId ?? '',
      description: e.description,
      reversesEntryId: e.reversesEntryId ?? '',
      transactionId: e.transactionId ?? '',
      billerId: e.billerId ?? '',
      billerName: (e.billerId && result.billers?.[e.billerId]) || '',
      lines: (linesOf.get(id) ?? []).map((l) => ({
        lineId: String(l.id),
        accountId: l.account_id,
        direction: l.direction,
        amountCents: BigInt(l.amount_cents),
      })),
    };
  });
  await writeEvents(trx, SOURCE, postedEvents(entries, payloads));
  return ids;
}

/** Entries per `entries.posted` at most: 500 bank entries are about 150 kB, well below JetStream's 1 MB message limit. */
export const ENTRIES_PER_EVENT = 500;

/**
 * The events of a posting: one entry alone is `entry.posted`; a batch is `entries.posted` per workspace and per
 * `ENTRIES_PER_EVENT` entries, in posting order (issue #22: a page of 500 bank transactions is one event, not 500).
 */
function postedEvents(entries: readonly NewEntry[], payloads: readonly EventPayload<typeof EventType.EntryPosted>[]): OutgoingEvent[] {
  if (entries.length === 1) return [{ type: EventType.EntryPosted, workspaceId: entries[0]!.workspaceId, payload: payloads[0]! }];
  const byWorkspace = new Map<string, EventPayload<typeof EventType.EntryPosted>[]>();
  entries.forEach((e, i) => {
    const list = byWorkspace.get(e.workspaceId) ?? [];
    list.push(payloads[i]!);
    byWorkspace.set(e.workspaceId, list);
  });
  const out: OutgoingEvent[] = [];
  for (const [workspaceId, list] of byWorkspace)
    for (let i = 0; i < list.length; i += ENTRIES_PER_EVENT)
      out.push({ type: EventType.EntriesPosted, workspaceId, payload: { entries: list.slice(i, i + ENTRIES_PER_EVENT) } });
  return out;
}

/** Posts the reversal of an entry, dated like the entry it reverses (a second reversal is refused by the database). */
export async function reverseEntry(trx: Knex.Transaction, entryId: string, description: string): Promise<string> {
  return postEntry(trx, (await reversalsOf(trx, [{ entryId, description }]))[0] as NewEntry);
}

/**
 * The reversals of entries (each dated like the entry it reverses, lines with directions swapped), in
 * the given order, read in one round trip (every re-categorisation and bank change reverses one); post
 * them with `postEntry` or, with other entries in between, `postEntries`.
 */
export async function reversalsOf(trx: Knex.Transaction, reversals: readonly { entryId: string; description: string }[]): Promise<NewEntry[]> {
  if (reversals.length === 0) return [];
  const rows = (
    await trx.raw(
      // Each entry and its lines by key (LATERAL: index probes, whatever the statistics say; a join planned without
      // them scanned every line once per entry, 1.5 s for 1,000 entries of a 10,000-transaction workspace).
      `select e.id, e.workspace_id, e.entry_date, e.source_type, e.source_id, e.transaction_id, e.biller_id, l.account_id, l.direction, l.amount_cents
     from (select distinct x from unnest(?::uuid[]) as x) ids(id)
     cross join lateral (select * from journal_entries where id = ids.id) e
     cross join lateral (select id, account_id, direction, amount_cents from journal_lines where entry_id = e.id) l
     order by l.id`,
      [reversals.map((r) => r.entryId)],
    )
  ).rows as {
    id: string;
    workspace_id: string;
    entry_date: string;
    source_type: SourceType;
    source_id: string | null;
    transaction_id: string | null;
    biller_id: string | null;
    account_id: string;
    direction: 'debit' | 'credit';
    amount_cents: number;
  }[];
  const byEntry = new Map<string, typeof rows>();
  for (const r of rows) {
    const list = byEntry.get(r.id) ?? [];
    list.push(r);
    byEntry.set(r.id, list);
  }
  return reversals.map(({ entryId, description }) => {
    const lines = byEntry.get(entryId);
    const original = lines?.[0];
    if (!lines || !original) throw new Error(`no entry ${entryId} to reverse`);
    return {
      workspaceId: original.workspace_id,
      date: original.entry_date,
      sourceType: original.source_type,
      sourceId: original.source_id,
      description,
      lines: reversalLines(lines.map((r) => ({ accountId: r.account_id, direction: r.direction, amountCents: r.amount_cents }))),
      reversesEntryId: entryId,
      transactionId: original.transaction_id,
      billerId: original.biller_id,
    };
  });
}

/** An entry's date and commit sequence. */
export async function entryDateAndSeq(trx: Knex.Transaction, entryId: string): Promise<{ entry_date: string; seq: number | string }> {
  return (await trx('journal_entries').where({ id: entryId }).first('entry_date', 'seq')) as { entry_date: string; seq: number | string };
}

/** The lines of an entry on one account (direction and cents). */
export async function entryLinesOn(trx: Knex.Transaction, entryId: string, accountId: string): Promise<{ direction: string; amount_cents: number | string }[]> {
  return (await trx('journal_lines').where({ entry_id: entryId, account_id: accountId }).select('direction', 'amount_cents')) as {
    direction: string;
    amount_cents: number | string;
  }[];
}

/** Whether the entry of this id was posted for a source of this type. */
export async function isEntryOfSourceType(trx: Knex.Transaction, entryId: string, sourceType: SourceType): Promise<boolean> {
  return !!(await trx('journal_entries').where({ id: entryId, source_type: sourceType }).first('id'));
}
