// The bank register (issue #12, Build 5): the ledger of a bank account shows one line per bank
// transaction with its current category; re-categorisations and bank modifications book reversal +
// new entry, whose reversed-and-reversal pairs (same account, same date) are hidden from the register
// and nowhere else. Pages stay exact and balances unchanged.
import { create } from '@bufbuild/protobuf';
import { createLogger, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { postEntry } from '../src/store/journal.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { applyBankTransaction } from '../src/usecases/bank-events.js';
import type { LedgerLineView } from '../src/usecases/general-ledger.js';
import { createUseCases, type LedgerUseCases } from '../src/usecases/index.js';
import { rows, trialBalance } from './support.js';

let db: TestDatabase;
let u: LedgerUseCases;

beforeAll(async () => {
  db = await createTestDatabase('ledger_register', ledgerMigrations);
  u = createUseCases({ db: db.appDb, logger: createLogger('ledger-register', 'silent') });
});
afterAll(async () => db?.drop());

async function books() {
  const ws = newId();
  const tenant = { workspaceId: ws, userId: newId(), role: 'Owner' as const };
  const checking = await withTenant(db.appDb, tenant, async (trx) => {
    await ensureChart(trx, ws);
    return ensureBankLedgerAccount(trx, ws, {
      accountId: newId(),
      name: 'Checking',
      mask: '1234',
      type: 'depository',
      subtype: 'checking',
      institutionName: 'B',
    });
  });
  const accounts = await rows<{ id: string; name: string; system_key: string | null; class_group: string; level: number; bank_account_id: string | null }>(
    db.adminDb,
    'select id, name, system_key, class_group, level, bank_account_id from accounts where workspace_id = ? order by coa_id',
    [ws],
  );
  const expenses = accounts.filter((a) => a.class_group === 'Expenses' && a.level >= 3 && !a.system_key);
  const versions = new Map<string, number>();
  const bank = async (bankId: string, cents: number, date: string, name: string) => {
    const version = (versions.get(bankId) ?? 0) + 1;
    versions.set(bankId, version);
    await withTenant(db.appDb, tenant, (trx) =>
      applyBankTransaction(
        trx,
        ws,
        create(BankTransactionSchema, {
          id: bankId,
          accountId: checking.bank_account_id as string,
          externalId: bankId,
          amountCents: BigInt(cents),
          isoCurrencyCode: 'USD',
          date,
          name,
          version: BigInt(version),
        }),
      ),
    );
    return (await rows<{ id: string }>(db.adminDb, 'select id from workspace_transactions where bank_transaction_id = ?', [bankId]))[0]?.id as string;
  };
  return { ws, tenant, checking: checking.id, accounts, expenses, bank, name: (id: string) => accounts.find((a) => a.id === id)?.name };
}

type Tenant = Awaited<ReturnType<typeof books>>['tenant'];

/** Every page of one account's ledger at `take`, checked to be disjoint and consecutive. */
async function pages(tenant: Tenant, ledgerAccountId: string, take: number, range: { startDate?: string; endDate?: string } = {}) {
  const q = { ledgerAccountId, startDate: range.startDate ?? '', endDate: range.endDate ?? '', take };
  const first = await u.generalLedger.ledgerTransactions(tenant, { ...q, page: 1 });
  const lines: LedgerLineView[] = first.data.filter((l) => !l.isOpeningBalance);
  for (let page = 2; page <= first.meta.pageCount; page++) {
    const next = await u.generalLedger.ledgerTransactions(tenant, { ...q, page });
    expect(next.data.length).toBe(page < first.meta.pageCount ? take : first.meta.itemCount - (page - 1) * take);
    lines.push(...next.data);
  }
  expect((await u.generalLedger.ledgerTransactions(tenant, { ...q, page: Math.max(first.meta.pageCount, 1) + 1 })).data).toEqual([]);
  expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
  return { opening: first.data[0] as LedgerLineView, meta: first.meta, lines };
}

describe('the bank register', () => {
  it('shows one line per bank transaction with its current category after re-categorising, an amount change and a date move; pages of take 1, 2, 3 are exact; categories keep every line', async () => {
    const b = await books();
    const [cat1, cat2, cat3] = [b.expenses[0]!, b.expenses[1]!, b.expenses[2]!];
    const stripe = await b.bank(newId(), 250_000, '2026-03-01', 'Stripe payout');
    const coffeeBank = newId();
    const coffee = await b.bank(coffeeBank, -4_550, '2026-03-03', 'Blue Bottle');
    const lunch = await b.bank(newId(), -999, '2026-03-03', 'Lunch');
    const rentBank = newId();
    const rent = await b.bank(rentBank, -120_000, '2026-03-05', 'Rent');
    const april = await b.bank(newId(), -2_500, '2026-04-02', 'April fee');
    // Re-categorise the coffee three times, interleaved with another transaction of its day.
    await u.transactions.updateCategory(b.tenant, coffee, cat1.id);
    await u.transactions.updateCategory(b.tenant, lunch, cat3.id);
    await u.transactions.updateCategory(b.tenant, coffee, cat2.id);
    await u.transactions.updateCategory(b.tenant, coffee, cat3.id);
    // The bank changes the coffee's amount (reversal + new entry on its date) and moves the rent's date
    // (the reversal is dated like the entry it reverses, 03-05; the new entry 03-09).
    await b.bank(coffeeBank, -5_000, '2026-03-03', 'Blue Bottle');
    await b.bank(rentBank, -120_000, '2026-03-09', 'Rent');
    // A manual entry on the bank account reversed on another date: both stay in the register.
    const equity = b.accounts.find((a) => a.class_group === 'Equity' && a.level >= 3 && !a.system_key)!.id;
    const manual = await withTenant(db.appDb, b.tenant, (trx) =>
      postEntry(trx, {
        workspaceId: b.ws,
        date: '2026-03-10',
        sourceType: 'ManualEntry',
        description: 'Owner deposit',
        lines: [
          { accountId: b.checking, direction: 'debit', amountCents: 10_000 },
          { accountId: equity, direction: 'credit', amountCents: 10_000 },
        ],
      }),
    );
    await withTenant(db.appDb, b.tenant, (trx) =>
      postEntry(trx, {
        workspaceId: b.ws,
        date: '2026-04-05',
        sourceType: 'ManualEntry',
        description: 'Owner deposit reversed',
        reversesEntryId: manual,
        lines: [
          { accountId: b.checking, direction: 'credit', amountCents: 10_000 },
          { accountId: equity, direction: 'debit', amountCents: 10_000 },
        ],
      }),
    );

    // The expected register, built from the transactions' current entries (not from the hidden table).
    const current = async (txn: string) =>
      (
        await rows<{ id: number; category_id: string }>(
          db.adminDb,
          'select l.id, t.category_id from workspace_transactions t join journal_lines l on l.entry_id = t.current_entry_id and l.account_id = t.ledger_account_id where t.id = ?',
          [txn],
        )
      )[0]!;
    const manualLines = await rows<{ id: number; entry_date: string }>(
      db.adminDb,
      'select id, entry_date from journal_lines where account_id = ? and transaction_id is null order by entry_date',
      [b.checking],
    );
    const expected = [
      { txn: stripe, date: '2026-03-01', amount: 250_000 },
      { txn: lunch, date: '2026-03-03', amount: -999 },
      { txn: coffee, date: '2026-03-03', amount: -5_000 },
      { txn: rent, date: '2026-03-09', amount: -120_000 },
      { line: manualLines[0]!.id, date: '2026-03-10', amount: 10_000, counter: b.name(equity) },
      { txn: april, date: '2026-04-02', amount: -2_500 },
      { line: manualLines[1]!.id, date: '2026-04-05', amount: -10_000, counter: b.name(equity) },
    ];
    const want = await Promise.all(
      expected.map(async (e) => {
        const c = e.txn ? await current(e.txn) : undefined;
        return {
          id: String(c?.id ?? e.line),
          date: e.date,
          ledgerAmountCents: e.amount,
          transactionId: e.txn ?? '',
          counterAccount: c ? b.name(c.category_id) : e.counter,
        };
      }),
    );
    // The coffee shows its current category and amount; the rent only at its new date.
    expect(want[2]!.counterAccount).toBe(b.name(cat3.id));
    let running = 0;
    const withRunning = want.map((w) => ({ ...w, ledgerRunningBalanceCents: (running += w.ledgerAmountCents) }));
    // Every line of the bank account is still in the books: the register hides 4 pairs of the coffee, 1 of the lunch and 1 of the rent.
    const all = await rows<{ n: number }>(db.adminDb, 'select count(*)::int as n from journal_lines where account_id = ?', [b.checking]);
    expect(all[0]!.n).toBe(7 + 2 * 6);

    for (const take of [1, 2, 3, 100]) {
      const got = await pages(b.tenant, b.checking, take);
      expect(got.opening).toMatchObject({ isOpeningBalance: true, ledgerRunningBalanceCents: 0 });
      expect(got.meta).toMatchObject({ itemCount: 7, pageCount: Math.ceil(7 / take) });
      expect(
        got.lines.map((l) => ({
          id: l.id,
          date: l.date,
          ledgerAmountCents: l.ledgerAmountCents,
          transactionId: l.transactionId,
          counterAccount: l.counterAccount,
          ledgerRunningBalanceCents: l.ledgerRunningBalanceCents,
        })),
      ).toEqual(withRunning);
    }
    // Ranges whose seek starts inside a day with hidden lines, and partial months at either end.
    const mid = await pages(b.tenant, b.checking, 1, { startDate: '2026-03-03', endDate: '2026-04-03' });
    expect(mid.opening.ledgerRunningBalanceCents).toBe(250_000);
    expect(mid.lines.map((l) => l.id)).toEqual(want.slice(1, 6).map((w) => w.id));
    expect(mid.lines.map((l) => l.ledgerRunningBalanceCents)).toEqual(withRunning.slice(1, 6).map((w) => w.ledgerRunningBalanceCents));
    const day = await pages(b.tenant, b.checking, 1, { startDate: '2026-03-03', endDate: '2026-03-03' });
    expect(day.lines.map((l) => [l.id, l.ledgerRunningBalanceCents])).toEqual([
      [want[1]!.id, 250_000 - 999],
      [want[2]!.id, 250_000 - 999 - 5_000],
    ]);
    // The days the rent moved from: nothing to show.
    expect((await pages(b.tenant, b.checking, 2, { startDate: '2026-03-05', endDate: '2026-03-05' })).meta.itemCount).toBe(0);

    // Each line links to its bank transaction, whose category is the current one.
    const withBank = await u.generalLedger.ledgerTransactions(b.tenant, {
      ledgerAccountId: b.checking,
      startDate: '',
      endDate: '',
      take: 100,
      fetchBankAccountTransaction: true,
    });
    for (const l of withBank.data.filter((x) => x.transactionId))
      expect(l.bankTransaction).toMatchObject({ id: l.transactionId, categoryId: (await current(l.transactionId)).category_id });

    // The general ledger's row of the bank account counts every posted line (reporting reconciles its read
    // model against it): the hidden pairs add the same amount to its debits and credits, so its balances are
    // the register's and its debits/credits exceed the register's lines by exactly the hidden amounts.
    const hiddenCents = 4_550 + 4_550 + 4_550 + 4_550 + 999 + 120_000;
    const row = (await u.generalLedger.generalLedger(b.tenant, '', '')).find((r) => r.account.id === b.checking)!;
    expect(row).toMatchObject({
      debitCents: 250_000 + 10_000 + hiddenCents,
      creditCents: 999 + 5_000 + 120_000 + 2_500 + 10_000 + hiddenCents,
      closingBalanceCents: running,
    });
    const marchRow = (await u.generalLedger.generalLedger(b.tenant, '2026-03-03', '2026-03-31')).find((r) => r.account.id === b.checking)!;
    expect(marchRow).toMatchObject({ openingBalanceCents: 250_000, closingBalanceCents: withRunning[4]!.ledgerRunningBalanceCents });
    expect(marchRow.debitCents - marchRow.creditCents).toBe(10_000 - 999 - 5_000 - 120_000);
    // Income and expense accounts keep every line, reversals included, in (date, place) order.
    for (const category of [cat1.id, cat2.id, cat3.id, b.accounts.find((a) => a.system_key === 'uncategorised_expense')!.id]) {
      const oracle = await rows<{ id: number }>(db.adminDb, 'select id from journal_lines where account_id = ? order by entry_date, day_seq', [category]);
      const got = await pages(b.tenant, category, 2);
      expect(got.lines.map((l) => l.id)).toEqual(oracle.map((o) => String(o.id)));
    }
    const cat1Lines = (await pages(b.tenant, cat1.id, 5)).lines;
    expect(cat1Lines.map((l) => l.ledgerAmountCents)).toEqual([4_550, -4_550]);
    expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
    // The re-bookings stay in the transaction's history.
    expect(
      (await rows<{ event: string }>(db.adminDb, 'select event from transaction_audit_logs where transaction_id = ? order by created_at, id', [coffee]))
        .map((r) => r.event)
        .filter((e) => e !== 'imported'),
    ).toEqual(['categorised', 'categorised', 'categorised', 'bank_modified']);
  });

  it('hides nothing on another workspace, and nothing on a category: hidden rows and counts live with the bank account', async () => {
    const b = await books();
    const txn = await b.bank(newId(), -700, '2026-05-05', 'Tea');
    await u.transactions.updateCategory(b.tenant, txn, b.expenses[0]!.id);
    const hidden = await rows<{ account_id: string; workspace_id: string }>(
      db.adminDb,
      'select account_id, workspace_id from register_hidden_lines where workspace_id = ?',
      [b.ws],
    );
    expect(hidden).toHaveLength(2);
    expect(hidden.every((h) => h.account_id === b.checking)).toBe(true);
    expect(await rows(db.adminDb, 'select day, line_count, hidden_count, hidden_cents from account_day_balances where account_id = ?', [b.checking])).toEqual([
      { day: '2026-05-05', line_count: 3, hidden_count: 2, hidden_cents: 700 },
    ]);
    expect(await rows(db.adminDb, 'select line_count, hidden_count, hidden_cents from account_balances where account_id = ?', [b.checking])).toEqual([
      { line_count: 3, hidden_count: 2, hidden_cents: 700 },
    ]);
    // Row-level security: another workspace sees none of them.
    const seen = await withTenant(db.appDb, { workspaceId: newId() }, (trx) => trx('register_hidden_lines').count<{ count: string }[]>('* as count'));
    expect(Number(seen[0]!.count)).toBe(0);
  });
});
