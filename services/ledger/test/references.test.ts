// Issue #15: every id inside a request names something of the caller's workspace, or the request is a 404
// naming the field and nothing changes; and the RPC input rules (defence in depth) refuse hostile input with
// InvalidArgument naming the field, whoever calls. Real Connect server, PostgreSQL and NATS.
import { Code, ConnectError } from '@connectrpc/connect';
import { errorInfoOf, newId } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor, rows, startLedger, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;
const [mine, theirs] = [newId(), newId()];
interface Ids {
  account: string;
  transaction: string;
  biller: string;
  travel: string;
  cash: string;
}
const ids = { mine: {} as Ids, theirs: {} as Ids };

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, message: e.rawMessage, fields: (errorInfoOf(e)?.fields ?? []).map((f) => f.field) };
  }
  throw new Error('expected a refusal');
}

/** Everything the ledger holds for a workspace, as text: what a refused request must leave as it was. */
async function books(ws: string): Promise<string> {
  const q = (sql: string) => rows(ledger.db.adminDb, sql, [ws]);
  return JSON.stringify([
    await q(
      'select id, category_id, biller_id, vendor_id, applied_rule_id, is_finalized, current_entry_id from workspace_transactions where workspace_id = ? order by id',
    ),
    await q('select count(*)::int as n from journal_entries where workspace_id = ?'),
    await q('select id, category_id from billers where workspace_id = ? order by id'),
    await q('select count(*)::int as n from transaction_audit_logs where workspace_id = ?'),
  ]);
}

beforeAll(async () => {
  bus = await createTestBus('ledger-references');
  ledger = await startLedger(bus);
  for (const [ws, key] of [
    [mine, 'mine'],
    [theirs, 'theirs'],
  ] as const) {
    const banking = bankingFor(bus, ws);
    const account = await banking.link();
    await banking.add(account, { amountCents: -4_550, name: `Coffee ${key}`, merchantName: `Blue Bottle ${key}` });
    const txn = await expectEventually(async () => {
      const r = await ledger.client.listTransactions({}, ledger.as(ws));
      expect(r.data).toHaveLength(1);
      return r.data[0]!;
    });
    const chart = (await ledger.client.listCategories({}, ledger.as(ws))).categories;
    const biller = (await ledger.client.listBillers({}, ledger.as(ws))).billers[0]!;
    ids[key] = {
      account,
      transaction: txn.id,
      biller: biller.id,
      travel: chart.find((c) => c.name === 'Travel')!.id,
      cash: chart.find((c) => c.name === 'Checking ••1234')!.id,
    };
  }
}, 60_000);
afterAll(async () => {
  await ledger?.close();
  await bus?.close();
});

describe("references inside a request belong to the caller's workspace", () => {
  it("PATCH /transactions with another workspace's biller as vendorId is a 404 naming the field, and nothing changes", async () => {
    const before = [await books(mine), await books(theirs)];
    const r = await refusal(
      ledger.client.bulkUpdateTransactions({ transactions: [{ id: ids.mine.transaction, vendorId: ids.theirs.biller }] }, ledger.as(mine)),
    );
    expect(r).toEqual({ code: Code.NotFound, message: 'Vendor not found', fields: ['transactions.0.vendorId'] });
    // Later items are named by their position; a category change in the same request is not applied either.
    const second = await refusal(
      ledger.client.bulkUpdateTransactions(
        {
          transactions: [
            { id: ids.mine.transaction, categoryId: ids.mine.travel },
            { id: ids.mine.transaction, vendorId: ids.theirs.biller },
          ],
        },
        ledger.as(mine),
      ),
    );
    expect(second.fields).toEqual(['transactions.1.vendorId']);
    expect([await books(mine), await books(theirs)]).toEqual(before);
  });

  it('appliedRuleId must name a rule of the workspace (there are none yet): 404, nothing stored', async () => {
    const before = await books(mine);
    expect(
      await refusal(ledger.client.bulkUpdateTransactions({ transactions: [{ id: ids.mine.transaction, appliedRuleId: newId() }] }, ledger.as(mine))),
    ).toEqual({ code: Code.NotFound, message: 'Rule not found', fields: ['transactions.0.appliedRuleId'] });
    expect(await books(mine)).toEqual(before);
  });

  it("another workspace's category inside PATCH /transactions, the split and the biller update is a 404 naming the field", async () => {
    const before = [await books(mine), await books(theirs)];
    expect(
      (await refusal(ledger.client.bulkUpdateTransactions({ transactions: [{ id: ids.mine.transaction, categoryId: ids.theirs.travel }] }, ledger.as(mine))))
        .fields,
    ).toEqual(['transactions.0.categoryId']);
    expect(await refusal(ledger.client.updateTransaction({ id: ids.mine.transaction, categoryId: ids.theirs.travel }, ledger.as(mine)))).toEqual({
      code: Code.NotFound,
      message: 'Category not found',
      fields: ['categoryId'],
    });
    expect((await refusal(ledger.client.updateBiller({ id: ids.mine.biller, categoryId: ids.theirs.travel }, ledger.as(mine)))).fields).toEqual(['categoryId']);
    const split = await refusal(
      ledger.client.splitTransaction(
        {
          parentTransaction: { id: ids.mine.transaction, amountCents: 2_000n, categoryId: ids.mine.travel },
          splitTransactions: [{ amountCents: 2_550n, categoryId: ids.theirs.travel }],
        },
        ledger.as(mine),
      ),
    );
    expect(split).toMatchObject({ code: Code.NotFound, fields: ['splitTransactions.0.categoryId'] });
    expect((await refusal(ledger.client.getLedgerTransactions({ ledgerAccountId: ids.theirs.cash }, ledger.as(mine)))).fields).toEqual(['ledgerAccountId']);
    expect([await books(mine), await books(theirs)]).toEqual(before);
  });

  it("the list's filters with another workspace's account, biller or category are a 404 naming the filter", async () => {
    expect((await refusal(ledger.client.listTransactions({ accountIds: [ids.theirs.account] }, ledger.as(mine)))).fields).toEqual(['accountId']);
    expect((await refusal(ledger.client.listTransactions({ billerIds: [ids.mine.biller, ids.theirs.biller] }, ledger.as(mine)))).fields).toEqual(['billers']);
    expect((await refusal(ledger.client.listTransactions({ categoryIds: [ids.theirs.travel] }, ledger.as(mine)))).fields).toEqual(['categories']);
    // Its own ids still filter.
    expect(
      (await ledger.client.listTransactions({ accountIds: [ids.mine.account], billerIds: [ids.mine.biller] }, ledger.as(mine))).data.map((t) => t.id),
    ).toEqual([ids.mine.transaction]);
  });

  it("a vendor the parties service registered for the workspace is stored as vendorId; a merchant's id is not a vendor; an empty one clears it", async () => {
    expect(
      (await refusal(ledger.client.bulkUpdateTransactions({ transactions: [{ id: ids.mine.transaction, vendorId: ids.mine.biller }] }, ledger.as(mine))))
        .fields,
    ).toEqual(['transactions.0.vendorId']);
    const vendor = newId();
    await ledger.client.registerVendors({ vendors: [{ vendorId: vendor, billerIds: [] }] }, ledger.as(mine));
    expect(
      (await refusal(ledger.client.bulkUpdateTransactions({ transactions: [{ id: ids.theirs.transaction, vendorId: vendor }] }, ledger.as(theirs)))).fields,
    ).toEqual(['transactions.0.vendorId']);
    await ledger.client.bulkUpdateTransactions({ transactions: [{ id: ids.mine.transaction, vendorId: vendor }] }, ledger.as(mine));
    expect((await ledger.client.getTransaction({ id: ids.mine.transaction }, ledger.as(mine))).transaction?.vendorId).toBe(vendor);
    await ledger.client.bulkUpdateTransactions({ transactions: [{ id: ids.mine.transaction, vendorId: '' }] }, ledger.as(mine));
    expect((await ledger.client.getTransaction({ id: ids.mine.transaction }, ledger.as(mine))).transaction?.vendorId).toBe('');
  });
});

describe('the RPC input rules, whoever the caller', () => {
  it('refuse control characters, over-long text, huge amounts and dates outside 1900..2100 with InvalidArgument naming the field; nothing changes', async () => {
    const before = await books(mine);
    // Each call starts when its turn comes: a refusal made before its await would be an unhandled rejection.
    const cases: [() => Promise<unknown>, string][] = [
      [
        () => ledger.client.bulkUpdateTransactions({ transactions: [{ id: ids.mine.transaction, billerName: 'Blue\u0000Bottle' }] }, ledger.as(mine)),
        'transactions.0.billerName',
      ],
      [() => ledger.client.createCategory({ name: 'x'.repeat(10_001), coaId: 61_800, parentId: ids.mine.travel }, ledger.as(mine)), 'name'],
      [() => ledger.client.listTransactions({ startDate: '0000-01-01' }, ledger.as(mine)), 'startDate'],
      [() => ledger.client.getGeneralLedger({ startDate: '2026-01-01', endDate: '9999-12-31' }, ledger.as(mine)), 'endDate'],
      [() => ledger.client.listTransactions({ minAmountCents: 10n ** 17n }, ledger.as(mine)), 'minAmount'],
      [
        () =>
          ledger.client.splitTransaction(
            {
              parentTransaction: { id: ids.mine.transaction, amountCents: 10n ** 15n, categoryId: ids.mine.travel },
              splitTransactions: [{ amountCents: 1n, categoryId: ids.mine.travel }],
            },
            ledger.as(mine),
          ),
        'parentTransaction.amount',
      ],
      [() => ledger.client.setOpeningBalance({ categoryId: ids.mine.cash, amountCents: -(10n ** 15n), date: '2026-01-01' }, ledger.as(mine)), 'amount'],
      [() => ledger.client.setOpeningBalance({ categoryId: ids.mine.cash, amountCents: 100n, date: '2023-02-29' }, ledger.as(mine)), 'date'],
      [() => ledger.client.listTransactions({ page: 2 ** 31 - 1 }, ledger.as(mine)), 'page'],
      [() => ledger.client.createCategory({ name: 'X', coaId: 2 ** 31 - 1, parentId: ids.mine.travel }, ledger.as(mine)), 'coaId'],
    ];
    for (const [call, field] of cases) {
      const r = await refusal(call());
      expect(r.code, field).toBe(Code.InvalidArgument);
      expect(r.fields, field).toContain(field);
      expect(r.message, field).toContain(field);
    }
    expect(await books(mine)).toEqual(before);
  });
});
