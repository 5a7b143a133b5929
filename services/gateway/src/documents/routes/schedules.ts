import { centsToDollars, isBusinessDate, isReversedRange, isUuid } from '@ledgerline/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authOf, READ } from '../../http/auth.js';
import { HttpError } from '../../http/errors.js';
import { addSchemas } from '../../http/hardening.js';
import { BEARER, ref, responses, WORKSPACE_HEADER_SCHEMA } from '../../http/schemas.js';
import type { FixedAssetsClient } from '../client.js';
import type { LedgerClient } from '../../ledger/client.js';
import {
  AccountRefSchema,
  CalendarAnswerSchema,
  type ScheduleKind,
  ScheduleLineSchema,
  ScheduleQuerySchema,
  SchedulesAnswerSchema,
  ScheduleSchema,
} from '../schemas.js';

const KEYS: Record<string, ScheduleKind> = {
  prepaid_expenses: 'Prepaid Expenses',
  deferred_revenue: 'Deferred Revenue',
  accumulated_depreciation: 'Accumulated Depreciation',
};
const PAGE = 100;
const MAX_PAGES = 100;

interface Query {
  ledgerAccount?: string;
  startDate?: string;
  endDate?: string;
}
interface Line {
  date: string;
  description: string;
  amountCents: number;
  runningCents: number;
  journalEntryId: string;
  transactionId: string;
  sourceType: string;
  scheduled: boolean;
}
interface Composed {
  account: { id: string; name: string; coaId: number };
  kind: ScheduleKind;
  openingCents: number;
  lines: Line[];
}

/** The range asked, else this calendar year; a bad one is the 400 naming its field. */
function rangeOf(q: Query, today = new Date().toISOString().slice(0, 10)): { startDate: string; endDate: string } {
  const fields = [];
  if (q.startDate && !isBusinessDate(q.startDate)) fields.push({ field: 'startDate', message: 'startDate must be a date (YYYY-MM-DD)' });
  if (q.endDate && !isBusinessDate(q.endDate)) fields.push({ field: 'endDate', message: 'endDate must be a date (YYYY-MM-DD)' });
  if (q.ledgerAccount && !isUuid(q.ledgerAccount)) fields.push({ field: 'ledgerAccount', message: 'ledgerAccount must be a UUID' });
  if (fields.length > 0) throw HttpError.invalid(fields);
  const startDate = q.startDate || `${today.slice(0, 4)}-01-01`;
  const endDate = q.endDate || `${(q.startDate || today).slice(0, 4)}-12-31`;
  if (isReversedRange(startDate, endDate)) throw HttpError.invalid([{ field: 'endDate', message: 'endDate cannot be before startDate' }]);
  return { startDate, endDate };
}

/** The schedules of the range: each account's lines from the ledger, depreciation months to come from the documents service. */
async function compose(
  ledger: LedgerClient,
  assets: FixedAssetsClient,
  q: Query,
  opts: { headers: Record<string, string> },
): Promise<{ startDate: string; endDate: string; schedules: Composed[] }> {
  const { startDate, endDate } = rangeOf(q);
  const chart = (await ledger.getChartOfAccounts({ endDate }, opts)).chartOfAccounts;
  const kindOf = (a: (typeof chart)[number]): ScheduleKind =>
    KEYS[a.systemKey] ?? (a.coaId === 15300 && a.name === 'Accumulated Depreciation' ? 'Accumulated Depreciation' : 'Other');
  let accounts = chart.filter((a) => kindOf(a) !== 'Other' && a.level >= 3);
  // An Accumulated Depreciation keyed by the ledger wins over the default chart's unkeyed one.
  if (accounts.some((a) => a.systemKey === 'accumulated_depreciation'))
    accounts = accounts.filter((a) => kindOf(a) !== 'Accumulated Depreciation' || a.systemKey === 'accumulated_depreciation');
  if (q.ledgerAccount) {
    const one = chart.find((a) => a.id === q.ledgerAccount);
    if (!one) throw new HttpError(404, 'NOT_FOUND', 'Ledger account not found', [{ field: 'ledgerAccount', message: 'Ledger account not found' }]);
    accounts = [one];
  }
  const depreciation = accounts.some((a) => kindOf(a) === 'Accumulated Depreciation')
    ? (await assets.listDepreciation({ startDate, endDate }, opts)).months
    : [];
  const schedules: Composed[] = [];
  for (const a of accounts) {
    const lines: Line[] = [];
    let openingCents = 0;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const r = await ledger.getLedgerTransactions({ ledgerAccountId: a.id, startDate, endDate, page, take: PAGE }, opts);
      for (const l of r.data) {
        if (l.isOpeningBalance) {
          openingCents = Number(l.ledgerRunningBalanceCents);
          continue;
        }
        lines.push({
          date: l.date,
          description: l.description,
          amountCents: Number(l.ledgerAmountCents),
          runningCents: Number(l.ledgerRunningBalanceCents),
          journalEntryId: l.journalEntryId,
          transactionId: l.transactionId,
          sourceType: l.sourceType,
          scheduled: false,
        });
      }
      if (!r.meta?.hasNextPage) break;
    }
    const kind = kindOf(a);
    if (kind === 'Accumulated Depreciation') {
      // Contra asset: the ledger's balance is debit-normal (negative); the schedule shows what is accumulated.
      for (const l of lines) {
        l.amountCents = -l.amountCents;
        l.runningCents = -l.runningCents;
      }
      openingCents = -openingCents;
      let running = lines.at(-1)?.runningCents ?? openingCents;
      for (const m of depreciation.filter((d) => !d.isDepreciated)) {
        running += Number(m.amountCents);
        lines.push({
          date: m.date,
          description: `Depreciation: ${m.description || 'fixed asset'} (${m.date.slice(0, 7)})`,
          amountCents: Number(m.amountCents),
          runningCents: running,
          journalEntryId: '',
          transactionId: '',
          sourceType: 'FixedAsset',
          scheduled: true,
        });
      }
    }
    schedules.push({ account: { id: a.id, name: a.name, coaId: a.coaId }, kind, openingCents, lines });
  }
  return { startDate, endDate, schedules };
}

const d = (c: number) => centsToDollars(BigInt(c));
const refOf = (s: Composed) => s.account;
const balanceOf = (s: Composed) => s.lines.filter((l) => !l.scheduled).at(-1)?.runningCents ?? s.openingCents;

/** Months from start to end, YYYY-MM. */
function monthsOf(startDate: string, endDate: string): string[] {
  const out: string[] = [];
  let y = Number(startDate.slice(0, 4));
  let m = Number(startDate.slice(5, 7));
  const last = endDate.slice(0, 7);
  for (;;) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    if (key > last || out.length > 1200) return out;
    out.push(key);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
}

export async function registerScheduleRoutes(app: FastifyInstance, { ledger, assets }: { ledger: LedgerClient; assets: FixedAssetsClient }): Promise<void> {
  addSchemas(app, [ScheduleLineSchema, AccountRefSchema, ScheduleSchema, SchedulesAnswerSchema, CalendarAnswerSchema]);
  const headers = (req: FastifyRequest) => ({ headers: authOf(req).rpcHeaders });
  const common = { tags: ['schedules'], security: BEARER, headers: WORKSPACE_HEADER_SCHEMA, querystring: ScheduleQuerySchema };

  app.get<{ Querystring: Query }>(
    '/accounting/schedules',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listSchedules',
        summary: 'Deferred revenue, prepaid expenses and depreciation schedules: each account with txnCount, runningBalance and its lines',
        response: responses(200, ref(SchedulesAnswerSchema)),
      },
    },
    async (req) => {
      const r = await compose(ledger, assets, req.query, headers(req));
      return {
        startDate: r.startDate,
        endDate: r.endDate,
        data: r.schedules.map((s) => ({
          ledgerAccount: refOf(s),
          kind: s.kind,
          txnCount: s.lines.filter((l) => !l.scheduled).length,
          openingBalance: d(s.openingCents),
          runningBalance: d(balanceOf(s)),
          lines: s.lines.map((l) => ({
            date: l.date,
            description: l.description,
            amount: d(l.amountCents),
            runningBalance: d(l.runningCents),
            journalEntryId: l.journalEntryId,
            transactionId: l.transactionId,
            sourceType: l.sourceType,
            scheduled: l.scheduled,
          })),
        })),
      };
    },
  );

  app.get<{ Querystring: Query }>(
    '/accounting/schedules-calendar',
    {
      config: READ,
      schema: {
        ...common,
        operationId: 'listSchedulesCalendar',
        summary: "The schedules month by month: what each account releases (or will) in each month and its balance at the month's end",
        response: responses(200, ref(CalendarAnswerSchema)),
      },
    },
    async (req) => {
      const r = await compose(ledger, assets, req.query, headers(req));
      return {
        startDate: r.startDate,
        endDate: r.endDate,
        months: monthsOf(r.startDate, r.endDate).map((month) => ({
          month,
          schedules: r.schedules.map((s) => {
            const inMonth = s.lines.filter((l) => l.date.slice(0, 7) === month);
            const booked = inMonth.filter((l) => !l.scheduled);
            const upTo = s.lines.filter((l) => l.date.slice(0, 7) <= month).at(-1);
            return {
              ledgerAccount: refOf(s),
              kind: s.kind,
              amount: d(booked.reduce((t, l) => t + l.amountCents, 0)),
              scheduledAmount: d(inMonth.filter((l) => l.scheduled).reduce((t, l) => t + l.amountCents, 0)),
              txnCount: booked.length,
              runningBalance: d(upTo?.runningCents ?? s.openingCents),
            };
          }),
        })),
      };
    },
  );
}
