import { AppError } from '@ledgerline/platform';
import { normalBalance } from '../domain/chart.js';
import { MAX_DATE, MIN_DATE, monthEnd, monthStart } from '../domain/dates.js';
import { MSG } from '../domain/messages.js';
import { pageMeta, paging, Problems } from '../domain/validation.js';
import { sumBefore, sumRange, sumsOf } from '../store/balances.js';
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
}

function range(p: Problems, startDate: string, endDate: string) {
  p.date('startDate', startDate);
  p.date('endDate', endDate);
  if (startDate && endDate && startDate > endDate && p.fields.length === 0) p.add('startDate', MSG.dateOrder);
  return { start: startDate || MIN_DATE, end: endDate || MAX_DATE };
}

interface Segment {
  from: string;
  to: string;
  count: number;
  debit: number;
  credit: number;
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

  /**
   * One account's lines in date order with running balances. A page is found through the monthly
   * balances (line counts and sums per month), then read with a bounded offset inside one month, so
   * page 500 costs about what page 1 does; the balance before the page comes from the same sums.
   */
  ledgerTransactions(tenant: Tenant, input: { ledgerAccountId: string; startDate: string; endDate: string; page?: number; take?: number }) {
    const p = new Problems();
    p.uuid('ledgerAccountId', input.ledgerAccountId, { required: true });
    const { start, end } = range(p, input.startDate, input.endDate);
    const pg = paging(p, input.page, input.take);
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const account = await accountById(trx, input.ledgerAccountId);
      if (!account) throw AppError.notFound('Ledger account');
      const normal = (d: number, c: number) => normalBalance(account.class_group, d, c);
      const openingSums = sumsOf(await sumBefore(trx, start, account.id), account.id);
      const opening = normal(openingSums.debit, openingSums.credit);

      // Segments: a partial first month, whole months (from the monthly table), a partial last month.
      const segments: Segment[] = [];
      const partial = async (from: string, to: string) => {
        const s = sumsOf(await sumRange(trx, from, to, account.id), account.id);
        if (s.count > 0) segments.push({ from, to, count: s.count, debit: s.debit, credit: s.credit });
      };
      const sameMonth = monthStart(start) === monthStart(end);
      const startsWhole = start === monthStart(start);
      const endsWhole = end === MAX_DATE || end === monthEnd(end);
      if (sameMonth && !(startsWhole && endsWhole)) {
        await partial(start, end);
      } else {
        if (!startsWhole) await partial(start, monthEnd(start));
        const months = (await trx('account_balances').where({ account_id: account.id })
          .where('month', startsWhole ? '>=' : '>', monthStart(start))
          .where('month', endsWhole ? '<=' : '<', monthStart(end))
          .where('line_count', '>', 0).orderBy('month')) as { month: string; debit_cents: number; credit_cents: number; line_count: number }[];
        for (const m of months) segments.push({ from: m.month, to: monthEnd(m.month), count: m.line_count, debit: m.debit_cents, credit: m.credit_cents });
        if (!endsWhole) await partial(monthStart(end), end);
      }
      const itemCount = segments.reduce((n, s) => n + s.count, 0);
      const skip = (pg.page - 1) * pg.take;
      let before = opening;
      let cum = 0;
      let seg: Segment | undefined;
      for (const s of segments) {
        if (cum + s.count > skip) {
          seg = s;
          break;
        }
        cum += s.count;
        before += normal(s.debit, s.credit);
      }
      const data: LedgerLineView[] = [];
      if (pg.page === 1) {
        data.push({ id: '', date: start === MIN_DATE ? '' : start, description: 'Opening balance', journalEntryId: '', transactionId: '', debitCents: 0, creditCents: 0, ledgerAmountCents: 0, ledgerRunningBalanceCents: opening, isOpeningBalance: true, sourceType: 'OpeningBalance', counterAccount: '' });
      }
      if (seg) {
        const offsetIn = skip - cum;
        if (offsetIn > 0) {
          const r = (await trx.raw(
            `select coalesce(sum(amount_cents) filter (where direction = 'debit'), 0)::bigint as d, coalesce(sum(amount_cents) filter (where direction = 'credit'), 0)::bigint as c
             from (select direction, amount_cents from journal_lines where account_id = ? and entry_date >= ? and entry_date <= ? order by entry_date, id limit ?) x`,
            [account.id, seg.from < start ? start : seg.from, seg.to > end ? end : seg.to, offsetIn],
          )).rows[0] as { d: number; c: number };
          before += normal(r.d, r.c);
        }
        const rows = (await trx.raw(
          `select l.id, l.entry_date, l.direction, l.amount_cents, l.entry_id, l.transaction_id, e.description, e.source_type,
                  (select string_agg(distinct a.name, ', ') from journal_lines l2 join accounts a on a.id = l2.account_id
                    where l2.entry_id = l.entry_id and l2.account_id <> l.account_id) as counter_account
           from journal_lines l join journal_entries e on e.id = l.entry_id
           where l.account_id = ? and l.entry_date >= ? and l.entry_date <= ?
           order by l.entry_date, l.id offset ? limit ?`,
          [account.id, seg.from < start ? start : seg.from, end, offsetIn, pg.take],
        )).rows as { id: number; entry_date: string; direction: string; amount_cents: number; entry_id: string; transaction_id: string | null; description: string; source_type: string; counter_account: string | null }[];
        let running = before;
        for (const r of rows) {
          const debit = r.direction === 'debit' ? r.amount_cents : 0;
          const credit = r.direction === 'credit' ? r.amount_cents : 0;
          const amount = normal(debit, credit);
          running += amount;
          data.push({ id: String(r.id), date: r.entry_date, description: r.description, journalEntryId: r.entry_id, transactionId: r.transaction_id ?? '', debitCents: debit, creditCents: credit, ledgerAmountCents: amount, ledgerRunningBalanceCents: running, isOpeningBalance: false, sourceType: r.source_type, counterAccount: r.counter_account ?? '' });
        }
      }
      return { data, meta: pageMeta(pg, itemCount), openingBalanceCents: opening };
    });
  }
}
