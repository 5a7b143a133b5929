// Opening balances through the real gateway: GET, PUT and DELETE /categories/{id}/opening-balance.
// Good input, 400 naming the field, 404 for another workspace's account, 403 for a Viewer; the entry
// shows in the general ledger, cannot be edited through transaction routes, and the books balance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trialBalance } from '../../services/ledger/test/support.js';
import { startLedgerHarness, type LedgerApiHarness, type Tenant } from './ledger.harness.js';

let h: LedgerApiHarness;
let t: Tenant;
let other: Tenant;
const VIEWER_MESSAGE = 'Editing actions are disabled for your account';

interface Cat {
  id: string;
  name: string;
  balance: number;
}
const categoryOf = async (tenant: Tenant, name: string): Promise<Cat> => {
  const c = ((await h.api('GET', '/categories', { tenant })).body.categories as Cat[]).find((x) => x.name === name);
  if (!c) throw new Error(`no category ${name}`);
  return c;
};
const path = (id: string) => `/categories/${id}/opening-balance`;

beforeAll(async () => {
  h = await startLedgerHarness();
  t = h.tenant();
  other = h.tenant();
  const checking = await t.banking.link();
  await t.banking.add(checking, { amountCents: -4_550, date: '2026-02-03', name: 'Blue Bottle Coffee' });
  await h.transactions(t, 1);
});
afterAll(async () => h?.close());

describe('opening balances', () => {
  it("PUT sets a bank account's opening balance against Opening Balance Equity; it shows in the chart and the general ledger", async () => {
    const bank = await categoryOf(t, 'Checking ••1234');
    const r = await h.api('PUT', path(bank.id), { tenant: t, body: { openingBalance: 10_000.25, openingBalanceDate: '2026-01-01' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      message: 'Opening balance has been saved successfully.',
      openingBalance: { categoryId: bank.id, openingBalance: 10_000.25, openingBalanceDate: '2026-01-01' },
    });
    expect(r.body.openingBalance.seq).toBeGreaterThan(0);
    expect((await h.api('GET', path(bank.id), { tenant: t })).body.openingBalance).toEqual(r.body.openingBalance);
    expect((await categoryOf(t, 'Checking ••1234')).balance).toBe(10_000.25 - 45.5);
    expect((await categoryOf(t, 'Opening Balance Equity')).balance).toBe(10_000.25);

    const lines = (await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${bank.id}`, { tenant: t })).body.data;
    const opening = lines.find((l: { journalEntryId: string | null }) => l.journalEntryId === r.body.openingBalance.journalEntryId);
    expect(opening).toMatchObject({
      dateTime: '2026-01-01',
      debit: 10_000.25,
      credit: 0,
      isOpeningBalance: true,
      sourceType: 'OpeningBalance',
      counterAccount: 'Opening Balance Equity',
      ledgerRunningBalance: 10_000.25,
      transactionId: null,
    });
    expect(lines.at(-1)).toMatchObject({ credit: 45.5, ledgerRunningBalance: 10_000.25 - 45.5 });
    const gl = (await h.api('GET', '/ledger/get-general-ledger?startDate=2026-02-01&endDate=2026-02-28', { tenant: t })).body.data;
    expect(gl.find((a: { ledgerAccountId: string }) => a.ledgerAccountId === bank.id)).toMatchObject({
      openingBalance: 10_000.25,
      closingBalance: 10_000.25 - 45.5,
    });
    expect(await trialBalance(h.ledger.db.adminDb, t.workspaceId)).toBe(0);
  });

  it('PUT with another amount or date posts a reversal and a new entry; DELETE posts a reversal; the books stay balanced', async () => {
    const loan = await categoryOf(t, 'Loans Payable');
    const first = (await h.api('PUT', path(loan.id), { tenant: t, body: { openingBalance: 50_000, openingBalanceDate: '2026-01-01' } })).body.openingBalance;
    const changed = await h.api('PUT', path(loan.id), { tenant: t, body: { openingBalance: 45_000, openingBalanceDate: '2025-12-31' } });
    expect(changed.body.openingBalance).toMatchObject({ openingBalance: 45_000, openingBalanceDate: '2025-12-31' });
    expect(changed.body.openingBalance.journalEntryId).not.toBe(first.journalEntryId);
    const lines = (await h.api('GET', `/ledger/get-ledger-transactions?ledgerAccountId=${loan.id}`, { tenant: t })).body.data.filter(
      (l: { isOpeningBalance: boolean; id: string | null }) => l.id !== null,
    );
    // Dated order: the new entry (2025-12-31), then the original and its reversal (2026-01-01).
    expect(lines.map((l: { debit: number; credit: number; isOpeningBalance: boolean }) => [l.debit, l.credit, l.isOpeningBalance])).toEqual([
      [0, 45_000, true],
      [0, 50_000, true],
      [50_000, 0, true],
    ]);
    expect((await categoryOf(t, 'Loans Payable')).balance).toBe(45_000);

    const removed = await h.api('DELETE', path(loan.id), { tenant: t });
    expect(removed).toMatchObject({ status: 200, body: { message: 'Opening balance has been removed successfully.' } });
    expect(removed.body.seq).toBeGreaterThan(changed.body.openingBalance.seq);
    expect((await categoryOf(t, 'Loans Payable')).balance).toBe(0);
    expect((await h.api('GET', path(loan.id), { tenant: t })).body).toEqual({ openingBalance: null });
    expect(await trialBalance(h.ledger.db.adminDb, t.workspaceId)).toBe(0);
  });

  it('an opening balance cannot be edited through the transaction routes (spec §4 edit rule)', async () => {
    const deposits = await categoryOf(t, 'Security Deposits');
    const set = (await h.api('PUT', path(deposits.id), { tenant: t, body: { openingBalance: 1_200, openingBalanceDate: '2026-01-01' } })).body.openingBalance;
    const travel = await categoryOf(t, 'Travel');
    const patch = await h.api('PATCH', `/transactions/${set.journalEntryId}`, { tenant: t, body: { categoryId: travel.id } });
    expect(patch).toMatchObject({ status: 409, body: { message: 'An opening balance cannot be edited', appErrorCode: 'TRANSACTION_OPENING_BALANCE' } });
    const bulk = await h.api('PATCH', '/transactions', { tenant: t, body: { transactions: [{ id: set.journalEntryId, categoryId: travel.id }] } });
    expect(bulk).toMatchObject({ status: 409, body: { message: 'An opening balance cannot be edited' } });
    expect((await categoryOf(t, 'Security Deposits')).balance).toBe(1_200);
  });

  it('answers 400 naming the field, and changes nothing', async () => {
    const inventory = await categoryOf(t, 'Inventory');
    const bad = async (id: string, body: unknown, field: string, message?: string) => {
      const r = await h.api('PUT', path(id), { tenant: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[0].field, JSON.stringify(body)).toBe(field);
      if (message) expect(r.body.message).toBe(message);
    };
    await bad(inventory.id, { openingBalanceDate: '2026-01-01' }, 'openingBalance', 'openingBalance is required');
    await bad(inventory.id, { openingBalance: 'lots', openingBalanceDate: '2026-01-01' }, 'openingBalance');
    await bad(inventory.id, { openingBalance: 10 }, 'openingBalanceDate', 'openingBalanceDate is required');
    await bad(inventory.id, { openingBalance: 10, openingBalanceDate: '01/31/2026' }, 'openingBalanceDate', 'Invalid openingBalanceDate format');
    await bad(
      (await categoryOf(t, 'Sales')).id,
      { openingBalance: 10, openingBalanceDate: '2026-01-01' },
      'id',
      'An opening balance can only be set on a bank, card, asset, liability or equity account',
    );
    await bad((await categoryOf(t, 'Opening Balance Equity')).id, { openingBalance: 10, openingBalanceDate: '2026-01-01' }, 'id');
    await bad('not-a-uuid', { openingBalance: 10, openingBalanceDate: '2026-01-01' }, 'id');
    expect((await categoryOf(t, 'Inventory')).balance).toBe(0);
  });

  it("another workspace's account answers 404; a Viewer reads but gets 403 on PUT and DELETE", async () => {
    const foreign = await categoryOf(other, 'Inventory');
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await h.api(method, path(foreign.id), {
        tenant: t,
        body: method === 'PUT' ? { openingBalance: 1, openingBalanceDate: '2026-01-01' } : undefined,
      });
      expect(r, method).toMatchObject({ status: 404, body: { message: 'Category not found' } });
    }
    const inventory = await categoryOf(t, 'Inventory');
    const viewer = { ...t, token: t.viewerToken };
    expect((await h.api('GET', path(inventory.id), { tenant: viewer })).status).toBe(200);
    expect(await h.api('PUT', path(inventory.id), { tenant: viewer, body: { openingBalance: 1, openingBalanceDate: '2026-01-01' } })).toMatchObject({
      status: 403,
      body: { message: VIEWER_MESSAGE },
    });
    expect(await h.api('DELETE', path(inventory.id), { tenant: viewer })).toMatchObject({ status: 403, body: { message: VIEWER_MESSAGE } });
    expect((await categoryOf(other, 'Inventory')).balance).toBe(0);
  });
});
