// Decision 0012 for bills, invoices and manual journals: the documents service commits a version with its
// posting.requested event after the ledger checked it, then asks the ledger to book it. Here that booking call fails,
// as a crash right after the commit would leave it: the ledger books each version from the event, exactly once,
// links the bank transaction that pays the bill, and a refusal is still answered before anything commits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually } from '@ledgerline/platform/testing';
import {
  accountOfKey,
  bankTransactions,
  categoryIds,
  debitBalance,
  entriesOf,
  newVendor,
  startDocumentsSystem,
  type DocumentsSystem,
  type Tenant,
} from './documents.harness.js';

let s: DocumentsSystem;
let t: Tenant;
let other: Tenant;
/** While true, the documents service's call that books a committed version fails. */
let bookingFails = false;

beforeAll(async () => {
  s = await startDocumentsSystem('documents-crash', {
    documentLedger: (real) => ({
      ...real,
      check: (tn, p) => real.check(tn, p),
      post: (tn, p) => (bookingFails ? Promise.reject(new Error('the ledger went away after the commit')) : real.post(tn, p)),
    }),
  });
  t = s.tenant();
  other = s.tenant();
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

/** Waits until the ledger has handled every posting.requested the documents service committed. */
async function quiet(): Promise<void> {
  await expectEventually(
    async () => {
      const sent = ((await s.documentsDb.adminDb.raw("select id::text from outbox where type = 'posting.requested'")).rows as { id: string }[]).map(
        (r) => r.id,
      );
      const handled = (
        await s.ledger.db.adminDb.raw("select count(*)::int as n from inbox where consumer = 'ledger_postings' and event_id = any(?::uuid[])", [sent])
      ).rows[0].n as number;
      expect(handled).toBe(sent.length);
    },
    { timeoutMs: 30_000 },
  );
}

describe('a crash between the commit and the booking (decision 0012)', () => {
  it('a bill and its payment committed without reaching the ledger are booked from the event, once; later versions follow; the books balance', async () => {
    const c = await categoryIds(s, t);
    const vendor = await newVendor(s, t);
    const [out] = await bankTransactions(s, t, [-5000]);
    const body = { billDate: '2026-05-01', vendorId: vendor.id, lineItems: [{ serviceName: 'Toner', categoryId: c['Office Supplies'], amount: 50 }] };
    bookingFails = true;
    let id: string;
    try {
      const created = await s.api('POST', '/accounting/bill/v2', { tenant: t, body: { ...body, connectedTransactions: [{ id: out, amount: 50 }] } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      id = created.body.bill.id as string;
      expect(created.body.bill).toMatchObject({ paymentStatus: 'PAID' });
      // The entry and the payment's re-booking, from the event.
      await expectEventually(async () => expect(await entriesOf(s, id)).toHaveLength(1), { timeoutMs: 30_000 });
      const ap = await accountOfKey(s, t, 'accounts_payable');
      await expectEventually(
        async () => {
          const txn = (await s.ledger.client.getTransaction({ id: out! }, s.ledger.as(t.workspaceId))).transaction!;
          expect(txn).toMatchObject({ entityType: 'Bill', entityId: id, category: { id: ap } });
        },
        { timeoutMs: 30_000 },
      );
      // Still checked before the commit: another workspace's category is a 404 and nothing changes.
      const foreign = (await categoryIds(s, other))['Office Supplies'];
      const refused = await s.api('PUT', `/accounting/bill/${id}`, {
        tenant: t,
        body: { ...body, lineItems: [{ serviceName: 'Toner', categoryId: foreign, amount: 60 }] },
      });
      expect(refused.status).toBe(404);
      expect((await s.api('GET', `/accounting/bill/${id}`, { tenant: t })).body.version).toBe(1);
      // The next version while the ledger is still away: the payment dropped, the amount changed.
      const edited = await s.api('PUT', `/accounting/bill/${id}`, {
        tenant: t,
        body: { ...body, lineItems: [{ serviceName: 'Toner', categoryId: c['Office Supplies'], amount: 60 }] },
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      await expectEventually(async () => expect(await entriesOf(s, id)).toHaveLength(3), { timeoutMs: 30_000 });
      await expectEventually(
        async () => {
          const txn = (await s.ledger.client.getTransaction({ id: out! }, s.ledger.as(t.workspaceId))).transaction!;
          expect(txn).toMatchObject({ entityType: '', entityId: '' });
        },
        { timeoutMs: 30_000 },
      );
    } finally {
      bookingFails = false;
    }
    // With the ledger back: the void books at once; its event then changes nothing.
    const voided = await s.api('POST', `/accounting/bill/void/${id}`, { tenant: t });
    expect(voided.status).toBe(200);
    expect(await entriesOf(s, id)).toHaveLength(4);
    await quiet();
    expect(await entriesOf(s, id)).toHaveLength(4);
    expect(await debitBalance(s, t, await accountOfKey(s, t, 'accounts_payable'))).toBe(0);
    const trial = (
      await s.ledger.db.adminDb.raw(
        "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as b from journal_lines where workspace_id = ?",
        [t.workspaceId],
      )
    ).rows as { b: string }[];
    expect(Number(trial[0]!.b)).toBe(0);
  });

  it('a manual journal committed while the ledger is away is booked once from its event', async () => {
    const c = await categoryIds(s, t);
    bookingFails = true;
    try {
      const r = await s.api('POST', '/accounting/manual-entry/v2', {
        tenant: t,
        body: {
          memo: 'Accrued rent',
          postingDate: '2026-05-31',
          lineItems: [
            { categoryId: c['Office Supplies'], amount: 120, type: 'debit' },
            { categoryId: c["Owner's Equity"] ?? c['Opening Balance Equity'], amount: 120, type: 'credit' },
          ],
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const id = r.body.manualEntry.id as string;
      await expectEventually(async () => expect(await entriesOf(s, id)).toHaveLength(1), { timeoutMs: 30_000 });
    } finally {
      bookingFails = false;
    }
    await quiet();
  });
});
