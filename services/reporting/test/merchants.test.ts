// Balances by merchant fed by entry.posted on real NATS and PostgreSQL: sums and transaction counts per
// merchant (a reversal counts −1 under the merchant of the entry it reverses), exactly once per event and
// per entry, the latest name wins whatever the delivery order, and the merchant tables add up to the
// balances (what the check compares).
import { newId, withTenant, type Knex } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantMismatches, NO_MERCHANT } from '../src/store/merchants.js';
import { publishEntry, startReporting, transfer, type ReportingHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let r: ReportingHarness;

beforeAll(async () => {
  bus = await createTestBus('reporting-merchants');
  r = await startReporting(bus, { batchSize: 50, maxDeliver: 2 });
});
afterAll(async () => {
  await r?.close();
  await bus?.close();
});

interface Cell {
  account_id: string;
  biller_id: string;
  period: string;
  d: number;
  c: number;
  n: number;
  t: number;
}
const cells = async (db: Knex, table: 'merchant_balances_daily' | 'merchant_balances_monthly', ws: string): Promise<Cell[]> => {
  const period = table === 'merchant_balances_daily' ? 'day' : 'month';
  return (
    await db.raw(
      `select account_id, biller_id, to_char(${period}, 'YYYY-MM-DD') as period, debit_cents::int as d, credit_cents::int as c, line_count::int as n, txn_count::int as t
     from ${table} where workspace_id = ? order by 3, 1, 2`,
      [ws],
    )
  ).rows as Cell[];
};
const projected = async (ws: string) =>
  Number(((await r.db.adminDb.raw('select count(*)::int as n from projected_entries where workspace_id = ?', [ws])).rows as { n: number }[])[0]?.n);
const names = async (ws: string) =>
  (await r.db.adminDb.raw('select biller_id, name from merchants where workspace_id = ? order by name', [ws])).rows as { biller_id: string; name: string }[];

describe('balances by merchant', () => {
  it("sums and counts per merchant × account, a reversal under its entry's merchant, redeliveries once", async () => {
    const ws = newId();
    const [bank, coffee, rent] = [newId(), newId(), newId()];
    const [blueBottle, weWork] = [newId(), newId()];
    const first = await publishEntry(bus, ws, {
      seq: 1,
      date: '2026-03-05',
      lines: transfer(coffee, bank, 450),
      billerId: blueBottle,
      billerName: 'Blue Bottle',
    });
    // Two lines on one account in one entry: one transaction.
    await publishEntry(bus, ws, {
      seq: 2,
      date: '2026-03-20',
      lines: [...transfer(coffee, bank, 300), ...transfer(coffee, bank, 20)],
      billerId: blueBottle,
      billerName: 'Blue Bottle',
    });
    const rentEntry = await publishEntry(bus, ws, { seq: 3, date: '2026-03-31', lines: transfer(rent, bank, 120_000), billerId: weWork, billerName: 'WeWork' });
    await publishEntry(bus, ws, { seq: 4, date: '2026-04-01', lines: transfer(rent, bank, 5_000) });
    // The rent re-booked: its reversal carries WeWork, like the entry it reverses.
    await publishEntry(bus, ws, {
      seq: 5,
      date: '2026-03-31',
      lines: transfer(bank, rent, 120_000),
      billerId: weWork,
      billerName: 'WeWork',
      reversesEntryId: rentEntry.entryId,
    });
    // The first entry again under a new event id: counted once (by entry id).
    await publishEntry(bus, ws, {
      entryId: first.entryId,
      seq: 1,
      date: '2026-03-05',
      lines: transfer(coffee, bank, 450),
      billerId: blueBottle,
      billerName: 'Blue Bottle',
    });
    await expectEventually(async () => expect(await projected(ws)).toBe(5));
    const monthly = await cells(r.db.adminDb, 'merchant_balances_monthly', ws);
    expect(monthly).toEqual(
      expect.arrayContaining([
        { account_id: coffee, biller_id: blueBottle, period: '2026-03-01', d: 770, c: 0, n: 3, t: 2 },
        { account_id: bank, biller_id: blueBottle, period: '2026-03-01', d: 0, c: 770, n: 3, t: 2 },
        { account_id: rent, biller_id: weWork, period: '2026-03-01', d: 120_000, c: 120_000, n: 2, t: 0 },
        { account_id: rent, biller_id: NO_MERCHANT, period: '2026-04-01', d: 5_000, c: 0, n: 1, t: 1 },
      ]),
    );
    expect(monthly).toHaveLength(6);
    expect(await cells(r.db.adminDb, 'merchant_balances_daily', ws)).toEqual(
      expect.arrayContaining([
        { account_id: coffee, biller_id: blueBottle, period: '2026-03-05', d: 450, c: 0, n: 1, t: 1 },
        { account_id: coffee, biller_id: blueBottle, period: '2026-03-20', d: 320, c: 0, n: 2, t: 1 },
      ]),
    );
    expect(await names(ws)).toEqual([
      { biller_id: blueBottle, name: 'Blue Bottle' },
      { biller_id: weWork, name: 'WeWork' },
    ]);
    expect(await withTenant(r.db.appDb, { workspaceId: ws }, (trx) => merchantMismatches(trx, ws))).toEqual([]);
  });

  it("a merchant's name is the one of its latest entry, even when an older entry arrives later", async () => {
    const ws = newId();
    const [a, b, m] = [newId(), newId(), newId()];
    await publishEntry(bus, ws, { seq: 20, date: '2026-05-02', lines: transfer(a, b, 100), billerId: m, billerName: 'Amazon Web Services' });
    await expectEventually(async () => expect(await projected(ws)).toBe(1));
    await publishEntry(bus, ws, { seq: 7, date: '2026-05-01', lines: transfer(a, b, 100), billerId: m, billerName: 'AMZN' });
    await expectEventually(async () => expect(await projected(ws)).toBe(2));
    expect(await names(ws)).toEqual([{ biller_id: m, name: 'Amazon Web Services' }]);
  });

  it('another workspace reads none of the merchant rows (row-level security)', async () => {
    const ws = newId();
    const [a, b] = [newId(), newId()];
    await publishEntry(bus, ws, { seq: 1, date: '2026-06-01', lines: transfer(a, b, 100), billerId: newId(), billerName: 'Secret' });
    await expectEventually(async () => expect(await projected(ws)).toBe(1));
    const seen = await withTenant(r.db.appDb, { workspaceId: newId() }, async (trx) => [
      ...(await trx('merchant_balances_monthly').where({ workspace_id: ws })),
      ...(await trx('merchant_balances_daily').where({ workspace_id: ws })),
      ...(await trx('merchants').where({ workspace_id: ws })),
    ]);
    expect(seen).toEqual([]);
  });
});
