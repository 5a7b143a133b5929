// Accruals in the books (spec §3 "Accrual", §4 lifecycle): the bank transaction is booked to Prepaid
// Expenses / Deferred Revenue and each month moves its share into the chosen category. Balances are read
// from the lines by month, the way a balance sheet and a P&L would read them.
import { create } from '@bufbuild/protobuf';
import { AppError, createLogger, newId, withTenant } from '@ledgerline/platform';
import { createTestDatabase, type TestDatabase } from '@ledgerline/platform/testing';
import { BankTransactionSchema } from '@ledgerline/proto/events/v1/banking_pb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBankLedgerAccount, ensureChart } from '../src/store/chart-store.js';
import { ledgerMigrations } from '../src/store/migrations.js';
import { AccrualUseCases } from '../src/usecases/accruals.js';
import { applyBankTransaction, removeBankTransaction } from '../src/usecases/bank-events.js';
import { createUseCases, type LedgerUseCases } from '../src/usecases/index.js';
import { publishedEntries, rows, trialBalance } from './support.js';

let db: TestDatabase;
let u: LedgerUseCases;
let accruals: AccrualUseCases;
let today = '2026-04-15';

beforeAll(async () => {
  db = await createTestDatabase('ledger_accruals', ledgerMigrations);
  const deps = { db: db.appDb, logger: createLogger('ledger-accruals', 'silent') };
  u = createUseCases(deps);
  accruals = new AccrualUseCases(deps, { today: () => today });
});
afterAll(async () => db?.drop());

interface Books {
  ws: string;
  tenant: { workspaceId: string; userId: string; role: 'Owner' };
  bank: { id: string; bank_account_id: string };
  /** Account id by name. */
  acct(name: string): string;
  /** Adds a bank transaction and answers its ledger id. */
  add(cents: number, date: string, bankId?: string): Promise<string>;
  bankEvent(bankId: string, cents: number, date: string, version: number): Promise<void>;
}

async function books(): Promise<Books> {
  const ws = newId();
  const tenant = { workspaceId: ws, userId: newId(), role: 'Owner' as const };
  const bank = await withTenant(db.appDb, tenant, async (trx) => {
    await ensureChart(trx, ws);
    return ensureBankLedgerAccount(trx, ws, { accountId: newId(), name: 'Checking', mask: '1', type: 'depository', subtype: 'checking', institutionName: 'B' });
  });
  const accounts = await rows<{ id: string; name: string }>(db.adminDb, 'select id, name from accounts where workspace_id = ?', [ws]);
  const event = (bankId: string, cents: number, date: string, version: number) =>
    create(BankTransactionSchema, {
      id: bankId,
      accountId: bank.bank_account_id as string,
      externalId: bankId,
      amountCents: BigInt(cents),
      isoCurrencyCode: 'USD',
      date,
      name: 'Annual software licence',
      version: BigInt(version),
    });
  return {
    ws,
    tenant,
    bank: { id: bank.id, bank_account_id: bank.bank_account_id as string },
    acct: (name) => {
      const a = accounts.find((x) => x.name === name);
      if (!a) throw new Error(`no account ${name}`);
      return a.id;
    },
    async add(cents, date, bankId = newId()) {
      await withTenant(db.appDb, tenant, (trx) => applyBankTransaction(trx, ws, event(bankId, cents, date, 1)));
      const [r] = await rows<{ id: string }>(db.adminDb, 'select id from workspace_transactions where bank_transaction_id = ?', [bankId]);
      return r?.id as string;
    },
    bankEvent: (bankId, cents, date, version) => withTenant(db.appDb, tenant, (trx) => applyBankTransaction(trx, ws, event(bankId, cents, date, version))),
  };
}

/** An account's balance (debits − credits, cents) over lines dated on or before `date`. */
async function balance(accountId: string, date = '9999-12-31'): Promise<number> {
  const [r] = await rows<{ s: number }>(
    db.adminDb,
    "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as s from journal_lines where account_id = ? and entry_date <= ?",
    [accountId, date],
  );
  return r?.s ?? 0;
}

/** An account's net movement (debits − credits) per month, as a P&L by month reads it. */
async function byMonth(accountId: string): Promise<Record<string, number>> {
  const r = await rows<{ m: string; s: number }>(
    db.adminDb,
    `select to_char(entry_date, 'YYYY-MM') as m, sum(case when direction = 'debit' then amount_cents else -amount_cents end)::bigint as s
    from journal_lines where account_id = ? group by 1 having sum(case when direction = 'debit' then amount_cents else -amount_cents end) <> 0 order by 1`,
    [accountId],
  );
  return Object.fromEntries(r.map((x) => [x.m, x.s]));
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const months12 = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`2026-${String(i + 1).padStart(2, '0')}`, 10_000]));

describe('create', () => {
  it('books a prepaid expense to Prepaid Expenses and recognises 1/12 into the category at each month end', async () => {
    const b = await books();
    const id = await b.add(-120_000, '2026-01-05');
    const software = b.acct('Software and Subscriptions');
    const prepaid = b.acct('Prepaid Expenses');
    const r = await accruals.create(b.tenant, {
      transactionId: id,
      accrualStartDate: '2026-01-01',
      accrualEndDate: '2026-12-31',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    });
    expect(r.message).toBe('Transaction has been accrued successfully.');
    expect(r.transaction).toMatchObject({ is_accrued_parent: true, category_id: prepaid, category_name: 'Prepaid Expenses' });
    // The expense lands month by month; the prepaid asset runs down to zero; the bank is untouched.
    expect(await byMonth(software)).toEqual(months12);
    expect(await balance(prepaid, '2026-01-05')).toBe(120_000);
    expect(await balance(prepaid, '2026-01-31')).toBe(110_000);
    expect(await balance(prepaid, '2026-06-30')).toBe(60_000);
    expect(await balance(prepaid)).toBe(0);
    expect(await balance(b.acct('Uncategorised Expense'))).toBe(0);
    expect(await balance(b.bank.id)).toBe(-120_000);
    expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
    expect(r.schedule).toMatchObject({
      accrualStatus: 'active',
      accrualCategory: 'Prepaid Expenses',
      accrualCategoryId: prepaid,
      recogniseCategoryId: software,
      amountCents: 120_000,
    });
    expect(r.schedule.months.map((m) => m.date)).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
      '2026-08-31',
      '2026-09-30',
      '2026-10-31',
      '2026-11-30',
      '2026-12-31',
    ]);
    expect(r.schedule.months.map((m) => m.runningBalanceCents)).toEqual([
      110_000, 100_000, 90_000, 80_000, 70_000, 60_000, 50_000, 40_000, 30_000, 20_000, 10_000, 0,
    ]);
    // As of today (2026-04-15) January to March are recognised.
    expect(r.schedule.months.map((m) => m.isTransactionAdded)).toEqual([true, true, true, ...Array(9).fill(false)]);
    // Every entry (the re-booking, its reversal, 12 months) is published through the outbox.
    const [entries] = await rows<{ n: number }>(db.adminDb, 'select count(*)::int as n from journal_entries where workspace_id = ?', [b.ws]);
    expect(entries?.n).toBe(1 + 2 + 12);
    expect((await publishedEntries(db.adminDb, b.ws)).length).toBe(entries?.n);
    const [log] = (await u.transactions.auditLogs(b.tenant, id, 1, 1)).data;
    expect(log).toMatchObject({
      event: 'accrued',
      details: { accrualCategory: 'Prepaid Expenses', months: 12, recogniseCategoryName: 'Software and Subscriptions' },
    });
  });

  it('defers revenue: Deferred Revenue holds the money in, Sales earns it by month; odd cents go to the last month; a partial last month is dated on the end date', async () => {
    const b = await books();
    const id = await b.add(10_000, '2026-01-20');
    const sales = b.acct('Sales');
    const deferred = b.acct('Deferred Revenue');
    const r = await accruals.create(b.tenant, {
      transactionId: id,
      accrualStartDate: '2026-01-15',
      accrualEndDate: '2026-03-10',
      accrualCategory: 'Deferred Revenue',
      recogniseCategoryId: sales,
    });
    expect(r.schedule.months.map((m) => [m.date, m.amountCents])).toEqual([
      ['2026-01-31', 3333],
      ['2026-02-28', 3333],
      ['2026-03-10', 3334],
    ]);
    // Income is credit-normal: negative debits − credits.
    expect(await byMonth(sales)).toEqual({ '2026-01': -3333, '2026-02': -3333, '2026-03': -3334 });
    expect(await balance(deferred, '2026-01-20')).toBe(-10_000);
    expect(await balance(deferred, '2026-02-28')).toBe(-3334);
    expect(await balance(deferred)).toBe(0);
    expect(await balance(b.bank.id)).toBe(10_000);
  });

  it('refuses what cannot be accrued, changing nothing', async () => {
    const b = await books();
    const out = await b.add(-500, '2026-02-01');
    const software = b.acct('Software and Subscriptions');
    const base = {
      transactionId: out,
      accrualStartDate: '2026-01-01',
      accrualEndDate: '2026-12-31',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    };
    const field = async (input: Partial<typeof base>) =>
      (await refusal(accruals.create(b.tenant, { ...base, ...input }))).fields.map((f) => `${f.field}: ${f.message}`);
    expect(await field({ accrualCategory: 'Deferred Revenue' })).toEqual([
      'accrualCategory: Deferred Revenue applies to money in: this transaction is money out (use Prepaid Expenses)',
    ]);
    expect(await field({ accrualCategory: 'Accrued Stuff' })).toEqual(['accrualCategory: accrualCategory must be one of: Prepaid Expenses, Deferred Revenue']);
    expect(await field({ accrualStartDate: '2026-13-01' })).toEqual(['accrualStartDate: Invalid accrualStartDate format']);
    expect(await field({ accrualEndDate: '2025-12-31' })).toEqual(['accrualEndDate: accrualEndDate cannot be less than accrualStartDate']);
    expect(await field({ accrualEndDate: '2036-01-01' })).toEqual(['accrualEndDate: An accrual can span at most 120 months']);
    expect(await field({ recogniseCategoryId: b.acct('Checking ••1') })).toEqual(['recogniseCategoryId: recogniseCategoryId cannot be a bank or card account']);
    expect((await field({ recogniseCategoryId: b.acct('Prepaid Expenses') }))[0]).toMatch(
      /^recogniseCategoryId: recogniseCategoryId cannot be an account the ledger keeps itself/,
    );
    expect(await field({ recogniseCategoryId: b.acct('Operating Expenses') })).toEqual([
      'recogniseCategoryId: recogniseCategoryId must be a category or sub-category, not a category type or group',
    ]);
    // 5.00 over 12 months is fine; 0.05 is not.
    const tiny = await b.add(-5, '2026-02-01');
    expect(await field({ transactionId: tiny })).toEqual(['accrualEndDate: The amount is too small to spread over 12 months (at least 0.01 a month)']);
    expect((await refusal(accruals.create(b.tenant, { ...base, recogniseCategoryId: newId() }))).kind).toBe('NOT_FOUND');
    expect((await refusal(accruals.create(b.tenant, { ...base, transactionId: newId() }))).kind).toBe('NOT_FOUND');
    expect((await refusal(accruals.create({ ...b.tenant, role: 'Viewer' as 'Owner' }, base))).message).toBe('Editing actions are disabled for your account');
    expect(await balance(b.acct('Prepaid Expenses'))).toBe(0);
    expect(await rows(db.adminDb, 'select * from transaction_accruals where workspace_id = ?', [b.ws])).toEqual([]);
    // Once accrued, a second accrual, a categorisation and a split answer the §4 "accrued" restriction.
    await accruals.create(b.tenant, base);
    const attempts = [
      () => accruals.create(b.tenant, base),
      () => u.transactions.updateCategory(b.tenant, out, software),
      () =>
        u.transactions.split(b.tenant, { parent: { id: out, amountCents: 300n, categoryId: software }, parts: [{ amountCents: 200n, categoryId: software }] }),
    ];
    for (const attempt of attempts) expect(await refusal(attempt())).toMatchObject({ kind: 'FAILED_PRECONDITION', appErrorCode: 'TRANSACTION_ACCRUED' });
  });
});

describe('concurrency', () => {
  it('ten simultaneous accruals of one transaction: one wins, the others answer the "accrued" restriction; the books hold one schedule', async () => {
    const b = await books();
    const id = await b.add(-36_000, '2026-01-10');
    const software = b.acct('Software and Subscriptions');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        accruals.create(b.tenant, {
          transactionId: id,
          accrualStartDate: '2026-01-01',
          accrualEndDate: `2026-${String(i + 3).padStart(2, '0')}-28`,
          accrualCategory: 'Prepaid Expenses',
          recogniseCategoryId: software,
        }),
      ),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ kind: 'FAILED_PRECONDITION', appErrorCode: 'TRANSACTION_ACCRUED' });
    const schedule = await accruals.schedule(b.tenant, id);
    expect(schedule.months.reduce((sum, m) => sum + m.amountCents, 0)).toBe(36_000);
    expect(await balance(software)).toBe(36_000);
    expect(await balance(b.acct('Prepaid Expenses'))).toBe(0);
    expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
  });
});

describe('update', () => {
  it('changes month amounts (within 0.01, the last month absorbing the cent); untouched months keep their entries', async () => {
    const b = await books();
    const id = await b.add(-30_000, '2026-01-02');
    const software = b.acct('Software and Subscriptions');
    const created = await accruals.create(b.tenant, {
      transactionId: id,
      accrualStartDate: '2026-01-01',
      accrualEndDate: '2026-03-31',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    });
    const [jan, feb, mar] = created.schedule.months;
    const r = await accruals.update(b.tenant, {
      transactionId: id,
      updatedAccrualChildren: [
        { id: jan?.id, amountCents: 5_000n },
        { id: feb?.id, amountCents: 15_000n },
        { id: mar?.id, amountCents: 9_999n },
      ],
    });
    expect(r.message).toBe('Transaction has been updated successfully.');
    expect(r.schedule.months.map((m) => [m.id, m.amountCents])).toEqual([
      [jan?.id, 5_000],
      [feb?.id, 15_000],
      [mar?.id, 10_000],
    ]);
    expect(await byMonth(software)).toEqual({ '2026-01': 5_000, '2026-02': 15_000, '2026-03': 10_000 });
    // March's amount did not change (10,000 before, 9,999 + the absorbed cent now): same entry.
    expect(r.schedule.months[2]?.journalEntryId).toBe(mar?.journalEntryId);
    expect(r.schedule.months[0]?.journalEntryId).not.toBe(jan?.journalEntryId);
    const [reversals] = await rows<{ n: number }>(db.adminDb, 'select count(*)::int as n from journal_entries where reverses_entry_id in (?, ?, ?)', [
      jan?.journalEntryId,
      feb?.journalEntryId,
      mar?.journalEntryId,
    ]);
    expect(reversals?.n).toBe(2);
    const bad = await refusal(accruals.update(b.tenant, { transactionId: id, updatedAccrualChildren: [{ id: jan?.id, amountCents: 5_002n }] }));
    expect(bad.fields).toEqual([{ field: 'updatedAccrualChildren', message: 'Accrual amounts must add up to the transaction amount' }]);
    const unknown = await refusal(accruals.update(b.tenant, { transactionId: id, updatedAccrualChildren: [{ id: newId(), amountCents: 1n }] }));
    expect(unknown.fields[0]).toEqual({ field: 'updatedAccrualChildren.0.id', message: 'updatedAccrualChildren.0.id is not a month of this accrual' });
    const zero = await refusal(accruals.update(b.tenant, { transactionId: id, updatedAccrualChildren: [{ id: jan?.id, amountCents: 0n }] }));
    expect(zero.fields[0]?.field).toBe('updatedAccrualChildren.0.amount');
    expect(await byMonth(software)).toEqual({ '2026-01': 5_000, '2026-02': 15_000, '2026-03': 10_000 });
  });

  it('new dates spread the amount again; a new recognise category moves every month', async () => {
    const b = await books();
    const id = await b.add(-30_000, '2026-01-02');
    const software = b.acct('Software and Subscriptions');
    const rent = b.acct('Rent');
    await accruals.create(b.tenant, {
      transactionId: id,
      accrualStartDate: '2026-01-01',
      accrualEndDate: '2026-03-31',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    });
    const mixed = await refusal(
      accruals.update(b.tenant, { transactionId: id, accrualEndDate: '2026-06-30', updatedAccrualChildren: [{ id: newId(), amountCents: 1n }] }),
    );
    expect(mixed.fields[0]?.field).toBe('updatedAccrualChildren');
    const r = await accruals.update(b.tenant, { transactionId: id, accrualEndDate: '2026-06-30', recogniseCategoryId: rent, updatedAccrualChildren: [] });
    expect(r.schedule).toMatchObject({ accrualStartDate: '2026-01-01', accrualEndDate: '2026-06-30', recogniseCategoryId: rent });
    expect(r.schedule.months.map((m) => m.amountCents)).toEqual([5_000, 5_000, 5_000, 5_000, 5_000, 5_000]);
    expect(await byMonth(software)).toEqual({});
    expect(await byMonth(rent)).toEqual({ '2026-01': 5_000, '2026-02': 5_000, '2026-03': 5_000, '2026-04': 5_000, '2026-05': 5_000, '2026-06': 5_000 });
    expect(await balance(b.acct('Prepaid Expenses'))).toBe(0);
    expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
    const bad = await refusal(accruals.update(b.tenant, { transactionId: id, accrualStartDate: '2026-07-01', updatedAccrualChildren: [] }));
    expect(bad.fields).toEqual([{ field: 'accrualEndDate', message: 'accrualEndDate cannot be less than accrualStartDate' }]);
  });
});

describe('stop', () => {
  it('keeps the months recognised by today, drops the rest and recognises their amount today: nothing is left in Prepaid Expenses', async () => {
    const b = await books();
    const id = await b.add(-120_000, '2026-01-05');
    const software = b.acct('Software and Subscriptions');
    const prepaid = b.acct('Prepaid Expenses');
    await accruals.create(b.tenant, {
      transactionId: id,
      accrualStartDate: '2026-01-01',
      accrualEndDate: '2026-12-31',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    });
    today = '2026-04-15';
    const r = await accruals.stop(b.tenant, id);
    expect(r.schedule).toMatchObject({ accrualStatus: 'stopped', stoppedOn: '2026-04-15' });
    expect(r.schedule.months.map((m) => [m.date, m.amountCents, m.runningBalanceCents, m.isTransactionAdded])).toEqual([
      ['2026-01-31', 10_000, 110_000, true],
      ['2026-02-28', 10_000, 100_000, true],
      ['2026-03-31', 10_000, 90_000, true],
      ['2026-04-15', 90_000, 0, true],
    ]);
    expect(await byMonth(software)).toEqual({ '2026-01': 10_000, '2026-02': 10_000, '2026-03': 10_000, '2026-04': 90_000 });
    expect(await balance(prepaid, '2026-04-15')).toBe(0);
    expect(await balance(prepaid)).toBe(0);
    expect(await balance(b.bank.id)).toBe(-120_000);
    expect(await refusal(accruals.stop(b.tenant, id))).toMatchObject({ kind: 'FAILED_PRECONDITION', message: 'This accrual is already stopped' });
    expect(await refusal(accruals.update(b.tenant, { transactionId: id, updatedAccrualChildren: [] }))).toMatchObject({
      kind: 'FAILED_PRECONDITION',
      appErrorCode: 'ACCRUAL_STOPPED',
    });
    const [log] = (await u.transactions.auditLogs(b.tenant, id, 1, 1)).data;
    expect(log).toMatchObject({ event: 'accrual_stopped', details: { stoppedOn: '2026-04-15', remainderCents: 90_000 } });
    // A stopped accrual can still be deleted: back to a plain bank transaction.
    await accruals.remove(b.tenant, id);
    expect(await byMonth(software)).toEqual({});
    expect(await balance(b.acct('Uncategorised Expense'))).toBe(120_000);
  });
});

describe('delete', () => {
  it('reverses everything: the transaction is booked to its category from before, Prepaid Expenses and the recognise category are back to zero', async () => {
    const b = await books();
    const id = await b.add(-60_000, '2026-03-01');
    const rent = b.acct('Rent');
    await u.transactions.updateCategory(b.tenant, id, rent);
    const software = b.acct('Software and Subscriptions');
    await accruals.create(b.tenant, {
      transactionId: id,
      accrualStartDate: '2026-03-01',
      accrualEndDate: '2026-08-31',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    });
    expect(await balance(rent)).toBe(0);
    const linesBefore = await rows<{ id: number }>(db.adminDb, 'select id from journal_lines where workspace_id = ?', [b.ws]);
    const r = await accruals.remove(b.tenant, id);
    expect(r.transaction).toMatchObject({ is_accrued_parent: false, category_id: rent });
    expect(await balance(rent)).toBe(60_000);
    expect(await balance(software)).toBe(0);
    expect(await balance(b.acct('Prepaid Expenses'))).toBe(0);
    expect(await balance(b.bank.id)).toBe(-60_000);
    // Corrections are new lines: everything posted before is still there.
    const linesAfter = new Set((await rows<{ id: number }>(db.adminDb, 'select id from journal_lines where workspace_id = ?', [b.ws])).map((l) => l.id));
    expect(linesBefore.every((l) => linesAfter.has(l.id))).toBe(true);
    expect((await refusal(accruals.schedule(b.tenant, id))).kind).toBe('NOT_FOUND');
    expect(await refusal(accruals.remove(b.tenant, id))).toMatchObject({ kind: 'FAILED_PRECONDITION', appErrorCode: 'TRANSACTION_NOT_ACCRUED' });
    // It is a plain transaction again: categorise it, or accrue it again.
    await u.transactions.updateCategory(b.tenant, id, software);
    await accruals.create(b.tenant, {
      transactionId: id,
      accrualStartDate: '2026-03-01',
      accrualEndDate: '2026-04-30',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: rent,
    });
    expect(await byMonth(rent)).toEqual({ '2026-03': 30_000, '2026-04': 30_000 });
    expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
  });
});

describe('the bank changes an accrued transaction', () => {
  it('a new amount un-accrues it (the months no longer add up); a new date alone keeps the schedule; a removal reverses the months too', async () => {
    const b = await books();
    const bankId = newId();
    const id = await b.add(-12_000, '2026-01-05', bankId);
    const software = b.acct('Software and Subscriptions');
    await accruals.create(b.tenant, {
      transactionId: id,
      accrualStartDate: '2026-01-01',
      accrualEndDate: '2026-12-31',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    });
    await b.bankEvent(bankId, -12_000, '2026-01-06', 2);
    expect((await accruals.schedule(b.tenant, id)).months).toHaveLength(12);
    expect(await balance(b.acct('Prepaid Expenses'))).toBe(0);
    await b.bankEvent(bankId, -13_000, '2026-01-06', 3);
    const [row] = await rows<{ is_accrued_parent: boolean; category_id: string }>(
      db.adminDb,
      'select is_accrued_parent, category_id from workspace_transactions where id = ?',
      [id],
    );
    expect(row).toEqual({ is_accrued_parent: false, category_id: b.acct('Uncategorised Expense') });
    expect(await balance(software)).toBe(0);
    expect(await balance(b.acct('Prepaid Expenses'))).toBe(0);
    expect(await balance(b.acct('Uncategorised Expense'))).toBe(13_000);
    // The trail says the bank feed did it (no user).
    const trail = (await u.transactions.auditLogs(b.tenant, id, 1, 2)).data;
    expect(trail.map((l) => [l.event, l.user_id])).toEqual([
      ['bank_modified', null],
      ['unaccrued', null],
    ]);

    const other = newId();
    const id2 = await b.add(-24_000, '2026-02-01', other);
    await accruals.create(b.tenant, {
      transactionId: id2,
      accrualStartDate: '2026-02-01',
      accrualEndDate: '2026-03-31',
      accrualCategory: 'Prepaid Expenses',
      recogniseCategoryId: software,
    });
    await withTenant(db.appDb, b.tenant, (trx) =>
      removeBankTransaction(trx, b.ws, { id: other, accountId: b.bank.bank_account_id, externalId: other, version: 2n }),
    );
    expect(await balance(software)).toBe(0);
    expect(await balance(b.acct('Prepaid Expenses'))).toBe(0);
    expect(await balance(b.bank.id)).toBe(-13_000);
    expect(await trialBalance(db.adminDb, b.ws)).toBe(0);
  });
});
