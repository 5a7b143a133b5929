import { create, fromBinary } from '@bufbuild/protobuf';
import { AppError, ErrorKind, newId, writeEvents, type Knex, type ReceivedEvent } from '@ledgerline/platform';
import { BankTransactionSchema, type BankTransaction } from '@ledgerline/proto/events/v1/banking_pb';
import { EntryLineSchema, EntryPostedSchema } from '@ledgerline/proto/events/v1/ledger_pb';
import { SYSTEM } from '../domain/chart.js';
import { monthStart } from '../domain/dates.js';
import { MSG } from '../domain/messages.js';
import { bankTransactionLines, type PostingLine } from '../domain/posting.js';
import { SOURCE } from '../store/journal.js';
import { billerFor } from './transactions.js';

interface NewTxn {
  t: BankTransaction;
  id: string;
  entryId: string | null;
  amountCents: number;
  ledgerAccountId: string;
  billerId: string | null;
  billerName: string;
  categoryId: string;
  lines: PostingLine[];
}

interface Totals {
  debit: number;
  credit: number;
  count: number;
}

function add(map: Map<string, Totals>, key: string, l: PostingLine): Totals {
  const b = map.get(key) ?? { debit: 0, credit: 0, count: 0 };
  if (l.direction === 'debit') b.debit += l.amountCents;
  else b.credit += l.amountCents;
  b.count += 1;
  map.set(key, b);
  return b;
}

/**
 * Books new bank transactions of one workspace set-based, in the caller's transaction: the accounts and
 * billers in two statements, then entries, month and day balances (one upsert per account × month and per
 * account × day, locked in that order like `postEntry`), lines placed in the batch's order (the bank's),
 * the transaction rows and their 'imported' trail in one statement, and every entry.posted in one
 * outbox insert. The same rows, balances and places as booking them one by one with `applyBankTransaction`.
 */
export async function bookNewBankTransactions(trx: Knex.Transaction, workspaceId: string, txns: readonly BankTransaction[]): Promise<void> {
  if (txns.length === 0) return;
  const bankIds = [...new Set(txns.map((t) => t.accountId))];
  const accounts = (await trx.raw(
    'select id, bank_account_id, system_key from accounts where bank_account_id = any(?::uuid[]) or system_key = any(?::text[])',
    [bankIds, [SYSTEM.uncategorisedIncome, SYSTEM.uncategorisedExpense]],
  )).rows as { id: string; bank_account_id: string | null; system_key: string | null }[];
  const ledgerAccount = new Map(accounts.filter((a) => a.bank_account_id).map((a) => [a.bank_account_id!, a.id]));
  // bank_account.linked has its own consumer and may arrive a moment later: fail, and the batch is retried event by event.
  if (bankIds.some((b) => !ledgerAccount.has(b))) throw new AppError(ErrorKind.Unavailable, MSG.bankAccountNotLinked);
  const income = accounts.find((a) => a.system_key === SYSTEM.uncategorisedIncome)?.id;
  const expense = accounts.find((a) => a.system_key === SYSTEM.uncategorisedExpense)?.id;
  if (!income || !expense) throw new Error('the chart has no Uncategorised Income/Expense account');

  // Billers: one per merchant name (case-insensitive), created if new, in one statement.
  const names = [...new Set(txns.map((t) => (t.merchantName || t.name).trim().slice(0, 200)).filter((n) => n))];
  const billers = new Map<string, { id: string; name: string; category_id: string | null }>();
  if (names.length) {
    const rows = (await trx.raw(
      `with i as (select * from unnest(?::uuid[], ?::text[]) with ordinality as i(id, name, n)),
       ins as (
         insert into billers (id, workspace_id, name)
         select distinct on (lower(i.name)) i.id, ?::uuid, i.name from i order by lower(i.name), i.n
         on conflict (workspace_id, lower(name)) do nothing returning id, name, category_id
       )
       select i.name as input, coalesce(x.id, b.id) as id, coalesce(x.name, b.name) as name, coalesce(x.category_id, b.category_id) as category_id
       from i left join ins x on lower(x.name) = lower(i.name) left join billers b on lower(b.name) = lower(i.name)`,
      [names.map(() => newId()), names, workspaceId],
    )).rows as { input: string; id: string | null; name: string; category_id: string | null }[];
    for (const r of rows) if (r.id) billers.set(r.input, { id: r.id, name: r.name, category_id: r.category_id });
    // Inserted by another transaction after this statement's snapshot: read one by one (rare).
    for (const n of names) {
      if (billers.has(n)) continue;
      const b = await billerFor(trx, workspaceId, n);
      if (b) billers.set(n, { id: b.id, name: b.name, category_id: b.category_id });
    }
  }

  const booked: NewTxn[] = txns.map((t) => {
    const amountCents = Number(t.amountCents);
    const biller = billers.get((t.merchantName || t.name).trim().slice(0, 200)) ?? null;
    const categoryId = biller?.category_id ?? (amountCents > 0 ? income : expense);
    const ledgerAccountId = ledgerAccount.get(t.accountId)!;
    return { t, id: newId(), entryId: amountCents === 0 ? null : newId(), amountCents, ledgerAccountId, billerId: biller?.id ?? null, billerName: biller?.name ?? '', categoryId, lines: bankTransactionLines(ledgerAccountId, categoryId, amountCents) };
  });

  // Places: a line's day_seq = the day row's new count − the batch's lines of that account × day + its rank
  // among them (batch order); day_net_before likewise from the day row's new net.
  const days = new Map<string, Totals>();
  const months = new Map<string, Totals>();
  const lines: { entryId: string; txnId: string; date: string; line: PostingLine; k: number; netBefore: number }[] = [];
  for (const b of booked) {
    for (const line of b.lines) {
      const dayKey = `${line.accountId}|${b.t.date}`;
      const before = days.get(dayKey) ?? { debit: 0, credit: 0, count: 0 };
      lines.push({ entryId: b.entryId!, txnId: b.id, date: b.t.date, line, k: before.count + 1, netBefore: before.debit - before.credit });
      add(days, dayKey, line);
      add(months, `${line.accountId}|${monthStart(b.t.date)}`, line);
    }
  }
  const sortedKeys = (m: Map<string, Totals>) => [...m.keys()].sort();
  const monthKeys = sortedKeys(months);
  const dayKeys = sortedKeys(days);
  const arrays = (m: Map<string, Totals>, keys: string[]) => [keys.map((k) => k.split('|')[0]!), keys.map((k) => k.split('|')[1]!), keys.map((k) => m.get(k)!.debit), keys.map((k) => m.get(k)!.credit), keys.map((k) => m.get(k)!.count)];
  const dayTotal = (l: (typeof lines)[number]) => days.get(`${l.line.accountId}|${l.date}`)!;
  const withEntry = booked.filter((b) => b.entryId);

  const result = (await trx.raw(
    `with entries as (
       insert into journal_entries (id, workspace_id, entry_date, source_type, source_id, description, transaction_id, biller_id)
       select x.id, ?, x.entry_date, 'WorkspaceTransaction', x.txn_id, x.description, x.txn_id, x.biller_id
       from unnest(?::uuid[], ?::date[], ?::uuid[], ?::text[], ?::uuid[]) with ordinality as x(id, entry_date, txn_id, description, biller_id, n)
       order by x.n
       returning id, seq
     ), months as (
       insert into account_balances (workspace_id, account_id, month, debit_cents, credit_cents, line_count)
       select ?, t.account_id, t.month, t.debit, t.credit, t.n from unnest(?::uuid[], ?::date[], ?::bigint[], ?::bigint[], ?::int[]) as t(account_id, month, debit, credit, n)
       order by t.account_id, t.month
       on conflict (workspace_id, account_id, month) do update set
         debit_cents = account_balances.debit_cents + excluded.debit_cents,
         credit_cents = account_balances.credit_cents + excluded.credit_cents,
         line_count = account_balances.line_count + excluded.line_count
       returning 1
     ), days as (
       insert into account_day_balances (workspace_id, account_id, day, debit_cents, credit_cents, line_count)
       select ?, t.account_id, t.day, t.debit, t.credit, t.n from unnest(?::uuid[], ?::date[], ?::bigint[], ?::bigint[], ?::int[]) as t(account_id, day, debit, credit, n)
       where (select count(*) from months) > 0
       order by t.account_id, t.day
       on conflict (workspace_id, account_id, day) do update set
         debit_cents = account_day_balances.debit_cents + excluded.debit_cents,
         credit_cents = account_day_balances.credit_cents + excluded.credit_cents,
         line_count = account_day_balances.line_count + excluded.line_count
       returning account_id, day, line_count, debit_cents - credit_cents as net
     ), lines as (
       insert into journal_lines (workspace_id, entry_id, account_id, direction, amount_cents, entry_date, transaction_id, day_seq, day_net_before)
       select ?, t.entry_id, t.account_id, t.direction, t.amount_cents, t.day, t.txn_id, d.line_count + t.seq_offset, d.net + t.net_offset
       from unnest(?::uuid[], ?::uuid[], ?::text[], ?::bigint[], ?::date[], ?::uuid[], ?::int[], ?::bigint[]) with ordinality
         as t(entry_id, account_id, direction, amount_cents, day, txn_id, seq_offset, net_offset, n)
       join days d on d.account_id = t.account_id and d.day = t.day
       order by t.n
       returning id, entry_id, account_id, direction, amount_cents
     ), txns as (
       insert into workspace_transactions (id, workspace_id, bank_transaction_id, bank_account_id, ledger_account_id, external_id, amount_cents, iso_currency_code,
         txn_date, name, memo, pending, biller_id, category_id, version, current_entry_id)
       select r.id, ?, r.bank_transaction_id, r.bank_account_id, r.ledger_account_id, r.external_id, r.amount_cents, r.iso, r.txn_date, r.name, r.memo, r.pending,
         r.biller_id, r.category_id, r.version, r.entry_id
       from unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::bigint[], ?::text[], ?::date[], ?::text[], ?::text[], ?::boolean[], ?::uuid[], ?::uuid[], ?::bigint[], ?::uuid[])
         with ordinality as r(id, bank_transaction_id, bank_account_id, ledger_account_id, external_id, amount_cents, iso, txn_date, name, memo, pending, biller_id, category_id, version, entry_id, n)
       order by r.n
       returning id
     ), trail as (
       insert into transaction_audit_logs (id, workspace_id, transaction_id, user_id, event, details)
       select a.id, ?, a.txn_id, null, 'imported', a.details::jsonb from unnest(?::uuid[], ?::uuid[], ?::text[]) with ordinality as a(id, txn_id, details, n)
       where (select count(*) from txns) > 0
       order by a.n
       returning 1
     )
     select (select json_agg(json_build_object('id', id, 'seq', seq)) from entries) as entries,
            (select json_agg(json_build_object('id', id, 'entry_id', entry_id, 'account_id', account_id, 'direction', direction, 'amount_cents', amount_cents) order by id) from lines) as lines,
            (select count(*) from txns) as txns, (select count(*) from trail) as trail`,
    [
      workspaceId, withEntry.map((b) => b.entryId), withEntry.map((b) => b.t.date), withEntry.map((b) => b.id), withEntry.map((b) => b.t.name), withEntry.map((b) => b.billerId),
      workspaceId, ...arrays(months, monthKeys),
      workspaceId, ...arrays(days, dayKeys),
      workspaceId, lines.map((l) => l.entryId), lines.map((l) => l.line.accountId), lines.map((l) => l.line.direction), lines.map((l) => l.line.amountCents), lines.map((l) => l.date), lines.map((l) => l.txnId),
      lines.map((l) => l.k - dayTotal(l).count), lines.map((l) => l.netBefore - (dayTotal(l).debit - dayTotal(l).credit)),
      workspaceId, booked.map((b) => b.id), booked.map((b) => b.t.id), booked.map((b) => b.t.accountId), booked.map((b) => b.ledgerAccountId), booked.map((b) => b.t.externalId),
      booked.map((b) => b.amountCents), booked.map((b) => b.t.isoCurrencyCode || 'USD'), booked.map((b) => b.t.date), booked.map((b) => b.t.name), booked.map((b) => (b.t.merchantName ? b.t.name : '')),
      booked.map((b) => b.t.pending), booked.map((b) => b.billerId), booked.map((b) => b.categoryId), booked.map((b) => Number(b.t.version)), booked.map((b) => b.entryId),
      workspaceId, booked.map(() => newId()), booked.map((b) => b.id), booked.map((b) => JSON.stringify({ amountCents: b.amountCents, date: b.t.date, categoryId: b.categoryId })),
    ] as unknown as readonly Knex.RawBinding[],
  )).rows[0] as { entries: { id: string; seq: number }[] | null; lines: { id: number; entry_id: string; account_id: string; direction: 'debit' | 'credit'; amount_cents: number }[] | null; txns: string };
  if (Number(result.txns) !== booked.length) throw new Error(`booked ${result.txns} of ${booked.length} bank transactions`);

  const seqOf = new Map((result.entries ?? []).map((e) => [e.id, e.seq]));
  const linesOf = new Map<string, NonNullable<typeof result.lines>>();
  for (const l of result.lines ?? []) linesOf.set(l.entry_id, [...(linesOf.get(l.entry_id) ?? []), l]);
  await writeEvents(trx, SOURCE, withEntry.map((b) => ({
    type: 'entry.posted',
    workspaceId,
    schema: EntryPostedSchema,
    payload: create(EntryPostedSchema, {
      entryId: b.entryId!,
      seq: BigInt(seqOf.get(b.entryId!) ?? 0),
      date: b.t.date,
      sourceType: 'WorkspaceTransaction',
      sourceId: b.id,
      description: b.t.name,
      reversesEntryId: '',
      transactionId: b.id,
      billerId: b.billerId ?? '',
      billerName: b.billerName,
      lines: (linesOf.get(b.entryId!) ?? []).map((l) => create(EntryLineSchema, { lineId: String(l.id), accountId: l.account_id, direction: l.direction, amountCents: BigInt(l.amount_cents) })),
    }),
  })));
}

/**
 * A batch of `bank_transaction.added` of one workspace (inbox rows already written by the consumer): new
 * bank transactions are booked set-based; those the ledger already holds (a redelivered or re-sent add, a
 * tombstone) and the second add of one id in the batch go the per-event way after them, in batch order.
 */
export async function handleAddedBatch(trx: Knex.Transaction, events: readonly ReceivedEvent[], check: (t: BankTransaction) => void, applyOne: (trx: Knex.Transaction, workspaceId: string, t: BankTransaction) => Promise<void>): Promise<void> {
  const workspaceId = events[0]!.workspaceId;
  const txns = events.map((e) => fromBinary(BankTransactionSchema, e.payload));
  for (const t of txns) check(t);
  const known = new Set(((await trx.raw('select bank_transaction_id from workspace_transactions where bank_transaction_id = any(?::uuid[])', [[...new Set(txns.map((t) => t.id))]])).rows as { bank_transaction_id: string }[]).map((r) => r.bank_transaction_id));
  const fresh: BankTransaction[] = [];
  const later: BankTransaction[] = [];
  for (const t of txns) {
    if (known.has(t.id)) later.push(t);
    else {
      known.add(t.id);
      fresh.push(t);
    }
  }
  await bookNewBankTransactions(trx, workspaceId, fresh);
  for (const t of later) await applyOne(trx, workspaceId, t);
}
