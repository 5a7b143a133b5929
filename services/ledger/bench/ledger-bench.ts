// Ledger benchmarks (issue #4), all through the real parts: banking's events on JetStream into the
// ledger's consumer, and REST through the gateway (identity is the gateway tests' fake: sessions are
// cached by the gateway anyway). `npm run bench -- ledger` runs them; scripts/bench.ts writes the results.
import { create, toBinary } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { eventSubject, newId, withSystem, type Knex } from '@ledgerline/platform';
import { expectEventually } from '@ledgerline/platform/testing';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { EventEnvelopeSchema } from '@ledgerline/proto/events/v1/envelope_pb';
import { measure, type LoadResult } from '../../../scripts/lib/load.js';
import { startLedgerHarness, type LedgerApiHarness, type Tenant } from '../../../tests/api/ledger.harness.js';

const MERCHANTS = [
  'Blue Bottle Coffee',
  'Amazon Web Services',
  'Uber',
  'Delta Air Lines',
  'Staples',
  'Gusto Payroll',
  'WeWork',
  'Stripe Payout',
  'Google Workspace',
  'Comcast',
];

export interface IngestResult {
  transactions: number;
  /** Until JetStream acknowledged the last bank_transaction.added. */
  publishedSeconds: number;
  /** Until the last transaction was booked (its entry posted and its row written), from the first publish. */
  bookedSeconds: number;
  transactionsPerSecond: number;
  lines: number;
}

export interface RecategoriseResult {
  transactions: number;
  runs: number[];
  p50: number;
  max: number;
  /** Runs that did not answer 200 (status and message); their times are still listed. */
  failures: string[];
}

export interface PageResult extends LoadResult {
  take: number;
  page: number;
  firstLine: number;
}

export interface LedgerBenchResult {
  /** The same ingest at consumer concurrency 1 (one event after another, as before), 4 and 8. */
  sweep: (IngestResult & { concurrency: number })[];
  concurrency: number;
  ingest: IngestResult;
  recategorise: RecategoriseResult;
  glLines: number;
  seedSeconds: number;
  pages: PageResult[];
  /** The same pages read with OFFSET straight from PostgreSQL (what the seek replaces), p50 ms. */
  offsetSql: { take: number; page: number; p50: number }[];
}

async function count(db: Knex, sql: string, bindings: readonly Knex.RawBinding[]): Promise<number> {
  return Number(((await db.raw(sql, bindings)).rows[0] as { n: number }).n);
}

/** Publishes banking's bank_transaction.added as banking's relay does (envelope, subject, msg id), many in flight. */
async function publishAdded(h: LedgerApiHarness, t: Tenant, bankAccountId: string, n: number): Promise<void> {
  const inFlight = 256;
  let next = 0;
  const day0 = Date.UTC(2024, 0, 1);
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = next++; i < n; i = next++) {
        const id = newId();
        const amountCents = (i % 5 === 0 ? 1 : -1) * (100 + ((i * 7919) % 250_000));
        const date = new Date(day0 + (i % 730) * 86_400_000).toISOString().slice(0, 10);
        const merchant = MERCHANTS[i % MERCHANTS.length]!;
        const payload = toBinary(
          BankTransactionSchema,
          create(BankTransactionSchema, {
            id,
            accountId: bankAccountId,
            externalId: `bench-${i}`,
            amountCents: BigInt(amountCents),
            isoCurrencyCode: 'USD',
            date,
            name: merchant,
            merchantName: merchant,
            pending: false,
            version: 1n,
          }),
        );
        const eventId = newId();
        const envelope = create(EventEnvelopeSchema, {
          id: eventId,
          type: 'bank_transaction.added',
          workspaceId: t.workspaceId,
          occurredAt: timestampFromDate(new Date()),
          source: 'banking',
          payload,
        });
        await h.bus.publish(eventSubject('bank_transaction.added'), toBinary(EventEnvelopeSchema, envelope), { msgId: eventId });
      }
    }),
  );
}

/** (a) N bank transactions from JetStream into balanced entries through the ledger's consumer. */
export async function ingest(h: LedgerApiHarness, t: Tenant, n: number): Promise<IngestResult> {
  await t.banking.workspaceCreated();
  const bankAccountId = await t.banking.link({ name: 'Operating', mask: '4242' });
  const admin = h.ledger.db.adminDb;
  await expectEventually(
    async () => {
      if ((await count(admin, 'select count(*) as n from accounts where bank_account_id = ?', [bankAccountId])) !== 1)
        throw new Error('bank account not linked yet');
    },
    { timeoutMs: 30_000 },
  );
  const started = performance.now();
  let published = 0;
  const publishing = publishAdded(h, t, bankAccountId, n).then(() => {
    published = performance.now();
  });
  let booked = 0;
  for (;;) {
    booked = await count(admin, 'select count(*) as n from workspace_transactions where workspace_id = ?', [t.workspaceId]);
    if (booked >= n) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const bookedAt = performance.now();
  await publishing;
  const lines = await count(admin, 'select count(*) as n from journal_lines where workspace_id = ?', [t.workspaceId]);
  const s = (ms: number) => Math.round(ms / 10) / 100;
  return {
    transactions: n,
    publishedSeconds: s(published - started),
    bookedSeconds: s(bookedAt - started),
    transactionsPerSecond: Math.round(n / ((bookedAt - started) / 1000)),
    lines,
  };
}

/** (b) PATCH /transactions re-categorising `n` transactions in one request, alternating two categories. */
async function recategorise(h: LedgerApiHarness, t: Tenant, n: number, runs: number): Promise<RecategoriseResult> {
  const ids: string[] = [];
  for (let page = 1; ids.length < n; page++) {
    const r = await h.api('GET', `/transactions/v2?take=100&page=${page}`, { tenant: t });
    if (r.status !== 200 || r.body.data.length === 0) throw new Error(`GET /transactions/v2 answered ${r.status}`);
    ids.push(...(r.body.data as { id: string }[]).map((x) => x.id));
  }
  const cats = (await h.api('GET', '/categories', { tenant: t })).body.categories as { id: string; name: string }[];
  const targets = ['Office Supplies', 'Software and Subscriptions', 'Travel', 'Meals and Entertainment']
    .map((name) => cats.find((c) => c.name === name)?.id)
    .filter((x): x is string => !!x);
  if (targets.length < 2) throw new Error(`categories to re-categorise into not found among ${cats.length}`);
  const times: number[] = [];
  const failures: string[] = [];
  for (let run = 0; run < runs; run++) {
    const categoryId = targets[run % targets.length]!;
    const body = { transactions: ids.slice(0, n).map((id) => ({ id, categoryId })) };
    const t0 = performance.now();
    const r = await h.api('PATCH', '/transactions', { tenant: t, body });
    times.push(Math.round(performance.now() - t0));
    if (r.status !== 200) failures.push(`${r.status} ${String(r.body?.message ?? '')}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { transactions: n, runs: times, p50: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]!, failures };
}

/**
 * (c) seeding: `lines` lines on one account (one per entry, against income or expense), dated over two
 * years, in set-based SQL chunks of whole days. Each chunk goes through the same table triggers as any
 * posting (balance checked per entry at commit, immutability); positions and balances are written as
 * postEntry writes them, computed for the chunk at once.
 */
export async function seedAccount(
  admin: Knex,
  workspaceId: string,
  accountId: string,
  counter: { income: string; expense: string },
  lines: number,
): Promise<void> {
  const days = 730;
  const perDay = Math.ceil(lines / days);
  const chunkDays = Math.max(1, Math.floor(20_000 / perDay));
  for (let d0 = 0; d0 * perDay < lines; d0 += chunkDays) {
    const from = d0 * perDay;
    const to = Math.min(lines, (d0 + chunkDays) * perDay);
    await withSystem(admin, async (trx) => {
      await trx.raw(
        `create temp table seed on commit drop as
        select g, gen_random_uuid() as id, date '2024-01-01' + (g / ?)::int as d, (g % 5 = 0) as inflow, 100 + (g * 7919) % 250000 as cents
        from generate_series(?::int, ?::int) g`,
        [perDay, from, to - 1],
      );
      await trx.raw(
        `insert into journal_entries (id, workspace_id, entry_date, source_type, description)
        select id, ?, d, 'ManualEntry', 'Seeded ' || g from seed order by g`,
        [workspaceId],
      );
      await trx.raw(
        `create temp table seed_lines on commit drop as
        select s.g, x.side, s.id as entry_id, s.d, s.cents,
               case when x.side = 0 then ?::uuid when s.inflow then ?::uuid else ?::uuid end as account_id,
               case when (x.side = 0) = s.inflow then 'debit' else 'credit' end as direction
        from seed s cross join (values (0), (1)) x(side)`,
        [accountId, counter.income, counter.expense],
      );
      await trx.raw(
        `insert into journal_lines (workspace_id, entry_id, account_id, direction, amount_cents, entry_date, day_seq, day_net_before)
        select ?, entry_id, account_id, direction, cents, d,
               row_number() over w,
               coalesce(sum(case when direction = 'debit' then cents else -cents end) over (w rows between unbounded preceding and 1 preceding), 0)
        from seed_lines window w as (partition by account_id, d order by g, side)
        order by d, g, side`,
        [workspaceId],
      );
      await trx.raw(
        `insert into account_day_balances (workspace_id, account_id, day, debit_cents, credit_cents, line_count)
        select ?, account_id, d, coalesce(sum(cents) filter (where direction = 'debit'), 0), coalesce(sum(cents) filter (where direction = 'credit'), 0), count(*)
        from seed_lines group by account_id, d`,
        [workspaceId],
      );
      await trx.raw(
        `insert into account_balances (workspace_id, account_id, month, debit_cents, credit_cents, line_count)
        select ?, account_id, date_trunc('month', d)::date, coalesce(sum(cents) filter (where direction = 'debit'), 0), coalesce(sum(cents) filter (where direction = 'credit'), 0), count(*)
        from seed_lines group by account_id, date_trunc('month', d)
        on conflict (workspace_id, account_id, month) do update set debit_cents = account_balances.debit_cents + excluded.debit_cents,
          credit_cents = account_balances.credit_cents + excluded.credit_cents, line_count = account_balances.line_count + excluded.line_count`,
        [workspaceId],
      );
    });
  }
}

/** The general-ledger account of the seeded workspace (fresh, so the seeded lines are the account's only lines). */
async function glAccount(h: LedgerApiHarness, t: Tenant) {
  const cats = await expectEventually(
    async () => {
      const r = await h.api('GET', '/categories', { tenant: t });
      if (r.status !== 200) throw new Error(`GET /categories answered ${r.status}`);
      return r.body.categories as { id: string; name: string }[];
    },
    { timeoutMs: 120_000 },
  );
  const id = (name: string) => {
    const c = cats.find((x) => x.name === name);
    if (!c) throw new Error(`no account ${name}`);
    return c.id;
  };
  return { cash: id('Cash and Cash Equivalents'), income: id('Uncategorised Income'), expense: id('Uncategorised Expense') };
}

export interface LedgerBenchOptions {
  /** Bank transactions ingested (the figure: 100,000). */
  transactions: number;
  /** Bank transactions per point of the consumer-concurrency sweep. */
  sweepTransactions: number;
  /** The ledger consumer's concurrency for the headline ingest (LEDGER_CONSUMER_CONCURRENCY). */
  concurrency: number;
  /** Transactions in one bulk re-categorise request (1,000). */
  recategorise: number;
  /** Lines on the general-ledger account (200,000). */
  glLines: number;
  log?: (line: string) => void;
}

/** A ledger (behind the gateway) whose consumer books `concurrency` bank transaction events at once. */
export async function harness(concurrency: number): Promise<LedgerApiHarness> {
  process.env.LEDGER_CONSUMER_CONCURRENCY = String(concurrency);
  // A deadline long enough to time a 1,000-item bulk request on a busy machine (production's is SERVICE_TIMEOUT_MS).
  return startLedgerHarness({ serviceTimeoutMs: 300_000 });
}

export async function benchLedger(options: LedgerBenchOptions): Promise<LedgerBenchResult> {
  const log = options.log ?? (() => undefined);
  const sweep: LedgerBenchResult['sweep'] = [];
  for (const concurrency of options.sweepTransactions > 0 ? [1, 4, 8] : []) {
    const s = await harness(concurrency);
    try {
      const r = await ingest(s, s.tenant(), options.sweepTransactions);
      sweep.push({ ...r, concurrency });
      log(`ingest at concurrency ${concurrency}: ${JSON.stringify(r)}`);
    } finally {
      await s.close();
    }
  }
  const h = await harness(options.concurrency);
  try {
    const t = h.tenant();
    log(`ingest: publishing ${options.transactions} bank_transaction.added`);
    const ingestResult = await ingest(h, t, options.transactions);
    log(`ingest: ${JSON.stringify(ingestResult)}`);

    const recat = await recategorise(h, t, Math.min(options.recategorise, options.transactions), 3);
    log(`re-categorise: ${JSON.stringify(recat)}`);

    const g = h.tenant();
    const accounts = await glAccount(h, g);
    const seedStart = performance.now();
    await seedAccount(h.ledger.db.adminDb, g.workspaceId, accounts.cash, accounts, options.glLines);
    const seedSeconds = Math.round((performance.now() - seedStart) / 100) / 10;
    await h.ledger.db.adminDb.raw('analyze journal_lines; analyze account_balances; analyze account_day_balances; analyze journal_entries');
    log(`seeded ${options.glLines} lines in ${seedSeconds} s`);

    const pages: PageResult[] = [];
    const lastPage = (take: number) => Math.ceil(options.glLines / take);
    const scenarios = [
      { take: 20, page: 1 },
      { take: 20, page: Math.min(500, lastPage(20)) },
      { take: 100, page: 1 },
      { take: 100, page: Math.min(500, lastPage(100)) },
      { take: 100, page: lastPage(100) },
    ];
    for (const s of scenarios) {
      const url = `/ledger/get-ledger-transactions?ledgerAccountId=${accounts.cash}&take=${s.take}&page=${s.page}`;
      const r = await measure({
        name: `GET /ledger/get-ledger-transactions take=${s.take} page=${s.page}`,
        connections: 1,
        requests: 300,
        seconds: 30,
        warmup: 20,
        send: async () => {
          const a = await h.api('GET', url, { tenant: g });
          return a.status === 200 && a.body.data.length > 0;
        },
      });
      pages.push({ ...r, take: s.take, page: s.page, firstLine: (s.page - 1) * s.take + 1 });
      log(`${r.name}: p50 ${r.p50} ms, p99 ${r.p99} ms`);
    }

    // What the seek replaces: the same page with OFFSET over the account's lines, timed inside PostgreSQL.
    const offsetSql: LedgerBenchResult['offsetSql'] = [];
    for (const s of scenarios.filter((x) => x.page > 1)) {
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        const t0 = performance.now();
        await withSystem(h.ledger.db.adminDb, (trx) =>
          trx.raw(
            `select l.id, l.amount_cents, sum(case when direction = 'debit' then amount_cents else -amount_cents end) over (order by entry_date, day_seq) as running
           from journal_lines l where workspace_id = ? and account_id = ? order by entry_date, day_seq offset ? limit ?`,
            [g.workspaceId, accounts.cash, (s.page - 1) * s.take, s.take],
          ),
        );
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      offsetSql.push({ take: s.take, page: s.page, p50: Math.round(times[7]! * 100) / 100 });
    }
    return { sweep, concurrency: options.concurrency, ingest: ingestResult, recategorise: recat, glLines: options.glLines, seedSeconds, pages, offsetSql };
  } finally {
    await h.close();
  }
}
