// Issue #22 as properties: bank transactions arriving as pages (`bank_transactions.page`, one database
// transaction each) with duplicates inside a page, duplicates across pages (a page re-sent, a change repeated
// later) and pages mixing adds, modifications and removals of the same transaction, book exactly what the same
// changes book one event at a time: the same rows, one per bank transaction, the same balances; every entry
// balances, the trial balance is zero, each bank account's ledger balance equals the sum of its live
// transactions (bank = books), and transfers between the accounts pair alike.
import { create } from '@bufbuild/protobuf';
import { newId, withTenant, type Knex } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankTransactionSchema, BankTransactionsPageSchema, type BankTransactionChange } from '@ledgerline/proto/events/v1/banking_pb';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { applyBankTransaction, checkBankTransaction, removeBankTransaction } from '../src/usecases/bank-events.js';
import { handleTransactionsPage } from '../src/usecases/bank-batch.js';
import { rows, trialBalance } from './support.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('ledger_pages', ledgerMigrations);
});
afterAll(async () => db?.drop());

/** A change of one of a few transactions (so the same one comes back), at some version. */
type Change = { kind: 'added' | 'modified' | 'removed'; txn: number; bank: number; cents: number; day: number; version: number };
const change: fc.Arbitrary<Change> = fc.record({
  kind: fc.constantFrom('added' as const, 'added' as const, 'modified' as const, 'removed' as const),
  txn: fc.integer({ min: 0, max: 7 }),
  bank: fc.integer({ min: 0, max: 1 }),
  // Some amounts opposite to others on the other account within days: transfers to pair.
  cents: fc.constantFrom(-12_500, 12_500, -4_200, 990, 30_000, -30_000, 0),
  day: fc.integer({ min: 0, max: 6 }),
  version: fc.integer({ min: 1, max: 4 }),
});
/** Pages of changes; a page may repeat a change, and a page may be delivered again later. */
const pages = fc
  .array(fc.array(change, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 })
  .chain((ps) => fc.tuple(fc.constant(ps), fc.array(fc.integer({ min: 0, max: ps.length - 1 }), { maxLength: 2 })))
  .map(([ps, again]) => [...ps, ...again.map((i) => ps[i]!)]);

async function workspace(): Promise<{ ws: string; tenant: { workspaceId: string }; banks: string[] }> {
  const ws = newId();
  const tenant = { workspaceId: ws };
  const banks = await withTenant(db.appDb, tenant, async (trx) => {
    await ensureChart(trx, ws);
    const out: string[] = [];
    for (const [i, subtype] of ['checking', 'savings'].entries()) {
      const accountId = newId();
      await ensureBankLedgerAccount(trx, ws, { accountId, name: subtype, mask: String(i), type: 'depository', subtype, institutionName: 'B' });
      out.push(accountId);
    }
    return out;
  });
  return { ws, tenant, banks };
}

function pageChanges(page: readonly Change[], ids: readonly string[], banks: readonly string[]): BankTransactionChange[] {
  return page.map((c) => {
    const id = ids[c.txn]!;
    // A transaction stays in its account (the bank's id is per account); its amount and date may change.
    const accountId = banks[c.txn % 2]!;
    if (c.kind === 'removed')
      return { change: { case: 'removed', value: { id, accountId, externalId: id, version: BigInt(c.version) } } } as BankTransactionChange;
    const value = create(BankTransactionSchema, {
      id,
      accountId,
      externalId: id,
      amountCents: BigInt(c.cents),
      isoCurrencyCode: 'USD',
      date: `2025-03-${String(10 + c.day).padStart(2, '0')}`,
      name: c.cents > 0 ? 'Transfer from savings' : 'Coffee',
      merchantName: '',
      version: BigInt(c.version),
    });
    return { change: { case: c.kind, value } } as BankTransactionChange;
  }) as BankTransactionChange[];
}

/** The books of a workspace with the ids of transactions mapped to their place in the pool (the two workspaces compare). */
async function books(knex: Knex, ws: string, ids: readonly string[], banks: readonly string[]) {
  const place = (id: string | null) => (id === null ? null : ids.indexOf(id));
  const txns = await rows<{
    bank_transaction_id: string;
    bank_account_id: string;
    amount_cents: number;
    txn_date: string;
    version: number;
    is_removed: boolean;
  }>(knex, 'select bank_transaction_id, bank_account_id, amount_cents, txn_date, version, is_removed from workspace_transactions where workspace_id = ?', [ws]);
  const perAccount = await rows<{ bank_account_id: string; name: string; net: number }>(
    knex,
    `select a.bank_account_id, a.name, coalesce(sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end), 0)::bigint as net
     from accounts a left join journal_lines l on l.account_id = a.id where a.workspace_id = ? group by a.id, a.bank_account_id, a.name`,
    [ws],
  );
  const pairs = await rows<{ a: string; b: string }>(
    knex,
    `select x.bank_transaction_id as a, y.bank_transaction_id as b from workspace_transactions x join workspace_transactions y on y.id = x.transfer_pair_id where x.workspace_id = ?`,
    [ws],
  );
  return {
    txns: txns
      .map((t) => ({
        txn: place(t.bank_transaction_id),
        bank: banks.indexOf(t.bank_account_id),
        cents: Number(t.amount_cents),
        date: t.txn_date,
        version: t.version,
        removed: t.is_removed,
      }))
      .sort((a, b) => (a.txn ?? 0) - (b.txn ?? 0)),
    balances: perAccount
      .map((a) => ({ account: a.bank_account_id ? `bank ${banks.indexOf(a.bank_account_id)}` : a.name, net: Number(a.net) }))
      .sort((a, b) => a.account.localeCompare(b.account)),
    pairs: pairs.map((p) => [place(p.a), place(p.b)]).sort(),
  };
}

it('pages with duplicates inside and across them, mixing adds, modifications and removals, book what single events book', async () => {
  await fc.assert(
    fc.asyncProperty(pages, async (ps) => {
      const ids = Array.from({ length: 8 }, () => newId());
      const paged = await workspace();
      const single = await workspace();
      for (const page of ps) {
        const payload = create(BankTransactionsPageSchema, { changes: pageChanges(page, ids, paged.banks) });
        await withTenant(db.appDb, paged.tenant, (trx) =>
          handleTransactionsPage(trx, paged.ws, payload, { check: checkBankTransaction, applyOne: applyBankTransaction, removeOne: removeBankTransaction }),
        );
        // The same changes one event (one transaction) each, in order.
        for (const { change: c } of pageChanges(page, ids, single.banks)) {
          await withTenant(db.appDb, single.tenant, (trx) =>
            c.case === 'removed' ? removeBankTransaction(trx, single.ws, c.value) : applyBankTransaction(trx, single.ws, c.value!),
          );
        }
      }
      const a = await books(db.adminDb, paged.ws, ids, paged.banks);
      const b = await books(db.adminDb, single.ws, ids, single.banks);
      expect(a).toEqual(b);
      // One row per bank transaction, whatever was repeated.
      expect(new Set(a.txns.map((t) => t.txn)).size).toBe(a.txns.length);
      expect(await trialBalance(db.adminDb, paged.ws)).toBe(0);
      // Every entry balances (the database refuses otherwise; checked here from the lines too).
      const unbalanced = await rows(
        db.adminDb,
        `select entry_id from journal_lines where workspace_id = ? group by entry_id
         having sum(case when direction = 'debit' then amount_cents else -amount_cents end) <> 0 or count(*) < 2`,
        [paged.ws],
      );
      expect(unbalanced).toEqual([]);
      // Bank = books: each bank account's ledger balance is the sum of its live transactions.
      for (const [bank] of paged.banks.entries()) {
        const live = a.txns.filter((t) => t.bank === bank && !t.removed).reduce((s, t) => s + t.cents, 0);
        expect(a.balances.find((x) => x.account === `bank ${bank}`)?.net ?? 0).toBe(live);
      }
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 25) },
  );
}, 300_000);
