// Opening balances of balance-sheet accounts: an OpeningBalance entry against Opening Balance Equity;
// a change is a reversal plus a new entry, a removal a reversal. Real Connect server, PostgreSQL, NATS.
import { Code, ConnectError } from '@connectrpc/connect';
import { errorInfoOf, newId } from '@ledgerline/platform';
import { createTestBus } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, startLedger, trialBalance, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;

beforeAll(async () => {
  bus = await createTestBus('ledger-opening');
  ledger = await startLedger(bus);
});
afterAll(async () => {
  await ledger?.close();
  await bus?.close();
});

async function chart(ws: string): Promise<Record<string, string>> {
  const r = await ledger.client.getChartOfAccounts({}, ledger.as(ws));
  return Object.fromEntries(r.chartOfAccounts.map((c) => [c.name, c.id]));
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, message: e.rawMessage, fields: errorInfoOf(e)?.fields ?? [] };
  }
  throw new Error('expected a refusal');
}

const entriesOf = (ws: string) =>
  rows<{ id: string; source_type: string; source_id: string; reverses_entry_id: string | null; entry_date: string }>(
    ledger.db.adminDb,
    'select id, source_type, source_id, reverses_entry_id, entry_date from journal_entries where workspace_id = ? order by seq',
    [ws],
  );
const balanceOf = async (ws: string, name: string, endDate = '') =>
  (await ledger.client.getChartOfAccounts({ endDate }, ledger.as(ws))).chartOfAccounts.find((c) => c.name === name)?.balanceCents;

describe('opening balances', () => {
  it("sets an asset's opening balance against Opening Balance Equity, dated the opening date", async () => {
    const ws = newId();
    const a = await chart(ws);
    const r = await ledger.client.setOpeningBalance({ categoryId: a['Inventory'], amountCents: 250_000n, date: '2026-01-01' }, ledger.as(ws));
    const [entry] = await entriesOf(ws);
    expect(r.message).toBe('Opening balance has been saved successfully.');
    expect(r.openingBalance).toMatchObject({ categoryId: a['Inventory'], amountCents: 250_000n, date: '2026-01-01', journalEntryId: entry?.id });
    expect(entry).toMatchObject({ source_type: 'OpeningBalance', source_id: a['Inventory'], entry_date: '2026-01-01', reverses_entry_id: null });
    expect(await balanceOf(ws, 'Inventory')).toBe(250_000n);
    expect(await balanceOf(ws, 'Opening Balance Equity')).toBe(250_000n);
    // Not there before the opening date.
    expect(await balanceOf(ws, 'Inventory', '2025-12-31')).toBe(0n);
    expect((await ledger.client.getOpeningBalance({ categoryId: a['Inventory'] }, ledger.as(ws))).openingBalance?.amountCents).toBe(250_000n);
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });

  it("a liability's balance credits it; a negative amount (an overdrawn account) goes the other way", async () => {
    const ws = newId();
    const a = await chart(ws);
    await ledger.client.setOpeningBalance({ categoryId: a['Loans Payable'], amountCents: 1_000_000n, date: '2026-01-01' }, ledger.as(ws));
    await ledger.client.setOpeningBalance({ categoryId: a['Undeposited Funds'], amountCents: -5_000n, date: '2026-01-01' }, ledger.as(ws));
    expect(await balanceOf(ws, 'Loans Payable')).toBe(1_000_000n);
    expect(await balanceOf(ws, 'Undeposited Funds')).toBe(-5_000n);
    // Opening Balance Equity carries the other side of both: debited 1,000,000 for the loan and 5,000 for the overdraft.
    expect(await balanceOf(ws, 'Opening Balance Equity')).toBe(-1_000_000n - 5_000n);
    const lines = await rows<{ direction: string; amount_cents: number }>(
      ledger.db.adminDb,
      'select direction, amount_cents from journal_lines where workspace_id = ? and account_id = ?',
      [ws, a['Loans Payable']],
    );
    expect(lines).toEqual([{ direction: 'credit', amount_cents: 1_000_000 }]);
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });

  it('changing it posts a reversal and a new entry; saving the same value again posts nothing; removing it posts a reversal', async () => {
    const ws = newId();
    const a = await chart(ws);
    const first = await ledger.client.setOpeningBalance({ categoryId: a['Security Deposits'], amountCents: 10_000n, date: '2026-01-01' }, ledger.as(ws));
    const changed = await ledger.client.setOpeningBalance({ categoryId: a['Security Deposits'], amountCents: 12_500n, date: '2026-02-01' }, ledger.as(ws));
    let entries = await entriesOf(ws);
    expect(entries.map((e) => [e.reverses_entry_id, e.entry_date])).toEqual([
      [null, '2026-01-01'],
      [first.openingBalance?.journalEntryId, '2026-01-01'],
      [null, '2026-02-01'],
    ]);
    expect(changed.openingBalance).toMatchObject({ amountCents: 12_500n, date: '2026-02-01', journalEntryId: entries[2]?.id });
    await ledger.client.setOpeningBalance({ categoryId: a['Security Deposits'], amountCents: 12_500n, date: '2026-02-01' }, ledger.as(ws));
    expect((await entriesOf(ws)).length).toBe(3);
    expect(await balanceOf(ws, 'Security Deposits')).toBe(12_500n);

    const removed = await ledger.client.removeOpeningBalance({ categoryId: a['Security Deposits'] }, ledger.as(ws));
    entries = await entriesOf(ws);
    expect(removed.message).toBe('Opening balance has been removed successfully.');
    expect(entries.at(-1)).toMatchObject({ reverses_entry_id: changed.openingBalance?.journalEntryId });
    expect(removed.seq).toBeGreaterThan(0n);
    expect(await balanceOf(ws, 'Security Deposits')).toBe(0n);
    expect((await ledger.client.getOpeningBalance({ categoryId: a['Security Deposits'] }, ledger.as(ws))).openingBalance).toBeUndefined();
    // Removing again, or setting 0, changes nothing (the answer's seq is the workspace's current one, the
    // removal's); setting it again after a removal posts anew.
    expect((await ledger.client.removeOpeningBalance({ categoryId: a['Security Deposits'] }, ledger.as(ws))).seq).toBe(removed.seq);
    await ledger.client.setOpeningBalance({ categoryId: a['Security Deposits'], amountCents: 0n, date: '2026-02-01' }, ledger.as(ws));
    expect((await entriesOf(ws)).length).toBe(4);
    await ledger.client.setOpeningBalance({ categoryId: a['Security Deposits'], amountCents: 300n, date: '2026-03-01' }, ledger.as(ws));
    expect(await balanceOf(ws, 'Security Deposits')).toBe(300n);
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });

  it("refuses income and expense accounts, groups and Opening Balance Equity itself (400 naming the field), another workspace's account (404) and a Viewer (403)", async () => {
    const ws = newId();
    const a = await chart(ws);
    const other = await chart(newId());
    for (const name of ['Sales', 'Rent', 'Internal Transfers', 'Current Assets', 'Opening Balance Equity']) {
      const r = await refusal(ledger.client.setOpeningBalance({ categoryId: a[name], amountCents: 100n, date: '2026-01-01' }, ledger.as(ws)));
      expect(r, name).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'id' }] });
    }
    expect(await refusal(ledger.client.setOpeningBalance({ categoryId: a['Inventory'], date: '2026-01-01' }, ledger.as(ws)))).toMatchObject({
      code: Code.InvalidArgument,
      fields: [{ field: 'openingBalance', message: 'openingBalance is required' }],
    });
    expect(await refusal(ledger.client.setOpeningBalance({ categoryId: a['Inventory'], amountCents: 100n, date: '01/01/2026' }, ledger.as(ws)))).toMatchObject({
      code: Code.InvalidArgument,
      fields: [{ field: 'openingBalanceDate', message: 'Invalid openingBalanceDate format' }],
    });
    expect(await refusal(ledger.client.setOpeningBalance({ categoryId: 'abc', amountCents: 100n, date: '2026-01-01' }, ledger.as(ws)))).toMatchObject({
      code: Code.InvalidArgument,
      fields: [{ field: 'id' }],
    });
    expect(
      await refusal(ledger.client.setOpeningBalance({ categoryId: other['Inventory'], amountCents: 100n, date: '2026-01-01' }, ledger.as(ws))),
    ).toMatchObject({ code: Code.NotFound, message: 'Category not found' });
    expect(await refusal(ledger.client.removeOpeningBalance({ categoryId: other['Inventory'] }, ledger.as(ws)))).toMatchObject({ code: Code.NotFound });
    expect(await refusal(ledger.client.getOpeningBalance({ categoryId: other['Inventory'] }, ledger.as(ws)))).toMatchObject({ code: Code.NotFound });
    expect(
      await refusal(ledger.client.setOpeningBalance({ categoryId: a['Inventory'], amountCents: 100n, date: '2026-01-01' }, ledger.as(ws, 'Viewer'))),
    ).toMatchObject({ code: Code.PermissionDenied, message: 'Editing actions are disabled for your account' });
    expect(await entriesOf(ws)).toEqual([]);
  });
});
