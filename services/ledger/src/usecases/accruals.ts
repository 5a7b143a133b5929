import { AppError, ErrorKind, type Knex } from '@ledgerline/platform';
import {
  ACCRUAL_CODES,
  ACCRUAL_MSG,
  accrualDates,
  adjustedAmounts,
  isAccrualCategory,
  MAX_ACCRUAL_MONTHS,
  monthCount,
  runningBalances,
  spreadEvenly,
  stopPlan,
  type AccrualCategory,
} from '../domain/accrual.js';
import { isPostableLevel, SYSTEM } from '../domain/chart.js';
import { MSG, SUCCESS } from '../domain/messages.js';
import { Problems } from '../domain/validation.js';
import {
  accrualMonths,
  accrualOf,
  dropAccrual,
  dropMonths,
  insertAccrual,
  postMonth,
  stopAccrual,
  updateAccrual,
  type AccrualMonthRow,
  type AccrualRow,
} from '../store/accrual-store.js';
import { audit } from '../store/audit.js';
import { accountById, accountBySystemKey, type AccountRow } from '../store/chart-store.js';
import type { TxnRow } from '../store/rows.js';
import { transactionById } from '../store/workspace-transactions.js';
import { assertCanEdit, changeInWorkspace, inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { assertEditable, lockRow, repost, viewById } from './booking.js';
import { referenceNotFound } from './references.js';

export interface AccrualInput {
  transactionId?: string;
  accrualStartDate?: string;
  accrualEndDate?: string;
  accrualCategory?: string;
  recogniseCategoryId?: string;
}

export interface AccrualUpdateInput extends AccrualInput {
  /** Spec §3 updatedAccrualChildren: a month's id and its new amount (absolute cents). */
  updatedAccrualChildren: { id?: string; amountCents?: bigint }[];
}

export interface ScheduleMonthView {
  id: string;
  date: string;
  amountCents: number;
  journalEntryId: string;
  /** Recognised as of today (the entry is in the books, dated on or before today). */
  isTransactionAdded: boolean;
  /** Left in Prepaid Expenses / Deferred Revenue after this month (absolute cents). */
  runningBalanceCents: number;
}

export interface ScheduleView {
  transactionId: string;
  accrualStartDate: string;
  accrualEndDate: string;
  accrualCategory: AccrualCategory;
  accrualCategoryId: string;
  recogniseCategoryId: string;
  recogniseCategoryName: string;
  accrualStatus: 'active' | 'stopped';
  stoppedOn: string;
  amountCents: number;
  months: ScheduleMonthView[];
}

const SYSTEM_KEY_OF: Record<AccrualCategory, string> = { 'Prepaid Expenses': SYSTEM.prepaidExpenses, 'Deferred Revenue': SYSTEM.deferredRevenue };

const today = () => new Date().toISOString().slice(0, 10);

function checkPeriod(p: Problems, start: string | undefined, end: string | undefined, { required }: { required: boolean }): void {
  for (const [field, v] of [
    ['accrualStartDate', start],
    ['accrualEndDate', end],
  ] as const) {
    if (!v) {
      if (required) p.add(field, MSG.required(field));
    } else p.date(field, v);
  }
  if (start && end && !p.fields.some((f) => f.field.startsWith('accrual') && f.field.endsWith('Date'))) {
    if (end < start) p.add('accrualEndDate', ACCRUAL_MSG.endBeforeStart);
    else if (monthCount(start, end) > MAX_ACCRUAL_MONTHS) p.add('accrualEndDate', ACCRUAL_MSG.tooLong);
  }
}

/** The category the months are recognised into: a postable category of the workspace, not a bank or ledger account. */
async function recogniseCategory(trx: Knex.Transaction, id: string): Promise<AccountRow> {
  const c = await accountById(trx, id);
  if (!c) throw referenceNotFound('recogniseCategoryId', 'category');
  const field = 'recogniseCategoryId';
  if (!isPostableLevel(c.level)) throw AppError.invalid([{ field, message: ACCRUAL_MSG.recogniseNotPostable }]);
  if (c.bank_account_id) throw AppError.invalid([{ field, message: ACCRUAL_MSG.recogniseIsBank }]);
  if (c.system_key) throw AppError.invalid([{ field, message: ACCRUAL_MSG.recogniseIsSystem }]);
  return c;
}

/** The transaction can be spread: booked, not zero, money out for Prepaid Expenses and in for Deferred Revenue, a cent a month at least. */
function checkEligible(row: TxnRow, category: AccrualCategory, months: number): void {
  if (!row.ledger_account_id || (row.amount_cents !== 0 && !row.current_entry_id))
    throw AppError.invalid([{ field: 'transactionId', message: ACCRUAL_MSG.notPosted }]);
  if (row.amount_cents === 0) throw AppError.invalid([{ field: 'transactionId', message: ACCRUAL_MSG.zeroAmount }]);
  if (category === 'Prepaid Expenses' && row.amount_cents > 0) throw AppError.invalid([{ field: 'accrualCategory', message: ACCRUAL_MSG.prepaidNeedsOutflow }]);
  if (category === 'Deferred Revenue' && row.amount_cents < 0) throw AppError.invalid([{ field: 'accrualCategory', message: ACCRUAL_MSG.deferredNeedsInflow }]);
  if (Math.abs(row.amount_cents) < months) throw AppError.invalid([{ field: 'accrualEndDate', message: ACCRUAL_MSG.tooSmall(months) }]);
}

const notAccrued = () => new AppError(ErrorKind.FailedPrecondition, ACCRUAL_MSG.notAccrued, { appErrorCode: ACCRUAL_CODES.notAccrued });

/** An accrued transaction's own rules: §4 restrictions in order, except "accrued" (this is its accrual). */
async function lockAccrued(trx: Knex.Transaction, id: string): Promise<{ row: TxnRow; accrual: AccrualRow }> {
  const row = await lockRow(trx, id);
  const accrual = await accrualOf(trx, id);
  if (!accrual) throw notAccrued();
  await assertEditable(trx, { ...row, is_accrued_parent: false });
  return { row, accrual };
}

const label = (i: number, n: number) => `accrual ${i + 1}/${n}`;

/**
 * Spec §3 "Accrual" and the §4 lifecycle: create, edit, stop, delete. Every month of the schedule is
 * posted at once, dated in its month (the month's last day; the end date for the last month), so
 * reports by date are right without a scheduled job; `isTransactionAdded` tells which months are
 * recognised as of today. Each change is reversals plus new entries in one database transaction.
 */
export class AccrualUseCases {
  private readonly today: () => string;

  constructor(
    private readonly deps: LedgerDeps,
    options: { today?: () => string } = {},
  ) {
    this.today = options.today ?? today;
  }

  async create(tenant: Tenant, input: AccrualInput) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('transactionId', input.transactionId, { required: true });
    checkPeriod(p, input.accrualStartDate, input.accrualEndDate, { required: true });
    if (!input.accrualCategory) p.add('accrualCategory', MSG.required('accrualCategory'));
    else if (!isAccrualCategory(input.accrualCategory)) p.add('accrualCategory', ACCRUAL_MSG.category);
    p.uuid('recogniseCategoryId', input.recogniseCategoryId, { required: true });
    p.throwIfAny();
    const category = input.accrualCategory as AccrualCategory;
    const start = input.accrualStartDate as string;
    const end = input.accrualEndDate as string;
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      const row = await lockRow(trx, input.transactionId as string);
      const recognise = await recogniseCategory(trx, input.recogniseCategoryId as string);
      await assertEditable(trx, row);
      const dates = accrualDates(start, end);
      checkEligible(row, category, dates.length);
      const accrualAccount = await accountBySystemKey(trx, SYSTEM_KEY_OF[category]);
      await insertAccrual(trx, row, { category, start, end, recogniseCategoryId: recognise.id });
      // The bank transaction now books to Prepaid Expenses / Deferred Revenue (a reversal + new entry).
      await repost(trx, { ...row, is_accrued_parent: true }, { categoryId: accrualAccount.id });
      const amounts = spreadEvenly(Math.abs(row.amount_cents), dates.length);
      const a = { category, accrualAccountId: accrualAccount.id, recogniseCategoryId: recognise.id };
      for (const [i, date] of dates.entries()) await postMonth(trx, row, a, { position: i, date, cents: amounts[i] as number, label: label(i, dates.length) });
      await audit(trx, {
        workspaceId: tenant.workspaceId,
        transactionId: row.id,
        userId: tenant.userId,
        event: 'accrued',
        details: {
          accrualCategory: category,
          accrualStartDate: start,
          accrualEndDate: end,
          recogniseCategoryId: recognise.id,
          recogniseCategoryName: recognise.name,
          fromCategoryId: row.category_id,
          months: dates.length,
        },
      });
      return { transaction: await viewById(trx, row.id), schedule: await this.scheduleIn(trx, row.id), message: SUCCESS.transactionAccrued };
    });
  }

  /** PATCH update-accrual: new dates re-spread the schedule evenly; new month amounts (same dates) must add up within 0.01. */
  async update(tenant: Tenant, input: AccrualUpdateInput) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('transactionId', input.transactionId, { required: true });
    checkPeriod(p, input.accrualStartDate, input.accrualEndDate, { required: false });
    if (input.accrualCategory && !isAccrualCategory(input.accrualCategory)) p.add('accrualCategory', ACCRUAL_MSG.category);
    p.uuid('recogniseCategoryId', input.recogniseCategoryId);
    input.updatedAccrualChildren.forEach((c, i) => {
      const field = `updatedAccrualChildren.${i}`;
      p.uuid(`${field}.id`, c.id, { required: true });
      if (c.amountCents === undefined) p.add(`${field}.amount`, MSG.required(`${field}.amount`));
      else if (c.amountCents <= 0n) p.add(`${field}.amount`, ACCRUAL_MSG.monthAmount(`${field}.amount`));
    });
    p.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      const { row, accrual } = await lockAccrued(trx, input.transactionId as string);
      if (accrual.status === 'stopped') throw new AppError(ErrorKind.FailedPrecondition, ACCRUAL_MSG.stopped, { appErrorCode: ACCRUAL_CODES.stopped });
      const start = input.accrualStartDate || accrual.start_date;
      const end = input.accrualEndDate || accrual.end_date;
      const q = new Problems();
      checkPeriod(q, start, end, { required: true });
      q.throwIfAny();
      const category = (input.accrualCategory || accrual.accrual_category) as AccrualCategory;
      const recognise = input.recogniseCategoryId
        ? await recogniseCategory(trx, input.recogniseCategoryId)
        : ((await accountById(trx, accrual.recognise_category_id)) as AccountRow);
      const datesChanged = start !== accrual.start_date || end !== accrual.end_date;
      if (datesChanged && input.updatedAccrualChildren.length)
        throw AppError.invalid([{ field: 'updatedAccrualChildren', message: ACCRUAL_MSG.monthsWithNewDates }]);
      const months = await accrualMonths(trx, row.id);
      const total = Math.abs(row.amount_cents);
      let target: { id?: string; date: string; cents: number }[];
      if (datesChanged) {
        const dates = accrualDates(start, end);
        checkEligible(row, category, dates.length);
        const amounts = spreadEvenly(total, dates.length);
        target = dates.map((date, i) => ({ date, cents: amounts[i] as number }));
      } else {
        checkEligible(row, category, months.length);
        const known = new Map(months.map((m) => [m.id, m]));
        const updates = new Map<string, number>();
        input.updatedAccrualChildren.forEach((c, i) => {
          // Another accrual's (or workspace's) month is not found here (issue #15): a 404 naming the field.
          if (!known.has(c.id as string))
            throw new AppError(ErrorKind.NotFound, ACCRUAL_MSG.monthNotFound(`updatedAccrualChildren.${i}.id`), {
              fields: [{ field: `updatedAccrualChildren.${i}.id`, message: ACCRUAL_MSG.monthNotFound(`updatedAccrualChildren.${i}.id`) }],
            });
          updates.set(c.id as string, Number(c.amountCents));
        });
        const adjusted = adjustedAmounts(
          total,
          months.map((m) => updates.get(m.id) ?? m.amount_cents),
        );
        if (!adjusted) throw AppError.invalid([{ field: 'updatedAccrualChildren', message: ACCRUAL_MSG.monthsSum }]);
        target = months.map((m, i) => ({ id: m.id, date: m.accrual_date, cents: adjusted[i] as number }));
      }
      const recogniseChanged = recognise.id !== accrual.recognise_category_id;
      const same = (m: AccrualMonthRow | undefined, t: { id?: string; date: string; cents: number }) =>
        !!m && !recogniseChanged && m.id === t.id && m.accrual_date === t.date && m.amount_cents === t.cents;
      const changed = target.map((t, i) => !same(months[i], t));
      // Months that change are reversed and posted again; untouched months keep their entries.
      await dropMonths(
        trx,
        row,
        months.filter((m, i) => i >= target.length || changed[i]),
      );
      const accrualAccount = await accountBySystemKey(trx, SYSTEM_KEY_OF[category]);
      const a = { category, accrualAccountId: accrualAccount.id, recogniseCategoryId: recognise.id };
      for (const [i, t] of target.entries()) {
        if (changed[i]) await postMonth(trx, row, a, { id: t.id, position: i, date: t.date, cents: t.cents, label: label(i, target.length) });
      }
      await updateAccrual(trx, row.id, { start, end, recogniseCategoryId: recognise.id });
      await audit(trx, {
        workspaceId: tenant.workspaceId,
        transactionId: row.id,
        userId: tenant.userId,
        event: 'accrual_updated',
        details: {
          from: {
            accrualStartDate: accrual.start_date,
            accrualEndDate: accrual.end_date,
            recogniseCategoryId: accrual.recognise_category_id,
            amountsCents: months.map((m) => m.amount_cents),
          },
          to: { accrualStartDate: start, accrualEndDate: end, recogniseCategoryId: recognise.id, amountsCents: target.map((t) => t.cents) },
        },
      });
      return { transaction: await viewById(trx, row.id), schedule: await this.scheduleIn(trx, row.id), message: SUCCESS.transactionUpdated };
    });
  }

  /**
   * PATCH stop-accrual/{id}: months recognised by today stay; later months are dropped and their amount
   * is recognised today, so nothing is left in Prepaid Expenses / Deferred Revenue for this transaction.
   */
  async stop(tenant: Tenant, transactionId: string) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('id', transactionId, { required: true });
    p.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      const { row, accrual } = await lockAccrued(trx, transactionId);
      if (accrual.status === 'stopped') throw new AppError(ErrorKind.FailedPrecondition, ACCRUAL_MSG.alreadyStopped, { appErrorCode: ACCRUAL_CODES.stopped });
      const stopDate = this.today();
      const months = await accrualMonths(trx, row.id);
      const plan = stopPlan(
        months.map((m) => ({ ...m, date: m.accrual_date, cents: m.amount_cents })),
        stopDate,
      );
      await dropMonths(trx, row, plan.dropped);
      if (plan.remainderCents > 0) {
        const accrualAccount = await accountBySystemKey(trx, SYSTEM_KEY_OF[accrual.accrual_category]);
        const position = (plan.kept.at(-1)?.position ?? -1) + 1;
        await postMonth(
          trx,
          row,
          { category: accrual.accrual_category, accrualAccountId: accrualAccount.id, recogniseCategoryId: accrual.recognise_category_id },
          { position, date: stopDate, cents: plan.remainderCents, label: 'accrual stopped: the rest recognised' },
        );
      }
      await stopAccrual(trx, row.id, stopDate);
      await audit(trx, {
        workspaceId: tenant.workspaceId,
        transactionId: row.id,
        userId: tenant.userId,
        event: 'accrual_stopped',
        details: { stoppedOn: stopDate, droppedMonths: plan.dropped.map((m) => m.date), remainderCents: plan.remainderCents },
      });
      return { transaction: await viewById(trx, row.id), schedule: await this.scheduleIn(trx, row.id), message: SUCCESS.transactionUpdated };
    });
  }

  /** DELETE accrual-schedule: every recognition reversed; the transaction is booked to its category from before the accrual. */
  async remove(tenant: Tenant, transactionId: string) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    p.throwIfAny();
    return changeInWorkspace(this.deps.db, tenant, async (trx) => {
      const { row, accrual } = await lockAccrued(trx, transactionId);
      const next = await dropAccrual(trx, row, { audited: true });
      await repost(trx, next, {});
      await audit(trx, {
        workspaceId: tenant.workspaceId,
        transactionId: row.id,
        userId: tenant.userId,
        event: 'unaccrued',
        details: { accrualCategory: accrual.accrual_category, recogniseCategoryId: accrual.recognise_category_id, toCategoryId: next.category_id },
      });
      return { transaction: await viewById(trx, row.id), message: SUCCESS.transactionUpdated };
    });
  }

  async schedule(tenant: Tenant, transactionId: string): Promise<ScheduleView> {
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      await viewById(trx, transactionId);
      return this.scheduleIn(trx, transactionId);
    });
  }

  private async scheduleIn(trx: Knex.Transaction, transactionId: string): Promise<ScheduleView> {
    const accrual = await accrualOf(trx, transactionId);
    if (!accrual) throw AppError.notFound('Accrual');
    const row = (await transactionById(trx, transactionId)) as TxnRow;
    const months = await accrualMonths(trx, transactionId);
    const total = Math.abs(row.amount_cents);
    const balances = runningBalances(
      total,
      months.map((m) => ({ date: m.accrual_date, cents: m.amount_cents })),
    );
    const recognise = (await accountById(trx, accrual.recognise_category_id)) as AccountRow;
    const now = this.today();
    return {
      transactionId,
      accrualStartDate: accrual.start_date,
      accrualEndDate: accrual.end_date,
      accrualCategory: accrual.accrual_category,
      accrualCategoryId: (await accountBySystemKey(trx, SYSTEM_KEY_OF[accrual.accrual_category])).id,
      recogniseCategoryId: recognise.id,
      recogniseCategoryName: recognise.name,
      accrualStatus: accrual.status,
      stoppedOn: accrual.stopped_on ?? '',
      amountCents: total,
      months: months.map((m, i) => ({
        id: m.id,
        date: m.accrual_date,
        amountCents: m.amount_cents,
        journalEntryId: m.entry_id,
        isTransactionAdded: m.accrual_date <= now,
        runningBalanceCents: balances[i] as number,
      })),
    };
  }
}
