// The books from the real events: identity's workspace.created seeds the chart, banking's sync from the
// Plaid sandbox books every bank transaction, and each bank account's ledger balance equals
// its opening balance (derived from the bank's balance, issue #12) plus the sum of its bank transactions
// (RELIABILITY 5's invariant, without the crash), which is the bank's current balance.
import { expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUpUser, startSystem, type System } from '../support/system.js';

const PLATYPUS = 'ins_109508'; // checking, savings and a credit card

let system: System;

beforeAll(async () => {
  system = await startSystem({ banking: true, ledger: true });
});
afterAll(async () => system?.stop());

describe('the ledger on the real event stream', () => {
  it('seeds the chart on sign-up and books every synced bank transaction; bank balances in the ledger equal the bank', async () => {
    const { token, user } = await signedUpUser(system);
    const workspace = user.workspace.id;
    const ledgerDb = system.ledgerDb?.adminDb;
    if (!ledgerDb || !system.plaid) throw new Error('the system runs without banking or the ledger');
    // workspace.created from identity (through its outbox and NATS) seeded the chart, with the workspace's name.
    await expectEventually(async () =>
      expect(await ledgerDb('ledger_workspaces').where({ workspace_id: workspace }).first()).toMatchObject({ name: 'Analytical Co' }),
    );
    const categories = await system.api('GET', '/categories', { token });
    expect(categories.body.categories.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['Uncategorised Income', 'Uncategorised Expense']));

    const plaid = system.plaid;
    const publicToken = plaid.createPublicToken({
      institution_id: PLATYPUS,
      initial_products: ['transactions'],
      options: { ledgerline: { transactions: 120, seed: 7, initial_webhook: false } },
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
    const linked = await system.api('POST', '/accounts', {
      token,
      body: { publicToken, accounts, institution: { name: institution.name, institution_id: institution.institutionId } },
    });
    expect(linked.status).toBe(200);

    // Banking's raw transactions, per account, once its sync jobs are done.
    const bankSums = await expectEventually(
      async () => {
        const jobs = await system.api('GET', '/jobs', { token });
        expect(jobs.body.jobs.filter((j: { status: string }) => ['waiting', 'delayed', 'active'].includes(j.status))).toEqual([]);
        const sums = new Map<string, number>();
        let count = 0;
        for (let page = 1; ; page++) {
          const r = await system.api('GET', `/bank-transactions?take=100&page=${page}`, { token });
          for (const t of r.body.data as { accountId: string; amount: number }[])
            sums.set(t.accountId, (sums.get(t.accountId) ?? 0) + Math.round(t.amount * 100));
          count += r.body.data.length;
          if (r.body.data.length < 100) break;
        }
        expect(count).toBeGreaterThan(0);
        return { sums, count };
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );

    const ledger = await expectEventually(
      async () => {
        const r = await system.api('GET', '/transactions/v2?take=1', { token });
        expect(r.body.meta.itemCount).toBe(bankSums.count);
        return (await system.api('GET', '/categories', { token })).body.categories as { bankAccountId: string | null; balance: number; type: string }[];
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(ledger.filter((c) => c.bankAccountId).length).toBe(accounts.length);
    // Issue #12: each bank account also carries the opening balance the bank implies (bank_account.synced,
    // its own subject: it may land after the transactions), so its ledger balance is the bank's current one.
    await expectEventually(
      async () => {
        const listed = (await system.api('GET', '/accounts', { token })).body.accounts as {
          id: string;
          currentBalance: number;
          tieOut: { status: string; booksBalance: number; pendingAmount: number } | null;
        }[];
        const bankAccounts = new Map(listed.map((a) => [a.id, a]));
        const categories = (await system.api('GET', '/categories', { token })).body.categories as {
          id: string;
          bankAccountId: string | null;
          balance: number;
          type: string;
        }[];
        for (const account of categories.filter((c) => c.bankAccountId)) {
          // Assets are debit-normal (balance = money in); a card is a liability (balance = what is owed = −sum).
          const balanceCents = Math.round(account.balance * 100);
          const opening = (await system.api('GET', `/categories/${account.id}/opening-balance`, { token })).body.openingBalance as {
            openingBalance: number;
          } | null;
          expect(opening).not.toBeNull();
          const openingCents = Math.round(opening!.openingBalance * 100);
          const expected = bankSums.sums.get(account.bankAccountId as string) ?? 0;
          expect(account.type === 'Liability' ? -(balanceCents - openingCents) : balanceCents - openingCents).toBe(expected);
          // Cleared (not pending) books = the bank's current balance; the chart's balance holds the pending too.
          const bank = bankAccounts.get(account.bankAccountId as string);
          expect(bank?.tieOut?.status).toBe('matches');
          expect(Math.round(bank!.tieOut!.booksBalance * 100)).toBe(Math.round(bank!.currentBalance * 100));
          expect(balanceCents).toBe(Math.round((bank!.tieOut!.booksBalance + bank!.tieOut!.pendingAmount) * 100));
        }
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const [trial] = (
      await ledgerDb.raw(
        "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where workspace_id = ?",
        [workspace],
      )
    ).rows;
    expect(trial.s).toBe(0);
  }, 120_000);
});
