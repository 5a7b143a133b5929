// Property (issue #18 "Must show"): random sequences of create / edit (PUT) / void / delete on bills, invoices and
// manual journals, through the gateway, keep the books balanced (trial balance zero), Accounts Payable equal to the
// sum of the open bills, Accounts Receivable equal to the sum of the open invoices, every document's current entry
// equal to its current lines, every payment status equal to the reference computation, and the P&L equal to the
// ledger's lines (report-oracle.ts). Whole stack: gateway → documents → parties / ledger → reporting.
import { expectEventually } from '@ledgerline/platform/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountOfKey, categoryIds, debitBalance, linesOf, newCustomer, newVendor, startDocumentsSystem, type DocumentsSystem } from './documents.harness.js';
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

interface Line { cat: number; cents: number; qty: number }
type Op =
  | { op: 'create'; kind: Kind; day: number; lines: Line[] }
  | { op: 'edit'; pick: number; day: number; lines: Line[] }
  | { op: 'void'; pick: number }
  | { op: 'delete'; pick: number };

const linesArb = fc.array(fc.record({ cat: fc.nat(5), cents: fc.integer({ min: 1, max: 500_000 }), qty: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 3 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('create' as const), kind: fc.constantFrom<Kind>('bill', 'invoice', 'manual_entry'), day: fc.integer({ min: 1, max: 28 }), lines: linesArb }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('edit' as const), pick: fc.nat(), day: fc.integer({ min: 1, max: 28 }), lines: linesArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('void' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }) },
);

interface Doc { id: string; kind: Kind; totalCents: number; state: 'open' | 'voided' | 'deleted'; version: number }

it('random create / edit / void / delete sequences keep the books balanced, AP = open bills, AR = open invoices, P&L = ledger', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 3, maxLength: 12 }), fc.constantFrom('03', '04', '05'), async (ops, month) => {
      const tn = s.tenant();
      const c = await categoryIds(s, tn);
      const vendor = await newVendor(s, tn);
      const customer = await newCustomer(s, tn);
      const date = (d: number) => `2026-${month}-${String(d).padStart(2, '0')}`;
      const docs: Doc[] = [];
      let lastSeq = 0;

      const body = (kind: Kind, day: number, lines: Line[]) => {
        if (kind === 'bill') return { billDate: date(day), vendorId: vendor.id, lineItems: lines.map((l) => ({ serviceName: 'Item', categoryId: c[EXPENSES[l.cat % EXPENSES.length]!], amount: l.cents / 100 })) };
        if (kind === 'invoice') {
          // amount = quantity × rate exactly: the rate is the line's cents, the amount qty times it.
          return { invoiceDate: date(day), customerId: customer.id, lineItems: lines.map((l) => ({ serviceName: 'Work', categoryId: c[INCOME[l.cat % INCOME.length]!], quantity: l.qty, rate: l.cents / 100, amount: (l.qty * l.cents) / 100 })) };
        }
        // A manual journal: each line an expense debited against an income credited, so it balances.
        return {
          postingDate: date(day), memo: 'Adjustment',
          lineItems: lines.flatMap((l) => [{ categoryId: c[EXPENSES[l.cat % EXPENSES.length]!], type: 'debit', amount: l.cents / 100 }, { categoryId: c[INCOME[l.cat % INCOME.length]!], type: 'credit', amount: l.cents / 100 }]),
        };
      };
      const totalOf = (kind: Kind, lines: Line[]) => lines.reduce((sum, l) => sum + (kind === 'invoice' ? l.qty * l.cents : l.cents), 0);
      const live = () => docs.filter((d) => d.state !== 'deleted');

      for (const op of ops) {
        if (op.op === 'create') {
          const r = await s.api('POST', PATHS[op.kind].create, { tenant: tn, body: body(op.kind, op.day, op.lines) });
          expect(r.status, JSON.stringify(r.body)).toBe(201);
          docs.push({ id: r.body[PATHS[op.kind].key].id, kind: op.kind, totalCents: totalOf(op.kind, op.lines), state: 'open', version: 1 });
          lastSeq = Math.max(lastSeq, r.body.seq);
          continue;
        }
        const candidates = live();
        if (candidates.length === 0) continue;
        const d = candidates[op.pick % candidates.length]!;
        const p = PATHS[d.kind];
        if (op.op === 'edit') {
          const r = await s.api('PUT', `${p.one}/${d.id}`, { tenant: tn, body: body(d.kind, op.day, op.lines) });
          if (d.state === 'voided') { expect(r.status).toBe(409); continue; }
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          d.totalCents = totalOf(d.kind, op.lines);
          lastSeq = Math.max(lastSeq, r.body.seq);
        } else if (op.op === 'void') {
          const r = await s.api('POST', `${p.one}/void/${d.id}`, { tenant: tn });
          expect(r.status).toBe(200);
          expect(r.body[p.key].status).toBe('Voided');
          d.state = 'voided';
          lastSeq = Math.max(lastSeq, r.body.seq);
        } else {
          const r = await s.api('DELETE', `${p.one}/${d.id}`, { tenant: tn });
          expect(r.status).toBe(200);
          d.state = 'deleted';
          lastSeq = Math.max(lastSeq, r.body.seq);
          expect((await s.api('GET', `${p.one}/${d.id}`, { tenant: tn })).status).toBe(404);
        }
      }

      // The books balance; AP and AR hold exactly the open bills and invoices.
      const trial = (await s.ledger.db.adminDb.raw("select coalesce(sum(case when direction = 'debit' then amount_cents else -amount_cents end), 0)::bigint as b from journal_lines where workspace_id = ?", [tn.workspaceId])).rows as { b: string }[];
      expect(Number(trial[0]!.b)).toBe(0);
      const open = (kind: Kind) => docs.filter((d) => d.kind === kind && d.state === 'open').reduce((sum, d) => sum + d.totalCents, 0);
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
        if (d.kind !== 'manual_entry') expect(doc.paymentStatus).toBe('UNPAID');
        if (d.state === 'voided') expect(doc.journalEntryId).toBe('');
        else {
          const lines = await linesOf(s, [doc.journalEntryId]);
          expect(lines.filter((l) => l.direction === 'debit').reduce((sum, l) => sum + l.amount_cents, 0)).toBe(d.totalCents);
          expect(lines.filter((l) => l.direction === 'credit').reduce((sum, l) => sum + l.amount_cents, 0)).toBe(d.totalCents);
        }
      }

      // The P&L equals the ledger's lines, once reporting has applied the last change.
      await expectEventually(async () => {
        const [r] = await s.reporting.service.check([tn.workspaceId]);
        if (!r?.ok) throw new Error(`read model differs: ${JSON.stringify(r?.differences.slice(0, 3))}`);
      }, { timeoutMs: 30_000, intervalMs: 200 });
      const pl = await s.api('GET', `/financial-data/profit-loss/v3?startDate=2026-${month}-01&endDate=2026-${month}-28&seq=${lastSeq}`, { tenant: tn });
      expect(pl.status, JSON.stringify(pl.body).slice(0, 300)).toBe(200);
      const columns = pl.body.report.columns as { startDate: string; endDate: string }[];
      for (const [i, col] of columns.entries()) {
        const sums = await lineSums(s.ledger.db.adminDb, tn.workspaceId, col.startDate, col.endDate);
        for (const row of accountRows(pl.body.report.data as Row[])) expect(cents(row.amounts[i] ?? NaN), `${row.name} ${col.startDate}`).toBe(expected(sums, row));
      }
    }),
    { numRuns: 8 },
  );
}, 600_000);
