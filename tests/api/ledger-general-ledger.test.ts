// The general ledger's lines through the real gateway: fetchBankAccountTransaction on
// GET /ledger/get-ledger-transactions and GET /transactions/v2/{id} (spec §7), and deep pages.
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
  bankIds.set('Blue Bottle Coffee', await t.banking.add(checking, { amountCents: -4_550, date: '2026-09-03', name: 'Blue Bottle Coffee', merchantName: 'Blue Bottle' }));
  bankIds.set('Office rent September', await t.banking.add(checking, { amountCents: -120_000, date: '2026-09-05', name: 'Office rent September', merchantName: 'WeWork' }));
  const o = await other.banking.link();
  await other.banking.add(o, { amountCents: -777, date: '2026-09-02', name: 'Foreign' });
  await h.transactions(t, 3);
  await h.transactions(other, 1);
  checkingLedgerId = (await categories(t)).find((c) => c.name === 'Checking ••1234')!.id;
});
afterAll(async () => h?.close());

describe('fetchBankAccountTransaction', () => {
  it('GET /ledger/get-ledger-transactions: each line carries the bank transaction it books, in the shape the drawer opens; without the flag nothing is added', async () => {
    const txns = (await h.api('GET', '/transactions/v2?take=100', { tenant: t })).body.data as { id: string; amount: number; biller: { name: string } | null; memo: string; }[];
    const r = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${checkingLedgerId}&fetchBankAccountTransaction=true`, { tenant: t });
    expect(r.status).toBe(200);
    const [opening, ...lines] = r.body.data;
    expect(opening).toMatchObject({ isOpeningBalance: true, bankAccountTransaction: null });
    expect(lines.map((l: { description: string }) => l.description)).toEqual(['Stripe payout', 'Blue Bottle Coffee', 'Office rent September']);
    for (const line of lines) {
      const txn = txns.find((x) => x.id === line.transactionId)!;
      expect(line.bankAccountTransaction).toEqual({
        id: txn.id, bankTransactionId: bankIds.get(line.description), dateTime: line.dateTime, amount: txn.amount, isoCurrencyCode: 'USD',
        name: line.description, memo: txn.memo, biller: txn.biller ? expect.objectContaining({ name: txn.biller.name }) : null,
        bankAccountId: checking, bankLedgerAccountId: checkingLedgerId, bankAccountName: 'Checking ••1234', categoryId: expect.any(String), isTransactionFinalized: false, pending: false,
      });
    }
    expect(lines[1].bankAccountTransaction).toMatchObject({ amount: -45.5, biller: { name: 'Blue Bottle' } });
    // The category side books the same bank transactions.
    const coffeeCategory = (await h.api('GET', `/transactions/v2/${lines[1].transactionId}`, { tenant: t })).body.category.id;
    const cat = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${coffeeCategory}&fetchBankAccountTransaction=true`, { tenant: t });
    expect(cat.body.data.filter((l: { isOpeningBalance: boolean }) => !l.isOpeningBalance).map((l: { bankAccountTransaction: { id: string } }) => l.bankAccountTransaction.id)).toContain(lines[1].transactionId);

    const plain = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${checkingLedgerId}`, { tenant: t });
    expect(plain.body.data.every((l: object) => !('bankAccountTransaction' in l))).toBe(true);
    const bad = await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${checkingLedgerId}&fetchBankAccountTransaction=sometimes`, { tenant: t });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('fetchBankAccountTransaction');
  });

  it('GET /transactions/v2/{id}?fetchBankAccountTransaction=true adds the bank transaction; another workspace\'s id is 404', async () => {
    const [first] = (await h.api('GET', '/transactions/v2?take=1', { tenant: t })).body.data;
    const r = await h.api('GET', `/transactions/v2/${first.id}?fetchBankAccountTransaction=true`, { tenant: t });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: first.id, bankAccountTransaction: { id: first.id, amount: first.amount, bankAccountId: checking, bankAccountName: 'Checking ••1234' } });
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
