import { AppError } from '@ledgerline/platform';
import { normalBalance } from '../domain/chart.js';
import { addMonths, MAX_DATE, MIN_DATE, monthEnd, monthStart } from '../domain/dates.js';
import { MSG } from '../domain/messages.js';
import { pageMeta, paging, Problems } from '../domain/validation.js';
import { accountDays, accountMonths, sumBefore, sumRange, sumsOf, type PeriodRow } from '../store/balances.js';
import { bankTransactionsOf, type BankTransactionView } from '../store/bank-transactions.js';
import { accountById, allAccounts } from '../store/chart-store.js';
import { inWorkspace, type LedgerDeps, type Tenant } from './context.js';

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
}

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

interface LineRow {
  id: number;
  entry_date: string;
  day_seq: number;
  day_net_before: number;
  direction: string;
  amount_cents: number;
  entry_id: string;
  transaction_id: string | null;
  description: string;
  source_type: string;
  counter_account: string | null;
}

export class GeneralLedgerUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  /** Every account with lines or a balance: opening balance, debits, credits and closing balance of the period. */
  generalLedger(tenant: Tenant, startDate: string, endDate: string) {
    const p = new Problems();
    const { start, end } = range(p, startDate, endDate);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const accounts = await allAccounts(trx);
      const before = await sumBefore(trx, start);
      const during = await sumRange(trx, start, end);
      return accounts
        .map((a) => {
          const b = sumsOf(before, a.id);
          const d = sumsOf(during, a.id);
          const opening = normalBalance(a.class_group, b.debit, b.credit);
          return { account: a, openingBalanceCents: opening, debitCents: d.debit, creditCents: d.credit, closingBalanceCents: opening + normalBalance(a.class_group, d.debit, d.credit), lines: b.count + d.count };
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
      if (!account) throw AppError.notFound('Ledger account');
      const normal = (d: number, c: number) => normalBalance(account.class_group, d, c);
      const openingSums = sumsOf(await sumBefore(trx, start, account.id), account.id);
      const opening = normal(openingSums.debit, openingSums.credit);

      // Steps over [start, end]: days of a partial first month, whole months, days of a partial last month.
      type Step = PeriodRow & { month: boolean };
      const days = async (from: string, to: string): Promise<Step[]> => (await accountDays(trx, ws, account.id, from, to)).map((r) => ({ ...r, month: false }));
      const steps: Step[] = [];
      const sameMonth = monthStart(start) === monthStart(end);
      const startsWhole = start === monthStart(start);
      const endsWhole = end === MAX_DATE || end === monthEnd(end);
      if (sameMonth && !(startsWhole && endsWhole)) {
        steps.push(...(await days(start, end)));
      } else {
        if (!startsWhole) steps.push(...(await days(start, monthEnd(start))));
        const months = await accountMonths(trx, ws, account.id, startsWhole ? start : addMonths(start, 1), endsWhole ? monthStart(end) : addMonths(end, -1));
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
        data.push({ id: '', date: start === MIN_DATE ? '' : start, description: 'Opening balance', journalEntryId: '', transactionId: '', debitCents: 0, creditCents: 0, ledgerAmountCents: 0, ledgerRunningBalanceCents: opening, isOpeningBalance: true, sourceType: 'OpeningBalance', counterAccount: '', bankTransaction: null });
      }
      if (day) {
        const place = skip - passed; // lines of `day` before the page
        const rows = (await trx.raw(
          `select l.id, l.entry_date, l.day_seq, l.day_net_before, l.direction, l.amount_cents, l.entry_id, l.transaction_id, e.description, e.source_type,
                  -- The account's name by its key for each other line: joined instead, the planner hashed the whole chart once per line (5× the page's time).
                  (select string_agg(distinct (select a.name from accounts a where a.id = l2.account_id), ', ') from journal_lines l2
                    where l2.entry_id = l.entry_id and l2.account_id <> l.account_id) as counter_account
           from journal_lines l join journal_entries e on e.id = l.entry_id
           where l.workspace_id = ? and l.account_id = ? and (l.entry_date, l.day_seq) > (?::date, ?) and l.entry_date <= ?
           order by l.entry_date, l.day_seq limit ?`,
          [ws, account.id, day.period, place, end, pg.take],
        )).rows as LineRow[];
        const first = rows[0];
        // Places are dense per account × day; anything else is a bug worth failing loudly on.
        if (!first || first.entry_date !== day.period || first.day_seq !== place + 1) throw new Error(`ledger positions out of step for account ${account.id} on ${day.period}`);
        let running = before + normal(first.day_net_before, 0);
        const bank = input.fetchBankAccountTransaction ? await bankTransactionsOf(trx, rows.map((r) => r.transaction_id)) : new Map<string, BankTransactionView>();
        for (const r of rows) {
          const debit = r.direction === 'debit' ? r.amount_cents : 0;
          const credit = r.direction === 'credit' ? r.amount_cents : 0;
          const amount = normal(debit, credit);
          running += amount;
          data.push({ id: String(r.id), date: r.entry_date, description: r.description, journalEntryId: r.entry_id, transactionId: r.transaction_id ?? '', debitCents: debit, creditCents: credit, ledgerAmountCents: amount, ledgerRunningBalanceCents: running, isOpeningBalance: r.source_type === 'OpeningBalance', sourceType: r.source_type, counterAccount: r.counter_account ?? '', bankTransaction: (r.transaction_id && bank.get(r.transaction_id)) || null });
        }
      }
      return { data, meta: pageMeta(pg, itemCount), openingBalanceCents: opening };
    });
  }
}
