import { createLogger, migrateLatest, newId, withTenant, type Knex } from '@ledgerline/platform';
import { createTestDatabase, TEST_APP_ROLE, type TestDatabase } from '@ledgerline/platform/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../src/domain/chart.js';
import { addDays } from '../src/domain/dates.js';
import { accountBySystemKey, ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { postEntry, reverseEntry } from '../src/store/journal.js';
import { positionsMigration } from '../src/store/migrations-positions.js';
import { registerMigration } from '../src/store/migrations-register.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { GeneralLedgerUseCases, type LedgerLineView } from '../src/usecases/general-ledger.js';
import { rows } from './support.js';

let db: TestDatabase;
let gl: GeneralLedgerUseCases;

beforeAll(async () => {
  db = await createTestDatabase('ledger_gl', ledgerMigrations);
  gl = new GeneralLedgerUseCases({ db: db.appDb, logger: createLogger('gl-test', 'silent') });
});
afterAll(async () => {
  await db?.drop();
});

interface Books {
  ws: string;
  cash: string;
  income: string;
  expense: string;
  /** A linked bank account's ledger account: its ledger is a register (reversed pairs of one date hidden). */
  bank: string;
}

async function books(appDb: Knex = db.appDb): Promise<Books> {
  const ws = newId();
  return withTenant(appDb, { workspaceId: ws }, async (trx) => {
    await ensureChart(trx, ws);
    const bank = await ensureBankLedgerAccount(trx, ws, {
      accountId: newId(),
      name: 'Checking',
      mask: '1',
      type: 'depository',
      subtype: 'checking',
      institutionName: 'B',
    });
    return {
      ws,
      cash: (await accountBySystemKey(trx, SYSTEM.cash)).id,
      income: (await accountBySystemKey(trx, SYSTEM.uncategorisedIncome)).id,
      expense: (await accountBySystemKey(trx, SYSTEM.uncategorisedExpense)).id,
      bank: bank.id,
    };
  });
}

interface Line {
  id: number;
  entry_date: string;
  direction: string;
  amount_cents: number;
}

/**
 * The oracle: an account's lines straight from the table, in date order and, within a day, in posting (id)
 * order. A register (a bank account's ledger) leaves out the lines of an entry reversed by an entry of the
 * same date and the lines of that reversal, when they net to zero on the account (the original not itself
 * a reversal) — computed here from the entries, not from the ledger's hidden-line table.
 */
async function linesOf(accountId: string, register = false, adminDb: Knex = db.adminDb): Promise<Line[]> {
  const pairNet = `(select sum(case when x.direction = 'debit' then x.amount_cents else -x.amount_cents end) from journal_lines x where x.account_id = l.account_id and x.entry_id in (o.id, r.id))`;
  return rows<Line>(
    adminDb,
    `select l.id, l.entry_date, l.direction, l.amount_cents from journal_lines l join journal_entries e on e.id = l.entry_id where l.account_id = ?
    ${register ? `and not exists (select 1 from journal_entries o join journal_entries r on r.reverses_entry_id = o.id where (o.id = e.id or r.id = e.id) and o.entry_date = r.entry_date and o.reverses_entry_id is null and ${pairNet} = 0)` : ''}
    order by l.entry_date, l.id`,
    [accountId],
  );
}

const signed = (l: Line, debitNormal: boolean) => (l.direction === 'debit' ? 1 : -1) * (debitNormal ? 1 : -1) * l.amount_cents;

/** Every page of one account's ledger for a range, concatenated, and page 1's opening row. */
async function allPages(b: Books, accountId: string, startDate: string, endDate: string, take: number) {
  const tenant = { workspaceId: b.ws, role: 'Owner' as const };
  const first = await gl.ledgerTransactions(tenant, { ledgerAccountId: accountId, startDate, endDate, take, page: 1 });
  const lines: LedgerLineView[] = first.data.filter((l) => !l.isOpeningBalance);
  for (let page = 2; page <= first.meta.pageCount; page++) {
    const next = await gl.ledgerTransactions(tenant, { ledgerAccountId: accountId, startDate, endDate, take, page });
    expect(next.data.length).toBe(page < first.meta.pageCount ? take : first.meta.itemCount - (page - 1) * take);
    lines.push(...next.data);
  }
  const beyond = await gl.ledgerTransactions(tenant, { ledgerAccountId: accountId, startDate, endDate, take, page: Math.max(first.meta.pageCount, 1) + 1 });
  expect(beyond.data).toEqual([]);
  return { opening: first.data[0], meta: first.meta, lines };
}

/** Pages must equal the oracle: same lines in the same order, running balances from the opening balance. */
async function expectPagesMatch(b: Books, accountId: string, debitNormal: boolean, startDate: string, endDate: string, take: number) {
  const all = await linesOf(accountId, accountId === b.bank);
  const from = startDate || '0001-01-01';
  const to = endDate || '9999-12-31';
  const opening = all.filter((l) => l.entry_date < from).reduce((s, l) => s + signed(l, debitNormal), 0);
  const inRange = all.filter((l) => l.entry_date >= from && l.entry_date <= to);
  const got = await allPages(b, accountId, startDate, endDate, take);
  expect(got.opening).toMatchObject({ isOpeningBalance: true, ledgerRunningBalanceCents: opening });
  expect(got.meta.itemCount).toBe(inRange.length);
  expect(got.lines.map((l) => l.id)).toEqual(inRange.map((l) => String(l.id)));
  let running = opening;
  for (const [i, l] of inRange.entries()) {
    running += signed(l, debitNormal);
    expect(got.lines[i]).toMatchObject({ date: l.entry_date, ledgerAmountCents: signed(l, debitNormal), ledgerRunningBalanceCents: running });
  }
}

const post = (b: Books, date: string, lines: { accountId: string; direction: 'debit' | 'credit'; amountCents: number }[]) =>
  withTenant(db.appDb, { workspaceId: b.ws }, (trx) =>
    postEntry(trx, { workspaceId: b.ws, date, sourceType: 'ManualEntry', description: `on ${date}`, lines }),
  );

describe('general ledger pages (keyset over stored places)', () => {
  it('pages through back-dated postings, reversals and entries with two lines on one account in date and posting order, for any range and take', async () => {
    const entry = fc.record({
      day: fc.integer({ min: 0, max: 100 }),
      cents: fc.integer({ min: 1, max: 90_000 }),
      // 0: cash against income; 1: cash against expense; 2: cash twice in one entry (a split-like entry)
      shape: fc.integer({ min: 0, max: 2 }),
      reverse: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        async (entries, take, s, e) => {
          const b = await books();
          const posted: string[] = [];
          for (const [i, x] of entries.entries()) {
            // Days spread over four months starting mid-month, in random (back-dated) order.
            const date = addDays('2026-01-17', x.day);
            const lines =
              x.shape === 0
                ? [
                    { accountId: b.cash, direction: 'debit' as const, amountCents: x.cents },
                    { accountId: b.income, direction: 'credit' as const, amountCents: x.cents },
                  ]
                : x.shape === 1
                  ? [
                      { accountId: b.expense, direction: 'debit' as const, amountCents: x.cents },
                      { accountId: b.cash, direction: 'credit' as const, amountCents: x.cents },
                    ]
                  : [
                      { accountId: b.cash, direction: 'debit' as const, amountCents: x.cents + 7 },
                      { accountId: b.cash, direction: 'credit' as const, amountCents: 7 },
                      { accountId: b.income, direction: 'credit' as const, amountCents: x.cents },
                    ];
            posted.push(await post(b, date, lines));
            if (x.reverse && i > 0) {
              const target = posted[(i * 7) % posted.length]!;
              const already = await rows(db.adminDb, 'select 1 from journal_entries where reverses_entry_id = ?', [target]);
              if (already.length === 0) await withTenant(db.appDb, { workspaceId: b.ws }, (trx) => reverseEntry(trx, target, 'reversal'));
            }
          }
          const [startDate, endDate] = [addDays('2026-01-17', Math.min(s, e)), addDays('2026-01-17', Math.max(s, e))];
          await expectPagesMatch(b, b.cash, true, '', '', take);
          await expectPagesMatch(b, b.cash, true, startDate, endDate, take);
          await expectPagesMatch(b, b.income, false, startDate, '', take);
          // Whole months at both ends, and one partial month.
          await expectPagesMatch(b, b.cash, true, '2026-02-01', '2026-03-31', take);
          await expectPagesMatch(b, b.cash, true, '2026-02-03', '2026-02-20', take);
        },
      ),
      { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 12) },
    );
  }, 240_000);

  it('a bank register pages through the lines left when same-date reversed pairs are hidden, reversals on another date shown, for any range and take', async () => {
    const entry = fc.record({
      day: fc.integer({ min: 0, max: 100 }),
      cents: fc.integer({ min: 1, max: 90_000 }),
      // 0: bank against income; 1: bank against expense; 2: the bank twice in one entry
      shape: fc.integer({ min: 0, max: 2 }),
      // 0: none; 1: reverse an earlier entry (dated like it, as the ledger does); 2: reverse one on another date
      reverse: fc.integer({ min: 0, max: 2 }),
      pick: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { minLength: 1, maxLength: 50 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        async (entries, take, s, e) => {
          const b = await books();
          const posted: { id: string; date: string; lines: { accountId: string; direction: 'debit' | 'credit'; amountCents: number }[] }[] = [];
          for (const x of entries) {
            const date = addDays('2026-01-17', x.day);
            const lines =
              x.shape === 0
                ? [
                    { accountId: b.bank, direction: 'debit' as const, amountCents: x.cents },
                    { accountId: b.income, direction: 'credit' as const, amountCents: x.cents },
                  ]
                : x.shape === 1
                  ? [
                      { accountId: b.expense, direction: 'debit' as const, amountCents: x.cents },
                      { accountId: b.bank, direction: 'credit' as const, amountCents: x.cents },
                    ]
                  : [
                      { accountId: b.bank, direction: 'debit' as const, amountCents: x.cents + 7 },
                      { accountId: b.bank, direction: 'credit' as const, amountCents: 7 },
                      { accountId: b.income, direction: 'credit' as const, amountCents: x.cents },
                    ];
            posted.push({ id: await post(b, date, lines), date, lines });
            const target = posted[x.pick % posted.length]!;
            if (x.reverse === 0 || (await rows(db.adminDb, 'select 1 from journal_entries where reverses_entry_id = ?', [target.id])).length > 0) continue;
            const flipped = target.lines.map((l) => ({ ...l, direction: l.direction === 'debit' ? ('credit' as const) : ('debit' as const) }));
            await withTenant(db.appDb, { workspaceId: b.ws }, (trx) =>
              x.reverse === 1
                ? reverseEntry(trx, target.id, 'reversal')
                : postEntry(trx, {
                    workspaceId: b.ws,
                    date: addDays(target.date, 1 + (x.pick % 40)),
                    sourceType: 'ManualEntry',
                    description: 'reversed later',
                    reversesEntryId: target.id,
                    lines: flipped,
                  }),
            );
          }
          const [startDate, endDate] = [addDays('2026-01-17', Math.min(s, e)), addDays('2026-01-17', Math.max(s, e))];
          await expectPagesMatch(b, b.bank, true, '', '', take);
          await expectPagesMatch(b, b.bank, true, startDate, endDate, take);
          await expectPagesMatch(b, b.bank, true, '2026-02-01', '2026-03-31', take);
          await expectPagesMatch(b, b.bank, true, '2026-02-03', '2026-02-20', take);
          // The other side keeps every line.
          await expectPagesMatch(b, b.income, false, startDate, '', take);
          // Hidden counts by day and month equal the hidden lines.
          const hidden = await rows<{ n: number }>(db.adminDb, 'select count(*)::int as n from journal_lines where account_id = ?', [b.bank]);
          const shown = (await linesOf(b.bank, true)).length;
          const counted = await rows<{ d: number; m: number }>(
            db.adminDb,
            'select (select coalesce(sum(hidden_count), 0)::int from account_day_balances where account_id = ?) as d, (select coalesce(sum(hidden_count), 0)::int from account_balances where account_id = ?) as m',
            [b.bank, b.bank],
          );
          expect(counted[0]).toEqual({ d: hidden[0]!.n - shown, m: hidden[0]!.n - shown });
        },
      ),
      { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 12) },
    );
  }, 240_000);

  it('concurrent postings on one account and day get dense places and the right balance before each', async () => {
    const b = await books();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        post(b, '2026-05-05', [
          { accountId: b.cash, direction: i % 3 ? 'debit' : 'credit', amountCents: 100 + i },
          { accountId: b.income, direction: i % 3 ? 'credit' : 'debit', amountCents: 100 + i },
        ]),
      ),
    );
    const placed = await rows<{ day_seq: number; day_net_before: number; direction: string; amount_cents: number }>(
      db.adminDb,
      'select day_seq, day_net_before, direction, amount_cents from journal_lines where account_id = ? order by day_seq',
      [b.cash],
    );
    expect(placed.map((l) => l.day_seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    let net = 0;
    for (const l of placed) {
      expect(l.day_net_before).toBe(net);
      net += (l.direction === 'debit' ? 1 : -1) * l.amount_cents;
    }
    const [day] = await rows<{ line_count: number; net: number }>(
      db.adminDb,
      'select line_count, (debit_cents - credit_cents)::bigint as net from account_day_balances where account_id = ?',
      [b.cash],
    );
    expect(day).toEqual({ line_count: 40, net });
    await expectPagesMatch(b, b.cash, true, '2026-05-05', '2026-05-05', 6);
  });

  it('a line written by raw SQL is placed by the database, and its month and day balances kept', async () => {
    const b = await books();
    await post(b, '2026-06-10', [
      { accountId: b.cash, direction: 'debit', amountCents: 500 },
      { accountId: b.income, direction: 'credit', amountCents: 500 },
    ]);
    await withTenant(db.appDb, { workspaceId: b.ws }, async (trx) => {
      const id = newId();
      await trx('journal_entries').insert({ id, workspace_id: b.ws, entry_date: '2026-06-10', source_type: 'ManualEntry', description: 'raw' });
      await trx('journal_lines').insert([
        { workspace_id: b.ws, entry_id: id, account_id: b.cash, direction: 'credit', amount_cents: 200, entry_date: '2026-06-10' },
        { workspace_id: b.ws, entry_id: id, account_id: b.income, direction: 'debit', amount_cents: 200, entry_date: '2026-06-10' },
      ]);
    });
    const [line] = await rows(db.adminDb, "select day_seq, day_net_before from journal_lines where account_id = ? and direction = 'credit'", [b.cash]);
    expect(line).toEqual({ day_seq: 2, day_net_before: 500 });
    expect(await rows(db.adminDb, 'select debit_cents, credit_cents, line_count from account_balances where account_id = ?', [b.cash])).toEqual([
      { debit_cents: 500, credit_cents: 200, line_count: 2 },
    ]);
    await expectPagesMatch(b, b.cash, true, '', '', 1);
  });

  it('refuses bad input naming the field', async () => {
    const b = await books();
    const tenant = { workspaceId: b.ws, role: 'Owner' as const };
    await expect(gl.ledgerTransactions(tenant, { ledgerAccountId: b.cash, startDate: '', endDate: '', page: 0 })).rejects.toMatchObject({
      fields: [{ field: 'page' }],
    });
    await expect(gl.ledgerTransactions(tenant, { ledgerAccountId: b.cash, startDate: '', endDate: '', take: 101 })).rejects.toMatchObject({
      fields: [{ field: 'take' }],
    });
    await expect(gl.ledgerTransactions(tenant, { ledgerAccountId: b.cash, startDate: '2026-13-01', endDate: '' })).rejects.toMatchObject({
      fields: [{ field: 'startDate' }],
    });
  });
});

describe('the positions migration', () => {
  it('places lines posted before it in id order per account and day, and fills the daily balances', async () => {
    const old = await createTestDatabase('ledger_gl_old', ledgerMigrations.slice(0, ledgerMigrations.indexOf(positionsMigration)));
    try {
      const ws = newId();
      const ids = await withTenant(old.appDb, { workspaceId: ws }, async (trx) => {
        await ensureChart(trx, ws);
        const cash = (await accountBySystemKey(trx, SYSTEM.cash)).id;
        const income = (await accountBySystemKey(trx, SYSTEM.uncategorisedIncome)).id;
        for (const [i, date] of ['2026-03-02', '2026-03-01', '2026-03-02', '2026-04-09', '2026-03-02'].entries()) {
          const id = newId();
          await trx('journal_entries').insert({ id, workspace_id: ws, entry_date: date, source_type: 'ManualEntry', description: `old ${i}` });
          await trx('journal_lines').insert([
            { workspace_id: ws, entry_id: id, account_id: cash, direction: i === 2 ? 'credit' : 'debit', amount_cents: 1000 + i, entry_date: date },
            { workspace_id: ws, entry_id: id, account_id: income, direction: i === 2 ? 'debit' : 'credit', amount_cents: 1000 + i, entry_date: date },
          ]);
        }
        return { cash };
      });
      await migrateLatest(old.adminDb, ledgerMigrations);
      await old.adminDb.raw(`grant select, insert, update, delete on all tables in schema public to ${TEST_APP_ROLE}`);
      const placed = await rows<{ entry_date: string; day_seq: number; day_net_before: number }>(
        old.adminDb,
        'select entry_date, day_seq, day_net_before from journal_lines where account_id = ? order by entry_date, id',
        [ids.cash],
      );
      expect(placed).toEqual([
        { entry_date: '2026-03-01', day_seq: 1, day_net_before: 0 },
        { entry_date: '2026-03-02', day_seq: 1, day_net_before: 0 },
        { entry_date: '2026-03-02', day_seq: 2, day_net_before: 1000 },
        { entry_date: '2026-03-02', day_seq: 3, day_net_before: 1000 - 1002 },
        { entry_date: '2026-04-09', day_seq: 1, day_net_before: 0 },
      ]);
      expect(
        await rows(old.adminDb, 'select day, debit_cents, credit_cents, line_count from account_day_balances where account_id = ? order by day', [ids.cash]),
      ).toEqual([
        { day: '2026-03-01', debit_cents: 1001, credit_cents: 0, line_count: 1 },
        { day: '2026-03-02', debit_cents: 1000 + 1004, credit_cents: 1002, line_count: 3 },
        { day: '2026-04-09', debit_cents: 1003, credit_cents: 0, line_count: 1 },
      ]);
    } finally {
      await old.drop();
    }
  });
});

describe('the bank register migration', () => {
  it('computes the hidden pairs of books posted before it once: hidden lines, day and month counts, pages', async () => {
    const old = await createTestDatabase('ledger_gl_register_old', ledgerMigrations.slice(0, ledgerMigrations.indexOf(registerMigration)));
    try {
      const b = await books(old.appDb);
      const postOld = (date: string, cents: number, reverses?: string, reverseDate?: string) =>
        withTenant(old.appDb, { workspaceId: b.ws }, (trx) =>
          postEntry(trx, {
            workspaceId: b.ws,
            date: reverseDate ?? date,
            sourceType: 'ManualEntry',
            description: reverses ? 'reversal' : 'entry',
            reversesEntryId: reverses ?? null,
            lines: [
              { accountId: b.bank, direction: reverses ? 'credit' : 'debit', amountCents: cents },
              { accountId: b.income, direction: reverses ? 'debit' : 'credit', amountCents: cents },
            ],
          }),
        );
      const a = await postOld('2026-03-02', 1000);
      await postOld('2026-03-02', 2000);
      await postOld('2026-03-02', 1000, a);
      const c = await postOld('2026-04-09', 3000);
      await postOld('2026-04-09', 3000, c, '2026-04-12'); // reversed on another date: both stay
      const d = await postOld('2026-04-10', 4000);
      await postOld('2026-04-10', 4000, d);
      await migrateLatest(old.adminDb, ledgerMigrations);
      await old.adminDb.raw(`grant select, insert, update, delete on all tables in schema public to ${TEST_APP_ROLE}`);
      const expected = await linesOf(b.bank, true, old.adminDb);
      expect(expected.map((l) => [l.entry_date, l.amount_cents])).toEqual([
        ['2026-03-02', 2000],
        ['2026-04-09', 3000],
        ['2026-04-12', 3000],
      ]);
      expect(
        await rows(old.adminDb, 'select day, hidden_count, hidden_cents from account_day_balances where account_id = ? and hidden_count > 0 order by day', [
          b.bank,
        ]),
      ).toEqual([
        { day: '2026-03-02', hidden_count: 2, hidden_cents: 1000 },
        { day: '2026-04-10', hidden_count: 2, hidden_cents: 4000 },
      ]);
      expect(await rows(old.adminDb, 'select month, hidden_count from account_balances where account_id = ? order by month', [b.bank])).toEqual([
        { month: '2026-03-01', hidden_count: 2 },
        { month: '2026-04-01', hidden_count: 2 },
      ]);
      const oldGl = new GeneralLedgerUseCases({ db: old.appDb, logger: createLogger('gl-test', 'silent') });
      const page = await oldGl.ledgerTransactions({ workspaceId: b.ws, role: 'Owner' }, { ledgerAccountId: b.bank, startDate: '', endDate: '', take: 10 });
      expect(page.data.slice(1).map((l) => [l.id, l.ledgerRunningBalanceCents])).toEqual([
        [String(expected[0]!.id), 2000],
        [String(expected[1]!.id), 5000],
        [String(expected[2]!.id), 2000],
      ]);
      // Posting after the migration hides through the trigger.
      const e = await postOld('2026-04-12', 500);
      await postOld('2026-04-12', 500, e);
      expect(
        (await oldGl.ledgerTransactions({ workspaceId: b.ws, role: 'Owner' }, { ledgerAccountId: b.bank, startDate: '', endDate: '', take: 10 })).meta
          .itemCount,
      ).toBe(3);
    } finally {
      await old.drop();
    }
  });
});
