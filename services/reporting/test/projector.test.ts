// The read model fed by entry.posted on real NATS and PostgreSQL: balances by day and month, exactly
// once per event and per entry, poison events dead-lettered without holding back the rest, row-level
// security on every tenant table, and a rebuild that replays the stream to the same balances.
import { deadLetterSubject, EventType, newId, publishEvent, tablesMissingRls, withTenant, type Knex } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentWorkspaceVersion, dailyMonthlyMismatches } from '../src/store/balances.js';
import { PROJECTOR } from '../src/events/projector.js';
import { publishEntry, startReporting, transfer, type ReportingHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let r: ReportingHarness;

beforeAll(async () => {
  bus = await createTestBus('reporting-projector');
  r = await startReporting(bus, { batchSize: 50, maxDeliver: 2 });
});
afterAll(async () => {
  await r?.close();
  await bus?.close();
});

interface Bal {
  account_id: string;
  period: string;
  d: number;
  c: number;
  n: number;
}
const balances = async (db: Knex, table: 'balances_daily' | 'balances_monthly', ws: string): Promise<Bal[]> => {
  const period = table === 'balances_daily' ? 'day' : 'month';
  return (
    await db.raw(
      `select account_id, to_char(${period}, 'YYYY-MM-DD') as period, debit_cents::int as d, credit_cents::int as c, line_count::int as n from ${table} where workspace_id = ? order by 2, 1`,
      [ws],
    )
  ).rows as Bal[];
};
const projected = async (ws: string) =>
  Number(((await r.db.adminDb.raw('select count(*)::int as n from projected_entries where workspace_id = ?', [ws])).rows as { n: number }[])[0]?.n);

describe('the read model', () => {
  it('every tenant table has row-level security', async () => {
    expect(await tablesMissingRls(r.db.adminDb)).toEqual([]);
  });

  it('applies an entries.posted batch as its entries, once per entry id also when an entry comes again alone or in another batch', async () => {
    const ws = newId();
    const [cash, sales] = [newId(), newId()];
    const entry = (seq: number, amount: number, date = '2026-05-02') => ({
      entryId: newId(),
      seq: BigInt(seq),
      date,
      sourceType: 'WorkspaceTransaction',
      sourceId: newId(),
      description: 'bank',
      lines: transfer(cash, sales, amount).map((l) => ({
        lineId: newId(),
        accountId: l.accountId,
        direction: l.direction,
        amountCents: BigInt(l.amountCents),
      })),
    });
    const batch = [entry(1, 1_000), entry(2, 2_000), entry(3, 4_000, '2026-06-01')];
    await publishEvent(bus, 'ledger', { type: EventType.EntriesPosted, workspaceId: ws, payload: { entries: batch } });
    // The second entry again alone (a re-publication under another event id) and in another batch with a new one.
    // A re-publication carries the entry as it was posted (its source type decides the money type the balances are
    // kept under): whichever copy a batch applies, the balances are the same.
    await publishEntry(bus, ws, {
      entryId: batch[1]!.entryId,
      seq: 2,
      date: batch[1]!.date,
      sourceType: batch[1]!.sourceType,
      lines: transfer(cash, sales, 2_000),
    });
    await publishEvent(bus, 'ledger', { type: EventType.EntriesPosted, workspaceId: ws, payload: { entries: [batch[1]!, entry(4, 8_000)] } });
    await expectEventually(async () => expect(await projected(ws)).toBe(4), { timeoutMs: 30_000 });
    const monthly = await balances(r.db.adminDb, 'balances_monthly', ws);
    expect(monthly.filter((b) => b.account_id === cash)).toEqual([
      { account_id: cash, period: '2026-05-01', d: 11_000, c: 0, n: 3 },
      { account_id: cash, period: '2026-06-01', d: 4_000, c: 0, n: 1 },
    ]);
  });

  it('keeps debits, credits and line counts per account by day and by month', async () => {
    const ws = newId();
    const [cash, sales, rent] = [newId(), newId(), newId()];
    await publishEntry(bus, ws, { seq: 1, date: '2026-03-05', lines: transfer(cash, sales, 10_000) });
    await publishEntry(bus, ws, { seq: 2, date: '2026-03-05', lines: transfer(cash, sales, 2_500) });
    await publishEntry(bus, ws, { seq: 3, date: '2026-03-31', lines: transfer(rent, cash, 4_000) });
    await publishEntry(bus, ws, {
      seq: 4,
      date: '2026-04-01',
      lines: [
        ...transfer(rent, cash, 1_000),
        { accountId: rent, direction: 'debit', amountCents: 1 },
        { accountId: cash, direction: 'credit', amountCents: 1 },
      ],
    });
    await expectEventually(async () => expect(await projected(ws)).toBe(4));
    expect(await balances(r.db.adminDb, 'balances_monthly', ws)).toEqual(
      expect.arrayContaining([
        { account_id: cash, period: '2026-03-01', d: 12_500, c: 4_000, n: 3 },
        { account_id: sales, period: '2026-03-01', d: 0, c: 12_500, n: 2 },
        { account_id: rent, period: '2026-03-01', d: 4_000, c: 0, n: 1 },
        { account_id: cash, period: '2026-04-01', d: 0, c: 1_001, n: 2 },
        { account_id: rent, period: '2026-04-01', d: 1_001, c: 0, n: 2 },
      ]),
    );
    expect(await balances(r.db.adminDb, 'balances_daily', ws)).toHaveLength(6);
    expect(await withTenant(r.db.appDb, { workspaceId: ws }, (trx) => dailyMonthlyMismatches(trx, ws))).toEqual([]);
  });

  it('a redelivered event (same event id) and the same entry re-published under a new event id count once', async () => {
    const ws = newId();
    const [a, b] = [newId(), newId()];
    const first = await publishEntry(bus, ws, { seq: 10, date: '2026-05-02', lines: transfer(a, b, 700) });
    await expectEventually(async () => expect(await projected(ws)).toBe(1));
    // JetStream's duplicate window would swallow a same-id publish, so the redelivery is simulated by
    // a different Nats-Msg-Id carrying the same envelope id: the inbox must stop it.
    const again = await publishEntry(bus, ws, { entryId: first.entryId, seq: 10, date: '2026-05-02', lines: transfer(a, b, 700) }, first.eventId);
    expect(again.eventId).toBe(first.eventId);
    await publishEntry(bus, ws, { entryId: first.entryId, seq: 10, date: '2026-05-02', lines: transfer(a, b, 700) });
    await publishEntry(bus, ws, { seq: 11, date: '2026-05-03', lines: transfer(a, b, 300) });
    await expectEventually(async () => expect(await projected(ws)).toBe(2));
    await expectEventually(async () =>
      expect(await balances(r.db.adminDb, 'balances_monthly', ws)).toEqual(
        expect.arrayContaining([{ account_id: a, period: '2026-05-01', d: 1_000, c: 0, n: 2 }]),
      ),
    );
  });

  it('an unbalanced or malformed entry goes to the dead letters; the entries around it are applied', async () => {
    const ws = newId();
    const [a, b] = [newId(), newId()];
    await publishEntry(bus, ws, { seq: 20, date: '2026-06-01', lines: transfer(a, b, 100) });
    await publishEntry(bus, ws, {
      seq: 21,
      date: '2026-06-01',
      lines: [
        { accountId: a, direction: 'debit', amountCents: 100 },
        { accountId: b, direction: 'credit', amountCents: 99 },
      ],
    });
    await publishEntry(bus, ws, { seq: 22, date: '2026-02-30', lines: transfer(a, b, 100) });
    await publishEntry(bus, ws, { seq: 23, date: '2026-06-02', lines: transfer(a, b, 50) });
    await expectEventually(async () => expect(await projected(ws)).toBe(2));
    expect(await balances(r.db.adminDb, 'balances_monthly', ws)).toEqual(expect.arrayContaining([{ account_id: a, period: '2026-06-01', d: 150, c: 0, n: 2 }]));
    const dead: string[] = [];
    const sub = await bus.subscribe({ durable: 'dead_letter_reader', subjects: [deadLetterSubject(PROJECTOR)] }, async (m) => {
      dead.push(m.headers['ll-error'] ?? '');
      await m.ack();
    });
    try {
      await expectEventually(() => expect(dead.filter((e) => e.includes('unbalanced') || e.includes('date'))).toHaveLength(2));
    } finally {
      await sub.stop();
    }
  });

  it('rebuild empties the tables and replays the stream to the same balances', async () => {
    const ws = newId();
    const [a, b] = [newId(), newId()];
    for (let i = 0; i < 120; i++)
      await publishEntry(bus, ws, { seq: 100 + i, date: `2026-0${1 + (i % 9)}-1${i % 10}`, lines: transfer(i % 2 ? a : b, i % 2 ? b : a, 100 + i) });
    await expectEventually(async () => expect(await projected(ws)).toBe(120));
    const before = { m: await balances(r.db.adminDb, 'balances_monthly', ws), d: await balances(r.db.adminDb, 'balances_daily', ws) };
    const generation = await r.service.rebuild();
    expect(generation).toBe(1);
    await expectEventually(async () => expect(await projected(ws)).toBe(120), { timeoutMs: 20_000 });
    await r.service.idle(500);
    expect({ m: await balances(r.db.adminDb, 'balances_monthly', ws), d: await balances(r.db.adminDb, 'balances_daily', ws) }).toEqual(before);
  });

  it('a request carrying seq waits for that entry itself, not for a higher one applied before it', async () => {
    const ws = newId();
    const [cash, sales] = [newId(), newId()];
    // Entry 7 committed (and was applied) before entry 5, written earlier by another posting.
    await publishEntry(bus, ws, { seq: 7, date: '2026-05-02', lines: transfer(cash, sales, 700) });
    await expectEventually(async () => expect(await projected(ws)).toBe(1));
    expect(await r.service.reports.catchUp(ws, 7)).toBe(true);
    const waitingFor5 = r.service.reports.catchUp(ws, 5);
    await publishEntry(bus, ws, { seq: 5, date: '2026-05-01', lines: transfer(cash, sales, 500) });
    expect(await waitingFor5).toBe(true);
    expect(await projected(ws)).toBe(2);
    expect(await r.service.reports.catchUp(ws, 0)).toBe(true);
  });

  it("a workspace's balances version moves with every applied batch, read under its own tenancy", async () => {
    const ws = newId();
    const [cash, sales] = [newId(), newId()];
    expect(await currentWorkspaceVersion(r.db.appDb, ws)).toBe(0);
    await publishEntry(bus, ws, { seq: 1, date: '2026-06-01', lines: transfer(cash, sales, 100) });
    await expectEventually(async () => expect(await currentWorkspaceVersion(r.db.appDb, ws)).toBeGreaterThan(0));
    const v1 = await currentWorkspaceVersion(r.db.appDb, ws);
    await publishEntry(bus, ws, { seq: 2, date: '2026-06-02', lines: transfer(cash, sales, 100) });
    await expectEventually(async () => expect(await currentWorkspaceVersion(r.db.appDb, ws)).toBeGreaterThan(v1));
    // The application role's own connection carries no tenant after the call: the setting was the statement's.
    const after = (await r.db.appDb.raw("select current_setting('app.workspace_id', true) as ws")).rows[0] as { ws: string | null };
    expect(after.ws ?? '').toBe('');
    expect(await projected(ws)).toBe(2);
  });
});
