// The ledger's side of the transaction → vendor link (issue #17): vendors the parties service registers, the
// merchants (billers) each stands for, per-vendor totals (a transaction's own vendor, else its biller's), merges
// and forgetting a deleted vendor. Real Connect server, PostgreSQL and NATS.
import { Code, ConnectError } from '@connectrpc/connect';
import { errorInfoOf, newId } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankingFor, startLedger, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;
const [mine, theirs] = [newId(), newId()];

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: e.code, fields: (errorInfoOf(e)?.fields ?? []).map((f) => f.field) };
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  bus = await createTestBus('ledger-vendors');
  ledger = await startLedger(bus);
}, 60_000);
afterAll(async () => {
  await ledger?.close();
  await bus?.close();
});

const activity = async (ws: string, ids: string[] = []) =>
  Object.fromEntries(
    (await ledger.client.getVendorActivity({ vendorIds: ids }, ledger.as(ws))).activity.map((a) => [
      a.vendorId,
      [a.transactionCount, Number(a.spendingCents), Number(a.inflowCents)],
    ]),
  );

describe('vendor links', () => {
  it("totals follow a transaction's own vendor, else its merchant's; merge moves both; forget unlinks", async () => {
    const banking = bankingFor(bus, mine);
    const account = await banking.link();
    await banking.add(account, { amountCents: -1_000, name: 'Coffee 1', merchantName: 'Blue Bottle' });
    await banking.add(account, { amountCents: -2_000, name: 'Coffee 2', merchantName: 'Blue Bottle' });
    await banking.add(account, { amountCents: 500, name: 'Refund', merchantName: 'Blue Bottle' });
    await banking.add(account, { amountCents: -4_000, name: 'Paper', merchantName: 'Staples' });
    const txns = await expectEventually(async () => {
      const r = await ledger.client.listTransactions({ take: 100 }, ledger.as(mine));
      expect(r.data).toHaveLength(4);
      return r.data;
    });
    const billers = (await ledger.client.listBillers({}, ledger.as(mine))).billers;
    const blueBottle = billers.find((b) => b.name === 'Blue Bottle')!.id;
    const [coffee, paper, parent] = [newId(), newId(), newId()];
    await ledger.client.registerVendors(
      {
        vendors: [
          { vendorId: coffee, billerIds: [blueBottle] },
          { vendorId: paper, billerIds: [] },
          { vendorId: parent, billerIds: [] },
        ],
      },
      ledger.as(mine),
    );
    expect(await activity(mine)).toEqual({ [coffee]: [3, 3000, 500] });

    // A transaction's own vendor wins over its merchant's.
    const staples = txns.find((t) => t.biller?.name === 'Staples')!.id;
    const refund = txns.find((t) => t.amountCents > 0n)!.id;
    await ledger.client.bulkUpdateTransactions(
      {
        transactions: [
          { id: staples, vendorId: paper },
          { id: refund, vendorId: paper },
        ],
      },
      ledger.as(mine),
    );
    expect(await activity(mine)).toEqual({ [coffee]: [2, 3000, 0], [paper]: [2, 4000, 500] });
    expect(await activity(mine, [paper])).toEqual({ [paper]: [2, 4000, 500] });

    // Merge: own links and the merchant's vendor move to the parent; the merged ids name nothing any more.
    expect((await ledger.client.mergeVendors({ parentVendorId: parent, mergingVendorIds: [coffee, paper] }, ledger.as(mine))).movedTransactions).toBe(4);
    expect(await activity(mine)).toEqual({ [parent]: [4, 7000, 500] });
    expect((await refusal(ledger.client.bulkUpdateTransactions({ transactions: [{ id: staples, vendorId: paper }] }, ledger.as(mine)))).fields).toEqual([
      'transactions.0.vendorId',
    ]);
    // A retried merge moves nothing more.
    expect((await ledger.client.mergeVendors({ parentVendorId: parent, mergingVendorIds: [coffee, paper] }, ledger.as(mine))).movedTransactions).toBe(0);

    await ledger.client.forgetVendor({ vendorId: parent }, ledger.as(mine));
    expect(await activity(mine)).toEqual({});
    expect((await ledger.client.getTransaction({ id: staples }, ledger.as(mine))).transaction?.vendorId).toBe('');
  });

  it("refuses another workspace's biller and vendor, bad ids and a Viewer; another workspace sees no totals", async () => {
    const banking = bankingFor(bus, theirs);
    const account = await banking.link();
    await banking.add(account, { amountCents: -700, name: 'Theirs', merchantName: 'Their Shop' });
    await expectEventually(async () => expect((await ledger.client.listBillers({}, ledger.as(theirs))).billers).toHaveLength(1));
    const theirBiller = (await ledger.client.listBillers({}, ledger.as(theirs))).billers[0]!.id;
    const theirVendor = newId();
    await ledger.client.registerVendors({ vendors: [{ vendorId: theirVendor, billerIds: [theirBiller] }] }, ledger.as(theirs));
    expect(await refusal(ledger.client.registerVendors({ vendors: [{ vendorId: newId(), billerIds: [theirBiller] }] }, ledger.as(mine)))).toEqual({
      code: Code.NotFound,
      fields: ['vendors.0.billerIds'],
    });
    expect(await refusal(ledger.client.mergeVendors({ parentVendorId: theirVendor, mergingVendorIds: [newId()] }, ledger.as(mine)))).toEqual({
      code: Code.NotFound,
      fields: ['parentVendorId'],
    });
    expect(await refusal(ledger.client.mergeVendors({ parentVendorId: theirVendor, mergingVendorIds: [] }, ledger.as(theirs)))).toEqual({
      code: Code.InvalidArgument,
      fields: ['mergingVendorsId'],
    });
    expect(await refusal(ledger.client.registerVendors({ vendors: [{ vendorId: 'nope', billerIds: [] }] }, ledger.as(mine)))).toEqual({
      code: Code.InvalidArgument,
      fields: ['vendors.0.vendorId'],
    });
    expect((await refusal(ledger.client.forgetVendor({ vendorId: theirVendor }, ledger.as(theirs, 'Viewer')))).code).toBe(Code.PermissionDenied);
    expect(await activity(mine, [theirVendor])).toEqual({});
    expect(await activity(theirs)).toEqual({ [theirVendor]: [1, 700, 0] });
  });
});
