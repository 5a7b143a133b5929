// Books that tie to the bank (issue #12, Build 1 and 2) on the real stack: identity, banking with the Plaid
// sandbox, the ledger and the gateway on one bus. Link First Platypus Bank (checking, savings, card), wait
// until the books caught up: GET /accounts says every account matches, books = bank. Then the bank modifies
// (a sign flip among them), removes and adds transactions, a pending one posts, older history arrives late,
// POST /transactions/sync, and it matches again. The tests compare the books with whatever the bank reports.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUpUser, startSystem, type System } from '../support/system.js';

const PLATYPUS = 'ins_109508'; // checking, savings and a credit card

let system: System;

beforeAll(async () => {
  system = await startSystem({ banking: true, ledger: true });
});
afterAll(async () => system?.stop());

interface TieOut {
  status: string;
  bankBalance: number;
  booksBalance: number;
  pendingAmount: number;
  difference: number;
  asOf: string | null;
  ledgerAccountId: string;
}
interface Account {
  id: string;
  type: string;
  subtype: string;
  vendorAccountId: string;
  currentBalance: number | null;
  lastSyncedAt: string | null;
  dateStartAt: string | null;
  tieOut: TieOut | null;
}
interface Answer {
  accounts: Account[];
  tieOut: { bankTotal: number; booksTotal: number; difference: number; status: string } | null;
}

const cents = (x: number) => Math.round(x * 100);

/** Waits until no sync job runs and every account's tie-out is settled (not catching up). */
async function caughtUp(token: string, expectedAccounts: number): Promise<Answer> {
  return expectEventually(
    async () => {
      const jobs = await system.api('GET', '/jobs', { token });
      expect(jobs.body.jobs.filter((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status))).toEqual([]);
      const r = await system.api('GET', '/accounts', { token });
      expect(r.status).toBe(200);
      const body = r.body as Answer;
      expect(body.accounts).toHaveLength(expectedAccounts);
      for (const a of body.accounts) expect(a.tieOut?.status, a.subtype).not.toBe('catching_up');
      for (const a of body.accounts) expect(a.tieOut?.status, a.subtype).not.toBe('unknown');
      return body;
    },
    { timeoutMs: 90_000, intervalMs: 300 },
  );
}

/** Every account ties out: books = the bank's balance that GET /accounts shows, as of its lastSyncedAt. */
async function expectTiesOut(token: string, body: Answer) {
  const categories = (await system.api('GET', '/categories', { token })).body.categories as {
    id: string;
    bankAccountId: string | null;
    balance: number;
    type: string;
  }[];
  for (const a of body.accounts) {
    const t = a.tieOut!;
    expect(t, a.subtype).toMatchObject({ status: 'matches', difference: 0, asOf: a.lastSyncedAt });
    expect(cents(t.bankBalance), a.subtype).toBe(cents(a.currentBalance!));
    expect(cents(t.booksBalance), a.subtype).toBe(cents(a.currentBalance!));
    // The ledger account the tie-out names books this account; its balance in the chart is the cleared
    // balance plus what is pending.
    const category = categories.find((c) => c.id === t.ledgerAccountId);
    expect(category?.bankAccountId).toBe(a.id);
    expect(cents(category!.balance)).toBe(cents(t.booksBalance) + cents(t.pendingAmount));
  }
  const held = (a: Account) => (a.type === 'credit' ? -1 : 1) * cents(a.currentBalance!);
  expect(body.tieOut).toMatchObject({ status: 'matches', difference: 0 });
  expect(cents(body.tieOut!.bankTotal)).toBe(body.accounts.reduce((s, a) => s + held(a), 0));
  expect(cents(body.tieOut!.booksTotal)).toBe(cents(body.tieOut!.bankTotal));
}

describe('books tie to the bank', () => {
  it('after linking, and again after the bank modifies, removes, adds, posts pending and sends late history', async () => {
    const { token } = await signedUpUser(system);
    const plaid = system.plaid!;
    const publicToken = plaid.createPublicToken({
      institution_id: PLATYPUS,
      initial_products: ['transactions'],
      options: { ledgerline: { transactions: 150, seed: 21, pending_days: 4, initial_webhook: false } },
    });
    const item = plaid.listItems().at(-1)!;
    const institution = plaid.institutions().find((i) => i.institutionId === PLATYPUS)!;
    const accounts = item.accounts.map((a) => ({
      id: a.account_id,
      name: a.name,
      mask: a.mask,
      type: a.subtype === 'credit card' ? 'credit' : 'depository',
      subtype: a.subtype,
    }));
    expect(accounts.map((a) => a.subtype).sort()).toEqual(['checking', 'credit card', 'savings']);
    const linked = await system.api('POST', '/accounts', {
      token,
      body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId } },
    });
    expect(linked.status).toBe(200);

    const first = await caughtUp(token, 3);
    await expectTiesOut(token, first);

    // The bank changes its history.
    const checking = item.accounts.find((a) => a.subtype === 'checking')!;
    const card = item.accounts.find((a) => a.subtype === 'credit card')!;
    const raw = (
      await system.api('GET', `/bank-transactions?take=100&accountId=${first.accounts.find((a) => a.vendorAccountId === checking.account_id)!.id}`, { token })
    ).body.data as { externalId: string; amount: number; pending: boolean }[];
    const ids = raw.filter((t) => !t.pending).map((t) => t.externalId);
    expect(ids.length).toBeGreaterThan(3);
    const flip = plaid.getTransaction(item.item_id, ids[0]!)!;
    await plaid.modifyTransactions(item.item_id, {
      transactions: [
        { transaction_id: flip.transaction_id, amount: -flip.amount },
        { transaction_id: ids[1]!, amount: 12.34 },
      ],
      webhook: false,
    });
    await plaid.removeTransactions(item.item_id, { transaction_ids: [ids[2]!], webhook: false });
    await plaid.addTransactions(item.item_id, {
      transactions: [
        { account_id: checking.account_id, amount: -1_500, name: 'Customer payment' },
        { account_id: card.account_id, amount: 42.5, name: 'Late card history', date: '2020-02-03' },
      ],
      webhook: false,
    });
    await plaid.postPendingTransactions(item.item_id, { webhook: false });

    const anyAccount = first.accounts[0]!.id;
    const sync = await system.api('POST', '/transactions/sync', { token, body: { accountId: anyAccount } });
    expect(sync.status).toBe(200);
    const second = await expectEventually(
      async () => {
        const body = await caughtUp(token, 3);
        // The new sync's snapshot is in: it is later than the first one's.
        for (const a of body.accounts)
          expect(Date.parse(a.tieOut!.asOf!)).toBeGreaterThan(Date.parse(first.accounts.find((x) => x.id === a.id)!.tieOut!.asOf!));
        return body;
      },
      { timeoutMs: 90_000, intervalMs: 300 },
    );
    await expectTiesOut(token, second);
    const cardAfter = second.accounts.find((a) => a.vendorAccountId === card.account_id)!;
    expect(cardAfter.dateStartAt).toBe('2020-02-03');
  }, 240_000);
});
