// The general ledger's lines through the real gateway: fetchBankAccountTransaction on
// GET /ledger/get-ledger-transactions and GET /transactions/v2/{id} (spec §7), and deep pages.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerHarness, type LedgerApiHarness, type Tenant } from './ledger.harness.js';

let h: LedgerApiHarness;
let t: Tenant;
let other: Tenant;
let checking: string;
let checkingLedgerId: string;
const bankIds = new Map<string, string>();

const categories = async (tenant: Tenant): Promise<{ id: string; name: string }[]> => (await h.api('GET', '/categories', { tenant })).body.categories;

beforeAll(async () => {
  h = await startLedgerHarness();
  t = h.tenant();
  other = h.tenant();
  checking = await t.banking.link();
  bankIds.set('Stripe payout', await t.banking.add(checking, { amountCents: 250_000, date: '2026-09-01', name: 'Stripe payout', merchantName: 'Stripe' }));
  bankIds.set(
    'Blue Bottle Coffee',
    await t.banking.add(checking, { amountCents: -4_550, date: '2026-09-03', name: 'Blue Bottle Coffee', merchantName: 'Blue Bottle' }),
  );
  bankIds.set(
    'Office rent September',
    await t.banking.add(checking, { amountCents: -120_000, date: '2026-09-05', name: 'Office rent September', merchantName: 'WeWork' }),
  );
  const o = await other.banking.link();
  await other.banking.add(o, { amountCents: -777, date: '2026-09-02', name: 'Foreign' });
  await h.transactions(t, 3);
  await h.transactions(other, 1);
  checkingLedgerId = (await categories(t)).find((c) => c.name === 'Checking ••1234')!.id;
});
afterAll(async () => h?.close());

describe('fetchBankAccountTransaction', () => {
  it('GET /ledger/get-ledger-transactions: each line carries the bank transaction it books, in the shape the drawer opens; without the flag nothing is added', async () => {
    const txns = (await h.api('GET', '/transactions/v2?take=100', { tenant: t })).body.data as {
      id: string;
      amount: number;
      biller: { name: string } | null;
      memo: string;
    }[];
    const r = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${checkingLedgerId}&fetchBankAccountTransaction=true`, { tenant: t });
    expect(r.status).toBe(200);
    const [opening, ...lines] = r.body.data;
    expect(opening).toMatchObject({ isOpeningBalance: true, bankAccountTransaction: null });
    expect(lines.map((l: { description: string }) => l.description)).toEqual(['Stripe payout', 'Blue Bottle Coffee', 'Office rent September']);
    for (const line of lines) {
      const txn = txns.find((x) => x.id === line.transactionId)!;
      expect(line.bankAccountTransaction).toEqual({
        id: txn.id,
        bankTransactionId: bankIds.get(line.description),
        dateTime: line.dateTime,
        amount: txn.amount,
        isoCurrencyCode: 'USD',
        name: line.description,
        memo: txn.memo,
        biller: txn.biller ? expect.objectContaining({ name: txn.biller.name }) : null,
        bankAccountId: checking,
        bankLedgerAccountId: checkingLedgerId,
        bankAccountName: 'Checking ••1234',
        categoryId: expect.any(String),
        isTransactionFinalized: false,
        pending: false,
      });
    }
    expect(lines[1].bankAccountTransaction).toMatchObject({ amount: -45.5, biller: { name: 'Blue Bottle' } });
    // The category side books the same bank transactions.
    const coffeeCategory = (await h.api('GET', `/transactions/v2/${lines[1].transactionId}`, { tenant: t })).body.category.id;
    const cat = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${coffeeCategory}&fetchBankAccountTransaction=true`, { tenant: t });
    expect(
      cat.body.data
        .filter((l: { isOpeningBalance: boolean }) => !l.isOpeningBalance)
        .map((l: { bankAccountTransaction: { id: string } }) => l.bankAccountTransaction.id),
    ).toContain(lines[1].transactionId);

    const plain = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${checkingLedgerId}`, { tenant: t });
    expect(plain.body.data.every((l: object) => !('bankAccountTransaction' in l))).toBe(true);
    const bad = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${checkingLedgerId}&fetchBankAccountTransaction=sometimes`, { tenant: t });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('fetchBankAccountTransaction');
  });

  it("GET /transactions/v2/{id}?fetchBankAccountTransaction=true adds the bank transaction; another workspace's id is 404", async () => {
    const [first] = (await h.api('GET', '/transactions/v2?take=1', { tenant: t })).body.data;
    const r = await h.api('GET', `/transactions/v2/${first.id}?fetchBankAccountTransaction=true`, { tenant: t });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: first.id,
      bankAccountTransaction: { id: first.id, amount: first.amount, bankAccountId: checking, bankAccountName: 'Checking ••1234' },
    });
    expect('bankAccountTransaction' in (await h.api('GET', `/transactions/v2/${first.id}`, { tenant: t })).body).toBe(false);
    const foreign = (await h.api('GET', '/transactions/v2?take=1', { tenant: other })).body.data[0].id;
    expect((await h.api('GET', `/transactions/v2/${foreign}?fetchBankAccountTransaction=true`, { tenant: t })).status).toBe(404);
  });
});

describe('deep pages through the gateway', () => {
  it('every page of take 1 continues the running balance of the one before; meta counts every line', async () => {
    const url = (page: number) => `/ledger/get-ledger-transactions?ledgerAccountId=${checkingLedgerId}&take=1&page=${page}`;
    const first = await h.api('GET', url(1), { tenant: t });
    expect(first.body.meta).toMatchObject({ itemCount: 3, pageCount: 3 });
    const balances = [first.body.data[1].ledgerRunningBalance];
    for (let page = 2; page <= 3; page++) balances.push((await h.api('GET', url(page), { tenant: t })).body.data[0].ledgerRunningBalance);
    expect(balances).toEqual([2500, 2500 - 45.5, 2500 - 45.5 - 1200]);
  });
});

describe('the bank register (issue #12)', () => {
  it("a bank account's ledger shows one line per bank transaction with its current category after re-categorising and bank changes; pages of take 1, 2, 3 are exact; the categories keep every line; the history is in the audit log", async () => {
    const r = h.tenant();
    const account = await r.banking.link({ name: 'Register', mask: '7777' });
    const coffeeBank = await r.banking.add(account, { amountCents: -4_550, date: '2026-09-03', name: 'Blue Bottle Coffee' });
    const rentBank = await r.banking.add(account, { amountCents: -120_000, date: '2026-09-05', name: 'Office rent' });
    await r.banking.add(account, { amountCents: 250_000, date: '2026-09-01', name: 'Stripe payout' });
    const txns = (await h.transactions(r, 3)).data as { id: string; amount: number }[];
    const coffee = txns.find((x) => x.amount === -45.5)!.id;
    const rent = txns.find((x) => x.amount === -1200)!.id;
    const cats = await categories(r);
    const ledgerId = cats.find((c) => c.name === 'Register ••7777')!.id;
    const pick = (name: string) => cats.find((c) => c.name === name)!.id;
    const [meals, travel, software] = [pick('Meals and Entertainment'), pick('Travel'), pick('Software and Subscriptions')];
    for (const categoryId of [meals, travel, software])
      expect((await h.api('PATCH', `/transactions/${coffee}`, { tenant: r, body: { categoryId } })).status).toBe(200);
    // The bank changes the coffee's amount and moves the rent's date.
    await r.banking.modify(account, coffeeBank, { amountCents: -5_000, date: '2026-09-03', name: 'Blue Bottle Coffee' });
    await r.banking.modify(account, rentBank, { amountCents: -120_000, date: '2026-09-08', name: 'Office rent' });
    await expectEventually(
      async () => {
        const [c, d] = [
          (await h.api('GET', `/transactions/v2/${coffee}`, { tenant: r })).body,
          (await h.api('GET', `/transactions/v2/${rent}`, { tenant: r })).body,
        ];
        if (c.amount !== -50 || d.dateTime !== '2026-09-08') throw new Error(`not applied yet: ${c.amount} ${d.dateTime}`);
      },
      { timeoutMs: 20_000 },
    );

    const expected = [
      { dateTime: '2026-09-01', description: 'Stripe payout', ledgerAmount: 2500, ledgerRunningBalance: 2500 },
      {
        dateTime: '2026-09-03',
        description: 'Blue Bottle Coffee',
        ledgerAmount: -50,
        ledgerRunningBalance: 2450,
        transactionId: coffee,
        counterAccount: 'Software and Subscriptions',
      },
      { dateTime: '2026-09-08', description: 'Office rent', ledgerAmount: -1200, ledgerRunningBalance: 1250, transactionId: rent },
    ];
    for (const take of [1, 2, 3]) {
      const url = (page: number) => `/ledger/get-ledger-transactions?ledgerAccountId=${ledgerId}&take=${take}&page=${page}&fetchBankAccountTransaction=true`;
      const first = await h.api('GET', url(1), { tenant: r });
      expect(first.body.meta).toMatchObject({ itemCount: 3, pageCount: Math.ceil(3 / take) });
      expect(first.body.data[0]).toMatchObject({ isOpeningBalance: true, ledgerRunningBalance: 0 });
      const lines = first.body.data.slice(1);
      for (let page = 2; page <= first.body.meta.pageCount; page++) {
        const next = (await h.api('GET', url(page), { tenant: r })).body.data;
        expect(next).toHaveLength(Math.min(take, 3 - (page - 1) * take));
        lines.push(...next);
      }
      expect(lines).toMatchObject(expected);
      expect(new Set(lines.map((l: { id: string }) => l.id)).size).toBe(3);
      // Each line links to its transaction (the drawer's ?txn=) in its current category.
      for (const l of lines) {
        const txn = (await h.api('GET', `/transactions/v2/${l.transactionId}`, { tenant: r })).body;
        expect(l.bankAccountTransaction).toMatchObject({ id: l.transactionId, categoryId: txn.category.id });
        expect(l.counterAccount).toBe(txn.category.name);
      }
    }
    // The general ledger's row: the register's closing balance; its debits and credits count every posted line
    // (the hidden pairs add the same to both: 3 re-categorisations and the amount change of 45.50, the rent's move of 1,200).
    const row = (await h.api('GET', '/ledger/get-general-ledger', { tenant: r })).body.data.find(
      (a: { ledgerAccountId: string }) => a.ledgerAccountId === ledgerId,
    );
    expect(row).toMatchObject({ debit: 2500 + 4 * 45.5 + 1200, credit: 1250 + 4 * 45.5 + 1200, closingBalance: 1250 });
    // The categories keep every line (an accountant's audit trail): Meals and Travel each the booking and its reversal.
    for (const category of [meals, travel]) {
      const lines = (await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${category}`, { tenant: r })).body.data.slice(1);
      expect(lines.map((l: { ledgerAmount: number; transactionId: string }) => [l.transactionId, l.ledgerAmount])).toEqual([
        [coffee, 45.5],
        [coffee, -45.5],
      ]);
    }
    // The re-bookings are the transaction's history.
    const history = (await h.api('GET', `/transactions/audit-logs?transactionId=${coffee}&take=20`, { tenant: r })).body.data.map(
      (a: { event: string }) => a.event,
    );
    expect(history.filter((e: string) => e === 'categorised')).toHaveLength(3);
    expect(history).toContain('bank_modified');
  });
});
