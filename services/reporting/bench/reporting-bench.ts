// Reporting benchmarks (issue #5, part 1), through the real parts: entry.posted on JetStream into the
// read model, and REST through the gateway (fake identity; the real ledger answers the chart of
// accounts). `npm run bench -- reporting` runs them (scripts/bench.ts writes the results).
// The entries are published as the ledger's relay publishes them, straight to the bus: the bench measures
// reporting, not the ledger's posting (the ledger's own bench does that).
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { eventSubject, newId, type Knex } from '@ledgerline/platform';
import { expectEventually } from '@ledgerline/platform/testing';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { EntryPostedSchema } from '@ledgerline/proto/events/v1/ledger_pb';
import { measure, type LoadResult } from '../../../scripts/lib/load.js';
import { startReportingHarness } from '../../../tests/api/reporting.harness.js';

export interface ReportingBenchResult {
  entries: number;
  lines: number;
  accounts: number;
  projector: { publishedSeconds: number; appliedSeconds: number; entriesPerSecond: number; linesPerSecond: number; monthlyRows: number; dailyRows: number };
  http: LoadResult[];
  /** The same profit and loss as a GROUP BY over the lines, timed directly in PostgreSQL. */
  direct: { name: string; p50: number; p90: number }[];
}

const DAY0 = Date.UTC(2023, 0, 1);
const DAYS = 365 * 3;
const dateOf = (i: number) => new Date(DAY0 + (((i * 7919) % DAYS) * 86_400_000)).toISOString().slice(0, 10);

async function count(db: Knex, sql: string, bindings: readonly Knex.RawBinding[] = []): Promise<number> {
  return Number(((await db.raw(sql, bindings)).rows[0] as { n: string }).n);
}

async function timeSql(db: Knex, sql: string, bindings: readonly Knex.RawBinding[], runs = 15): Promise<{ p50: number; p90: number }> {
  const ms: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const t0 = performance.now();
    await db.raw(sql, bindings);
    if (i >= 3) ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (p: number) => Math.round((ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0) * 10) / 10;
  return { p50: at(0.5), p90: at(0.9) };
}

export async function benchReporting(options: { entries: number; extraAccounts?: number; log?: (line: string) => void }): Promise<ReportingBenchResult> {
  const log = options.log ?? (() => undefined);
  const h = await startReportingHarness();
  try {
    const t = h.tenant();
    // The chart: the default one plus income and expense accounts up to ~300 (the data size).
    const parents = (await h.api('GET', '/categories/chart-of-accounts', { tenant: t })).body.parentCategories as { id: string; name: string }[];
    const parentId = (name: string) => parents.find((p) => p.name === name)?.id;
    const extra = options.extraAccounts ?? 220;
    for (let i = 0; i < extra; i++) {
      const r = await h.api('POST', '/categories', { tenant: t, body: { name: `Bench ${i}`, coaId: 90_000 + i, parentId: parentId(i % 3 === 0 ? 'Operating Income' : 'Operating Expenses') } });
      if (r.status !== 201) throw new Error(`POST /categories answered ${r.status}: ${JSON.stringify(r.body)}`);
    }
    const cats = (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; type: string }[];
    const cash = cats.find((c) => c.type === 'Assets') as { id: string };
    const pl = cats.filter((c) => c.type === 'Income' || c.type === 'Expenses');
    log(`reporting bench: ${cats.length} postable accounts, publishing ${options.entries} entries`);

    // Lines also go to a plain table in the bench database, for the direct GROUP BY comparison.
    const admin = h.reporting.db.adminDb;
    await admin.raw('create table bench_lines (workspace_id uuid not null, account_id uuid not null, direction text not null, amount_cents bigint not null, entry_date date not null)');
    const started = performance.now();
    let next = 0;
    let seq = 0;
    const buffer: { a: string; d: string; c: number; dt: string }[] = [];
    await Promise.all(Array.from({ length: 256 }, async () => {
      for (let i = next++; i < options.entries; i = next++) {
        const account = pl[(i * 31) % pl.length] as { id: string; type: string };
        const amount = 100 + ((i * 7919) % 250_000);
        const income = account.type === 'Income';
        const date = dateOf(i);
        const lines = [
          { lineId: newId(), accountId: income ? cash.id : account.id, direction: 'debit', amountCents: BigInt(amount) },
          { lineId: newId(), accountId: income ? account.id : cash.id, direction: 'credit', amountCents: BigInt(amount) },
        ];
        for (const l of lines) buffer.push({ a: l.accountId, d: l.direction, c: amount, dt: date });
        const id = newId();
        const payload = create(EntryPostedSchema, { entryId: newId(), seq: BigInt(++seq), date, sourceType: 'ManualEntry', sourceId: newId(), description: 'bench', lines });
        const envelope = create(EventEnvelopeSchema, { id, type: 'entry.posted', workspaceId: t.workspaceId, occurredAt: timestampFromDate(new Date()), source: 'ledger', payload: toBinary(EntryPostedSchema, payload) });
        await h.bus.publish(eventSubject('entry.posted'), toBinary(EventEnvelopeSchema, envelope), { msgId: id });
      }
    }));
    const publishedSeconds = (performance.now() - started) / 1000;
    await expectEventually(async () => {
      const n = await count(admin, 'select count(*) as n from projected_entries');
      if (n < options.entries) throw new Error(`${n} of ${options.entries} applied`);
    }, { timeoutMs: 3_600_000, intervalMs: 250 });
    const appliedSeconds = (performance.now() - started) / 1000;
    const lines = options.entries * 2;
    const projector = {
      publishedSeconds: Math.round(publishedSeconds * 10) / 10, appliedSeconds: Math.round(appliedSeconds * 10) / 10,
      entriesPerSecond: Math.round(options.entries / appliedSeconds), linesPerSecond: Math.round(lines / appliedSeconds),
      monthlyRows: await count(admin, 'select count(*) as n from balances_monthly'), dailyRows: await count(admin, 'select count(*) as n from balances_daily'),
    };
    log(`reporting bench: applied in ${projector.appliedSeconds} s (${projector.entriesPerSecond} entries/s)`);
    for (let i = 0; i < buffer.length; i += 10_000) {
      const chunk = buffer.slice(i, i + 10_000);
      await admin.raw('insert into bench_lines select ?::uuid, * from unnest(?::uuid[], ?::text[], ?::bigint[], ?::date[])', [t.workspaceId, chunk.map((x) => x.a), chunk.map((x) => x.d), chunk.map((x) => x.c), chunk.map((x) => x.dt)]);
    }
    // Indexed as a ledger's lines would be, and analysed: the direct query gets its best chance.
    await admin.raw('create index on bench_lines (workspace_id, entry_date)');
    await admin.raw('analyze bench_lines');

    const ok = (path: string) => async () => (await h.api('GET', path, { tenant: t })).status === 200;
    const pl12 = '/financial-data/profit-loss/v3?startDate=2025-01-01&endDate=2025-12-31&breakdown=month';
    const http: LoadResult[] = [];
    http.push(await measure({ name: 'P&L 12 months by month', connections: 1, seconds: 8, send: ok(pl12) }));
    http.push(await measure({ name: 'P&L 12 months by month', connections: 8, seconds: 8, send: ok(pl12) }));
    http.push(await measure({ name: 'P&L 36 months by month', connections: 1, seconds: 6, send: ok('/financial-data/profit-loss/v3?startDate=2023-01-01&endDate=2025-12-31&breakdown=month') }));
    http.push(await measure({ name: 'Balance sheet as of 2025-08-17 (totals)', connections: 1, seconds: 6, send: ok('/financial-data/balance-sheet/v2?startDate=2025-01-01&endDate=2025-08-17&periodicity=totals_only') }));
    http.push(await measure({ name: 'Balance sheet 2025 by month', connections: 1, seconds: 6, send: ok('/financial-data/balance-sheet/v2?startDate=2025-01-01&endDate=2025-12-31&breakdown=month') }));

    const direct = [
      { name: 'P&L 12 months by month: GROUP BY over the lines', ...(await timeSql(admin, `select account_id, date_trunc('month', entry_date) as m, sum(amount_cents) filter (where direction = 'debit') as d, sum(amount_cents) filter (where direction = 'credit') as c from bench_lines where workspace_id = ? and entry_date between '2025-01-01' and '2025-12-31' group by 1, 2`, [t.workspaceId])) },
      { name: 'Balance sheet as of 2025-08-17: GROUP BY over the lines', ...(await timeSql(admin, `select account_id, sum(amount_cents) filter (where direction = 'debit') as d, sum(amount_cents) filter (where direction = 'credit') as c from bench_lines where workspace_id = ? and entry_date <= '2025-08-17' group by 1`, [t.workspaceId])) },
      { name: 'P&L 12 months by month: the read model query alone', ...(await timeSql(admin, `select s.col, b.account_id, sum(b.debit_cents), sum(b.credit_cents) from unnest(array[0,1,2,3,4,5,6,7,8,9,10,11]::int[], array['2025-01-01','2025-02-01','2025-03-01','2025-04-01','2025-05-01','2025-06-01','2025-07-01','2025-08-01','2025-09-01','2025-10-01','2025-11-01','2025-12-01']::date[], array['2025-01-01','2025-02-01','2025-03-01','2025-04-01','2025-05-01','2025-06-01','2025-07-01','2025-08-01','2025-09-01','2025-10-01','2025-11-01','2025-12-01']::date[]) as s(col, f, t) join balances_monthly b on b.workspace_id = ? and b.month between s.f and s.t group by 1, 2`, [t.workspaceId])) },
    ];
    await admin.raw('drop table bench_lines');
    return { entries: options.entries, lines, accounts: cats.length, projector, http, direct };
  } finally {
    await h.close();
  }
}
