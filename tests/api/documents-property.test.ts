// Property (issue #18 "Must show"): random sequences of create / edit (PUT) / void / delete / recur on bills, invoices
// and manual journals, bills and invoices connecting bank transactions as payments and vendor credits / credit memos applied, through the gateway, keep the books
// balanced (trial balance zero), Accounts Payable equal to the open bills less the bank transactions paying them,
// Accounts Receivable likewise for invoices, every document's current entry
// equal to its current lines, every payment status equal to the reference computation, and the P&L equal to the
// ledger's lines (report-oracle.ts). Whole stack: gateway → documents → parties / ledger → reporting.
import { expectEventually } from '@ledgerline/platform/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  accountOfKey,
  bankTransactions,
  categoryIds,
  debitBalance,
  linesOf,
  newCustomer,
  newVendor,
  startDocumentsSystem,
  type DocumentsSystem,
} from './documents.harness.js';
import { accountRows, cents, expected, lineSums, type Row } from './report-oracle.js';

let s: DocumentsSystem;
beforeAll(async () => {
  s = await startDocumentsSystem('documents-property');
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

type Kind = 'bill' | 'invoice' | 'manual_entry';
const EXPENSES = ['Office Supplies', 'Travel', 'Rent'] as const;
const INCOME = ['Sales', 'Service Revenue'] as const;
const PATHS: Record<Kind, { one: string; key: string; create: string }> = {
  bill: { one: '/accounting/bill', key: 'bill', create: '/accounting/bill/v2' },
  invoice: { one: '/accounting/invoice', key: 'invoice', create: '/accounting/invoice/v2' },
  manual_entry: { one: '/accounting/manual-entry', key: 'manualEntry', create: '/accounting/manual-entry/v2' },
};

interface Line {
  cat: number;
  cents: number;
  qty: number;
}
/** A payment: which of the tenant's bank transactions (index), and what share of it (percent) it pays. */
interface Pay {
  txn: number;
  share: number;
}
type Op =
  | { op: 'create'; kind: Kind; day: number; lines: Line[]; pay: Pay | null }
  | { op: 'edit'; pick: number; day: number; lines: Line[]; pay: Pay | null }
  | { op: 'void'; pick: number }
  | { op: 'delete'; pick: number }
  /** Recur monthly from the document's own date, `count` dates in all (in the past: the scheduler catches them up). */
  | { op: 'recur'; pick: number; count: number }
  /** A vendor credit (for a bill) or credit memo (for an invoice) of `cents`, applied with `share` percent of it. */
  | { op: 'credit'; pick: number; cents: number; share: number };

const linesArb = fc.array(fc.record({ cat: fc.nat(5), cents: fc.integer({ min: 1, max: 500_000 }), qty: fc.integer({ min: 1, max: 4 }) }), {
  minLength: 1,
  maxLength: 3,
});
const payArb = fc.option(fc.record({ txn: fc.nat(5), share: fc.integer({ min: 1, max: 100 }) }), { nil: null });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('create' as const),
      kind: fc.constantFrom<Kind>('bill', 'invoice', 'manual_entry'),
      day: fc.integer({ min: 1, max: 28 }),
      lines: linesArb,
      pay: payArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('edit' as const), pick: fc.nat(), day: fc.integer({ min: 1, max: 28 }), lines: linesArb, pay: payArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('void' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('recur' as const), pick: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('credit' as const),
      pick: fc.nat(),
      cents: fc.integer({ min: 1, max: 300_000 }),
      share: fc.integer({ min: 1, max: 100 }),
    }),
  },
);

interface Doc {
  id: string;
  kind: Kind;
  totalCents: number;
  state: 'open' | 'voided' | 'deleted';
  version: number;
  payment: { txn: number; cents: number } | null;
  date: string;
  /** A document a recurrence made (it cannot recur itself); a template's dates handled so far. */
  made: boolean;
  claimed: Set<string>;
  /** The body it was last saved with (a credit's PUT sends it again), and the credit applied to it. */
  day: number;
  lines: Line[];
  credit: { id: string; cents: number } | null;
}

/** The reference month step (days 1–28 only, so no month-end clamping here): YYYY-MM-DD plus k months. */
const plusMonths = (date: string, k: number) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const months = y * 12 + (m - 1) + k;
  return `${Math.floor(months / 12)}-${String((months % 12) + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

/** The reference payment status (spec §3, §9): written out here, apart from the service's rule. */
function referenceStatus(total: number, paid: number): string {
  if (paid === 0) return 'UNPAID';
  if (paid >= total - 1 && paid <= total + 1) return 'PAID';
  return paid > total ? 'OVERPAID' : 'PARTIALLY_PAID';
}
// Three money-out transactions (for bills) and three money-in (for invoices), per run.
const TXN_CENTS = [-250_000, -120_050, -999, 300_000, 45_075, 1_001];

it('random create / edit / void / delete / connect-payment / apply-credit sequences keep the books balanced, AP and AR = open documents less their payments, payment statuses = reference, P&L = ledger', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 3, maxLength: 12 }), fc.constantFrom('03', '04', '05'), async (ops, month) => {
      const tn = s.tenant();
      const c = await categoryIds(s, tn);
      const vendor = await newVendor(s, tn);
      const customer = await newCustomer(s, tn);
      const date = (d: number) => `2026-${month}-${String(d).padStart(2, '0')}`;
      const docs: Doc[] = [];
      /** Every vendor credit / credit memo made (each is posted: it moves AP / AR whether applied or not). */
      const credits: { kind: 'bill' | 'invoice'; cents: number }[] = [];
      let lastSeq = 0;
      const txnIds = await bankTransactions(s, tn, TXN_CENTS);

      /** The payment a bill (money out: transactions 0–2) or invoice (money in: 3–5) can take: none when that transaction pays another live document. */
      const paymentFor = (kind: Kind, pay: Pay | null, self: Doc | null): { txn: number; cents: number } | null => {
        if (!pay || kind === 'manual_entry') return null;
        const txn = (kind === 'bill' ? 0 : 3) + (pay.txn % 3);
        if (docs.some((d) => d !== self && d.state === 'open' && d.payment?.txn === txn)) return null;
        return { txn, cents: Math.max(1, Math.floor((Math.abs(TXN_CENTS[txn]!) * pay.share) / 100)) };
      };
      const body = (kind: Kind, day: number, lines: Line[], payment: { txn: number; cents: number } | null) => {
        const connectedTransactions = payment ? [{ id: txnIds[payment.txn], amount: payment.cents / 100 }] : [];
        if (kind === 'bill')
          return {
            billDate: date(day),
            vendorId: vendor.id,
            lineItems: lines.map((l) => ({ serviceName: 'Item', categoryId: c[EXPENSES[l.cat % EXPENSES.length]!], amount: l.cents / 100 })),
            connectedTransactions,
          };
        if (kind === 'invoice') {
          // amount = quantity × rate exactly: the rate is the line's cents, the amount qty times it.
          return {
            invoiceDate: date(day),
            customerId: customer.id,
            lineItems: lines.map((l) => ({
              serviceName: 'Work',
              categoryId: c[INCOME[l.cat % INCOME.length]!],
              quantity: l.qty,
              rate: l.cents / 100,
              amount: (l.qty * l.cents) / 100,
            })),
            connectedTransactions,
          };
        }
        // A manual journal: each line an expense debited against an income credited, so it balances.
        return {
          postingDate: date(day),
          memo: 'Adjustment',
          lineItems: lines.flatMap((l) => [
            { categoryId: c[EXPENSES[l.cat % EXPENSES.length]!], type: 'debit', amount: l.cents / 100 },
            { categoryId: c[INCOME[l.cat % INCOME.length]!], type: 'credit', amount: l.cents / 100 },
          ]),
        };
      };
      const totalOf = (kind: Kind, lines: Line[]) => lines.reduce((sum, l) => sum + (kind === 'invoice' ? l.qty * l.cents : l.cents), 0);
      const live = () => docs.filter((d) => d.state !== 'deleted');

      for (const op of ops) {
        if (op.op === 'create') {
          const payment = paymentFor(op.kind, op.pay, null);
          const r = await s.api('POST', PATHS[op.kind].create, { tenant: tn, body: body(op.kind, op.day, op.lines, payment) });
          expect(r.status, JSON.stringify(r.body)).toBe(201);
          docs.push({
            id: r.body[PATHS[op.kind].key].id,
            kind: op.kind,
            totalCents: totalOf(op.kind, op.lines),
            state: 'open',
            version: 1,
            payment,
            date: date(op.day),
            made: false,
            claimed: new Set(),
            day: op.day,
            lines: op.lines,
            credit: null,
          });
          lastSeq = Math.max(lastSeq, r.body.seq);
          continue;
        }
        const candidates = live();
        if (candidates.length === 0) continue;
        const d = candidates[op.pick % candidates.length]!;
        const p = PATHS[d.kind];
        if (op.op === 'recur') {
          const r = await s.api('POST', `${p.one}/recur/${d.id}`, { tenant: tn, body: { recurringStartDate: d.date, recurringCount: op.count } });
          if (d.state === 'voided' || d.made) {
            expect(r.status, JSON.stringify(r.body)).toBe(409);
            continue;
          }
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          await s.documents.scheduler.runOnce();
          // The reference: every date of the schedule not handled before; the template's own date is the template.
          const fresh: string[] = [];
          for (let k = 0; k < op.count; k += 1) {
            const day = plusMonths(d.date, k);
            if (d.claimed.has(day)) continue;
            d.claimed.add(day);
            if (day !== d.date) fresh.push(day);
          }
          const got = await s.api('GET', `${p.one}/${d.id}`, { tenant: tn });
          const schedule = got.body.recurrence.recurringSchedule as { recurrenceDate: string; isRecurred: boolean; documentId: string }[];
          const known = new Set(docs.map((x) => x.id));
          const made = schedule.filter((x) => x.isRecurred && x.documentId !== d.id && !known.has(x.documentId));
          expect(made.map((x) => x.recurrenceDate).sort()).toEqual(fresh.sort());
          for (const x of made)
            docs.push({
              id: x.documentId,
              kind: d.kind,
              totalCents: d.totalCents,
              state: 'open',
              version: 1,
              payment: null,
              date: x.recurrenceDate,
              made: true,
              claimed: new Set(),
              day: d.day,
              lines: d.lines,
              credit: null,
            });
          continue;
        }
        if (op.op === 'credit') {
          // A document a recurrence made keeps its own date; re-sending the template's body would change it.
          if (d.kind === 'manual_entry' || d.made) continue;
          const made =
            d.kind === 'bill'
              ? await s.api('POST', '/vendors/vendor-credit', {
                  tenant: tn,
                  body: {
                    paymentDate: date(1),
                    vendorId: vendor.id,
                    lineItems: [{ description: 'Credit', categoryId: c[EXPENSES[0]], amount: op.cents / 100 }],
                  },
                })
              : await s.api('POST', '/customers/credit-memo', {
                  tenant: tn,
                  body: {
                    paymentDate: date(1),
                    customerId: customer.id,
                    lineItems: [{ description: 'Credit', categoryId: c[INCOME[0]], amount: op.cents / 100 }],
                  },
                });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
          credits.push({ kind: d.kind, cents: op.cents });
          lastSeq = Math.max(lastSeq, made.body.seq);
          const credit = {
            id: (d.kind === 'bill' ? made.body.vendorCredit.id : made.body.creditMemo.id) as string,
            cents: Math.max(1, Math.floor((op.cents * op.share) / 100)),
          };
          const list = d.kind === 'bill' ? 'connectedVendorCredits' : 'connectedCreditMemos';
          const r = await s.api('PUT', `${p.one}/${d.id}`, {
            tenant: tn,
            body: { ...body(d.kind, d.day, d.lines, d.payment), [list]: [{ id: credit.id, amount: credit.cents / 100 }] },
          });
          if (d.state === 'voided') {
            expect(r.status).toBe(409);
            continue;
          }
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          // Only the connection changed: no new version, nothing posted.
          expect(r.body.seq).toBe(0);
          expect(r.body[p.key].version).toBe(d.version);
          d.credit = credit;
          continue;
        }
        if (op.op === 'edit') {
          const payment = paymentFor(d.kind, op.pay, d);
          const r = await s.api('PUT', `${p.one}/${d.id}`, { tenant: tn, body: body(d.kind, op.day, op.lines, payment) });
          if (d.state === 'voided') {
            expect(r.status).toBe(409);
            continue;
          }
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          d.totalCents = totalOf(d.kind, op.lines);
          d.payment = payment;
          d.date = date(op.day);
          // The PUT's body lists no credits: the whole set is none now.
          d.credit = null;
          d.version = r.body[p.key].version;
          d.day = op.day;
          d.lines = op.lines;
          lastSeq = Math.max(lastSeq, r.body.seq);
        } else if (op.op === 'void') {
          const r = await s.api('POST', `${p.one}/void/${d.id}`, { tenant: tn });
          expect(r.status).toBe(200);
          expect(r.body[p.key].status).toBe('Voided');
          d.state = 'voided';
          d.payment = null;
          d.credit = null;
          lastSeq = Math.max(lastSeq, r.body.seq);
        } else {
          const r = await s.api('DELETE', `${p.one}/${d.id}`, { tenant: tn });
          expect(r.status).toBe(200);
          d.state = 'deleted';
          d.payment = null;
          d.credit = null;
          lastSeq = Math.max(lastSeq, r.body.seq);
          expect((await s.api('GET', `${p.one}/${d.id}`, { tenant: tn })).status).toBe(404);
        }
      }

      // Every bank transaction is linked to the open document paying it, or to none.
      for (const [i, id] of txnIds.entries()) {
        const t = (await s.ledger.client.getTransaction({ id }, s.ledger.as(tn.workspaceId))).transaction!;
        const payer = docs.find((d) => d.state === 'open' && d.payment?.txn === i);
        expect(t.entityId).toBe(payer?.id ?? '');
      }
      // The books balance; AP and AR hold exactly the open bills and invoices less their payments.
      const trial = (
        await s.ledger.db.adminDb.raw(
          "select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as b from journal_lines where workspace_id = ?",
          [tn.workspaceId],
        )
      ).rows as { b: string }[];
      expect(Number(trial[0]!.b)).toBe(0);
      // Open documents less the whole amounts of the bank transactions re-booked against AP / AR as their payments.
      // Credits were posted when made (a vendor credit debits AP, a credit memo credits AR), applied or not: applying
      // one posts nothing (decision 0020), so AP / AR = open documents − bank payments − every credit.
      const open = (kind: Kind) =>
        docs
          .filter((d) => d.kind === kind && d.state === 'open')
          .reduce((sum, d) => sum + d.totalCents - (d.payment ? Math.abs(TXN_CENTS[d.payment.txn]!) : 0), 0) -
        credits.filter((x) => x.kind === kind).reduce((sum, x) => sum + x.cents, 0);
      const hasBills = docs.some((d) => d.kind === 'bill');
      const hasInvoices = docs.some((d) => d.kind === 'invoice');
      if (hasBills) expect(0 - (await debitBalance(s, tn, await accountOfKey(s, tn, 'accounts_payable')))).toBe(open('bill'));
      if (hasInvoices) expect(await debitBalance(s, tn, await accountOfKey(s, tn, 'accounts_receivable'))).toBe(open('invoice'));

      // Each live document as the API shows it: its status, its total, its payment status (nothing paid: UNPAID), and
      // its current entry's lines summing to its total on each side (none once voided).
      for (const d of live()) {
        const r = await s.api('GET', `${PATHS[d.kind].one}/${d.id}`, { tenant: tn });
        expect(r.status).toBe(200);
        const doc = r.body;
        expect(doc.status).toBe(d.state === 'open' ? 'Posted' : 'Voided');
        expect(cents(doc.totalAmount)).toBe(d.totalCents);
        if (d.kind !== 'manual_entry') {
          const paid = (d.payment?.cents ?? 0) + (d.credit?.cents ?? 0);
          expect(doc.paymentStatus).toBe(referenceStatus(d.totalCents, paid));
          expect(cents(doc.paidAmount)).toBe(paid);
          expect(doc.connectedTransactions).toEqual(d.payment ? [{ id: txnIds[d.payment.txn], amount: d.payment.cents / 100 }] : []);
          expect(d.kind === 'bill' ? doc.connectedVendorCredits : doc.connectedCreditMemos).toEqual(
            d.credit ? [{ id: d.credit.id, amount: d.credit.cents / 100 }] : [],
          );
        }
        if (d.state === 'voided') expect(doc.journalEntryId).toBe('');
        else {
          const lines = await linesOf(s, [doc.journalEntryId]);
          expect(lines.filter((l) => l.direction === 'debit').reduce((sum, l) => sum + l.amount_cents, 0)).toBe(d.totalCents);
          expect(lines.filter((l) => l.direction === 'credit').reduce((sum, l) => sum + l.amount_cents, 0)).toBe(d.totalCents);
        }
      }

      // The P&L equals the ledger's lines, once reporting has applied the last change.
      await expectEventually(
        async () => {
          const [r] = await s.reporting.service.check([tn.workspaceId]);
          if (!r?.ok) throw new Error(`read model differs: ${JSON.stringify(r?.differences.slice(0, 3))}`);
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
      const pl = await s.api('GET', `/financial-data/profit-loss/v3?startDate=2026-${month}-01&endDate=2026-${month}-28&seq=${lastSeq}`, { tenant: tn });
      expect(pl.status, JSON.stringify(pl.body).slice(0, 300)).toBe(200);
      const columns = pl.body.report.columns as { startDate: string; endDate: string }[];
      for (const [i, col] of columns.entries()) {
        const sums = await lineSums(s.ledger.db.adminDb, tn.workspaceId, col.startDate, col.endDate);
        for (const row of accountRows(pl.body.report.data as Row[]))
          expect(cents(row.amounts[i] ?? NaN), `${row.name} ${col.startDate}`).toBe(expected(sums, row));
      }
    }),
    // A failure's shrinking stops after DOCUMENTS_PROPERTY_TIME_LIMIT_S (default 300) in all and reports the smallest
    // case found so far, so a slow failure still prints its counterexample before the test's own time runs out.
    { numRuns: 8, interruptAfterTimeLimit: Number(process.env.DOCUMENTS_PROPERTY_TIME_LIMIT_S ?? 300) * 1_000, markInterruptAsFailure: false },
  );
}, 600_000);
