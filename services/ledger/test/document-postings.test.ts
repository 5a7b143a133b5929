// PostDocument (issue #18): bills, invoices and manual journals booked on the accrual basis over the real Connect
// server, PostgreSQL and NATS. Idempotent by document id + version: a retried version answers the original entry and
// never posts twice; the same version with another body is refused; a newer version reverses and reposts; no lines voids.
import { Code } from '@connectrpc/connect';
import { newId } from '@ledgerline/platform';
import { describe, expect, it } from 'vitest';
import { billOrInvoiceLines, manualEntryLines, paysDocument } from '../src/domain/document-postings.js';
import { ledgerForFile, refusal } from './sourced-postings.support.js';
import { rows, trialBalance } from './support.js';

const ledger = ledgerForFile('ledger-document-postings');
const { chart, linesOf } = ledger;
const entriesOf = (sourceId: string) =>
  rows<{ id: string; source_type: string; entry_date: string; reverses_entry_id: string | null }>(
    ledger.db.adminDb,
    "select id::text, source_type, to_char(entry_date, 'YYYY-MM-DD') as entry_date, reverses_entry_id::text from journal_entries where source_id = ? order by seq",
    [sourceId],
  );

describe("the entry's lines", () => {
  it('a bill debits each category and credits AP with the total; an invoice debits AR and credits each category; a manual journal as given', () => {
    const lines = [
      { categoryId: 'c1', amountCents: 300 },
      { categoryId: 'c2', amountCents: 45 },
    ];
    expect(billOrInvoiceLines('Bill', 'ap', lines)).toEqual([
      { accountId: 'c1', direction: 'debit', amountCents: 300 },
      { accountId: 'c2', direction: 'debit', amountCents: 45 },
      { accountId: 'ap', direction: 'credit', amountCents: 345 },
    ]);
    expect(billOrInvoiceLines('Invoice', 'ar', lines)).toEqual([
      { accountId: 'ar', direction: 'debit', amountCents: 345 },
      { accountId: 'c1', direction: 'credit', amountCents: 300 },
      { accountId: 'c2', direction: 'credit', amountCents: 45 },
    ]);
    expect(billOrInvoiceLines('Bill', 'ap', [])).toEqual([]);
    expect(
      manualEntryLines([
        { categoryId: 'a', amountCents: 5, direction: 'debit' },
        { categoryId: 'b', amountCents: 5, direction: 'credit' },
      ]),
    ).toEqual({
      lines: [
        { accountId: 'a', direction: 'debit', amountCents: 5 },
        { accountId: 'b', direction: 'credit', amountCents: 5 },
      ],
    });
    expect(
      manualEntryLines([
        { categoryId: 'a', amountCents: 5, direction: 'debit' },
        { categoryId: 'b', amountCents: 5 },
      ]).badDirection,
    ).toBe(1);
  });
  it('money out pays a bill, money in an invoice', () => {
    expect([paysDocument('Bill', -1), paysDocument('Bill', 1), paysDocument('Invoice', 1), paysDocument('Invoice', -1), paysDocument('Bill', 0)]).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
  });
});

describe('PostDocument', () => {
  it('books a bill against Accounts Payable; a retry of the same version is a replay, another body for it is refused, 20 concurrent retries post once', async () => {
    const ws = newId();
    const a = await chart(ws);
    const id = newId();
    const request = {
      sourceType: 'Bill',
      sourceId: id,
      version: 1n,
      date: '2026-09-01',
      description: 'Bill: AWS',
      lines: [{ categoryId: a['Hosting and Infrastructure']!, amountCents: 1234n, direction: '' }],
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => ledger.client.postDocument(request, ledger.as(ws, 'Admin'))));
    expect(new Set(results.map((r) => r.result?.entryId)).size).toBe(1);
    expect(results[0]!.partyAccountId).toBe(a['Accounts Payable']);
    expect(await entriesOf(id)).toEqual([expect.objectContaining({ source_type: 'Bill', entry_date: '2026-09-01' })]);
    expect(await linesOf(results[0]!.result!.entryId)).toEqual([
      { account_id: a['Hosting and Infrastructure'], direction: 'debit', amount_cents: 1234 },
      { account_id: a['Accounts Payable'], direction: 'credit', amount_cents: 1234 },
    ]);
    const other = await refusal(ledger.client.postDocument({ ...request, lines: [{ ...request.lines[0]!, amountCents: 999n }] }, ledger.as(ws, 'Admin')));
    expect(other.code).toBe(Code.AlreadyExists);

    // Version 2 reverses and reposts; version 3 with no lines voids; the books balance throughout.
    const v2 = await ledger.client.postDocument({ ...request, version: 2n, lines: [{ ...request.lines[0]!, amountCents: 2000n }] }, ledger.as(ws, 'Admin'));
    expect(v2.result).toMatchObject({ reversedEntryId: results[0]!.result!.entryId });
    const v3 = await ledger.client.postDocument({ ...request, version: 3n, date: '', lines: [] }, ledger.as(ws, 'Admin'));
    expect(v3.result?.entryId).toBe('');
    const entries = await entriesOf(id);
    expect(entries.map((e) => e.reverses_entry_id)).toEqual([null, entries[0]!.id, null, entries[2]!.id]);
    expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);
  });

  it('books an invoice against Accounts Receivable and a manual journal as given', async () => {
    const ws = newId();
    const a = await chart(ws);
    const inv = await ledger.client.postDocument(
      {
        sourceType: 'Invoice',
        sourceId: newId(),
        version: 1n,
        date: '2026-09-02',
        description: 'Invoice',
        lines: [{ categoryId: a['Sales']!, amountCents: 500n, direction: '' }],
      },
      ledger.as(ws, 'Admin'),
    );
    expect(inv.partyAccountId).toBe(a['Accounts Receivable']);
    expect(await linesOf(inv.result!.entryId)).toEqual([
      { account_id: a['Accounts Receivable'], direction: 'debit', amount_cents: 500 },
      { account_id: a['Sales'], direction: 'credit', amount_cents: 500 },
    ]);
    const me = await ledger.client.postDocument(
      {
        sourceType: 'ManualEntry',
        sourceId: newId(),
        version: 1n,
        date: '2026-09-03',
        description: 'Manual entry',
        lines: [
          { categoryId: a['Rent']!, amountCents: 700n, direction: 'debit' },
          { categoryId: a['Accounts Payable']!, amountCents: 700n, direction: 'credit' },
        ],
      },
      ledger.as(ws, 'Admin'),
    );
    expect(me.partyAccountId).toBe('');
    expect(await linesOf(me.result!.entryId)).toEqual([
      { account_id: a['Rent'], direction: 'debit', amount_cents: 700 },
      { account_id: a['Accounts Payable'], direction: 'credit', amount_cents: 700 },
    ]);
  });

  it("refuses another source type, another workspace's category (404 naming it), an unbalanced or untyped manual journal, a Viewer; nothing is posted", async () => {
    const ws = newId();
    const a = await chart(ws);
    const theirs = await chart(newId());
    const base = { sourceType: 'Bill', sourceId: newId(), version: 1n, date: '2026-09-03', description: 'x' };
    const line = (categoryId: string, amountCents = 1n, direction = '') => ({ categoryId, amountCents, direction });
    expect(await refusal(ledger.client.postDocument({ ...base, sourceType: 'VendorCredit', lines: [line(a['Rent']!)] }, ledger.as(ws, 'Admin')))).toMatchObject(
      { code: Code.InvalidArgument, fields: [{ field: 'sourceType' }] },
    );
    expect(await refusal(ledger.client.postDocument({ ...base, lines: [line(a['Rent']!), line(theirs['Rent']!)] }, ledger.as(ws, 'Admin')))).toMatchObject({
      code: Code.NotFound,
      fields: [{ field: 'lineItems.1.categoryId' }],
    });
    expect(await refusal(ledger.client.postDocument({ ...base, lines: [line(a['Accounts Payable']!)] }, ledger.as(ws, 'Admin')))).toMatchObject({
      code: Code.InvalidArgument,
      fields: [{ field: 'lineItems.0.categoryId' }],
    });
    expect(
      await refusal(
        ledger.client.postDocument(
          { ...base, sourceType: 'ManualEntry', lines: [line(a['Rent']!, 5n, 'debit'), line(a['Sales']!, 4n, 'credit')] },
          ledger.as(ws, 'Admin'),
        ),
      ),
    ).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'lines' }] });
    expect(
      await refusal(
        ledger.client.postDocument(
          { ...base, sourceType: 'ManualEntry', lines: [line(a['Rent']!, 5n, 'debit'), line(a['Sales']!, 5n)] },
          ledger.as(ws, 'Admin'),
        ),
      ),
    ).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'lineItems.1.direction' }] });
    expect((await refusal(ledger.client.postDocument({ ...base, lines: [line(a['Rent']!)] }, ledger.as(ws, 'Viewer')))).code).toBe(Code.PermissionDenied);
    const entries = await rows<{ n: number }>(ledger.db.adminDb, 'select count(*)::int as n from journal_entries where workspace_id = ?', [ws]);
    expect(entries[0]?.n).toBe(0);
  });
});
