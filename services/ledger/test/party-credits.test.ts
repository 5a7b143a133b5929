// PostPartyCredit (issue #17 item 5): vendor credits and credit memos booked against Accounts Payable /
// Receivable, found or created in the chart, over the real Connect server, PostgreSQL and NATS.
import { Code } from '@connectrpc/connect';
import { newId } from '@ledgerline/platform';
import { describe, expect, it } from 'vitest';
import { partyCreditLines } from '../src/domain/party-credits.js';
import { ledgerForFile, refusal } from './sourced-postings.support.js';
import { rows } from './support.js';

const ledger = ledgerForFile('ledger-party-credits');
const { chart, linesOf } = ledger;
const keyed = (ws: string, key: string) =>
  rows<{ id: string; name: string; coa_id: number; level: number; parent: string }>(
    ledger.db.adminDb,
    'select a.id::text, a.name, a.coa_id, a.level, p.name as parent from accounts a join accounts p on p.id = a.parent_id where a.workspace_id = ? and a.system_key = ?',
    [ws, key],
  );

describe('partyCreditLines', () => {
  it('a vendor credit debits the party account with the total and credits each category; a credit memo the other way round', () => {
    const lines = [
      { categoryId: 'c1', amountCents: 300 },
      { categoryId: 'c2', amountCents: 45 },
    ];
    expect(partyCreditLines('VendorCredit', 'ap', lines)).toEqual([
      { accountId: 'ap', direction: 'debit', amountCents: 345 },
      { accountId: 'c1', direction: 'credit', amountCents: 300 },
      { accountId: 'c2', direction: 'credit', amountCents: 45 },
    ]);
    expect(partyCreditLines('CreditMemo', 'ar', lines)).toEqual([
      { accountId: 'c1', direction: 'debit', amountCents: 300 },
      { accountId: 'c2', direction: 'debit', amountCents: 45 },
      { accountId: 'ar', direction: 'credit', amountCents: 345 },
    ]);
    expect(partyCreditLines('CreditMemo', 'ar', [])).toEqual([]);
  });
});

describe('PostPartyCredit', () => {
  it("keys the default chart's Accounts Payable at the first vendor credit and books against it", async () => {
    const ws = newId();
    const a = await chart(ws);
    const id = newId();
    const r = await ledger.client.postPartyCredit(
      {
        sourceType: 'VendorCredit',
        sourceId: id,
        version: 1n,
        date: '2026-09-01',
        description: 'Vendor credit: AWS',
        lines: [{ categoryId: a['Hosting and Infrastructure'], amountCents: 1234n }],
      },
      ledger.as(ws, 'Admin'),
    );
    expect(r.partyAccountId).toBe(a['Accounts Payable']);
    expect(await keyed(ws, 'accounts_payable')).toEqual([
      expect.objectContaining({ id: a['Accounts Payable'], coa_id: 21100, level: 3, parent: 'Current Liabilities' }),
    ]);
    expect(await linesOf(r.result!.entryId)).toEqual([
      { account_id: a['Accounts Payable'], direction: 'debit', amount_cents: 1234 },
      { account_id: a['Hosting and Infrastructure'], direction: 'credit', amount_cents: 1234 },
    ]);
    // The same version and body again is a replay; an older version is stale.
    const again = await ledger.client.postPartyCredit(
      {
        sourceType: 'VendorCredit',
        sourceId: id,
        version: 1n,
        date: '2026-09-01',
        description: 'Vendor credit: AWS',
        lines: [{ categoryId: a['Hosting and Infrastructure'], amountCents: 1234n }],
      },
      ledger.as(ws, 'Admin'),
    );
    expect(again.result).toMatchObject({ replayed: true, entryId: r.result!.entryId });
  });

  it('creates Accounts Receivable under Current Assets when the chart has none of that name, once, even for two first credits at once', async () => {
    const ws = newId();
    const a = await chart(ws);
    await ledger.db.adminDb.raw("update accounts set name = 'Trade Receivables' where workspace_id = ? and name = 'Accounts Receivable'", [ws]);
    const post = () =>
      ledger.client.postPartyCredit(
        {
          sourceType: 'CreditMemo',
          sourceId: newId(),
          version: 1n,
          date: '2026-09-02',
          description: 'Credit memo',
          lines: [{ categoryId: a['Sales'], amountCents: 500n }],
        },
        ledger.as(ws, 'Admin'),
      );
    const [x, y] = await Promise.all([post(), post()]);
    expect(x.partyAccountId).toBe(y.partyAccountId);
    const ar = await keyed(ws, 'accounts_receivable');
    expect(ar).toEqual([expect.objectContaining({ id: x.partyAccountId, name: 'Accounts Receivable', level: 3, parent: 'Current Assets' })]);
    expect(ar[0]!.id).not.toBe(a['Accounts Receivable']);
    const changed = await rows<{ n: number }>(ledger.db.adminDb, "select count(*)::int as n from outbox where workspace_id = ? and type = 'chart.changed'", [
      ws,
    ]);
    expect(changed[0]?.n).toBe(1);
  });

  it('refuses what is not a party credit: another source type, a category of another workspace (404 naming it), a group, the party account itself, a Viewer', async () => {
    const ws = newId();
    const a = await chart(ws);
    const theirs = await chart(newId());
    const base = { sourceType: 'VendorCredit', sourceId: newId(), version: 1n, date: '2026-09-03', description: 'x' };
    expect(
      await refusal(
        ledger.client.postPartyCredit({ ...base, sourceType: 'Bill', lines: [{ categoryId: a['Rent'], amountCents: 1n }] }, ledger.as(ws, 'Admin')),
      ),
    ).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'sourceType' }] });
    expect(
      await refusal(
        ledger.client.postPartyCredit(
          {
            ...base,
            lines: [
              { categoryId: a['Rent'], amountCents: 1n },
              { categoryId: theirs['Rent'], amountCents: 1n },
            ],
          },
          ledger.as(ws, 'Admin'),
        ),
      ),
    ).toMatchObject({ code: Code.NotFound, fields: [{ field: 'lineItems.1.categoryId' }] });
    expect(
      await refusal(ledger.client.postPartyCredit({ ...base, lines: [{ categoryId: a['Operating Expenses'], amountCents: 1n }] }, ledger.as(ws, 'Admin'))),
    ).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'lineItems.0.categoryId' }] });
    expect(
      await refusal(ledger.client.postPartyCredit({ ...base, lines: [{ categoryId: a['Accounts Payable'], amountCents: 1n }] }, ledger.as(ws, 'Admin'))),
    ).toMatchObject({ code: Code.InvalidArgument, fields: [{ field: 'lineItems.0.categoryId' }] });
    expect(
      await refusal(ledger.client.postPartyCredit({ ...base, lines: [{ categoryId: a['Rent'], amountCents: 0n }] }, ledger.as(ws, 'Admin'))),
    ).toMatchObject({ code: Code.InvalidArgument });
    expect((await refusal(ledger.client.postPartyCredit({ ...base, lines: [{ categoryId: a['Rent'], amountCents: 1n }] }, ledger.as(ws, 'Viewer')))).code).toBe(
      Code.PermissionDenied,
    );
    const entries = await rows<{ n: number }>(ledger.db.adminDb, 'select count(*)::int as n from journal_entries where workspace_id = ?', [ws]);
    expect(entries[0]?.n).toBe(0);
  });
});
