// Bank transactions booked several at once by the consumer (LEDGER_CONSUMER_CONCURRENCY): the books
// stay balanced, the bank account's ledger balance equals the bank's, and every account × day keeps
// dense places, so general-ledger pages stay exact.
import { createLogger, newId } from '@ledgerline/platform';
import { createTestBus, expectEventually } from '@ledgerline/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GeneralLedgerUseCases } from '../src/usecases/general-ledger.js';
import { bankingFor, rows, startLedger, trialBalance, type LedgerHarness } from './support.js';

let bus: Awaited<ReturnType<typeof createTestBus>>;
let ledger: LedgerHarness;
const previous = process.env.LEDGER_CONSUMER_CONCURRENCY;

beforeAll(async () => {
  process.env.LEDGER_CONSUMER_CONCURRENCY = '6';
  bus = await createTestBus('ledger-gl-ingest');
  ledger = await startLedger(bus);
});
afterAll(async () => {
  process.env.LEDGER_CONSUMER_CONCURRENCY = previous;
  await ledger?.close();
  await bus?.close();
});

it('books 120 additions, 30 modifications and 10 removals delivered at once; balances, places and pages stay exact', async () => {
  const ws = newId();
  const banking = bankingFor(bus, ws);
  await banking.workspaceCreated();
  const account = await banking.link();
  await expectEventually(async () => {
    if ((await rows(ledger.db.adminDb, 'select 1 from accounts where bank_account_id = ?', [account])).length !== 1) throw new Error('not linked yet');
  });
  const final = new Map<string, number>();
  const ids: string[] = [];
  await Promise.all(
    Array.from({ length: 120 }, async (_, i) => {
      const amountCents = (i % 4 === 0 ? 1 : -1) * (1_000 + i);
      const id = await banking.add(account, { amountCents, date: `2026-07-0${1 + (i % 3)}`, name: `T${i}`, merchantName: `M${i % 5}` });
      ids[i] = id;
      final.set(id, amountCents);
    }),
  );
  await Promise.all(
    ids.slice(0, 30).map(async (id, i) => {
      await banking.modify(account, id, { amountCents: -500 - i, date: `2026-07-0${1 + ((i + 1) % 3)}`, name: `T${i} changed` });
      final.set(id, -500 - i);
    }),
  );
  await Promise.all(
    ids.slice(100, 110).map(async (id) => {
      await banking.remove(account, id);
      final.set(id, 0);
    }),
  );
  const expected = [...final.values()].reduce((s, v) => s + v, 0);
  const ledgerAccount = (await rows<{ id: string }>(ledger.db.adminDb, 'select id from accounts where bank_account_id = ?', [account]))[0]!.id;
  const balance = async () =>
    (
      await rows<{ b: number }>(
        ledger.db.adminDb,
        "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as b from journal_lines where account_id = ?",
        [ledgerAccount],
      )
    )[0]!.b;
  await expectEventually(
    async () => {
      const n = (await rows<{ n: number }>(ledger.db.adminDb, 'select count(*)::int as n from workspace_transactions where workspace_id = ?', [ws]))[0]?.n;
      if (n !== 120 || (await balance()) !== expected) throw new Error(`booked ${n}, balance ${await balance()} of ${expected}`);
    },
    { timeoutMs: 60_000 },
  );
  expect(await trialBalance(ledger.db.adminDb, ws)).toBe(0);

  // Dense places on every account × day, and balances by day equal to the lines.
  const places = await rows<{ account_id: string; entry_date: string; n: number; max: number; sum: number }>(
    ledger.db.adminDb,
    "select account_id, entry_date, count(*)::int as n, max(day_seq) as max, sum(case when direction = 'debit' then amount_cents else -amount_cents end)::bigint as sum from journal_lines where workspace_id = ? group by 1, 2",
    [ws],
  );
  const days = await rows<{ account_id: string; day: string; line_count: number; net: number }>(
    ledger.db.adminDb,
    'select account_id, day, line_count, (debit_cents - credit_cents)::bigint as net from account_day_balances where workspace_id = ?',
    [ws],
  );
  for (const p of places) {
    expect(p.max).toBe(p.n);
    expect(days.find((d) => d.account_id === p.account_id && d.day === p.entry_date)).toMatchObject({ line_count: p.n, net: p.sum });
  }

  // Every page of the bank account's ledger in (date, place) order, running to the bank's balance.
  const gl = new GeneralLedgerUseCases({ db: ledger.db.appDb, logger: createLogger('t', 'silent') });
  const tenant = { workspaceId: ws, role: 'Owner' as const };
  const first = await gl.ledgerTransactions(tenant, { ledgerAccountId: ledgerAccount, startDate: '', endDate: '', take: 7 });
  const lines = first.data.slice(1);
  for (let page = 2; page <= first.meta.pageCount; page++)
    lines.push(...(await gl.ledgerTransactions(tenant, { ledgerAccountId: ledgerAccount, startDate: '', endDate: '', take: 7, page })).data);
  // The register (issue #12): a reversed entry and its reversal, dated alike, are not shown; every
  // bank transaction still live is one line, and the running balance ends at the bank's.
  const oracle = await rows<{ id: number }>(
    ledger.db.adminDb,
    `select l.id from journal_lines l join journal_entries e on e.id = l.entry_id
     where l.account_id = ?
       and not exists (select 1 from journal_entries r where r.reverses_entry_id = e.id and r.entry_date = e.entry_date and e.reverses_entry_id is null)
       and not exists (select 1 from journal_entries o where o.id = e.reverses_entry_id and o.entry_date = e.entry_date and o.reverses_entry_id is null)
     order by l.entry_date, l.day_seq`,
    [ledgerAccount],
  );
  expect(lines.map((l) => l.id)).toEqual(oracle.map((o) => String(o.id)));
  expect(first.meta.itemCount).toBe(110);
  expect(new Set(lines.map((l) => l.transactionId)).size).toBe(110);
  expect(lines.at(-1)?.ledgerRunningBalanceCents).toBe(expected);
}, 120_000);
