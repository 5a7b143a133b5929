// Issue #12 as a property: random bank histories over three linked accounts (checking, savings, a credit
// card) — adds, modifications (sign flips included), removals, history that arrives late and widens the
// range backwards, pending transactions that post — each step a sync whose events (the transactions' and
// every account's bank_account.synced) reach the ledger in a random order, some only in a later step,
// some twice. Whenever everything sent has been applied: each account's cleared books balance equals the
// bank's current balance (modelled as the account's hidden opening balance + Σ posted), GetBankTieOut says
// `matches`, and the trial balance is zero (at every step, applied or not).
import { create } from '@bufbuild/protobuf';
import { createLogger, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankAccountSyncedSchema, BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { applyBankTransaction, removeBankTransaction } from '../src/usecases/bank-events.js';
import { applyAccountSynced } from '../src/usecases/bank-tieout.js';
import { createUseCases, type LedgerUseCases } from '../src/usecases/index.js';
import { trialBalance } from './support.js';

let db: TestDatabase;
let u: LedgerUseCases;

beforeAll(async () => {
  db = await createTestDatabase('ledger_tieout_props', ledgerMigrations);
  u = createUseCases({ db: db.appDb, logger: createLogger('ledger-tieout-props', 'silent') });
});
afterAll(async () => db?.drop());

const KINDS = [
  { name: 'Checking', type: 'depository', subtype: 'checking' },
  { name: 'Savings', type: 'depository', subtype: 'savings' },
  { name: 'Card', type: 'credit', subtype: 'credit card' },
] as const;

type Op =
  | { kind: 'add'; account: number; cents: number; day: number; pending: boolean }
  | { kind: 'late'; account: number; cents: number; daysBack: number }
  | { kind: 'modify'; txn: number; cents: number; flip: boolean; day: number }
  | { kind: 'remove'; txn: number }
  | { kind: 'post'; txn: number; cents: number | null };

const cents = fc.integer({ min: -300_000, max: 300_000 });
const account = fc.integer({ min: 0, max: 2 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('add' as const), account, cents, day: fc.integer({ min: 0, max: 200 }), pending: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('late' as const), account, cents, daysBack: fc.integer({ min: 1, max: 400 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('modify' as const), txn: fc.nat(), cents, flip: fc.boolean(), day: fc.integer({ min: 0, max: 200 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), txn: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('post' as const), txn: fc.nat(), cents: fc.option(cents, { nil: null }) }) },
);
/** One step: an operation at the bank, then a sync; `deliver` orders the backlog, `hold` keeps some for later. */
const step = fc.record({
  op,
  deliver: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
  hold: fc.integer({ min: 0, max: 3 }),
  duplicate: fc.boolean(),
  settle: fc.boolean(),
});

const dateOf = (d: number) => new Date(Date.UTC(2025, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);

interface BankTxn {
  id: string;
  account: number;
  cents: number;
  date: string;
  pending: boolean;
  version: number;
  removed: boolean;
}

type Delivery =
  | { kind: 'txn'; id: string; account: number; cents: number; date: string; pending: boolean; version: number; removed: boolean }
  | { kind: 'snapshot'; account: number; payload: ReturnType<typeof create<typeof BankAccountSyncedSchema>> };

it("each account ties to the bank once every sync's events are applied, in any order", async () => {
  await fc.assert(
    fc.asyncProperty(
      // The bank's balances before the first imported transaction (what the opening balance must recover).
      fc.tuple(fc.integer({ min: -50_000, max: 5_000_000 }), fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 0, max: 500_000 })),
      fc.array(step, { minLength: 1, maxLength: 18 }),
      async (openings, steps) => {
        const ws = newId();
        const tenant = { workspaceId: ws, userId: newId(), role: 'Owner' as const };
        const banks = await withTenant(db.appDb, tenant, async (trx) => {
          await ensureChart(trx, ws);
          const out = [];
          for (const k of KINDS)
            out.push(
              await ensureBankLedgerAccount(trx, ws, {
                accountId: newId(),
                name: k.name,
                mask: '1',
                type: k.type,
                subtype: k.subtype,
                institutionName: 'First Platypus Bank',
              }),
            );
          return out;
        });
        const bankIds = banks.map((b) => b.bank_account_id as string);
        const txns: BankTxn[] = [];
        let backlog: Delivery[] = [];
        let sync = 0;

        /** The bank's side: current balance (held, or owed for the card) and banking's totals. */
        const bankState = (a: number) => {
          const live = txns.filter((t) => t.account === a && !t.removed);
          const posted = live.filter((t) => !t.pending);
          const postedTotal = posted.reduce((s, t) => s + t.cents, 0);
          const current = KINDS[a]!.type === 'credit' ? openings[a]! - postedTotal : openings[a]! + postedTotal;
          return {
            current,
            postedTotal,
            postedCount: posted.length,
            pendingTotal: live.filter((t) => t.pending).reduce((s, t) => s + t.cents, 0),
            pendingCount: live.length - posted.length,
            earliest: live.map((t) => t.date).sort()[0] ?? '',
          };
        };
        const txnEvent = (t: BankTxn): Delivery => ({ kind: 'txn', ...t });
        const apply = async (d: Delivery) => {
          if (d.kind === 'snapshot') return withTenant(db.appDb, tenant, (trx) => applyAccountSynced(trx, ws, d.payload));
          if (d.removed)
            return withTenant(db.appDb, tenant, (trx) =>
              removeBankTransaction(trx, ws, { id: d.id, accountId: bankIds[d.account]!, externalId: d.id, version: BigInt(d.version) }),
            );
          const payload = create(BankTransactionSchema, {
            id: d.id,
            accountId: bankIds[d.account]!,
            externalId: d.id,
            amountCents: BigInt(d.cents),
            isoCurrencyCode: 'USD',
            date: d.date,
            name: `T ${d.id.slice(-4)}`,
            pending: d.pending,
            version: BigInt(d.version),
          });
          return withTenant(db.appDb, tenant, (trx) => applyBankTransaction(trx, ws, payload));
        };
        const pick = (i: number, filter: (t: BankTxn) => boolean) => {
          const candidates = txns.filter(filter);
          return candidates.length ? candidates[i % candidates.length] : undefined;
        };

        const expectTiesOut = async () => {
          const tieOut = await u.tieOut.list(tenant);
          for (const [a, bankAccountId] of bankIds.entries()) {
            const bank = bankState(a);
            const t = tieOut.find((x) => x.bankAccountId === bankAccountId);
            const context = `${KINDS[a]!.name} after sync ${sync}`;
            expect(t, context).toMatchObject({
              status: 'matches',
              bankBalanceCents: bank.current,
              booksBalanceCents: bank.current,
              differenceCents: 0,
              ledgerAccountId: banks[a]!.id,
            });
            // Pending, in the normal direction: money in raises a bank account and lowers what a card owes.
            expect(t!.pendingCents, context).toBe(KINDS[a]!.type === 'credit' ? -bank.pendingTotal : bank.pendingTotal);
          }
          expect(await trialBalance(db.adminDb, ws)).toBe(0);
        };

        for (const s of steps) {
          const o = s.op;
          // The bank changes.
          switch (o.kind) {
            case 'add':
            case 'late': {
              const t: BankTxn = {
                id: newId(),
                account: o.account,
                cents: o.cents,
                date: o.kind === 'add' ? dateOf(o.day) : dateOf(-o.daysBack),
                pending: o.kind === 'add' && o.pending,
                version: 1,
                removed: false,
              };
              txns.push(t);
              backlog.push(txnEvent(t));
              break;
            }
            case 'modify': {
              const t = pick(o.txn, (x) => !x.removed);
              if (!t) break;
              Object.assign(t, { cents: o.flip && t.cents !== 0 ? -t.cents : o.cents, date: dateOf(o.day), version: t.version + 1 });
              backlog.push(txnEvent(t));
              break;
            }
            case 'remove': {
              const t = pick(o.txn, (x) => !x.removed);
              if (!t) break;
              Object.assign(t, { removed: true, version: t.version + 1 });
              backlog.push(txnEvent(t));
              break;
            }
            case 'post': {
              const t = pick(o.txn, (x) => !x.removed && x.pending);
              if (!t) break;
              Object.assign(t, { pending: false, cents: o.cents ?? t.cents, version: t.version + 1 });
              backlog.push(txnEvent(t));
              break;
            }
          }
          // The sync completes: one snapshot per account.
          sync++;
          for (const a of [0, 1, 2]) {
            const b = bankState(a);
            backlog.push({
              kind: 'snapshot',
              account: a,
              payload: create(BankAccountSyncedSchema, {
                accountId: bankIds[a]!,
                type: KINDS[a]!.type,
                isoCurrencyCode: 'USD',
                currentBalanceCents: BigInt(b.current),
                hasCurrentBalance: true,
                syncedAt: new Date(Date.UTC(2026, 0, 1, 0, sync)).toISOString(),
                postedTotalCents: BigInt(b.postedTotal),
                postedCount: BigInt(b.postedCount),
                pendingTotalCents: BigInt(b.pendingTotal),
                pendingCount: BigInt(b.pendingCount),
                earliestDate: b.earliest,
                version: BigInt(sync),
              }),
            });
          }
          // Delivery: the backlog in a random order; unless the step settles, the last few wait for a later
          // step (a snapshot may overtake its transactions, or an older snapshot a newer one); some twice.
          const order = backlog
            .map((d, i) => ({ d, key: s.deliver[i % s.deliver.length]! * 1_000 + i }))
            .sort((x, y) => x.key - y.key)
            .map((x) => x.d);
          const keep = s.settle ? 0 : Math.min(s.hold, order.length);
          const now = order.slice(0, order.length - keep);
          backlog = order.slice(order.length - keep);
          for (const d of now) await apply(d);
          if (s.duplicate && now.length > 0) await apply(now[0]!);
          expect(await trialBalance(db.adminDb, ws)).toBe(0);
          if (backlog.length === 0) await expectTiesOut();
        }
        // Everything arrives in the end.
        for (const d of backlog) await apply(d);
        await expectTiesOut();
      },
    ),
    { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 30) },
  );
}, 600_000);
