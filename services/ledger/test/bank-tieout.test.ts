// The opening balance of a linked bank account derived from banking's bank_account.synced, and the
// tie-out (GetBankTieOut) of books against the bank (issue #12). Real Connect server, PostgreSQL, NATS:
// events are published on the bus as banking's relay publishes them.
import { newId } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { BankAccountLinkedSchema, BankAccountSyncedSchema, BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor, publish, rows, startLedger, trialBalance, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;

beforeAll(async () => {
  bus = await createTestBus('ledger-tieout');
  ledger = await startLedger(bus);
});
afterAll(async () => {
  await ledger?.close();
  await bus?.close();
});

interface Snapshot {
  accountId: string;
  version: number;
  current: number | null;
  posted: number;
  postedCount: number;
  pending?: number;
  pendingCount?: number;
  earliest?: string;
  type?: string;
  currency?: string;
  syncedAt?: string;
}

const synced = (ws: string, s: Snapshot) =>
  publish(bus, 'bank_account.synced', ws, BankAccountSyncedSchema, {
    accountId: s.accountId,
    type: s.type ?? 'depository',
    isoCurrencyCode: s.currency ?? 'USD',
    currentBalanceCents: BigInt(s.current ?? 0),
    hasCurrentBalance: s.current !== null,
    availableBalanceCents: 0n,
    hasAvailableBalance: false,
    syncedAt: s.syncedAt ?? '2026-10-20T12:00:00.000Z',
    postedTotalCents: BigInt(s.posted),
    postedCount: BigInt(s.postedCount),
    pendingTotalCents: BigInt(s.pending ?? 0),
    pendingCount: BigInt(s.pendingCount ?? 0),
    earliestDate: s.earliest ?? '',
    version: BigInt(s.version),
  });

interface EntryRow {
  id: string;
  reverses_entry_id: string | null;
  entry_date: string;
  source_id: string;
}
const openingEntries = (ws: string) =>
  rows<EntryRow>(
    ledger.db.adminDb,
    "select id, reverses_entry_id, entry_date, source_id from journal_entries where workspace_id = ? and source_type = 'OpeningBalance' order by seq",
    [ws],
  );
const snapshotVersion = async (ws: string, bankAccountId: string) =>
  Number(
    (
      await rows<{ version: string }>(ledger.db.adminDb, 'select version from bank_snapshots where workspace_id = ? and bank_account_id = ?', [
        ws,
        bankAccountId,
      ])
    )[0]?.version ?? 0,
  );
const tieOut = async (ws: string, bankAccountId: string) =>
  (await ledger.client.getBankTieOut({}, ledger.as(ws))).accounts.find((a) => a.bankAccountId === bankAccountId);
const ledgerAccountOf = async (ws: string, bankAccountId: string) =>
  expectEventually(async () => {
    const [r] = await rows<{ id: string }>(ledger.db.adminDb, 'select id from accounts where workspace_id = ? and bank_account_id = ?', [ws, bankAccountId]);
    expect(r).toBeDefined();
    return r!.id;
  });
const openingOf = async (ws: string, ledgerAccountId: string) =>
  (await ledger.client.getOpeningBalance({ categoryId: ledgerAccountId }, ledger.as(ws))).openingBalance;

async function linked(type: 'depository' | 'credit' = 'depository') {
  const ws = newId();
  const bank = bankingFor(bus, ws);
  await bank.workspaceCreated();
  const accountId = await bank.link(type === 'credit' ? { name: 'Card', type: 'credit', subtype: 'credit card' } : {});
  const ledgerAccountId = await ledgerAccountOf(ws, accountId);
  return { ws, bank, accountId, ledgerAccountId };
}

describe('opening balance from the bank', () => {
  it('the first snapshot books it (current − posted, the day before the earliest transaction); the tie-out catches up, then matches', async () => {
    const { ws, bank, accountId, ledgerAccountId } = await linked();
    // The snapshot arrives before its transactions (they travel on other subjects).
    await synced(ws, { accountId, version: 1, current: 100_000, posted: 30_000, postedCount: 2, pending: -1_500, pendingCount: 1, earliest: '2026-03-10' });
    const opening = await expectEventually(async () => {
      const o = await openingOf(ws, ledgerAccountId);
      expect(o).toBeDefined();
      return o!;
    });
    expect(opening).toMatchObject({ amountCents: 70_000n, date: '2026-03-09' });
    expect(await tieOut(ws, accountId)).toMatchObject({
      status: 'catching_up',
      bankBalanceCents: 100_000n,
      hasBankBalance: true,
      booksBalanceCents: 70_000n,
      ledgerAccountId,
      asOf: '2026-10-20T12:00:00.000Z',
    });

    await bank.add(accountId, { amountCents: 20_000, date: '2026-03-10' });
    await bank.add(accountId, { amountCents: 10_000, date: '2026-04-02' });
    // A pending card-style hold: in the books, not in the cleared balance.
    const pendingId = newId();
    await publish(bus, 'bank_transaction.added', ws, BankTransactionSchema, {
      id: pendingId,
      accountId,
      externalId: 'p-1',
      amountCents: -1_500n,
      isoCurrencyCode: 'USD',
      date: '2026-10-19',
      name: 'Hold',
      pending: true,
      version: 1n,
    });
    // It matches as soon as the two posted transactions are booked, with or without the hold (a pending
    // transaction is in the books and out of the cleared balance): wait for the hold too.
    const t = await expectEventually(async () => {
      const x = await tieOut(ws, accountId);
      expect(x).toMatchObject({ status: 'matches', pendingCents: -1_500n });
      return x!;
    });
    expect(t).toMatchObject({
      bankBalanceCents: 100_000n,
      booksBalanceCents: 100_000n,
      pendingCents: -1_500n,
      differenceCents: 0n,
      openingBalancePinned: false,
    });
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });

  it('a later snapshot with another total reverses and re-posts; the same snapshot again (or a new version with the same result) posts nothing; an older version is ignored', async () => {
    const { ws, accountId, ledgerAccountId } = await linked();
    await synced(ws, { accountId, version: 1, current: 50_000, posted: 10_000, postedCount: 1, earliest: '2026-05-01' });
    await expectEventually(async () => expect((await openingEntries(ws)).length).toBe(1));
    // Redelivered under another event id: the version is already held.
    await synced(ws, { accountId, version: 1, current: 50_000, posted: 10_000, postedCount: 1, earliest: '2026-05-01' });
    // A new sync where nothing changed: a new version, the same opening balance.
    await synced(ws, { accountId, version: 2, current: 50_000, posted: 10_000, postedCount: 1, earliest: '2026-05-01' });
    await expectEventually(async () => expect(await snapshotVersion(ws, accountId)).toBe(2));
    expect((await openingEntries(ws)).length).toBe(1);

    // Late history widens the range backwards and the bank's total changes: reversal + new entry.
    await synced(ws, { accountId, version: 3, current: 50_000, posted: 4_000, postedCount: 2, earliest: '2026-02-01' });
    await expectEventually(async () => expect((await openingEntries(ws)).length).toBe(3));
    const [first, reversal, second] = await openingEntries(ws);
    expect(reversal).toMatchObject({ reverses_entry_id: first!.id });
    expect(second).toMatchObject({ reverses_entry_id: null, entry_date: '2026-01-31' });
    expect(await openingOf(ws, ledgerAccountId)).toMatchObject({ amountCents: 46_000n, date: '2026-01-31', journalEntryId: second!.id });

    // An older snapshot overtaken by a newer one changes nothing.
    await synced(ws, { accountId, version: 2, current: 999_999, posted: 0, postedCount: 0, earliest: '2026-05-01' });
    await synced(ws, { accountId, version: 4, current: 50_000, posted: 4_000, postedCount: 2, earliest: '2026-02-01', syncedAt: '2026-10-21T08:00:00.000Z' });
    await expectEventually(async () => expect(await snapshotVersion(ws, accountId)).toBe(4));
    expect((await openingEntries(ws)).length).toBe(3);
    expect((await tieOut(ws, accountId))?.asOf).toBe('2026-10-21T08:00:00.000Z');
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });

  it('a card: the amount owed is current + posted (purchases are negative), credited to the card', async () => {
    const { ws, bank, accountId, ledgerAccountId } = await linked('credit');
    // Owed 2,391.19 now; 3 purchases (−500.00, −120.00, −30.00) and a payment (+400.00) imported.
    await synced(ws, { accountId, type: 'credit', version: 1, current: 239_119, posted: -25_000, postedCount: 4, earliest: '2026-06-03' });
    await expectEventually(async () => expect(await openingOf(ws, ledgerAccountId)).toMatchObject({ amountCents: 214_119n, date: '2026-06-02' }));
    const [line] = await rows<{ direction: string; amount_cents: number }>(
      ledger.db.adminDb,
      'select direction, amount_cents from journal_lines where workspace_id = ? and account_id = ?',
      [ws, ledgerAccountId],
    );
    expect(line).toEqual({ direction: 'credit', amount_cents: 214_119 });
    for (const [amountCents, date] of [
      [-50_000, '2026-06-03'],
      [-12_000, '2026-06-09'],
      [-3_000, '2026-07-01'],
      [40_000, '2026-07-15'],
    ] as const)
      await bank.add(accountId, { amountCents, date });
    const t = await expectEventually(async () => {
      const x = await tieOut(ws, accountId);
      expect(x?.status).toBe('matches');
      return x!;
    });
    expect(t).toMatchObject({ bankBalanceCents: 239_119n, booksBalanceCents: 239_119n, differenceCents: 0n });
    // The chart shows the card's balance owed as the bank does.
    const chart = await ledger.client.getChartOfAccounts({}, ledger.as(ws));
    expect(chart.chartOfAccounts.find((c) => c.id === ledgerAccountId)?.balanceCents).toBe(239_119n);
  });

  it('set by hand it is pinned (later syncs leave it; the tie-out shows the difference); DELETE un-pins and re-derives it at once', async () => {
    const { ws, bank, accountId, ledgerAccountId } = await linked();
    await bank.add(accountId, { amountCents: 5_000, date: '2026-08-01' });
    await synced(ws, { accountId, version: 1, current: 25_000, posted: 5_000, postedCount: 1, earliest: '2026-08-01' });
    await expectEventually(async () => expect((await tieOut(ws, accountId))?.status).toBe('matches'));

    const set = await ledger.client.setOpeningBalance({ categoryId: ledgerAccountId, amountCents: 10_000n, date: '2026-01-01' }, ledger.as(ws));
    expect(set.openingBalance).toMatchObject({ amountCents: 10_000n, date: '2026-01-01' });
    expect(await tieOut(ws, accountId)).toMatchObject({
      status: 'differs',
      booksBalanceCents: 15_000n,
      bankBalanceCents: 25_000n,
      differenceCents: -10_000n,
      openingBalancePinned: true,
    });
    // A later sync with another total does not overwrite it.
    await bank.add(accountId, { amountCents: 2_000, date: '2026-08-05' });
    await synced(ws, { accountId, version: 2, current: 27_000, posted: 7_000, postedCount: 2, earliest: '2026-08-01' });
    await expectEventually(async () =>
      expect(await tieOut(ws, accountId)).toMatchObject({ status: 'differs', bankBalanceCents: 27_000n, booksBalanceCents: 17_000n }),
    );
    expect(await openingOf(ws, ledgerAccountId)).toMatchObject({ amountCents: 10_000n, date: '2026-01-01' });
    const before = (await openingEntries(ws)).length;

    // DELETE: the bank's opening balance again, in one version (reversal + new entry), at once.
    await ledger.client.removeOpeningBalance({ categoryId: ledgerAccountId }, ledger.as(ws));
    const entries = await openingEntries(ws);
    expect(entries.length).toBe(before + 2);
    expect(await openingOf(ws, ledgerAccountId)).toMatchObject({ amountCents: 20_000n, date: '2026-07-31' });
    expect(await tieOut(ws, accountId)).toMatchObject({ status: 'matches', booksBalanceCents: 27_000n, openingBalancePinned: false });
    // And syncs derive it again.
    await synced(ws, { accountId, version: 3, current: 30_000, posted: 7_000, postedCount: 2, earliest: '2026-08-01' });
    await expectEventually(async () => expect(await openingOf(ws, ledgerAccountId)).toMatchObject({ amountCents: 23_000n }));
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });

  it('another currency is recorded, never booked or compared as USD; no current balance books nothing; a snapshot before the link waits for it', async () => {
    const { ws, accountId, ledgerAccountId } = await linked();
    await synced(ws, { accountId, version: 1, current: 80_000, posted: 0, postedCount: 0, currency: 'EUR' });
    await expectEventually(async () => expect(await snapshotVersion(ws, accountId)).toBe(1));
    expect(await openingEntries(ws)).toEqual([]);
    expect(await tieOut(ws, accountId)).toMatchObject({
      status: 'currency',
      isoCurrencyCode: 'EUR',
      bankBalanceCents: 80_000n,
      differenceCents: 0n,
      ledgerAccountId,
    });

    const other = await linked();
    await synced(other.ws, { accountId: other.accountId, version: 1, current: null, posted: 0, postedCount: 0 });
    await expectEventually(async () => expect(await snapshotVersion(other.ws, other.accountId)).toBe(1));
    expect(await openingEntries(other.ws)).toEqual([]);
    expect(await tieOut(other.ws, other.accountId)).toMatchObject({ status: 'unknown', hasBankBalance: false });

    // No transactions at all: dated the sync's day. The snapshot of an account not linked yet is
    // redelivered until the link arrives.
    const ws3 = newId();
    const bank3 = bankingFor(bus, ws3);
    const early = newId();
    await publish(bus, 'bank_account.synced', ws3, BankAccountSyncedSchema, {
      accountId: early,
      type: 'depository',
      isoCurrencyCode: 'USD',
      currentBalanceCents: 12_345n,
      hasCurrentBalance: true,
      syncedAt: '2026-10-20T23:59:00.000Z',
      version: 1n,
    });
    await bank3.workspaceCreated();
    await publish(bus, 'bank_account.linked', ws3, BankAccountLinkedSchema, {
      accountId: early,
      name: 'Savings',
      mask: '9',
      type: 'depository',
      subtype: 'savings',
      institutionName: 'B',
      isoCurrencyCode: 'USD',
      source: 'plaid',
    });
    const linkedLater = await ledgerAccountOf(ws3, early);
    await expectEventually(async () => expect(await openingOf(ws3, linkedLater)).toMatchObject({ amountCents: 12_345n, date: '2026-10-20' }), {
      timeoutMs: 20_000,
    });
    expect(await tieOut(ws3, early)).toMatchObject({ status: 'matches', booksBalanceCents: 12_345n });
  });

  it("lists every linked bank account of the workspace, unknown until its first sync, and only the caller's", async () => {
    const { ws, bank, accountId } = await linked();
    const second = await bank.link({ name: 'Savings', mask: '5678', subtype: 'savings' });
    await ledgerAccountOf(ws, second);
    await synced(ws, { accountId, version: 1, current: 1_000, posted: 0, postedCount: 0 });
    await expectEventually(async () => expect((await tieOut(ws, accountId))?.status).toBe('matches'));
    const all = (await ledger.client.getBankTieOut({}, ledger.as(ws))).accounts;
    expect(all.map((a) => [a.bankAccountId, a.status]).sort()).toEqual(
      [
        [accountId, 'matches'],
        [second, 'unknown'],
      ].sort(),
    );
    expect(all.find((a) => a.bankAccountId === second)).toMatchObject({ hasBankBalance: false, asOf: '', booksBalanceCents: 0n });
    expect((await ledger.client.getBankTieOut({}, ledger.as(newId()))).accounts).toEqual([]);
  });
});
