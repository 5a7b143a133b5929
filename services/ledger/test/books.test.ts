import { createDb, newId, tablesMissingRls, withTenant } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHART } from '../src/domain/chart.js';
import { postEntry } from '../src/store/journal.js';
import { sumRange } from '../src/store/balances.js';
import { ensureChart } from '../src/store/chart-store.js';
import { bankingFor, publishedEntries, rows, startLedger, trialBalance, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;

beforeAll(async () => {
  bus = await createTestBus('ledger-books');
  ledger = await startLedger(bus);
});
afterAll(async () => {
  await ledger?.close();
  await bus?.close();
});

async function seeded(workspaceId: string) {
  await withTenant(ledger.db.appDb, { workspaceId }, (trx) => ensureChart(trx, workspaceId));
  return rows<{ id: string; system_key: string | null; coa_id: number }>(
    ledger.db.adminDb,
    'select id, system_key, coa_id from accounts where workspace_id = ?',
    [workspaceId],
  );
}

describe('schema', () => {
  it('has row-level security on every workspace table', async () => {
    expect(await tablesMissingRls(ledger.db.adminDb)).toEqual([]);
  });

  it('a query with no tenant set sees no rows; another tenant sees none of ours', async () => {
    const ws = newId();
    await seeded(ws);
    expect(await ledger.db.appDb('accounts').select('id')).toEqual([]);
    const other = await withTenant(ledger.db.appDb, { workspaceId: newId() }, (trx) => trx('accounts').where({ workspace_id: ws }));
    expect(other).toEqual([]);
  });

  it('refuses an unbalanced entry at commit, even from raw SQL', async () => {
    const ws = newId();
    const accounts = await seeded(ws);
    const [a, b] = accounts;
    await expect(
      withTenant(ledger.db.appDb, { workspaceId: ws }, async (trx) => {
        const id = newId();
        await trx('journal_entries').insert({ id, workspace_id: ws, entry_date: '2026-01-01', source_type: 'ManualEntry' });
        await trx('journal_lines').insert([
          { workspace_id: ws, entry_id: id, account_id: a?.id, direction: 'debit', amount_cents: 100, entry_date: '2026-01-01' },
          { workspace_id: ws, entry_id: id, account_id: b?.id, direction: 'credit', amount_cents: 99, entry_date: '2026-01-01' },
        ]);
      }),
    ).rejects.toThrow(/does not balance/);
    await expect(
      withTenant(ledger.db.appDb, { workspaceId: ws }, (trx) =>
        trx('journal_entries').insert({ id: newId(), workspace_id: ws, entry_date: '2026-01-01', source_type: 'ManualEntry' }),
      ),
    ).rejects.toThrow(/does not balance/);
    expect(await rows(ledger.db.adminDb, 'select * from journal_entries where workspace_id = ?', [ws])).toEqual([]);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of posted lines and entries as the application role; a second reversal is refused', async () => {
    const ws = newId();
    const [a, b] = await seeded(ws);
    const entryId = await withTenant(ledger.db.appDb, { workspaceId: ws }, (trx) =>
      postEntry(trx, {
        workspaceId: ws,
        date: '2026-01-02',
        sourceType: 'ManualEntry',
        description: 'x',
        lines: [
          { accountId: a?.id as string, direction: 'debit', amountCents: 500 },
          { accountId: b?.id as string, direction: 'credit', amountCents: 500 },
        ],
      }),
    );
    const inTenant = (sql: string) => withTenant(ledger.db.appDb, { workspaceId: ws }, (trx) => trx.raw(sql, [entryId]));
    await expect(inTenant('update journal_lines set amount_cents = 1 where entry_id = ?')).rejects.toThrow(/immutable/);
    await expect(inTenant('delete from journal_lines where entry_id = ?')).rejects.toThrow(/immutable/);
    await expect(inTenant("update journal_entries set description = 'y' where id = ?")).rejects.toThrow(/immutable/);
    await expect(inTenant('delete from journal_entries where id = ?')).rejects.toThrow(/immutable/);
    await expect(withTenant(ledger.db.appDb, { workspaceId: ws }, (trx) => trx.raw('truncate journal_lines'))).rejects.toThrow();
    const reverse = () =>
      withTenant(ledger.db.appDb, { workspaceId: ws }, (trx) =>
        postEntry(trx, {
          workspaceId: ws,
          date: '2026-01-02',
          sourceType: 'ManualEntry',
          description: 'rev',
          reversesEntryId: entryId,
          lines: [
            { accountId: a?.id as string, direction: 'credit', amountCents: 500 },
            { accountId: b?.id as string, direction: 'debit', amountCents: 500 },
          ],
        }),
      );
    await reverse();
    await expect(reverse()).rejects.toThrow(/journal_entries_one_reversal/);
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });

  it('refuses a coaId below 10000', async () => {
    const ws = newId();
    const [a] = await seeded(ws);
    await expect(
      withTenant(ledger.db.appDb, { workspaceId: ws }, (trx) =>
        trx('accounts').insert({ id: newId(), workspace_id: ws, name: 'x', coa_id: 9999, class_group: 'Assets', level: 2, parent_id: a?.id }),
      ),
    ).rejects.toThrow(/accounts_coa_id/);
  });
});

describe('events', () => {
  it('seeds the complete default chart on workspace.created, once', async () => {
    const ws = newId();
    const banking = bankingFor(bus, ws);
    await banking.workspaceCreated();
    await banking.workspaceCreated();
    const count = (node: { children?: unknown[] }): number => 1 + (node.children ?? []).reduce<number>((n, c) => n + count(c as { children?: unknown[] }), 0);
    const expected = Object.values(DEFAULT_CHART).reduce((n, node) => n + count(node), 0);
    const accounts = await expectEventually(async () => {
      const r = await rows<{ name: string; system_key: string | null; coa_id: number; level: number }>(
        ledger.db.adminDb,
        'select name, system_key, coa_id, level from accounts where workspace_id = ?',
        [ws],
      );
      expect(r.length).toBe(expected);
      return r;
    });
    const names = accounts.map((a) => a.name);
    for (const n of ['Uncategorised Income', 'Uncategorised Expense', 'Retained Earnings', 'Prepaid Expenses', 'Deferred Revenue']) expect(names).toContain(n);
    expect(accounts.every((a) => a.coa_id >= 10000)).toBe(true);
    expect(new Set(accounts.filter((a) => a.level === 1).map((a) => a.name))).toEqual(
      new Set(['Assets', 'Liability', 'Income', 'Expenses', 'Transfer', 'Equity']),
    );
  });

  it('books each bank transaction at once against its bank account and Uncategorised Income/Expense, publishing entry.posted', async () => {
    const ws = newId();
    const banking = bankingFor(bus, ws);
    const checking = await banking.link();
    const card = await banking.link({ name: 'Card', type: 'credit', subtype: 'credit card', mask: '9999' });
    await banking.add(checking, { amountCents: 150_000, name: 'Customer payment' });
    await banking.add(checking, { amountCents: -2_345, name: 'Coffee' });
    await banking.add(card, { amountCents: -9_900, name: 'SaaS' });
    const balances = await expectEventually(async () => {
      const r = await rows<{ name: string; system_key: string | null; class_group: string; d: number; c: number }>(
        ledger.db.adminDb,
        `
        select a.name, a.system_key, a.class_group, coalesce(sum(l.amount_cents) filter (where l.direction = 'debit'), 0)::bigint as d, coalesce(sum(l.amount_cents) filter (where l.direction = 'credit'), 0)::bigint as c
        from accounts a join journal_lines l on l.account_id = a.id where a.workspace_id = ? group by a.id`,
        [ws],
      );
      expect(r.length).toBe(4);
      return r;
    });
    const by = (name: string) => balances.find((b) => b.name === name);
    expect(by('Checking ••1234')).toMatchObject({ class_group: 'Assets', d: 150_000, c: 2_345 });
    expect(by('Card ••9999')).toMatchObject({ class_group: 'Liability', d: 0, c: 9_900 });
    expect(by('Uncategorised Income')).toMatchObject({ c: 150_000 });
    expect(by('Uncategorised Expense')).toMatchObject({ d: 2_345 + 9_900 });
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
    expect((await publishedEntries(ledger.db.adminDb, ws)).length).toBe(3);
  });

  it('applies a modification as reversal + new entry, ignores an older version and duplicates, and reverses a removal', async () => {
    const ws = newId();
    const banking = bankingFor(bus, ws);
    const acct = await banking.link();
    const id = await banking.add(acct, { amountCents: -1_000 });
    await expectEventually(async () => expect((await rows(ledger.db.adminDb, 'select 1 from journal_entries where workspace_id = ?', [ws])).length).toBe(1));
    await banking.modify(acct, id, { amountCents: -1_200, version: 3 });
    await banking.modify(acct, id, { amountCents: -9_999, version: 2 });
    await expectEventually(async () => {
      const [t] = await rows<{ amount_cents: number; version: number }>(
        ledger.db.adminDb,
        'select amount_cents, version from workspace_transactions where workspace_id = ?',
        [ws],
      );
      expect(t).toMatchObject({ amount_cents: -1_200, version: 3 });
    });
    const bankBalance = async () =>
      (
        await rows<{ s: number }>(
          ledger.db.adminDb,
          "select coalesce(sum(case when l.direction = 'debit' then l.amount_cents else -l.amount_cents end), 0)::bigint as s from journal_lines l join accounts a on a.id = l.account_id where a.bank_account_id = ?",
          [acct],
        )
      )[0]?.s;
    expect(await bankBalance()).toBe(-1_200);
    expect((await rows(ledger.db.adminDb, 'select 1 from journal_entries where workspace_id = ?', [ws])).length).toBe(3);
    await banking.remove(acct, id);
    await expectEventually(async () => expect(await bankBalance()).toBe(0));
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
    const reversals = await rows<{ reverses_entry_id: string }>(
      ledger.db.adminDb,
      'select reverses_entry_id from journal_entries where workspace_id = ? and reverses_entry_id is not null',
      [ws],
    );
    expect(reversals.length).toBe(2);
  });

  it('waits for bank_account.linked when a transaction arrives first', async () => {
    const ws = newId();
    const banking = bankingFor(bus, ws);
    const acct = newId();
    await banking.add(acct, { amountCents: 500 });
    const { publish } = await import('./support.js');
    const { BankAccountLinkedSchema } = await import('@ledgerline/proto/events/v1/banking_pb');
    await publish(bus, 'bank_account.linked', ws, BankAccountLinkedSchema, {
      accountId: acct,
      name: 'Late',
      mask: '0001',
      type: 'depository',
      subtype: 'checking',
    });
    await expectEventually(
      async () =>
        expect(
          (await rows(ledger.db.adminDb, 'select 1 from workspace_transactions where workspace_id = ? and current_entry_id is not null', [ws])).length,
        ).toBe(1),
      { timeoutMs: 20_000 },
    );
  });
});

describe('concurrency and duplicates', () => {
  it('200 concurrent postings to one account lose no update (RELIABILITY 4)', async () => {
    const ws = newId();
    const accounts = await seeded(ws);
    const [a, b] = accounts;
    // Its own pool, as wide as a service's, so 200 waiting postings do not hit the 5 s acquire deadline on a busy machine.
    const pool = createDb({ url: ledger.db.appUrl, pool: { min: 10, max: 10 } });
    // Connections opened before the burst: opening many at once on a busy machine is what times out.
    await Promise.all(Array.from({ length: 10 }, () => pool.raw('select pg_sleep(0.05)')));
    // All 200 wait on one balances row (the price of keeping balances in the posting transaction): on a
    // busy machine some wait longer than the pool's 5 s acquire deadline; they never started, so retry.
    const post = async (i: number): Promise<void> => {
      try {
        await withTenant(pool, { workspaceId: ws }, (trx) =>
          postEntry(trx, {
            workspaceId: ws,
            date: '2026-03-15',
            sourceType: 'ManualEntry',
            description: `p${i}`,
            lines: [
              { accountId: a?.id as string, direction: 'debit', amountCents: i + 1 },
              { accountId: b?.id as string, direction: 'credit', amountCents: i + 1 },
            ],
          }),
        );
      } catch (err) {
        if ((err as Error).name !== 'KnexTimeoutError') throw err;
        await post(i);
      }
    };
    await Promise.all(Array.from({ length: 200 }, (_, i) => post(i))).finally(() => pool.destroy());
    const total = (200 * 201) / 2;
    const sums = await withTenant(ledger.db.appDb, { workspaceId: ws }, (trx) => sumRange(trx, '2026-03-01', '2026-03-31'));
    expect(sums.get(a?.id as string)).toEqual({ debit: total, credit: 0, count: 200 });
    const [lines] = await rows<{ d: number }>(
      ledger.db.adminDb,
      "select sum(amount_cents)::bigint as d from journal_lines where account_id = ? and direction = 'debit'",
      [a?.id],
    );
    expect(lines?.d).toBe(total);
  });

  it('a bank transaction delivered twice (a re-sync with a new event id) is booked once', async () => {
    const ws = newId();
    const banking = bankingFor(bus, ws);
    const acct = await banking.link();
    const id = newId();
    const { publish } = await import('./support.js');
    const { BankTransactionSchema } = await import('@ledgerline/proto/events/v1/banking_pb');
    const payload = { id, accountId: acct, externalId: 'ext-dup', amountCents: -4200n, isoCurrencyCode: 'USD', date: '2026-10-01', name: 'Dup', version: 1n };
    const eventId = await publish(bus, 'bank_transaction.added', ws, BankTransactionSchema, payload);
    await publish(bus, 'bank_transaction.added', ws, BankTransactionSchema, payload);
    await publish(bus, 'bank_transaction.added', ws, BankTransactionSchema, payload, eventId);
    await expectEventually(async () =>
      expect((await rows(ledger.db.adminDb, "select 1 from inbox where workspace_id = ? and type = 'bank_transaction.added'", [ws])).length).toBe(2),
    );
    expect((await rows(ledger.db.adminDb, 'select 1 from workspace_transactions where workspace_id = ?', [ws])).length).toBe(1);
    expect((await rows(ledger.db.adminDb, 'select 1 from journal_entries where workspace_id = ?', [ws])).length).toBe(1);
  });
});

describe('a bank transaction in another currency (spec §9: the books are USD)', () => {
  it('is recorded with its currency but never booked as USD; it cannot be categorised; once the bank says USD it is booked', async () => {
    const ws = newId();
    const banking = bankingFor(bus, ws);
    const checking = await banking.link();
    await banking.add(checking, { amountCents: -5_000, name: 'Dollar lunch' });
    const euro = await banking.add(checking, { amountCents: -7_700, name: 'Paris hotel', isoCurrencyCode: 'EUR' });
    const txns = await expectEventually(async () => {
      const r = await rows<{ id: string; bank_transaction_id: string; iso_currency_code: string; current_entry_id: string | null }>(
        ledger.db.adminDb,
        'select id, bank_transaction_id, iso_currency_code, current_entry_id from workspace_transactions where workspace_id = ?',
        [ws],
      );
      expect(r).toHaveLength(2);
      return r;
    });
    const eur = txns.find((t) => t.bank_transaction_id === euro)!;
    expect(eur).toMatchObject({ iso_currency_code: 'EUR', current_entry_id: null });
    // Only the dollar lunch is in the books.
    const lines = await rows<{ amount_cents: string }>(ledger.db.adminDb, 'select amount_cents from journal_lines where workspace_id = ?', [ws]);
    expect(lines.map((l) => Number(l.amount_cents))).toEqual([5_000, 5_000]);
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);

    // Categorising it is refused with the reason, and nothing is booked.
    const [travel] = await rows<{ id: string }>(ledger.db.adminDb, "select id from accounts where workspace_id = ? and name = 'Travel'", [ws]);
    await expect(ledger.client.updateTransaction({ id: eur.id, categoryId: travel!.id }, ledger.as(ws))).rejects.toThrow(/in EUR\. The books are kept in USD/);
    expect((await rows(ledger.db.adminDb, 'select 1 from journal_entries where workspace_id = ?', [ws])).length).toBe(1);

    // The bank corrects it to USD: booked like a fresh import; back to EUR: reversed out of the books.
    await banking.modify(checking, euro, { amountCents: -7_700, name: 'Paris hotel', isoCurrencyCode: 'USD', version: 2 });
    await expectEventually(async () => expect((await rows(ledger.db.adminDb, 'select 1 from journal_entries where workspace_id = ?', [ws])).length).toBe(2));
    await banking.modify(checking, euro, { amountCents: -7_700, name: 'Paris hotel', isoCurrencyCode: 'EUR', version: 3 });
    await expectEventually(async () => {
      const [t] = await rows<{ current_entry_id: string | null; iso_currency_code: string }>(
        ledger.db.adminDb,
        'select current_entry_id, iso_currency_code from workspace_transactions where id = ?',
        [eur.id],
      );
      expect(t).toEqual({ current_entry_id: null, iso_currency_code: 'EUR' });
    });
    const net = await rows<{ net: string }>(
      ledger.db.adminDb,
      "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as net from journal_lines l join accounts a on a.id = l.account_id where l.workspace_id = ? and a.bank_account_id is not null",
      [ws],
    );
    expect(Number(net[0]!.net)).toBe(-5_000);
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });
});
