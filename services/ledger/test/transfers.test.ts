// Transfers and card payments (issue #12): detection on booking (single and batch paths, either side
// first), booking to a Transfer account, pairing and un-pairing by hand, concurrency, bank modifications.
import { create, toBinary } from '@bufbuild/protobuf';
import type { AppError } from '@ledgerline/platform';
import { createLogger, EventType, newId, withTenant, type ReceivedEvent } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { handleAddedBatch } from '../src/usecases/bank-batch.js';
import { applyBankTransaction, checkBankTransaction, removeBankTransaction } from '../src/usecases/bank-events.js';
import { createUseCases, type LedgerUseCases } from '../src/usecases/index.js';
import { rows, trialBalance } from './support.js';

let db: TestDatabase;
let u: LedgerUseCases;

beforeAll(async () => {
  db = await createTestDatabase('ledger_transfers', ledgerMigrations);
  u = createUseCases({ db: db.appDb, logger: createLogger('ledger-transfers', 'silent') });
});
afterAll(async () => db?.drop());

interface Txn {
  id: string;
  bankId: string;
  account: string;
}

async function books() {
  const ws = newId();
  const tenant = { workspaceId: ws, userId: newId(), role: 'Owner' as const };
  const link = (name: string, type = 'depository', subtype = 'checking') =>
    withTenant(db.appDb, tenant, async (trx) => {
      await ensureChart(trx, ws);
      return ensureBankLedgerAccount(trx, ws, { accountId: newId(), name, mask: '1', type, subtype, institutionName: 'B' });
    });
  const checking = await link('Checking');
  const savings = await link('Savings', 'depository', 'savings');
  const card = await link('Card', 'credit', 'credit card');
  const accounts = await rows<{ id: string; name: string; system_key: string | null }>(
    db.adminDb,
    'select id, name, system_key from accounts where workspace_id = ?',
    [ws],
  );
  const acct = (name: string) => accounts.find((a) => a.name === name)?.id as string;
  const versions = new Map<string, number>();
  const event = (bankAccountId: string, bankId: string, cents: number, date: string, name: string) => {
    const version = (versions.get(bankId) ?? 0) + 1;
    versions.set(bankId, version);
    return create(BankTransactionSchema, {
      id: bankId,
      accountId: bankAccountId,
      externalId: bankId,
      amountCents: BigInt(cents),
      isoCurrencyCode: 'USD',
      date,
      name,
      version: BigInt(version),
    });
  };
  const idOf = async (bankId: string) =>
    (await rows<{ id: string }>(db.adminDb, 'select id from workspace_transactions where bank_transaction_id = ?', [bankId]))[0]?.id as string;
  return {
    ws,
    tenant,
    checking: checking.bank_account_id as string,
    savings: savings.bank_account_id as string,
    card: card.bank_account_id as string,
    acct,
    ledgerOf: { checking: checking.id, savings: savings.id, card: card.id },
    async add(account: string, cents: number, date: string, name: string, bankId = newId()): Promise<Txn> {
      await withTenant(db.appDb, tenant, (trx) => applyBankTransaction(trx, ws, event(account, bankId, cents, date, name)));
      return { id: await idOf(bankId), bankId, account };
    },
    async modify(t: Txn, cents: number, date: string, name: string): Promise<void> {
      await withTenant(db.appDb, tenant, (trx) => applyBankTransaction(trx, ws, event(t.account, t.bankId, cents, date, name)));
    },
    async remove(t: Txn): Promise<void> {
      const version = (versions.get(t.bankId) ?? 0) + 1;
      versions.set(t.bankId, version);
      await withTenant(db.appDb, tenant, (trx) =>
        removeBankTransaction(trx, ws, { id: t.bankId, accountId: t.account, externalId: t.bankId, version: BigInt(version) }),
      );
    },
    /** A batch of adds through the batch path (as the consumer hands it over). */
    async batch(items: { account: string; cents: number; date: string; name: string }[]): Promise<Txn[]> {
      const ids = items.map(() => newId());
      const events: ReceivedEvent<typeof EventType.BankTransactionAdded>[] = items.map((it, i) => ({
        id: newId(),
        type: EventType.BankTransactionAdded,
        workspaceId: ws,
        source: 'test',
        occurredAt: new Date(),
        payload: toBinary(BankTransactionSchema, event(it.account, ids[i] as string, it.cents, it.date, it.name)),
      }));
      await withTenant(db.appDb, tenant, (trx) => handleAddedBatch(trx, events, checkBankTransaction, applyBankTransaction));
      return Promise.all(ids.map(async (bankId, i) => ({ id: await idOf(bankId), bankId, account: items[i]?.account as string })));
    },
    row: async (t: Txn) =>
      (
        await rows<{ category_id: string; transfer_pair_id: string | null; current_entry_id: string | null }>(
          db.adminDb,
          'select category_id, transfer_pair_id, current_entry_id from workspace_transactions where id = ?',
          [t.id],
        )
      )[0],
    /** Net of an account's lines (debits − credits). */
    net: async (accountId: string) =>
      Number(
        (
          await rows<{ s: number }>(
            db.adminDb,
            "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where workspace_id = ? and account_id = ?",
            [ws, accountId],
          )
        )[0]?.s ?? 0,
      ),
    trail: async (t: Txn) =>
      await rows<{ event: string; details: Record<string, unknown> }>(
        db.adminDb,
        'select event, details from transaction_audit_logs where transaction_id = ? order by id',
        [t.id],
      ),
  };
}
type Books = Awaited<ReturnType<typeof books>>;

async function expectPaired(b: Books, x: Txn, y: Txn, account: string) {
  const [rx, ry] = [await b.row(x), await b.row(y)];
  expect(rx?.transfer_pair_id).toBe(y.id);
  expect(ry?.transfer_pair_id).toBe(x.id);
  expect(rx?.category_id).toBe(b.acct(account));
  expect(ry?.category_id).toBe(b.acct(account));
}

/** Income and expense lines booked for these transactions that are still in force (not reversed). */
async function incomeExpenseNet(b: Books, ids: string[]): Promise<number> {
  const [r] = await rows<{ s: number }>(
    db.adminDb,
    `select coalesce(sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end), 0)::bigint as s
    from journal_lines l join accounts a on a.id = l.account_id where l.workspace_id = ? and l.transaction_id = any(?::uuid[]) and a.class_group in ('Income', 'Expenses')`,
    [b.ws, ids],
  );
  return Number(r?.s ?? 0);
}

describe('detection', () => {
  it('pairs checking → savings whichever side arrives first, books both to Internal Transfers, nets it to zero and leaves no income or expense', async () => {
    for (const savingsFirst of [false, true]) {
      const b = await books();
      const x = savingsFirst
        ? await b.add(b.savings, 25_000, '2026-03-04', 'Online transfer from CHK')
        : await b.add(b.checking, -25_000, '2026-03-02', 'Online transfer to SAV');
      expect((await b.row(x))?.transfer_pair_id).toBeNull();
      // Alone, its description says transfer: booked to Internal Transfers to review (out of income and expense).
      expect((await b.row(x))?.category_id).toBe(b.acct('Internal Transfers'));
      expect(await incomeExpenseNet(b, [x.id])).toBe(0);
      const y = savingsFirst
        ? await b.add(b.checking, -25_000, '2026-03-02', 'Online transfer to SAV')
        : await b.add(b.savings, 25_000, '2026-03-04', 'Online transfer from CHK');
      await expectPaired(b, x, y, 'Internal Transfers');
      expect(await b.net(b.acct('Internal Transfers'))).toBe(0);
      expect(await incomeExpenseNet(b, [x.id, y.id])).toBe(0);
      expect(await b.net(b.ledgerOf.checking)).toBe(-25_000);
      expect(await b.net(b.ledgerOf.savings)).toBe(25_000);
      expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
      expect((await b.trail(x)).map((e) => e.event)).toEqual(['imported', 'categorised', 'transfer_paired']);
      expect((await b.trail(y)).map((e) => e.event)).toEqual(['imported', 'transfer_paired']);
      const view = await u.transactions.get(b.tenant, x.id);
      expect(view.transfer_pair_id).toBe(y.id);
      expect(view.pair_account_name).toBe(savingsFirst ? 'Checking ••1' : 'Savings ••1');
    }
  });

  it('a card payment from checking pairs without a keyword and goes to Credit Card Payments', async () => {
    const b = await books();
    const pay = await b.add(b.checking, -48_012, '2026-03-10', 'CHASE');
    const card = await b.add(b.card, 48_012, '2026-03-13', 'THANKS');
    await expectPaired(b, pay, card, 'Credit Card Payments');
    expect(await b.net(b.acct('Credit Card Payments'))).toBe(0);
    expect(await b.net(b.ledgerOf.card)).toBe(48_012);
  });

  it('a bare amount coincidence is not paired, but offered as a candidate', async () => {
    const b = await books();
    const out = await b.add(b.checking, -7_500, '2026-03-10', 'Grocery');
    const into = await b.add(b.savings, 7_500, '2026-03-11', 'Refund');
    expect((await b.row(out))?.transfer_pair_id).toBeNull();
    const c = await u.transfers.candidates(b.tenant, out.id);
    expect(c.data.map((x) => x.id)).toEqual([into.id]);
    expect(c.data[0]?.score).toBeLessThan(60);
    expect(c.data[0]?.accountName).toBe('Savings ••1');
  });

  it('pairs within one batch and across batches, later sync, 5 days but not 6', async () => {
    const b = await books();
    const [a1, a2, , far] = await b.batch([
      { account: b.checking, cents: -10_000, date: '2026-04-01', name: 'Transfer to savings' },
      { account: b.savings, cents: 10_000, date: '2026-04-02', name: 'Transfer from checking' },
      { account: b.checking, cents: -20_000, date: '2026-04-01', name: 'Transfer to savings' },
      { account: b.checking, cents: -30_000, date: '2026-04-01', name: 'Transfer to savings' },
    ]);
    await expectPaired(b, a1 as Txn, a2 as Txn, 'Internal Transfers');
    const [late, tooLate] = await b.batch([
      { account: b.savings, cents: 20_000, date: '2026-04-06', name: 'Transfer from checking' },
      { account: b.savings, cents: 30_000, date: '2026-04-07', name: 'Transfer from checking' },
    ]);
    const [, second] = await rows<{ id: string }>(db.adminDb, 'select id from workspace_transactions where workspace_id = ? and amount_cents = -20000', [
      b.ws,
    ]).then((r) => [null, r[0]]);
    expect((await b.row(late as Txn))?.transfer_pair_id).toBe(second?.id);
    expect((await b.row(tooLate as Txn))?.transfer_pair_id).toBeNull();
    expect((await b.row(far as Txn))?.transfer_pair_id).toBeNull();
    expect(await b.net(b.acct('Internal Transfers'))).toBe(0);
  });

  it('with several candidates takes the closest date, and never pairs one transaction twice', async () => {
    const b = await books();
    const far = await b.add(b.savings, 5_000, '2026-05-01', 'Transfer');
    const near = await b.add(b.savings, 5_000, '2026-05-04', 'Transfer');
    const out1 = await b.add(b.checking, -5_000, '2026-05-05', 'Transfer');
    expect((await b.row(out1))?.transfer_pair_id).toBe(near.id);
    const out2 = await b.add(b.checking, -5_000, '2026-05-05', 'Transfer');
    expect((await b.row(out2))?.transfer_pair_id).toBe(far.id);
    const out3 = await b.add(b.checking, -5_000, '2026-05-05', 'Transfer');
    expect((await b.row(out3))?.transfer_pair_id).toBeNull();
  });

  it('leaves a transaction the user categorised, and a finalized one alone', async () => {
    const b = await books();
    const rent = await b.add(b.savings, 9_900, '2026-05-01', 'Transfer');
    await u.transactions.updateCategory(b.tenant, rent.id, b.acct('Sales'));
    const fin = await b.add(b.savings, 9_900, '2026-05-01', 'Transfer');
    await u.transactions.finalize(b.tenant, [fin.id], true);
    const out = await b.add(b.checking, -9_900, '2026-05-02', 'Transfer');
    expect((await b.row(out))?.transfer_pair_id).toBeNull();
  });
});

describe('concurrency', () => {
  it('two sides booked at once by two consumers never both pair with a third', async () => {
    for (let round = 0; round < 5; round++) {
      const b = await books();
      const third = await b.add(b.checking, -12_345, '2026-06-01', 'Online transfer');
      const one = () => b.batch([{ account: b.savings, cents: 12_345, date: '2026-06-01', name: 'Online transfer' }]);
      const two = () => b.add(b.card, 12_345, '2026-06-02', 'Payment thank you');
      const [[x], y] = await Promise.all([one(), two()]);
      const pairs = [(await b.row(x as Txn))?.transfer_pair_id, (await b.row(y))?.transfer_pair_id].filter((p) => p !== null);
      expect(pairs).toEqual([third.id]);
      const [n] = await rows<{ n: number }>(db.adminDb, 'select count(*)::int as n from workspace_transactions where transfer_pair_id = ?', [third.id]);
      expect(n?.n).toBe(1);
      expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
    }
  });

  it('two sides booked at once in two transactions find each other', async () => {
    for (let round = 0; round < 5; round++) {
      const b = await books();
      const [x, y] = await Promise.all([
        b.add(b.checking, -4_200, '2026-06-01', 'Transfer'),
        b.batch([{ account: b.savings, cents: 4_200, date: '2026-06-01', name: 'Transfer' }]).then((r) => r[0] as Txn),
      ]);
      await expectPaired(b, x, y, 'Internal Transfers');
    }
  });
});

describe('by hand', () => {
  it('categorising to a Transfer account makes a one-sided transfer to review; candidates; pair; un-pair dismisses', async () => {
    const b = await books();
    const out = await b.add(b.checking, -3_000, '2026-07-01', 'Venmo');
    const into = await b.add(b.savings, 3_000, '2026-07-03', 'Deposit');
    await u.transactions.updateCategory(b.tenant, out.id, b.acct('Internal Transfers'));
    const review = await u.transactions.list(b.tenant, {
      accountIds: [],
      startDate: '',
      endDate: '',
      billerIds: [],
      categoryIds: [],
      description: '',
      flow: '',
      finalization: '',
      order: '',
      transferStatus: 'review',
    });
    expect(review.data.map((t) => t.id)).toEqual([out.id]);
    // A Transfer transaction is not editable except by un-pairing.
    await expect(u.transactions.updateCategory(b.tenant, out.id, b.acct('Sales'))).rejects.toMatchObject({
      message: 'Transfer transactions cannot be edited. Unpair the transfer first.',
      appErrorCode: 'TRANSACTION_TRANSFER',
    });
    const c = await u.transfers.candidates(b.tenant, out.id);
    expect(c.data[0]?.id).toBe(into.id);
    const paired = await u.transfers.pair(b.tenant, out.id, into.id);
    expect(paired.message).toBe('Transfer has been paired.');
    expect(paired.transactions.map((t) => t.transfer_pair_id)).toEqual([into.id, out.id]);
    await expectPaired(b, out, into, 'Internal Transfers');
    const listed = await u.transactions.list(b.tenant, {
      accountIds: [],
      startDate: '',
      endDate: '',
      billerIds: [],
      categoryIds: [],
      description: '',
      flow: '',
      finalization: '',
      order: '',
      transferStatus: 'paired',
    });
    expect(listed.data.map((t) => t.id).sort()).toEqual([out.id, into.id].sort());
    await expect(u.transfers.pair(b.tenant, out.id, into.id)).rejects.toMatchObject({ appErrorCode: 'TRANSFER_ALREADY_PAIRED' });

    const un = await u.transfers.unpair(b.tenant, into.id);
    expect(un.message).toBe('Transfer has been unpaired.');
    expect((await b.row(out))?.category_id).toBe(b.acct('Uncategorised Expense'));
    expect((await b.row(into))?.category_id).toBe(b.acct('Uncategorised Income'));
    expect((await b.row(out))?.transfer_pair_id).toBeNull();
    expect((await b.trail(into)).map((e) => e.event)).toEqual(['imported', 'transfer_paired', 'transfer_unpaired']);
    expect(await b.net(b.acct('Internal Transfers'))).toBe(0);
    // Dismissed: neither a modification of one side nor the candidates bring the pair back.
    await b.modify(into, 3_000, '2026-07-03', 'Online transfer from checking');
    expect((await b.row(into))?.transfer_pair_id).toBeNull();
    expect((await u.transfers.candidates(b.tenant, out.id)).data).toEqual([]);
    await expect(u.transfers.unpair(b.tenant, out.id)).rejects.toMatchObject({ appErrorCode: 'TRANSACTION_NOT_TRANSFER' });
    expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
  });

  it('refuses a counterpart that is no counterpart, naming the field; another workspace is 404', async () => {
    const b = await books();
    const other = await books();
    const out = await b.add(b.checking, -1_000, '2026-07-01', 'x');
    const wrongAmount = await b.add(b.savings, 1_001, '2026-07-01', 'y');
    const sameAccount = await b.add(b.checking, 1_000, '2026-07-01', 'z');
    const tooFar = await b.add(b.savings, 1_000, '2026-07-07', 'w');
    const foreign = await other.add(other.savings, 1_000, '2026-07-01', 'v');
    const field = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as AppError).fields?.map((f) => `${f.field}: ${f.message}`);
    expect(await field(u.transfers.pair(b.tenant, out.id, wrongAmount.id))).toEqual([
      'counterpartTransactionId: counterpartTransactionId must have the opposite amount of the transaction',
    ]);
    expect(await field(u.transfers.pair(b.tenant, out.id, sameAccount.id))).toEqual([
      'counterpartTransactionId: counterpartTransactionId must be in another bank account',
    ]);
    expect(await field(u.transfers.pair(b.tenant, out.id, tooFar.id))).toEqual([
      'counterpartTransactionId: counterpartTransactionId must be dated within 5 days of the transaction',
    ]);
    expect(await field(u.transfers.pair(b.tenant, out.id, out.id))).toEqual(['counterpartTransactionId: counterpartTransactionId must be another transaction']);
    expect(await field(u.transfers.pair(b.tenant, 'nope', ''))).toEqual([
      'transactionId: transactionId must be a UUID',
      'counterpartTransactionId: counterpartTransactionId is required',
    ]);
    await expect(u.transfers.pair(b.tenant, out.id, foreign.id)).rejects.toMatchObject({ kind: 'NOT_FOUND' });
    await expect(u.transfers.candidates(b.tenant, foreign.id)).rejects.toMatchObject({ kind: 'NOT_FOUND' });
    await expect(u.transfers.pair({ ...b.tenant, role: 'Viewer' as never }, out.id, foreign.id)).rejects.toMatchObject({ appErrorCode: 'FORBIDDEN' });
    // The spec's order: finalized comes before Transfer.
    await u.transfers.pair(b.tenant, out.id, (await b.add(b.savings, 1_000, '2026-07-02', 'u')).id);
    await u.transactions.finalize(b.tenant, [out.id], true);
    await expect(u.transactions.updateCategory(b.tenant, out.id, b.acct('Sales'))).rejects.toMatchObject({ appErrorCode: 'TRANSACTION_FINALIZED' });
    await expect(u.transfers.unpair(b.tenant, out.id)).rejects.toMatchObject({ appErrorCode: 'TRANSACTION_FINALIZED' });
  });
});

describe('transfers to review (one-sided)', () => {
  it('a card payment whose checking account is not linked goes to Credit Card Payments to review; "not a transfer" books it back for good; a wire fee is no transfer', async () => {
    const b = await books();
    const payment = await b.add(b.card, 48_000, '2026-09-05', 'AUTOPAY PAYMENT - THANK YOU');
    const fee = await b.add(b.checking, -2_500, '2026-09-05', 'Wire transfer fee');
    const refund = await b.add(b.card, 3_000, '2026-09-06', 'Amazon refund');
    expect((await b.row(payment))?.category_id).toBe(b.acct('Credit Card Payments'));
    expect((await b.row(payment))?.transfer_pair_id).toBeNull();
    expect(await incomeExpenseNet(b, [payment.id])).toBe(0);
    expect((await b.row(fee))?.category_id).toBe(b.acct('Uncategorised Expense'));
    expect((await b.row(refund))?.category_id).toBe(b.acct('Uncategorised Income'));
    const review = await u.transactions.list(b.tenant, {
      accountIds: [],
      startDate: '',
      endDate: '',
      billerIds: [],
      categoryIds: [],
      description: '',
      flow: '',
      finalization: '',
      order: '',
      transferStatus: 'review',
      page: 1,
      take: 20,
    } as never);
    expect(review.data.map((t: { id: string }) => t.id)).toEqual([payment.id]);
    // The user says it is not a transfer: back to Uncategorised Income, and detection leaves it alone after.
    await u.transfers.unpair(b.tenant, payment.id);
    expect((await b.row(payment))?.category_id).toBe(b.acct('Uncategorised Income'));
    await b.modify(payment, 48_000, '2026-09-06', 'AUTOPAY PAYMENT - THANK YOU');
    expect((await b.row(payment))?.category_id).toBe(b.acct('Uncategorised Income'));
    expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
  });

  it('a transfer to review pairs when its other side arrives in a later sync', async () => {
    const b = await books();
    const out = await b.add(b.checking, -12_000, '2026-10-01', 'Online Transfer to Savings ...1111');
    expect((await b.row(out))?.category_id).toBe(b.acct('Internal Transfers'));
    expect(await b.net(b.acct('Internal Transfers'))).toBe(12_000);
    const [into] = await b.batch([{ account: b.savings, cents: 12_000, date: '2026-10-03', name: 'Online Transfer from Checking ...0000' }]);
    await expectPaired(b, out, into!, 'Internal Transfers');
    expect(await b.net(b.acct('Internal Transfers'))).toBe(0);
  });
});

describe('bank modifications', () => {
  it('a paired transfer whose amount changes is un-paired (not dismissed) and matched again', async () => {
    const b = await books();
    const out = await b.add(b.checking, -6_000, '2026-08-01', 'Transfer to savings');
    const into = await b.add(b.savings, 6_000, '2026-08-02', 'Transfer from checking');
    await expectPaired(b, out, into, 'Internal Transfers');
    await b.modify(out, -6_500, '2026-08-01', 'Transfer to savings');
    expect((await b.row(out))?.transfer_pair_id).toBeNull();
    // No longer a pair, but each still says it is a transfer: both to review, the $5 between them left in Internal Transfers.
    expect((await b.row(out))?.category_id).toBe(b.acct('Internal Transfers'));
    expect((await b.row(into))?.category_id).toBe(b.acct('Internal Transfers'));
    expect(await incomeExpenseNet(b, [out.id, into.id])).toBe(0);
    expect(await b.net(b.acct('Internal Transfers'))).toBe(500);
    // Back to the old amount: not dismissed, so they pair again.
    await b.modify(out, -6_000, '2026-08-01', 'Transfer to savings');
    await expectPaired(b, out, into, 'Internal Transfers');
    // A date change within the window keeps the pair.
    await b.modify(into, 6_000, '2026-08-04', 'Transfer from checking');
    await expectPaired(b, out, into, 'Internal Transfers');
    // A removal un-pairs the other side.
    await b.remove(out);
    expect((await b.row(into))?.transfer_pair_id).toBeNull();
    expect((await b.row(into))?.category_id).toBe(b.acct('Internal Transfers'));
    expect(await b.net(b.acct('Internal Transfers'))).toBe(-6_000);
    expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
  });

  it('flipping the sign of an accrued transaction books the un-accrued amount on the Uncategorised side of its new sign', async () => {
    const b = await books();
    const t = await b.add(b.checking, 12_000, '2026-01-15', 'Annual contract');
    await u.accruals.create(b.tenant, {
      transactionId: t.id,
      accrualStartDate: '2026-01-01',
      accrualEndDate: '2026-03-31',
      accrualCategory: 'Deferred Revenue',
      recogniseCategoryId: b.acct('Sales'),
    } as never);
    await b.modify(t, -12_000, '2026-01-15', 'Annual contract');
    expect((await b.row(t))?.category_id).toBe(b.acct('Uncategorised Expense'));
    expect(await b.net(b.acct('Uncategorised Income'))).toBe(0);
    expect(await b.net(b.acct('Uncategorised Expense'))).toBe(12_000);
    expect(await b.net(b.acct('Deferred Revenue'))).toBe(0);
    expect(await b.net(b.acct('Sales'))).toBe(0);
    expect(await b.net(b.ledgerOf.checking)).toBe(-12_000);
    // A category the user chose stays through a sign flip.
    const s = await b.add(b.checking, -500, '2026-01-20', 'Office');
    await u.transactions.updateCategory(b.tenant, s.id, b.acct('Office Supplies'));
    await b.modify(s, 500, '2026-01-20', 'Office');
    expect((await b.row(s))?.category_id).toBe(b.acct('Office Supplies'));
  });
});
