// RELIABILITY 1 and 2 as properties: after any random sequence of bank imports, modifications and
// removals, categorisations, bulk updates, finalisations, splits and accruals (create, update, stop,
// delete), every entry balances, the trial balance is zero, each bank account's ledger balance equals the
// sum of its bank transactions, the monthly balances equal the lines, no posted line was ever changed,
// and each transaction's lines net to what it books now (bank against its category, parts or recognise
// category; nothing left in Prepaid Expenses / Deferred Revenue). With transfers between three linked
// accounts (checking, a card, savings: both legs, in random order, some a few operations later, some too
// far apart, modified, paired and un-paired by hand): pairs are symmetric and valid, every paired
// transfer's Transfer account nets to zero, a paired transfer leaves no Income/Expense line in force, and
// an Uncategorised category always sits on the side of the transaction's current sign.
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
import { AccrualUseCases } from '../src/usecases/accruals.js';
import { rows } from './support.js';

let db: TestDatabase;
let u: LedgerUseCases;
let accruals: AccrualUseCases;
let today = '2025-01-01';

beforeAll(async () => {
  db = await createTestDatabase('ledger_props', ledgerMigrations);
  u = createUseCases({ db: db.appDb, logger: createLogger('ledger-props', 'silent') });
  accruals = new AccrualUseCases({ db: db.appDb, logger: createLogger('ledger-props', 'silent') }, { today: () => today });
});
afterAll(async () => db?.drop());

type Op =
  | { kind: 'add'; bank: number; cents: number; day: number }
  | { kind: 'modify'; txn: number; cents: number; day: number; stale: boolean }
  | { kind: 'remove'; txn: number }
  | { kind: 'categorise'; txn: number; category: number }
  | { kind: 'bulk'; txns: number[]; category: number; finalize: boolean | undefined }
  | { kind: 'finalize'; txn: number; finalized: boolean }
  | { kind: 'split'; txn: number; category: number; shares: number[]; update: boolean }
  | { kind: 'accrue'; txn: number; category: number; day: number; months: number }
  | { kind: 'updateAccrual'; txn: number; category: number; shift: number; extend: number }
  | { kind: 'stopAccrual'; txn: number; day: number }
  | { kind: 'unaccrue'; txn: number }
  | { kind: 'transfer'; from: number; to: number; cents: number; day: number; delay: number; lag: number; outFirst: boolean; keyword: boolean }
  | { kind: 'pair'; txn: number; other: number }
  | { kind: 'unpair'; txn: number };

const cents = fc.integer({ min: -500_000, max: 500_000 });
const day = fc.integer({ min: 0, max: 400 });
const addOp = fc.record({ kind: fc.constant('add' as const), bank: fc.integer({ min: 0, max: 2 }), cents, day });
const transferOp = fc.record({
  kind: fc.constant('transfer' as const),
  from: fc.integer({ min: 0, max: 2 }),
  to: fc.integer({ min: 1, max: 2 }),
  cents: fc.integer({ min: 1, max: 300_000 }),
  day,
  delay: fc.integer({ min: 0, max: 7 }),
  lag: fc.integer({ min: 0, max: 3 }),
  outFirst: fc.boolean(),
  keyword: fc.boolean(),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: addOp },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('modify' as const), txn: fc.nat(), cents, day, stale: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), txn: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('categorise' as const), txn: fc.nat(), category: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('bulk' as const),
      txns: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
      category: fc.nat(),
      finalize: fc.option(fc.boolean(), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('finalize' as const), txn: fc.nat(), finalized: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('split' as const),
      txn: fc.nat(),
      category: fc.nat(),
      shares: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 3 }),
      update: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('accrue' as const), txn: fc.nat(), category: fc.nat(), day, months: fc.integer({ min: 1, max: 14 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('updateAccrual' as const),
      txn: fc.nat(),
      category: fc.nat(),
      shift: fc.integer({ min: 0, max: 5_000 }),
      extend: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('stopAccrual' as const), txn: fc.nat(), day }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unaccrue' as const), txn: fc.nat() }) },
  { weight: 4, arbitrary: transferOp },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pair' as const), txn: fc.nat(), other: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unpair' as const), txn: fc.nat() }) },
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
    // A few imports first (fast-check favours short sequences: without them most runs would have nothing to
    // categorise, split or accrue), then any operations, imports included.
    fc.asyncProperty(
      fc.array(fc.oneof(addOp, transferOp), { minLength: 1, maxLength: 3 }),
      fc.array(op, { minLength: 1, maxLength: 20 }),
      async (imports, rest) => {
        const ops: Op[] = [...imports, ...rest];
        // Second legs of transfers that arrive some operations later (a later sync), and at the end at the latest.
        const pending: { at: number; leg: { bank: number; cents: number; day: number; name: string } }[] = [];
        const ws = newId();
        const tenant = { workspaceId: ws, userId: newId(), role: 'Owner' as const };
        const banks = await withTenant(db.appDb, tenant, async (trx) => {
          await ensureChart(trx, ws);
          return [
            await ensureBankLedgerAccount(trx, ws, {
              accountId: newId(),
              name: 'Checking',
              mask: '1',
              type: 'depository',
              subtype: 'checking',
              institutionName: 'B',
            }),
            await ensureBankLedgerAccount(trx, ws, {
              accountId: newId(),
              name: 'Card',
              mask: '2',
              type: 'credit',
              subtype: 'credit card',
              institutionName: 'B',
            }),
            await ensureBankLedgerAccount(trx, ws, {
              accountId: newId(),
              name: 'Savings',
              mask: '3',
              type: 'depository',
              subtype: 'savings',
              institutionName: 'B',
            }),
          ];
        });
        const categories = (await u.categories.list(tenant)).filter((c) => !c.account.bank_account_id).map((c) => c.account.id);
        // What accruals recognise into: not the ledger's own accounts (refused with a 400, tried anyway now and then).
        const recognisable = (await u.categories.list(tenant)).filter((c) => !c.account.bank_account_id && !c.account.system_key).map((c) => c.account.id);
        const recogniseFor = (i: number) => (i % 10 === 0 ? categories[i % categories.length] : recognisable[i % recognisable.length]) as string;
        // The bank's truth: each bank transaction's latest amount (or removed), per account.
        const bankTxns: { id: string; bank: number; cents: number; version: number; removed: boolean }[] = [];
        const seenLines = new Map<number, string>();
        const ledgerIdOf = async (i: number) => {
          const t = bankTxns[i % bankTxns.length];
          if (!t) return undefined;
          const [r] = await rows<{ id: string }>(db.adminDb, 'select id from workspace_transactions where bank_transaction_id = ?', [t.id]);
          return r?.id;
        };
        // Accrual edits mostly aim at accrued transactions (any transaction now and then: a refusal).
        const accruedIdOf = async (i: number) => {
          const accrued = await rows<{ id: string }>(
            db.adminDb,
            "select a.transaction_id as id from transaction_accruals a join workspace_transactions t on t.id = a.transaction_id where a.workspace_id = ? and a.status = 'active' and not t.is_finalized order by 1",
            [ws],
          );
          return i % 5 === 0 || accrued.length === 0 ? ledgerIdOf(i) : accrued[i % accrued.length]?.id;
        };
        // Accruals mostly aim at transactions that can be accrued (any transaction now and then: a refusal).
        const accruableIdOf = async (i: number) => {
          const open = await rows<{ id: string }>(
            db.adminDb,
            'select id from workspace_transactions where workspace_id = ? and not is_removed and not is_accrued_parent and not is_finalized and not is_split_parent and amount_cents <> 0 order by id',
            [ws],
          );
          return i % 5 === 0 || open.length === 0 ? ledgerIdOf(i) : open[i % open.length]?.id;
        };
        const names = new Map<string, string>();
        const bankEvent = (t: { id: string; bank: number; cents: number; version: number }, date: string) =>
          create(BankTransactionSchema, {
            id: t.id,
            accountId: banks[t.bank]?.bank_account_id as string,
            externalId: t.id,
            amountCents: BigInt(t.cents),
            isoCurrencyCode: 'USD',
            date,
            name: names.get(t.id) ?? `T ${t.id.slice(-4)}`,
            version: BigInt(t.version),
          });
        const addLeg = async (leg: { bank: number; cents: number; day: number; name: string }) => {
          const t = { id: newId(), bank: leg.bank, cents: leg.cents, version: 1, removed: false };
          names.set(t.id, leg.name);
          bankTxns.push(t);
          await withTenant(db.appDb, tenant, (trx) => applyBankTransaction(trx, ws, bankEvent(t, dateOf(leg.day))));
        };

        for (const [step, o] of [...ops, { kind: 'flush' as const }].entries()) {
          for (const p of pending.filter((x) => x.at <= step || o.kind === 'flush')) {
            pending.splice(pending.indexOf(p), 1);
            await addLeg(p.leg);
          }
          switch (o.kind) {
            case 'flush':
              break;
            case 'transfer': {
              const to = o.from === o.to ? (o.to + 1) % 3 : o.to;
              const name = (out: boolean) => (o.keyword ? (out ? 'Online transfer to' : 'Online transfer from') : 'T misc');
              const out = { bank: o.from, cents: -o.cents, day: o.day, name: name(true) };
              const into = { bank: to, cents: o.cents, day: o.day + o.delay, name: name(false) };
              const [first, second] = o.outFirst ? [out, into] : [into, out];
              await addLeg(first);
              if (o.lag === 0) await addLeg(second);
              else pending.push({ at: step + o.lag, leg: second });
              break;
            }
            case 'pair': {
              // Mostly an unpaired transaction with one of its offered candidates; any two now and then (a refusal).
              const open = await rows<{ id: string }>(
                db.adminDb,
                'select id from workspace_transactions where workspace_id = ? and not is_removed and transfer_pair_id is null and amount_cents <> 0 order by id',
                [ws],
              );
              const a = o.txn % 4 === 0 || open.length === 0 ? await ledgerIdOf(o.txn) : open[o.txn % open.length]?.id;
              const offered = a && o.other % 4 !== 0 ? (await u.transfers.candidates(tenant, a).catch(() => ({ data: [] }))).data : [];
              const b = offered.length > 0 ? offered[o.other % offered.length]?.id : await ledgerIdOf(o.other);
              if (a && b) await allowRefusal(() => u.transfers.pair(tenant, a, b), ['FAILED_PRECONDITION', 'NOT_FOUND', 'INVALID_INPUT']);
              break;
            }
            case 'unpair': {
              // Mostly a paired or one-sided transfer; any transaction now and then (a refusal).
              const transfers = await rows<{ id: string }>(
                db.adminDb,
                "select t.id from workspace_transactions t join accounts c on c.id = t.category_id where t.workspace_id = ? and not t.is_removed and (t.transfer_pair_id is not null or c.class_group = 'Transfer') order by t.id",
                [ws],
              );
              const id = o.txn % 4 === 0 || transfers.length === 0 ? await ledgerIdOf(o.txn) : transfers[o.txn % transfers.length]?.id;
              if (id) await allowRefusal(() => u.transfers.unpair(tenant, id));
              break;
            }
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
              await withTenant(db.appDb, tenant, (trx) =>
                removeBankTransaction(trx, ws, { id: t.id, accountId: banks[t.bank]?.bank_account_id as string, externalId: t.id, version: BigInt(t.version) }),
              );
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
              if (ids.length)
                await allowRefusal(() =>
                  u.transactions.bulkUpdate(
                    tenant,
                    ids.map((id) => ({ id, categoryId: categories[o.category % categories.length], isTxnFinalized: o.finalize })),
                  ),
                );
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
              const [row] = await rows<{ amount_cents: number; is_split_parent: boolean }>(
                db.adminDb,
                'select amount_cents, is_split_parent from workspace_transactions where id = ?',
                [id],
              );
              const total = Math.abs(row?.amount_cents ?? 0);
              const weights = o.shares.reduce((a, b) => a + b, 0);
              // Parts proportional to the shares (parent first), rounding left to the parent's part.
              const children = o.shares.slice(1).map((w) => Math.floor((total * w) / weights));
              const parentCents = total - children.reduce((a, b) => a + b, 0);
              const cat = (i: number) => categories[(o.category + i) % categories.length] as string;
              const parent = { id, amountCents: BigInt(parentCents), categoryId: cat(0) };
              const parts = children.map((c, i) => ({ amountCents: BigInt(c), categoryId: cat(i + 1) }));
              await allowRefusal(
                () =>
                  o.update && row?.is_split_parent
                    ? u.transactions.updateSplit(tenant, { parent, updates: [], additions: parts, deleteIds: [] })
                    : u.transactions.split(tenant, { parent, parts }),
                ['FAILED_PRECONDITION', 'NOT_FOUND', 'INVALID_INPUT'],
              );
              break;
            }
            case 'accrue': {
              const id = await accruableIdOf(o.txn);
              if (!id) break;
              const [row] = await rows<{ amount_cents: number }>(db.adminDb, 'select amount_cents from workspace_transactions where id = ?', [id]);
              // Mostly the category that fits the flow; now and then the other one (a 400, nothing changes).
              const fits = (row?.amount_cents ?? 0) > 0 ? 'Deferred Revenue' : 'Prepaid Expenses';
              const accrualCategory = o.category % 7 === 0 ? (fits === 'Deferred Revenue' ? 'Prepaid Expenses' : 'Deferred Revenue') : fits;
              await allowRefusal(
                () =>
                  accruals.create(tenant, {
                    transactionId: id,
                    accrualStartDate: dateOf(o.day),
                    accrualEndDate: dateOf(o.day + o.months * 30),
                    accrualCategory,
                    recogniseCategoryId: recogniseFor(o.category),
                  }),
                ['FAILED_PRECONDITION', 'NOT_FOUND', 'INVALID_INPUT'],
              );
              break;
            }
            case 'updateAccrual': {
              const id = await accruedIdOf(o.txn);
              if (!id) break;
              await allowRefusal(async () => {
                const s = await accruals.schedule(tenant, id);
                const [first, ...rest] = s.months;
                const last = rest.at(-1);
                // Either new dates (spread again), or a shift of cents from the first month to the last and another recognise category.
                if (o.extend > 0) await accruals.update(tenant, { transactionId: id, accrualEndDate: dateOf(400 + o.extend * 45), updatedAccrualChildren: [] });
                else {
                  const shift = first ? o.shift % first.amountCents : 0;
                  const moved =
                    first && last
                      ? [
                          { id: first.id, amountCents: BigInt(first.amountCents - shift) },
                          { id: last.id, amountCents: BigInt(last.amountCents + shift) },
                        ]
                      : [];
                  await accruals.update(tenant, { transactionId: id, recogniseCategoryId: recogniseFor(o.category), updatedAccrualChildren: moved });
                }
              }, ['FAILED_PRECONDITION', 'NOT_FOUND', 'INVALID_INPUT']);
              break;
            }
            case 'stopAccrual': {
              const id = await accruedIdOf(o.txn);
              today = dateOf(o.day);
              if (id) await allowRefusal(() => accruals.stop(tenant, id));
              break;
            }
            case 'unaccrue': {
              const id = await accruedIdOf(o.txn);
              if (id) await allowRefusal(() => accruals.remove(tenant, id));
              break;
            }
          }
          // No posted line ever changes: every line seen so far is still there, identical.
          const lines = await rows<{ id: number; s: string }>(
            db.adminDb,
            "select id, concat_ws('|', entry_id, account_id, direction, amount_cents, entry_date) as s from journal_lines where workspace_id = ?",
            [ws],
          );
          const now = new Map(lines.map((l) => [l.id, l.s]));
          for (const [id, s] of seenLines) expect(now.get(id)).toBe(s);
          for (const [id, s] of now) seenLines.set(id, s);
        }

        const unbalanced = await rows(
          db.adminDb,
          `
        select e.id from journal_entries e left join journal_lines l on l.entry_id = e.id where e.workspace_id = ?
        group by e.id having count(l.id) < 2 or sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end) <> 0`,
          [ws],
        );
        expect(unbalanced).toEqual([]);
        const [trial] = await rows<{ s: number }>(
          db.adminDb,
          "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where workspace_id = ?",
          [ws],
        );
        expect(trial?.s).toBe(0);
        for (const [i, bank] of banks.entries()) {
          const [b] = await rows<{ s: number }>(
            db.adminDb,
            "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where account_id = ?",
            [bank.id],
          );
          expect(b?.s).toBe(bankTxns.filter((t) => t.bank === i && !t.removed).reduce((s, t) => s + t.cents, 0));
        }
        const drift = await rows(
          db.adminDb,
          `
        select * from (select account_id, date_trunc('month', entry_date)::date as month,
          sum(amount_cents) filter (where direction = 'debit') as d, sum(amount_cents) filter (where direction = 'credit') as c, count(*) as n
          from journal_lines where workspace_id = ? group by 1, 2) l
        full join (select * from account_balances where workspace_id = ?) b using (account_id, month)
        where coalesce(l.d, 0) <> coalesce(b.debit_cents, 0) or coalesce(l.c, 0) <> coalesce(b.credit_cents, 0) or coalesce(l.n, 0) <> coalesce(b.line_count, 0)`,
          [ws, ws],
        );
        expect(drift).toEqual([]);
        // Each transaction's lines net to what it books now: the bank against its category (its parts when
        // split; its recognise category when accrued, Prepaid Expenses / Deferred Revenue netting to zero).
        const txns = await rows<{
          id: string;
          amount_cents: number;
          category_id: string;
          ledger_account_id: string;
          is_removed: boolean;
          is_split_parent: boolean;
          recognise: string | null;
        }>(
          db.adminDb,
          `
        select t.id, t.amount_cents, t.category_id, t.ledger_account_id, t.is_removed, t.is_split_parent, a.recognise_category_id as recognise
        from workspace_transactions t left join transaction_accruals a on a.transaction_id = t.id where t.workspace_id = ? and t.ledger_account_id is not null`,
          [ws],
        );
        const nets = await rows<{ transaction_id: string; account_id: string; s: number }>(
          db.adminDb,
          `
        select transaction_id, account_id, sum(case when direction = 'debit' then amount_cents else -amount_cents end)::bigint as s
        from journal_lines where workspace_id = ? and transaction_id is not null group by 1, 2 having sum(case when direction = 'debit' then amount_cents else -amount_cents end) <> 0`,
          [ws],
        );
        for (const t of txns) {
          const expected = new Map<string, number>();
          const add = (account: string, cents: number) => expected.set(account, (expected.get(account) ?? 0) + cents);
          if (!t.is_removed && t.amount_cents !== 0) {
            add(t.ledger_account_id, t.amount_cents);
            if (t.recognise) add(t.recognise, -t.amount_cents);
            else if (t.is_split_parent)
              for (const part of await rows<{ category_id: string; amount_cents: number }>(
                db.adminDb,
                'select category_id, amount_cents from transaction_splits where transaction_id = ?',
                [t.id],
              ))
                add(part.category_id, -part.amount_cents);
            else add(t.category_id, -t.amount_cents);
          }
          const actual = Object.fromEntries(nets.filter((n) => n.transaction_id === t.id).map((n) => [n.account_id, n.s]));
          expect(actual, t.id).toEqual(Object.fromEntries([...expected].filter(([, v]) => v !== 0)));
          if (t.recognise) {
            const [sum] = await rows<{ s: number }>(
              db.adminDb,
              'select coalesce(sum(amount_cents), 0)::bigint as s from accrual_months where transaction_id = ?',
              [t.id],
            );
            expect(sum?.s).toBe(Math.abs(t.amount_cents));
          }
        }
        // Transfers: pairs are symmetric, valid (opposite amounts, two accounts, within 5 days) and in one
        // Transfer account; a paired transfer's Transfer lines net to zero and it keeps no Income/Expense line
        // in force; an Uncategorised category is on the side of the current sign (what a fresh import books).
        const paired = await rows<{
          id: string;
          pair: string;
          amount_cents: number;
          bank_account_id: string;
          txn_date: string;
          category_id: string;
          class_group: string;
          p_pair: string;
          p_amount: number;
          p_bank: string;
          p_date: string;
          p_category: string;
        }>(
          db.adminDb,
          `
        select t.id, t.transfer_pair_id as pair, t.amount_cents, t.bank_account_id, t.txn_date, t.category_id, c.class_group, p.transfer_pair_id as p_pair, p.amount_cents as p_amount,
          p.bank_account_id as p_bank, p.txn_date as p_date, p.category_id as p_category
        from workspace_transactions t join workspace_transactions p on p.id = t.transfer_pair_id join accounts c on c.id = t.category_id where t.workspace_id = ?`,
          [ws],
        );
        for (const t of paired) {
          expect(t.p_pair).toBe(t.id);
          expect(t.p_amount).toBe(-t.amount_cents);
          expect(t.p_bank).not.toBe(t.bank_account_id);
          expect(Math.abs(Date.parse(t.txn_date) - Date.parse(t.p_date))).toBeLessThanOrEqual(5 * 86_400_000);
          expect(t.class_group).toBe('Transfer');
          expect(t.p_category).toBe(t.category_id);
        }
        const pairedIds = paired.map((t) => t.id);
        const pairedNets = await rows<{ class_group: string; s: number }>(
          db.adminDb,
          `
        select a.class_group, sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end)::bigint as s
        from journal_lines l join accounts a on a.id = l.account_id where l.workspace_id = ? and l.transaction_id = any(?::uuid[]) and a.class_group in ('Transfer', 'Income', 'Expenses') group by 1`,
          [ws, pairedIds],
        );
        for (const n of pairedNets) expect(n.s, n.class_group).toBe(0);
        const perTxnIncomeExpense = await rows(
          db.adminDb,
          `
        select l.transaction_id from journal_lines l join accounts a on a.id = l.account_id where l.workspace_id = ? and l.transaction_id = any(?::uuid[]) and a.class_group in ('Income', 'Expenses')
        group by l.transaction_id, l.account_id having sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end) <> 0`,
          [ws, pairedIds],
        );
        expect(perTxnIncomeExpense).toEqual([]);
        const wrongSide = await rows(
          db.adminDb,
          `
        select t.id from workspace_transactions t join accounts c on c.id = t.category_id where t.workspace_id = ? and not t.is_removed and t.amount_cents <> 0
          and ((c.system_key = 'uncategorised_income' and t.amount_cents < 0) or (c.system_key = 'uncategorised_expense' and t.amount_cents > 0))
          and not exists (select 1 from transaction_audit_logs g where g.transaction_id = t.id and g.event in ('categorised', 'split', 'split_updated', 'unsplit'))`,
          [ws],
        );
        expect(wrongSide).toEqual([]);
        // Each reversal names the entry it reverses, which is reversed at most once (a unique index).
        const reversals = await rows<{ n: number }>(
          db.adminDb,
          'select count(*)::int as n from journal_entries where workspace_id = ? and reverses_entry_id is not null group by reverses_entry_id having count(*) > 1',
          [ws],
        );
        expect(reversals).toEqual([]);
      },
    ),
    // Seeded, so the coverage checks below are the same on every run (a random seed left, once in a while, no
    // bank-side un-pairing among 60 runs); LEDGER_PROPERTY_SEED explores others.
    { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 60), seed: Number(process.env.LEDGER_PROPERTY_SEED ?? 20_261_125) },
  );
  // The runs exercised what they claim to: splits, reversals and refusals happened.
  const [seen] = await rows<{
    splits: number;
    reversals: number;
    finalized: number;
    accrued: number;
    stopped: number;
    unaccrued: number;
    accrualUpdates: number;
  }>(
    db.adminDb,
    `select (select count(*)::int from transaction_splits) as splits,
    (select count(*)::int from journal_entries where reverses_entry_id is not null) as reversals, (select count(*)::int from workspace_transactions where is_finalized) as finalized,
    (select count(*)::int from transaction_audit_logs where event = 'accrued') as accrued, (select count(*)::int from transaction_audit_logs where event = 'accrual_stopped') as stopped,
    (select count(*)::int from transaction_audit_logs where event = 'unaccrued') as unaccrued, (select count(*)::int from transaction_audit_logs where event = 'accrual_updated') as "accrualUpdates"`,
  );
  expect(seen?.splits).toBeGreaterThan(0);
  expect(seen?.reversals).toBeGreaterThan(0);
  expect(seen?.finalized).toBeGreaterThan(0);
  expect(seen?.accrued).toBeGreaterThan(0);
  expect(seen?.stopped).toBeGreaterThan(0);
  expect(seen?.unaccrued).toBeGreaterThan(0);
  expect(seen?.accrualUpdates).toBeGreaterThan(0);
  const [transfers] = await rows<{ paired: number; unpaired: number; byBank: number; byHand: number }>(
    db.adminDb,
    `select (select count(*)::int from transaction_audit_logs where event = 'transfer_paired') as paired,
    (select count(*)::int from transaction_audit_logs where event = 'transfer_unpaired') as unpaired,
    (select count(*)::int from transaction_audit_logs where event = 'transfer_unpaired' and details->>'byBank' = 'true') as "byBank",
    (select count(*)::int from transaction_audit_logs where event = 'transfer_paired' and details->>'by' = 'user') as "byHand"`,
  );
  expect(transfers?.paired).toBeGreaterThan(0);
  expect(transfers?.unpaired).toBeGreaterThan(0);
  expect(transfers?.byBank).toBeGreaterThan(0);
  expect(transfers?.byHand).toBeGreaterThan(0);
}, 240_000);
