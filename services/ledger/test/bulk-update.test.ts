// PATCH /transactions set-based (one statement for the entries, lines, balances and places) gives the
// same books as the same items applied one after another: entries, lines with their places, month and
// day balances, the rows, the audit trail and the entry.posted events.
import { createLogger, newId, withTenant, type Knex } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../src/domain/chart.js';
import { bankTransactionLines } from '../src/domain/posting.js';
import { accountBySystemKey, ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { postEntries } from '../src/store/journal.js';
import { inWorkspace, type Tenant } from '../src/usecases/context.js';
import { bulkUpdateOneByOne, type UpdateItem } from '../src/usecases/bulk-update.js';
import { TransactionUseCases } from '../src/usecases/transactions.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { publishedEntries } from './support.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('ledger_bulk', ledgerMigrations);
});
afterAll(async () => {
  await db?.drop();
});

const N = 360;
const bankIds = [newId(), newId()];
const bankTxnIds = Array.from({ length: N }, () => newId());
/** Deterministic pseudo-random numbers (the same workspace twice). */
const rand = (i: number, k: number) => ((i * 2654435761 + k * 40503) >>> 0) % 1000;
const dateOf = (i: number) => `2026-${String(1 + (rand(i, 1) % 12)).padStart(2, '0')}-${String(1 + (rand(i, 2) % 6)).padStart(2, '0')}`;

/** A workspace with N bank transactions over 12 months on two bank accounts, some finalized. */
async function seed(workspaceId: string): Promise<void> {
  await withTenant(db.appDb, { workspaceId }, async (trx) => {
    await ensureChart(trx, workspaceId);
    const banks: { id: string }[] = [];
    for (const [k, id] of bankIds.entries())
      banks.push(
        await ensureBankLedgerAccount(trx, workspaceId, {
          accountId: id as string,
          name: `Bank ${k}`,
          mask: String(1000 + k),
          type: 'depository',
          subtype: 'checking',
          institutionName: 'Test',
        }),
      );
    const income = (await accountBySystemKey(trx, SYSTEM.uncategorisedIncome)).id;
    const expense = (await accountBySystemKey(trx, SYSTEM.uncategorisedExpense)).id;
    const rows = bankTxnIds.map((bt, i) => {
      const amount = (rand(i, 3) + 1) * (rand(i, 4) % 3 === 0 ? 1 : -1) * 7;
      const bank = banks[i % 2]!;
      return {
        id: newId(),
        workspace_id: workspaceId,
        bank_transaction_id: bt,
        bank_account_id: bankIds[i % 2],
        ledger_account_id: bank.id,
        amount_cents: amount,
        txn_date: dateOf(i),
        name: `Txn ${i}`,
        category_id: amount > 0 ? income : expense,
        is_finalized: i % 17 === 0,
      };
    });
    const ids = await postEntries(
      trx,
      rows.map((r) => ({
        workspaceId,
        date: r.txn_date,
        sourceType: 'WorkspaceTransaction' as const,
        sourceId: r.id,
        description: r.name,
        lines: bankTransactionLines(r.ledger_account_id, r.category_id, r.amount_cents),
        transactionId: r.id,
      })),
    );
    await trx('workspace_transactions').insert(rows.map((r, i) => ({ ...r, current_entry_id: ids[i] })));
    // A vendor of this workspace (vendorId must name one of its own, issue #15), as the parties service registers it.
    await trx('ledger_vendors').insert({ id: newId(), workspace_id: workspaceId });
  });
}

async function itemsFor(workspaceId: string, round: number): Promise<UpdateItem[]> {
  const accounts = (await db.adminDb('accounts').where({ workspace_id: workspaceId }).select('id', 'name')) as { id: string; name: string }[];
  const byName = (n: string) => accounts.find((a) => a.name === n)!.id;
  const cats = ['Office Supplies', 'Software and Subscriptions', 'Travel', 'Meals and Entertainment'].map(byName);
  const txns = (await db.adminDb('workspace_transactions').where({ workspace_id: workspaceId }).select('id', 'bank_transaction_id', 'is_finalized')) as {
    id: string;
    bank_transaction_id: string;
    is_finalized: boolean;
  }[];
  const idOf = new Map(txns.map((t) => [t.bank_transaction_id, t.id]));
  const vendor = ((await db.adminDb('ledger_vendors').where({ workspace_id: workspaceId }).first('id')) as { id: string }).id;
  const finalized = new Set(txns.filter((t) => t.is_finalized).map((t) => t.bank_transaction_id));
  const items: UpdateItem[] = [];
  bankTxnIds.forEach((bt, i) => {
    if ((i + round) % 5 === 4) return; // not every transaction
    const item: UpdateItem = { id: idOf.get(bt) as string };
    if ((i + round) % 7 !== 3) item.categoryId = cats[(rand(i, 5) + round) % cats.length];
    if (finalized.has(bt))
      item.isTxnFinalized = false; // un-finalized to be edited
    else if ((i + round) % 11 === 0) item.isTxnFinalized = true;
    if (i % 13 === round) item.billerName = `Biller ${i % 4}`;
    if (i % 19 === 1) item.vendorId = vendor;
    items.push(item);
  });
  // Shuffled (items are applied in request order, not id order).
  return items
    .map((it, i) => ({ it, k: rand(i, 9 + round) }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.it);
}

/** A workspace's books with ids replaced by what is the same in both workspaces (coa ids, bank transaction ids, posting order). */
async function books(trx: Knex, workspaceId: string) {
  const q = async <T>(sql: string) => (await trx.raw(sql, [workspaceId])).rows as T[];
  const coa = new Map((await q<{ id: string; coa_id: number }>('select id, coa_id from accounts where workspace_id = ?')).map((a) => [a.id, a.coa_id]));
  const txn = new Map(
    (await q<{ id: string; bank_transaction_id: string }>('select id, bank_transaction_id from workspace_transactions where workspace_id = ?')).map((t) => [
      t.id,
      t.bank_transaction_id,
    ]),
  );
  const entries = await q<{
    id: string;
    entry_date: string;
    source_type: string;
    source_id: string | null;
    description: string;
    reverses_entry_id: string | null;
    transaction_id: string | null;
  }>('select * from journal_entries where workspace_id = ? order by seq');
  const entryNo = new Map(entries.map((e, i) => [e.id, i]));
  const m = (id: string | null | undefined) => (id ? (coa.get(id) ?? txn.get(id) ?? entryNo.get(id) ?? `?${id}`) : null);
  const lines = await q<{
    entry_id: string;
    account_id: string;
    direction: string;
    amount_cents: number;
    entry_date: string;
    transaction_id: string | null;
    day_seq: number;
    day_net_before: number;
  }>('select l.* from journal_lines l join journal_entries e on e.id = l.entry_id where l.workspace_id = ? order by e.seq, l.id');
  // Entries as entry.posted carries them, in order; the other events (transaction.categorized for what a user
  // categorised) counted by type, since the two paths interleave them differently with the entries.
  const outbox = await q<{ type: string; envelope: Buffer }>('select type, envelope from outbox where workspace_id = ? order by seq');
  const otherEvents = Object.fromEntries(
    [...new Set(outbox.map((o) => o.type))]
      .filter((t) => t !== 'entry.posted' && t !== 'entries.posted')
      .sort()
      .map((t) => [t, outbox.filter((o) => o.type === t).length]),
  );
  // One entry.posted or an entries.posted per batch: the entries they carry, whichever way they were grouped.
  const events = (await publishedEntries(trx, workspaceId)).map((p) => {
    return {
      type: 'entry.posted',
      entry: m(p.entryId),
      date: p.date,
      sourceType: p.sourceType,
      source: m(p.sourceId),
      description: p.description,
      reverses: m(p.reversesEntryId),
      transaction: m(p.transactionId),
      biller: p.billerName,
      lines: p.lines.map((l) => [m(l.accountId), l.direction, Number(l.amountCents)]),
    };
  });
  return {
    entries: entries.map((e) => [e.entry_date, e.source_type, m(e.source_id), e.description, m(e.reverses_entry_id), m(e.transaction_id)]),
    lines: lines.map((l) => [m(l.entry_id), m(l.account_id), l.direction, l.amount_cents, l.entry_date, m(l.transaction_id), l.day_seq, l.day_net_before]),
    months: (
      await q<{ account_id: string; month: string; debit_cents: number; credit_cents: number; line_count: number }>(
        'select * from account_balances where workspace_id = ?',
      )
    )
      .map((b) => [m(b.account_id), b.month, b.debit_cents, b.credit_cents, b.line_count])
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    days: (
      await q<{ account_id: string; day: string; debit_cents: number; credit_cents: number; line_count: number }>(
        'select * from account_day_balances where workspace_id = ?',
      )
    )
      .map((b) => [m(b.account_id), b.day, b.debit_cents, b.credit_cents, b.line_count])
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    rows: (
      await q<{
        bank_transaction_id: string;
        category_id: string;
        current_entry_id: string | null;
        is_finalized: boolean;
        biller: string | null;
        vendor_id: string | null;
      }>(
        'select t.*, b.name as biller from workspace_transactions t left join billers b on b.id = t.biller_id where t.workspace_id = ? order by t.bank_transaction_id',
      )
    ).map((r) => [r.bank_transaction_id, m(r.category_id), m(r.current_entry_id), r.is_finalized, r.biller, r.vendor_id === null]),
    trail: (
      await q<{ transaction_id: string; event: string; details: Record<string, unknown> }>(
        'select * from transaction_audit_logs where workspace_id = ? order by id',
      )
    ).map((a) => [m(a.transaction_id), a.event, Object.fromEntries(Object.entries(a.details).map(([k, v]) => [k, typeof v === 'string' ? m(v) : v]))]),
    events,
    otherEvents,
  };
}

describe('bulk re-categorise, set-based', () => {
  it(`${N} items across 12 months, twice, give the same books as the items one by one`, async () => {
    const [a, b] = [newId(), newId()];
    await seed(a);
    await seed(b);
    const uc = new TransactionUseCases({ db: db.appDb, logger: createLogger('ledger-test', 'silent') });
    const userId = newId();
    for (const round of [0, 1]) {
      const ta: Tenant = { workspaceId: a, userId, role: 'Owner' };
      const tb: Tenant = { workspaceId: b, userId, role: 'Owner' };
      const itemsA = await itemsFor(a, round);
      expect(itemsA.length).toBeGreaterThan(250);
      const answer = await uc.bulkUpdate(ta, itemsA);
      expect(answer.transactions).toHaveLength(itemsA.length);
      for (const it of await itemsFor(b, round)) await inWorkspace(db.appDb, tb, (trx) => bulkUpdateOneByOne(trx, tb, [it]));
    }
    const [ba, bb] = [await books(db.adminDb, a), await books(db.adminDb, b)];
    expect(ba.entries.length).toBeGreaterThan(N + 400);
    // One entry.posted per entry; besides them only the transaction.categorized of what was categorised by hand.
    expect(ba.events.length).toBe(ba.entries.length);
    expect(Object.keys(ba.otherEvents)).toEqual(['transaction.categorized']);
    expect(ba.trail.length).toBeGreaterThan(500);
    for (const k of Object.keys(ba) as (keyof typeof ba)[]) expect(ba[k], k).toEqual(bb[k]);
    // Day balances equal the lines; every line's place is dense in its account × day.
    const check = (
      await db.adminDb.raw(
        `select count(*)::int as n from (select account_id, entry_date, count(*) as c, max(day_seq) as mx from journal_lines where workspace_id = ? group by 1, 2) l
       join account_day_balances d on d.workspace_id = ? and d.account_id = l.account_id and d.day = l.entry_date where d.line_count <> l.c or l.mx <> l.c`,
        [a, a],
      )
    ).rows[0] as { n: number };
    expect(check.n).toBe(0);
  }, 240_000);
});
