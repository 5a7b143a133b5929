// The reports on the whole product as `npm start` wires it (scripts/lib/stack.ts): a real sign-up, a bank
// linked through the Plaid sandbox and synced by banking, booked by the ledger, projected by reporting.
// The balance sheet's bank balances equal the bank's, the P&L's net income equals the bank transactions
// that are not transfers (all still uncategorised income and expense), and the balance sheet balances.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedUpUser, startSystem, type System } from '../support/system.js';

const PLATYPUS = 'ins_109508'; // checking, savings and a credit card

let system: System;

beforeAll(async () => {
  system = await startSystem({ banking: true, ledger: true, reporting: true });
});
afterAll(async () => system?.stop());

interface Row {
  id: string | null;
  name: string;
  amounts: number[];
  total: number;
  children: Row[];
}
const all = (rows: Row[]): Row[] => rows.flatMap((r) => [r, ...all(r.children)]);

it('a synced bank shows in the P&L and the balance sheet, which balances', async () => {
  const { token } = await signedUpUser(system);
  const plaid = system.plaid;
  if (!plaid) throw new Error('the system runs without banking, the ledger or reporting');
  const publicToken = plaid.createPublicToken({
    institution_id: PLATYPUS,
    initial_products: ['transactions'],
    options: { ledgerline: { transactions: 60, seed: 11, initial_webhook: false } },
  });
  const item = plaid.listItems().at(-1);
  const institution = plaid.institutions().find((i) => i.institutionId === PLATYPUS);
  if (!item || !institution) throw new Error('the sandbox made no item');
  const accounts = item.accounts.map((a) => ({
    id: a.account_id,
    name: a.name,
    mask: a.mask,
    type: a.subtype === 'credit card' ? 'credit' : 'depository',
    subtype: a.subtype,
  }));
  expect(
    (
      await system.api('POST', '/accounts', {
        token,
        body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId } },
      })
    ).status,
  ).toBe(200);

  const bank = await expectEventually(
    async () => {
      const jobs = await system.api('GET', '/jobs', { token });
      expect(jobs.body.jobs.filter((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status))).toEqual([]);
      const out: { accountId: string; amount: number }[] = [];
      for (let page = 1; ; page++) {
        const r = await system.api('GET', `/bank-transactions?take=100&page=${page}`, { token });
        out.push(...(r.body.data as { accountId: string; amount: number }[]));
        if (r.body.data.length < 100) break;
      }
      expect(out.length).toBeGreaterThan(0);
      return out;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  await expectEventually(async () => expect((await system.api('GET', '/transactions/v2?take=1', { token })).body.meta.itemCount).toBe(bank.length), {
    timeoutMs: 60_000,
    intervalMs: 250,
  });

  const cents = (x: number) => Math.round(x * 100);
  // Every bank transaction that is not a transfer between the linked accounts sits in Uncategorised Income
  // (money in) or Expense (money out): net income is their sum. Paired transfers and card payments are not income.
  const booked: { amount: number; category: { type: string } | null }[] = [];
  for (let page = 1; ; page++) {
    const r = await system.api('GET', `/transactions/v2?take=100&page=${page}`, { token });
    booked.push(...(r.body.data as typeof booked));
    if (r.body.data.length < 100) break;
  }
  const net = booked.filter((t) => t.category?.type !== 'Transfer').reduce((s, t) => s + cents(t.amount), 0);
  await expectEventually(
    async () => {
      const pl = await system.api('GET', '/financial-data/profit-loss/v3?startDate=2000-01-01&periodicity=totals_only', { token });
      expect(pl.status).toBe(200);
      const rows = all(pl.body.report.data as Row[]);
      expect(cents(rows.find((r) => r.name === 'Net Income')?.total ?? NaN)).toBe(net);
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  // The books tie to the bank: each account's cleared books balance equals the bank's current balance.
  const tied = await expectEventually(
    async () => {
      const r = await system.api('GET', '/accounts', { token });
      const listed = r.body.accounts as { id: string; tieOut: { status: string; bankBalance: number; booksBalance: number; pendingAmount: number } | null }[];
      expect(listed.map((a) => a.tieOut?.status)).toEqual(listed.map(() => 'matches'));
      return listed;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  const sheet = await system.api('GET', '/financial-data/balance-sheet/v2?startDate=2000-01-01&periodicity=totals_only', { token });
  expect(sheet.status).toBe(200);
  const rows = all(sheet.body.data as Row[]);
  expect(rows.find((r) => r.name === 'Total Assets')?.total).toBe(rows.find((r) => r.name === 'Total Liabilities and Equity')?.total);
  // Each bank account's balance in the report equals the bank's current balance plus what is still pending
  // (a card: what is owed), in the account's normal direction.
  const categories = (await system.api('GET', '/categories', { token })).body.categories as { id: string; bankAccountId: string | null; type: string }[];
  expect(categories.filter((x) => x.bankAccountId)).toHaveLength(accounts.length);
  for (const c of categories.filter((x) => x.bankAccountId)) {
    const t = tied.find((a) => a.id === c.bankAccountId)?.tieOut;
    if (!t) throw new Error(`no tie-out for ${c.bankAccountId}`);
    expect(cents(rows.find((r) => r.id === c.id)?.total ?? 0)).toBe(cents(t.bankBalance) + cents(t.pendingAmount));
  }
}, 120_000);
