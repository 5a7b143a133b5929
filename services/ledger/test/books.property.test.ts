// RELIABILITY 1 and 2 as properties: after any random sequence of bank imports, modifications and
// removals, categorisations, bulk updates and finalisations, every entry balances, the trial balance is
// zero, each bank account's ledger balance equals the sum of its bank transactions, the monthly balances
// equal the lines, and no posted line was ever changed.
import { create } from '@bufbuild/protobuf';
import { AppError, createLogger, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { applyBankTransaction, removeBankTransaction } from '../src/usecases/bank-events.js';
import { createUseCases, type LedgerUseCases } from '../src/usecases/index.js';
import { rows } from './support.js';

let db: TestDatabase;
let u: LedgerUseCases;

beforeAll(async () => {
  db = await createTestDatabase('ledger_props', ledgerMigrations);
  u = createUseCases({ db: db.appDb, logger: createLogger('ledger-props', 'silent') });
});
afterAll(async () => db?.drop());

type Op =
  | { kind: 'add'; bank: number; cents: number; day: number }
  | { kind: 'modify'; txn: number; cents: number; day: number; stale: boolean }
  | { kind: 'remove'; txn: number }
  | { kind: 'categorise'; txn: number; category: number }
  | { kind: 'bulk'; txns: number[]; category: number; finalize: boolean | undefined }
  | { kind: 'finalize'; txn: number; finalized: boolean }
  | { kind: 'split'; txn: number; category: number; shares: number[]; update: boolean };

const cents = fc.integer({ min: -500_000, max: 500_000 });
const day = fc.integer({ min: 0, max: 400 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), bank: fc.integer({ min: 0, max: 1 }), cents, day }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('modify' as const), txn: fc.nat(), cents, day, stale: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), txn: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('categorise' as const), txn: fc.nat(), category: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('bulk' as const), txns: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), category: fc.nat(), finalize: fc.option(fc.boolean(), { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('finalize' as const), txn: fc.nat(), finalized: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('split' as const), txn: fc.nat(), category: fc.nat(), shares: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 3 }), update: fc.boolean() }) },
);

const dateOf = (d: number) => new Date(Date.UTC(2025, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);

/** Refusals the rules allow (finalized, Transfer, removed...) leave the books as they were. */
async function allowRefusal(fn: () => Promise<unknown>, kinds = ['FAILED_PRECONDITION', 'NOT_FOUND']): Promise<void> {
  try {
    await fn();
  } catch (err) {
    if (!(err instanceof AppError) || !kinds.includes(err.kind)) throw err;
  }
}

it('keeps the books balanced and immutable under random sequences of operations', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async (ops) => {
      const ws = newId();
      const tenant = { workspaceId: ws, userId: newId(), role: 'Owner' as const };
      const banks = await withTenant(db.appDb, tenant, async (trx) => {
        await ensureChart(trx, ws);
        return [
          await ensureBankLedgerAccount(trx, ws, { accountId: newId(), name: 'Checking', mask: '1', type: 'depository', subtype: 'checking', institutionName: 'B' }),
          await ensureBankLedgerAccount(trx, ws, { accountId: newId(), name: 'Card', mask: '2', type: 'credit', subtype: 'credit card', institutionName: 'B' }),
        ];
      });
      const categories = (await u.categories.list(tenant)).filter((c) => !c.account.bank_account_id).map((c) => c.account.id);
      // The bank's truth: each bank transaction's latest amount (or removed), per account.
      const bankTxns: { id: string; bank: number; cents: number; version: number; removed: boolean }[] = [];
      const seenLines = new Map<number, string>();
      const ledgerIdOf = async (i: number) => {
        const t = bankTxns[i % bankTxns.length];
        if (!t) return undefined;
        const [r] = await rows<{ id: string }>(db.adminDb, 'select id from workspace_transactions where bank_transaction_id = ?', [t.id]);
        return r?.id;
      };
      const bankEvent = (t: { id: string; bank: number; cents: number; version: number }, date: string) => create(BankTransactionSchema, {
        id: t.id, accountId: banks[t.bank]?.bank_account_id as string, externalId: t.id, amountCents: BigInt(t.cents), isoCurrencyCode: 'USD', date, name: `T ${t.id.slice(-4)}`, version: BigInt(t.version),
      });

      for (const o of ops) {
        switch (o.kind) {
          case 'add': {
            const t = { id: newId(), bank: o.bank, cents: o.cents, version: 1, removed: false };
            bankTxns.push(t);
            await withTenant(db.appDb, tenant, (trx) => applyBankTransaction(trx, ws, bankEvent(t, dateOf(o.day))));
            break;
          }
          case 'modify': {
            const t = bankTxns[o.txn % Math.max(1, bankTxns.length)];
            if (!t) break;
            // A stale modification (older version) must be ignored.
            const version = o.stale ? t.version - 1 : t.version + 1;
            await withTenant(db.appDb, tenant, (trx) => applyBankTransaction(trx, ws, bankEvent({ ...t, cents: o.cents, version }, dateOf(o.day))));
            if (!o.stale && !t.removed) Object.assign(t, { cents: o.cents, version });
            break;
          }
          case 'remove': {
            const t = bankTxns[o.txn % Math.max(1, bankTxns.length)];
            if (!t) break;
            t.version += 1;
            await withTenant(db.appDb, tenant, (trx) => removeBankTransaction(trx, ws, { id: t.id, accountId: banks[t.bank]?.bank_account_id as string, externalId: t.id, version: BigInt(t.version) }));
            t.removed = true;
            break;
          }
          case 'categorise': {
            const id = await ledgerIdOf(o.txn);
            if (id) await allowRefusal(() => u.transactions.updateCategory(tenant, id, categories[o.category % categories.length]));
            break;
          }
          case 'bulk': {
            const ids = [...new Set((await Promise.all(o.txns.map(ledgerIdOf))).filter((x): x is string => !!x))];
            if (ids.length) await allowRefusal(() => u.transactions.bulkUpdate(tenant, ids.map((id) => ({ id, categoryId: categories[o.category % categories.length], isTxnFinalized: o.finalize }))));
            break;
          }
          case 'finalize': {
            const id = await ledgerIdOf(o.txn);
            if (id) await allowRefusal(() => u.transactions.finalize(tenant, [id], o.finalized));
            break;
          }
          case 'split': {
            const id = await ledgerIdOf(o.txn);
            if (!id) break;
            const [row] = await rows<{ amount_cents: number; is_split_parent: boolean }>(db.adminDb, 'select amount_cents, is_split_parent from workspace_transactions where id = ?', [id]);
            const total = Math.abs(row?.amount_cents ?? 0);
            const weights = o.shares.reduce((a, b) => a + b, 0);
            // Parts proportional to the shares (parent first), rounding left to the parent's part.
            const children = o.shares.slice(1).map((w) => Math.floor((total * w) / weights));
            const parentCents = total - children.reduce((a, b) => a + b, 0);
            const cat = (i: number) => categories[(o.category + i) % categories.length] as string;
            const parent = { id, amountCents: BigInt(parentCents), categoryId: cat(0) };
            const parts = children.map((c, i) => ({ amountCents: BigInt(c), categoryId: cat(i + 1) }));
            await allowRefusal(() => (o.update && row?.is_split_parent
              ? u.transactions.updateSplit(tenant, { parent, updates: [], additions: parts, deleteIds: [] })
              : u.transactions.split(tenant, { parent, parts })), ['FAILED_PRECONDITION', 'NOT_FOUND', 'INVALID_INPUT']);
            break;
          }
        }
        // No posted line ever changes: every line seen so far is still there, identical.
        const lines = await rows<{ id: number; s: string }>(db.adminDb, "select id, concat_ws('|', entry_id, account_id, direction, amount_cents, entry_date) as s from journal_lines where workspace_id = ?", [ws]);
        const now = new Map(lines.map((l) => [l.id, l.s]));
        for (const [id, s] of seenLines) expect(now.get(id)).toBe(s);
        for (const [id, s] of now) seenLines.set(id, s);
      }

      const unbalanced = await rows(db.adminDb, `
        select e.id from journal_entries e left join journal_lines l on l.entry_id = e.id where e.workspace_id = ?
        group by e.id having count(l.id) < 2 or sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end) <> 0`, [ws]);
      expect(unbalanced).toEqual([]);
      const [trial] = await rows<{ s: number }>(db.adminDb, "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where workspace_id = ?", [ws]);
      expect(trial?.s).toBe(0);
      for (const [i, bank] of banks.entries()) {
        const [b] = await rows<{ s: number }>(db.adminDb, "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where account_id = ?", [bank.id]);
        expect(b?.s).toBe(bankTxns.filter((t) => t.bank === i && !t.removed).reduce((s, t) => s + t.cents, 0));
      }
      const drift = await rows(db.adminDb, `
        select * from (select account_id, date_trunc('month', entry_date)::date as month,
          sum(amount_cents) filter (where direction = 'debit') as d, sum(amount_cents) filter (where direction = 'credit') as c, count(*) as n
          from journal_lines where workspace_id = ? group by 1, 2) l
        full join (select * from account_balances where workspace_id = ?) b using (account_id, month)
        where coalesce(l.d, 0) <> coalesce(b.debit_cents, 0) or coalesce(l.c, 0) <> coalesce(b.credit_cents, 0) or coalesce(l.n, 0) <> coalesce(b.line_count, 0)`, [ws, ws]);
      expect(drift).toEqual([]);
      // Each reversal names the entry it reverses, which is reversed at most once (a unique index).
      const reversals = await rows<{ n: number }>(db.adminDb, 'select count(*)::int as n from journal_entries where workspace_id = ? and reverses_entry_id is not null group by reverses_entry_id having count(*) > 1', [ws]);
      expect(reversals).toEqual([]);
    }),
    { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 60) },
  );
  // The runs exercised what they claim to: splits, reversals and refusals happened.
  const [seen] = await rows<{ splits: number; reversals: number; finalized: number }>(db.adminDb, `select (select count(*)::int from transaction_splits) as splits,
    (select count(*)::int from journal_entries where reverses_entry_id is not null) as reversals, (select count(*)::int from workspace_transactions where is_finalized) as finalized`);
  expect(seen?.splits).toBeGreaterThan(0);
  expect(seen?.reversals).toBeGreaterThan(0);
  expect(seen?.finalized).toBeGreaterThan(0);
}, 120_000);
