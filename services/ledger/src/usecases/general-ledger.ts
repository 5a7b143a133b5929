import type { Knex } from '@ledgerline/platform';
import { normalBalance, SYSTEM } from '../domain/chart.js';
import { addDays, addMonths, MAX_DATE, MIN_DATE, monthEnd, monthStart } from '../domain/dates.js';
import { closingDescription, fiscalYearStart, isProfitAndLoss } from '../domain/fiscal-year.js';
import { MSG } from '../domain/messages.js';
import { pageMeta, paging, Problems, type Paging } from '../domain/validation.js';
import { accountDays, accountMonths, hiddenPlaces, sumBefore, sumRange, sumsOf, type PeriodRow } from '../store/balances.js';
import { bankTransactionsOf, type BankTransactionView } from '../store/bank-transactions.js';
import { accountById, allAccounts, fiscalYearStartMonth, type AccountRow } from '../store/chart-store.js';
import { accountLinePage, accountLinesBetween, type LedgerLineRow as LineRow } from '../store/ledger-lines.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';
import { referenceNotFound } from './references.js';
import { fiscalContext, type YearEndClose } from './year-end.js';

export interface LedgerLineView {
  id: string;
  date: string;
  description: string;
  journalEntryId: string;
  transactionId: string;
  debitCents: number;
  creditCents: number;
  ledgerAmountCents: number;
  ledgerRunningBalanceCents: number;
  isOpeningBalance: boolean;
  sourceType: string;
  counterAccount: string;
  bankTransaction: BankTransactionView | null;
  /** A virtual line of the Retained Earnings ledger: a closed fiscal year's net income (nothing posted). */
  isYearEndClose: boolean;
}

/**
 * The ledger of a bank or card account is its register: one line per bank transaction, the lines of a
 * reversed entry and of its reversal on the same date hidden (`register_hidden_lines`, migration
 * `20261202100000_ledger_bank_register`). Every other account shows every line.
 */
export const isRegister = (a: Pick<AccountRow, 'bank_account_id'>): boolean => !!a.bank_account_id;

function range(p: Problems, startDate: string, endDate: string) {
  p.date('startDate', startDate);
  p.date('endDate', endDate);
  if (startDate && endDate && startDate > endDate && p.fields.length === 0) p.add('startDate', MSG.dateOrder);
  return { start: startDate || MIN_DATE, end: endDate || MAX_DATE };
}

export interface LedgerTransactionsInput {
  ledgerAccountId: string;
  startDate: string;
  endDate: string;
  page?: number;
  take?: number;
  /** Each line of a bank transaction's entry carries that bank transaction (spec §7). */
  fetchBankAccountTransaction?: boolean;
}

export class GeneralLedgerUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  /**
   * Every account with lines or a balance: opening balance, debits, credits and closing balance of the
   * period. Income and expense accounts open at the first day of the fiscal year of `startDate` (their
   * earlier lines were closed to Retained Earnings); Retained Earnings counts its virtual closing lines
   * (one per closed fiscal year, dated the year's last day) like lines, and `yearEndCloseCents` says how
   * much of the period's movement they are.
   */
  generalLedger(tenant: Tenant, startDate: string, endDate: string) {
    const p = new Problems();
    const { start, end } = range(p, startDate, endDate);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const accounts = await allAccounts(trx);
      const fiscal = await fiscalContext(trx, endDate);
      const before = await sumBefore(trx, start);
      const plFrom = start === MIN_DATE ? MIN_DATE : fiscalYearStart(start, fiscal.startMonth);
      const plBefore = await sumRange(trx, plFrom, addDays(start, -1));
      const during = await sumRange(trx, start, end);
      const closesBefore = fiscal.closes.filter((c) => c.fiscalYear.end < start);
      const closesDuring = fiscal.closes.filter((c) => c.fiscalYear.end >= start && c.fiscalYear.end <= end);
      return accounts
        .map((a) => {
          const b = sumsOf(before, a.id);
          const ob = isProfitAndLoss(a.class_group) ? sumsOf(plBefore, a.id) : b;
          const d = { ...sumsOf(during, a.id) };
          let opening = normalBalance(a.class_group, ob.debit, ob.credit);
          let yearEndCloseCents = 0;
          const close = { debit: 0, credit: 0 };
          let virtual = 0;
          if (a.system_key === SYSTEM.retainedEarnings) {
            opening += closesBefore.reduce((t, c) => t + c.netCents, 0);
            for (const c of closesDuring) {
              if (c.netCents > 0) close.credit += c.netCents;
              else close.debit -= c.netCents;
              yearEndCloseCents += c.netCents;
            }
            virtual = closesBefore.length + closesDuring.length;
            d.debit += close.debit;
            d.credit += close.credit;
          }
          return {
            account: a,
            openingBalanceCents: opening,
            debitCents: d.debit,
            creditCents: d.credit,
            closingBalanceCents: opening + normalBalance(a.class_group, d.debit, d.credit),
            yearEndCloseCents,
            yearEndCloseDebitCents: close.debit,
            yearEndCloseCreditCents: close.credit,
            lines: b.count + d.count + virtual,
          };
        })
        .filter((r) => r.lines > 0);
    });
  }

  /** The bank transaction a workspace transaction books (GET /transactions/v2/{id}?fetchBankAccountTransaction=true). */
  bankAccountTransaction(tenant: Tenant, transactionId: string): Promise<BankTransactionView | null> {
    return inWorkspace(this.deps.db, tenant, async (trx) => (await bankTransactionsOf(trx, [transactionId])).get(transactionId) ?? null);
  }

  /**
   * One account's lines in (date, posting order) with running balances. The page is found without
   * reading the lines before it: month rows (account_balances) and day rows (account_day_balances)
   * give the day the page starts on and the balance before that day; the line's stored place in its
   * day (`day_seq`) and the net of its day before it (`day_net_before`) finish the seek, and one index
   * range reads `take` lines. Page 500 reads the same ≤ 36 + 31 rows and `take` lines as page 1.
   * A bank or card account's ledger is its register: the same seek over visible lines (the rows' counts
   * less their hidden lines; the start day's hidden places turn the page's offset in that day into a
   * `day_seq`), each line showing the transaction's current category.
   */
  async ledgerTransactions(tenant: Tenant, input: LedgerTransactionsInput) {
    const p = new Problems();
    p.uuid('ledgerAccountId', input.ledgerAccountId, { required: true });
    const { start, end } = range(p, input.startDate, input.endDate);
    const pg = paging(p, input.page, input.take);
    p.throwIfAny();
    const ws = tenant.workspaceId;
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const account = await accountById(trx, input.ledgerAccountId);
      if (!account) throw referenceNotFound('ledgerAccountId', 'ledgerAccount');
      const normal = (d: number, c: number) => normalBalance(account.class_group, d, c);
      // Income and expense accounts open at their fiscal year's first day (QuickBooks' beginning balance
      // of a P&L account); earlier years were closed to Retained Earnings.
      const openingFrom = isProfitAndLoss(account.class_group) && start !== MIN_DATE ? fiscalYearStart(start, await fiscalYearStartMonth(trx)) : MIN_DATE;
      const openingSums = sumsOf(start === MIN_DATE ? new Map() : await sumRange(trx, openingFrom, addDays(start, -1), account.id), account.id);
      const opening = normal(openingSums.debit, openingSums.credit);
      if (account.system_key === SYSTEM.retainedEarnings) return this.retainedEarningsPage(trx, account, input, { start, end, pg, opening });

      // Steps over [start, end]: days of a partial first month, whole months, days of a partial last month.
      // In a bank register a step's count is its visible lines (hidden pairs net to zero on their day, so
      // the debits and credits walked past still give the balance before the page).
      const register = isRegister(account);
      type Step = PeriodRow & { month: boolean };
      const days = async (from: string, to: string): Promise<Step[]> =>
        (await accountDays(trx, ws, account.id, from, to, register)).map((r) => ({ ...r, month: false }));
      const steps: Step[] = [];
      const sameMonth = monthStart(start) === monthStart(end);
      const startsWhole = start === monthStart(start);
      const endsWhole = end === MAX_DATE || end === monthEnd(end);
      if (sameMonth && !(startsWhole && endsWhole)) {
        steps.push(...(await days(start, end)));
      } else {
        if (!startsWhole) steps.push(...(await days(start, monthEnd(start))));
        const months = await accountMonths(
          trx,
          ws,
          account.id,
          startsWhole ? start : addMonths(start, 1),
          endsWhole ? monthStart(end) : addMonths(end, -1),
          register,
        );
        steps.push(...months.map((r) => ({ ...r, month: true })));
        if (!endsWhole) steps.push(...(await days(monthStart(end), end)));
      }
      const itemCount = steps.reduce((n, s) => n + s.count, 0);

      // Walk to the day holding the page's first line, adding up what lies before it.
      const skip = (pg.page - 1) * pg.take;
      let before = opening;
      let passed = 0;
      let day: Step | undefined;
      for (let list = steps, i = 0; i < list.length; i++) {
        const s = list[i]!;
        if (passed + s.count <= skip) {
          passed += s.count;
          before += normal(s.debit, s.credit);
        } else if (s.month) {
          list = await days(s.period, monthEnd(s.period));
          i = -1;
        } else {
          day = s;
          break;
        }
      }

      const data: LedgerLineView[] = [];
      if (pg.page === 1) {
        data.push({
          id: '',
          date: start === MIN_DATE ? '' : start,
          description: 'Opening balance',
          journalEntryId: '',
          transactionId: '',
          debitCents: 0,
          creditCents: 0,
          ledgerAmountCents: 0,
          ledgerRunningBalanceCents: opening,
          isOpeningBalance: true,
          sourceType: 'OpeningBalance',
          counterAccount: '',
          bankTransaction: null,
          isYearEndClose: false,
        });
      }
      if (day) {
        // `visibleBefore` lines of `day` come before the page. Without hidden lines that day, the page's
        // first line is at place visibleBefore + 1; otherwise each hidden place at or before it pushes it
        // one further, and the hidden lines before it come off its day_net_before.
        const visibleBefore = skip - passed;
        let place = visibleBefore + 1;
        let hiddenNetBefore = 0;
        if (register && day.hidden > 0) {
          for (const h of await hiddenPlaces(trx, ws, account.id, day.period)) {
            if (h.day_seq > place) break;
            place += 1;
            hiddenNetBefore += Number(h.net_cents);
          }
        }
        const rows = await accountLinePage(trx, { workspaceId: ws, accountId: account.id, register, day: day.period, place, end, take: pg.take });
        const first = rows[0];
        // Places are dense per account × day; anything else is a bug worth failing loudly on.
        if (!first || first.entry_date !== day.period || first.day_seq !== place)
          throw new Error(`ledger positions out of step for account ${account.id} on ${day.period}`);
        let running = before + normal(Number(first.day_net_before) - hiddenNetBefore, 0);
        const bank = input.fetchBankAccountTransaction
          ? await bankTransactionsOf(
              trx,
              rows.map((r) => r.transaction_id),
            )
          : new Map<string, BankTransactionView>();
        for (const r of rows) {
          const debit = r.direction === 'debit' ? r.amount_cents : 0;
          const credit = r.direction === 'credit' ? r.amount_cents : 0;
          const amount = normal(debit, credit);
          running += amount;
          data.push({
            id: String(r.id),
            date: r.entry_date,
            description: r.description,
            journalEntryId: r.entry_id,
            transactionId: r.transaction_id ?? '',
            debitCents: debit,
            creditCents: credit,
            ledgerAmountCents: amount,
            ledgerRunningBalanceCents: running,
            isOpeningBalance: r.source_type === 'OpeningBalance',
            sourceType: r.source_type,
            counterAccount: r.counter_account ?? '',
            bankTransaction: (r.transaction_id && bank.get(r.transaction_id)) || null,
            isYearEndClose: false,
          });
        }
      }
      return { data, meta: pageMeta(pg, itemCount), openingBalanceCents: opening };
    });
  }

  /**
   * The Retained Earnings ledger: its booked lines and one virtual closing line per closed fiscal year
   * (dated the year's last day, after that day's booked lines, `isYearEndClose`), merged in memory —
   * the account has few lines (year-end closes and the odd manual posting) — with the closes before
   * `start` in the opening balance, then running balances, paging and the count over both.
   */
  private async retainedEarningsPage(
    trx: Knex.Transaction,
    account: AccountRow,
    input: LedgerTransactionsInput,
    r: { start: string; end: string; pg: Paging; opening: number },
  ) {
    const fiscal = await fiscalContext(trx, input.endDate);
    const opening = r.opening + fiscal.closes.filter((c) => c.fiscalYear.end < r.start).reduce((t, c) => t + c.netCents, 0);
    const rows = await accountLinesBetween(trx, account.id, r.start, r.end);
    type Item = { date: string; line?: LineRow; close?: YearEndClose };
    const items: Item[] = rows.map((line) => ({ date: line.entry_date, line }));
    for (const close of fiscal.closes) if (close.fiscalYear.end >= r.start && close.fiscalYear.end <= r.end) items.push({ date: close.fiscalYear.end, close });
    // Stable: a closing line after the booked lines of its day.
    items.sort((a, b) => (a.date === b.date ? Number(!!a.close) - Number(!!b.close) : a.date < b.date ? -1 : 1));
    const skip = (r.pg.page - 1) * r.pg.take;
    const page = items.slice(skip, skip + r.pg.take);
    const bank = input.fetchBankAccountTransaction
      ? await bankTransactionsOf(
          trx,
          page.map((i) => i.line?.transaction_id ?? null),
        )
      : new Map<string, BankTransactionView>();
    let running = opening;
    const data: LedgerLineView[] = [];
    if (r.pg.page === 1)
      data.push({
        id: '',
        date: r.start === MIN_DATE ? '' : r.start,
        description: 'Opening balance',
        journalEntryId: '',
        transactionId: '',
        debitCents: 0,
        creditCents: 0,
        ledgerAmountCents: 0,
        ledgerRunningBalanceCents: opening,
        isOpeningBalance: true,
        sourceType: 'OpeningBalance',
        counterAccount: '',
        bankTransaction: null,
        isYearEndClose: false,
      });
    for (const [i, it] of items.slice(0, skip + r.pg.take).entries()) {
      let view: LedgerLineView;
      if (it.close) {
        const net = it.close.netCents;
        view = {
          id: `year-end-close-${it.close.fiscalYear.name}`,
          date: it.date,
          description: closingDescription(it.close.fiscalYear),
          journalEntryId: '',
          transactionId: '',
          debitCents: net < 0 ? -net : 0,
          creditCents: net > 0 ? net : 0,
          ledgerAmountCents: net,
          ledgerRunningBalanceCents: 0,
          isOpeningBalance: false,
          sourceType: 'YearEndClose',
          counterAccount: 'Income and expense accounts',
          bankTransaction: null,
          isYearEndClose: true,
        };
      } else {
        const l = it.line as LineRow;
        const debit = l.direction === 'debit' ? l.amount_cents : 0;
        const credit = l.direction === 'credit' ? l.amount_cents : 0;
        view = {
          id: String(l.id),
          date: l.entry_date,
          description: l.description,
          journalEntryId: l.entry_id,
          transactionId: l.transaction_id ?? '',
          debitCents: debit,
          creditCents: credit,
          ledgerAmountCents: normalBalance(account.class_group, debit, credit),
          ledgerRunningBalanceCents: 0,
          isOpeningBalance: l.source_type === 'OpeningBalance',
          sourceType: l.source_type,
          counterAccount: l.counter_account ?? '',
          bankTransaction: (l.transaction_id && bank.get(l.transaction_id)) || null,
          isYearEndClose: false,
        };
      }
      running += view.ledgerAmountCents;
      view.ledgerRunningBalanceCents = running;
      if (i >= skip) data.push(view);
    }
    return { data, meta: pageMeta(r.pg, items.length), openingBalanceCents: opening };
  }
}
