// Balances kept per origin from entry.posted (real NATS and PostgreSQL): each money type reads its
// origins and they add up to ALL; a reversal stays under its entry's origin; an unknown source type is
// dead-lettered; the migration marks balances applied before origins were kept, and a rebuild clears it.
import { deadLetterSubject, migrateLatest, newId, withSystem, withTenant } from '@ledgerline/platform';
import { createTestBus, createTestDatabase, expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentsFor } from '../src/domain/periods.js';
import { ORIGIN, originsOf, type Origin } from '../src/domain/origins.js';
import { dailyMonthlyMismatches, originsUnclassified, segmentSums } from '../src/store/balances.js';
import { merchantMismatches } from '../src/store/merchants.js';
import { resetForRebuild } from '../src/usecases/maintenance.js';
import { reportingMigrations } from '../src/store/migrations.js';
import { publishEntry, startReporting, transfer, type ReportingHarness } from './support.js';
import { PROJECTOR } from '../src/events/projector.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let r: ReportingHarness;

beforeAll(async () => {
  bus = await createTestBus('reporting-origins');
  r = await startReporting(bus, { batchSize: 50, maxDeliver: 1 });
});
afterAll(async () => {
  await r?.close();
  await bus?.close();
});

const projected = async (ws: string) =>
  Number(((await r.db.adminDb.raw('select count(*)::int as n from projected_entries where workspace_id = ?', [ws])).rows as { n: number }[])[0]?.n);

describe('balances by origin', () => {
  it('each money type reads its origins; bank + non-bank and unadjusted + adjustments equal ALL, per account and column', async () => {
    const ws = newId();
    const [cash, sales, rent, payable] = [newId(), newId(), newId(), newId()];
    const bank = await publishEntry(bus, ws, {
      seq: 1,
      date: '2026-01-10',
      sourceType: 'WorkspaceTransaction',
      lines: transfer(cash, sales, 10_000),
      billerId: newId(),
      billerName: 'Acme',
    });
    await publishEntry(bus, ws, { seq: 2, date: '2026-01-10', sourceType: 'Bill', lines: transfer(rent, payable, 3_000) });
    await publishEntry(bus, ws, { seq: 3, date: '2026-02-03', sourceType: 'ManualEntry', lines: transfer(rent, cash, 500) });
    await publishEntry(bus, ws, { seq: 4, date: '2026-02-04', sourceType: 'OpeningBalance', lines: transfer(cash, payable, 200) });
    // A re-categorised bank transaction: its reversal carries the source type of the entry it reverses.
    await publishEntry(bus, ws, {
      seq: 5,
      date: '2026-01-10',
      sourceType: 'WorkspaceTransaction',
      reversesEntryId: bank.entryId,
      lines: transfer(sales, cash, 10_000),
    });
    await publishEntry(bus, ws, { seq: 6, date: '2026-01-10', sourceType: 'WorkspaceTransaction', lines: transfer(cash, rent, 10_000) });
    await expectEventually(async () => expect(await projected(ws)).toBe(6));

    // January by days 1-9 + 10-31 (daily) and February (monthly), plus the whole span.
    const segments = [
      ...segmentsFor(0, '2026-01-01', '2026-01-31'),
      ...segmentsFor(1, '2026-02-01', '2026-02-28'),
      ...segmentsFor(2, '2026-01-05', '2026-02-03'),
    ];
    const read = (origins: readonly Origin[] | null) => withTenant(r.db.appDb, { workspaceId: ws }, (trx) => segmentSums(trx, ws, segments, 3, origins));
    const all = await read(null);
    const nonBank = await read(originsOf('non-bank'));
    const unadjusted = await read(originsOf('unadjusted'));
    const bankOnly = await read([ORIGIN.bank]);
    const adjustments = await read([ORIGIN.adjustment]);
    const cell = (m: typeof all, id: string, col: number) => m.get(id)?.[col] ?? { debit: 0, credit: 0 };
    const add = (a: { debit: number; credit: number }, b: { debit: number; credit: number }) => ({ debit: a.debit + b.debit, credit: a.credit + b.credit });
    for (const id of [cash, sales, rent, payable]) {
      for (const col of [0, 1, 2]) {
        expect(add(cell(nonBank, id, col), cell(bankOnly, id, col))).toEqual(cell(all, id, col));
        expect(add(cell(unadjusted, id, col), cell(adjustments, id, col))).toEqual(cell(all, id, col));
      }
    }
    expect(cell(nonBank, rent, 0)).toEqual({ debit: 3_000, credit: 0 });
    expect(cell(nonBank, cash, 1)).toEqual({ debit: 200, credit: 500 });
    expect(cell(unadjusted, rent, 1)).toEqual({ debit: 0, credit: 0 });
    expect(cell(bankOnly, sales, 0)).toEqual({ debit: 10_000, credit: 10_000 });
    expect(cell(all, rent, 2)).toEqual({ debit: 3_500, credit: 10_000 });
    // The check still adds the tables up, now origin by origin.
    await withTenant(r.db.appDb, { workspaceId: ws }, async (trx) => {
      expect(await dailyMonthlyMismatches(trx, ws)).toEqual([]);
      expect(await merchantMismatches(trx, ws)).toEqual([]);
    });
    const origins = (await r.db.adminDb.raw('select distinct origin from balances_daily where workspace_id = ? order by 1', [ws])).rows as { origin: number }[];
    expect(origins.map((o) => o.origin)).toEqual([ORIGIN.bank, ORIGIN.document, ORIGIN.adjustment]);
  });

  it('an entry of a source type the read model does not know is dead-lettered, never counted under no origin', async () => {
    const ws = newId();
    const [a, b] = [newId(), newId()];
    await publishEntry(bus, ws, { seq: 1, date: '2026-03-01', sourceType: 'Payroll', lines: transfer(a, b, 100) });
    await publishEntry(bus, ws, { seq: 2, date: '2026-03-01', sourceType: 'Invoice', lines: transfer(a, b, 50) });
    await expectEventually(async () => expect(await projected(ws)).toBe(1));
    // Evidence, not a pause: the unknown one is in the dead letters, with the reason.
    const dead: string[] = [];
    const sub = await bus.subscribe({ durable: 'origins_dead_letter_reader', subjects: [deadLetterSubject(PROJECTOR)] }, async (m) => {
      dead.push(m.headers['ll-error'] ?? '');
      await m.ack();
    });
    try {
      await expectEventually(() => expect(dead.some((e) => e.includes('source_type'))).toBe(true));
    } finally {
      await sub.stop();
    }
    expect(await projected(ws)).toBe(1);
  });
});

describe('the migration to balances by origin', () => {
  it('rows applied before are unclassified: ALL reads them as before, the workspace is marked until a rebuild', async () => {
    const db = await createTestDatabase(
      'reporting_origins',
      reportingMigrations.slice(
        0,
        reportingMigrations.findIndex((m) => m.name === '20261123200000_reporting_balance_origins'),
      ),
    );
    try {
      const [ws, account, biller] = [newId(), newId(), newId()];
      await db
        .adminDb('balances_monthly')
        .insert({ workspace_id: ws, month: '2026-01-01', account_id: account, debit_cents: 700, credit_cents: 0, line_count: 1 });
      await db.adminDb('balances_daily').insert({ workspace_id: ws, day: '2026-01-05', account_id: account, debit_cents: 700, credit_cents: 0, line_count: 1 });
      await db.adminDb('merchant_balances_daily').insert({
        workspace_id: ws,
        day: '2026-01-05',
        account_id: account,
        biller_id: biller,
        debit_cents: 700,
        credit_cents: 0,
        line_count: 1,
        txn_count: 1,
      });
      await migrateLatest(db.adminDb, reportingMigrations);
      const rows = (
        await db.adminDb.raw(
          'select origin from balances_monthly union all select origin from balances_daily union all select origin from merchant_balances_daily',
        )
      ).rows as { origin: number }[];
      expect(rows.map((x) => x.origin)).toEqual([ORIGIN.unclassified, ORIGIN.unclassified, ORIGIN.unclassified]);
      await withTenant(db.appDb, { workspaceId: ws }, async (trx) => {
        expect(await originsUnclassified(trx, ws)).toBe(true);
        expect((await segmentSums(trx, ws, segmentsFor(0, '2026-01-01', '2026-01-31'), 1)).get(account)).toEqual([{ debit: 700, credit: 0 }]);
      });
      expect(await withTenant(db.appDb, { workspaceId: newId() }, (trx) => originsUnclassified(trx, ws))).toBe(false);
      await resetForRebuild(db.appDb);
      expect(await withSystem(db.appDb, (trx) => originsUnclassified(trx, ws))).toBe(false);
    } finally {
      await db.drop();
    }
  });
});
