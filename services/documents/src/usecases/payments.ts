import { AppError, ErrorKind, type Knex, type TenantContext } from '@ledgerline/platform';
import type { DocumentLedger } from '../clients/ledger.js';
import type { PartyLookup } from '../clients/parties.js';
import { CONNECTION_MSG, connectionFields, journalCapacity, sumOf, type CleanConnections, type Connection, type PayerKind } from '../domain/connections.js';
import type { DocumentKind } from '../domain/documents.js';
import { differenceMessages, paymentStatus } from '../domain/payment-status.js';
import {
  applicationsByPayer,
  applicationsOf,
  documentsOfKind,
  releaseApplications,
  replaceDocumentApplications,
  replacePayerApplications,
  type ApplicationRow,
} from '../store/applications.js';
import { documentLines, documentPayments } from '../store/documents.js';

type Tenant = TenantContext & { workspaceId: string };

const notFound = (message: string, field: string) => new AppError(ErrorKind.NotFound, message, { fields: [{ field, message }] });
const conflict = (message: string, field: string) => new AppError(ErrorKind.FailedPrecondition, message, { fields: [{ field, message }] });
const invalid = (message: string, field: string) => AppError.invalid([{ field, message }]);

/** What each payment kind is called in messages, and its REST list. */
const creditKindOf = (kind: 'bill' | 'invoice'): 'vendor_credit' | 'credit_memo' => (kind === 'bill' ? 'vendor_credit' : 'credit_memo');
const CREDIT_WORD = { vendor_credit: 'vendor credit', credit_memo: 'credit memo' } as const;

/**
 * Payments of bills and invoices by manual journals, vendor credits and credit memos (issue #18 item 4; decision 0020).
 * None of them posts anything: a vendor credit's own entry debited Accounts Payable and a credit memo's credited
 * Accounts Receivable already (decision 0010), and a manual journal pays only what its own lines move on AP / AR (its
 * net debit to AP for bills, net credit to AR for invoices). So the books stay right by construction and the
 * connection is the sub-ledger's matching: it feeds paymentStatus, paidBills / paidInvoices and a credit's remaining
 * balance. Everything runs inside the changing document's transaction, after `lockConnections` (one change of a
 * workspace's connections at a time), so a refusal rolls the whole change back.
 */
export function createPayments({ ledger, parties }: { ledger: DocumentLedger; parties: PartyLookup }) {
  /** A manual journal's capacity on each side, from its current lines and the chart's AP / AR. */
  async function capacities(trx: Knex.Transaction, tenant: Tenant, journalIds: string[]) {
    const chart = await ledger.chart(tenant);
    const lines = await documentLines(trx, journalIds);
    return new Map(
      journalIds.map((id) => [
        id,
        journalCapacity(
          (lines.get(id) ?? []).map((l) => ({ categoryId: l.category_id, amountCents: l.amount_cents, direction: l.direction ?? '' })),
          chart.payableId,
          chart.receivableId,
        ),
      ]),
    );
  }

  return {
    /** A bill's or invoice's manual journals and credits (the whole set), checked and written. */
    async setForDocument(
      trx: Knex.Transaction,
      tenant: Tenant,
      kind: 'bill' | 'invoice',
      documentId: string,
      partyId: string,
      c: CleanConnections,
    ): Promise<void> {
      const fields = connectionFields(kind);
      const creditKind = creditKindOf(kind);
      const others = await applicationsByPayer(trx, [...c.manualEntries.map((m) => m.id), ...c.credits.map((x) => x.id)]);
      const usedElsewhere = (payerId: string, targetKind: DocumentKind) =>
        sumOf(
          (others.get(payerId) ?? [])
            .filter((a) => a.document_id !== documentId && a.document_kind === targetKind)
            .map((a) => ({ amountCents: a.amount_cents })),
        );

      const journals = await documentsOfKind(
        trx,
        'manual_entry',
        c.manualEntries.map((m) => m.id),
      );
      c.manualEntries.forEach((m, i) => {
        const j = journals.get(m.id);
        if (!j) throw notFound(CONNECTION_MSG.manualEntryNotFound, `${fields.manualEntries}.${i}.id`);
        if (j.voided) throw conflict(CONNECTION_MSG.voided('manual entry'), `${fields.manualEntries}.${i}.id`);
      });
      if (c.manualEntries.length > 0) {
        const cap = await capacities(
          trx,
          tenant,
          c.manualEntries.map((m) => m.id),
        );
        c.manualEntries.forEach((m, i) => {
          const capacity = (kind === 'bill' ? cap.get(m.id)?.billsCents : cap.get(m.id)?.invoicesCents) ?? 0;
          const left = capacity - usedElsewhere(m.id, kind);
          if (m.amountCents > left) {
            throw invalid(
              CONNECTION_MSG.item(
                'Connected manual entry',
                i,
                CONNECTION_MSG.journalExceeded(kind === 'bill' ? 'debits to Accounts Payable' : 'credits to Accounts Receivable', Math.max(0, left)),
              ),
              `${fields.manualEntries}.${i}.amount`,
            );
          }
        });
      }

      for (const [i, x] of c.credits.entries()) {
        const credit = await parties.credit(tenant, creditKind, x.id);
        const word = CREDIT_WORD[creditKind];
        if (!credit)
          throw notFound(creditKind === 'vendor_credit' ? CONNECTION_MSG.vendorCreditNotFound : CONNECTION_MSG.creditMemoNotFound, `${fields.credits}.${i}.id`);
        if (credit.voided) throw conflict(CONNECTION_MSG.voided(word), `${fields.credits}.${i}.id`);
        if (credit.partyId !== partyId) throw invalid(CONNECTION_MSG.otherParty(word, kind === 'bill' ? 'vendor' : 'customer'), `${fields.credits}.${i}.id`);
        const remaining = credit.totalCents - usedElsewhere(x.id, kind);
        if (x.amountCents > remaining)
          throw invalid(
            CONNECTION_MSG.item(
              kind === 'bill' ? 'Connected vendor credit' : 'Connected credit memo',
              i,
              CONNECTION_MSG.creditExceeded(word, Math.max(0, remaining)),
            ),
            `${fields.credits}.${i}.amount`,
          );
      }

      await replaceDocumentApplications(
        trx,
        tenant.workspaceId,
        documentId,
        [
          ...c.manualEntries.map((m) => ({ ...m, payerKind: 'manual_entry' as PayerKind })),
          ...c.credits.map((x) => ({ ...x, payerKind: creditKind as PayerKind })),
        ],
        ['manual_entry', creditKind],
      );
    },

    /** A manual journal's bills and invoices (the whole set), checked against what its lines move on AP / AR, and written. */
    async setForJournal(
      trx: Knex.Transaction,
      tenant: Tenant,
      journalId: string,
      lines: readonly { categoryId: string; amountCents: number; direction: string }[],
      c: CleanConnections,
    ): Promise<void> {
      const fields = connectionFields('manual_entry');
      for (const [key, kind] of [
        ['bills', 'bill'],
        ['invoices', 'invoice'],
      ] as const) {
        const list = c[key];
        const docs = await documentsOfKind(
          trx,
          kind,
          list.map((x) => x.id),
        );
        list.forEach((x, i) => {
          const d = docs.get(x.id);
          if (!d) throw notFound(kind === 'bill' ? CONNECTION_MSG.billNotFound : CONNECTION_MSG.invoiceNotFound, `${fields[key]}.${i}.id`);
          if (d.voided) throw conflict(CONNECTION_MSG.voidedTarget(kind), `${fields[key]}.${i}.id`);
        });
      }
      if (c.bills.length + c.invoices.length > 0) {
        const chart = await ledger.chart(tenant);
        const cap = journalCapacity(lines, chart.payableId, chart.receivableId);
        if (sumOf(c.bills) > cap.billsCents)
          throw invalid(CONNECTION_MSG.journalTotal(fields.bills, 'net debit to Accounts Payable', sumOf(c.bills), cap.billsCents), fields.bills);
        if (sumOf(c.invoices) > cap.invoicesCents)
          throw invalid(
            CONNECTION_MSG.journalTotal(fields.invoices, 'net credit to Accounts Receivable', sumOf(c.invoices), cap.invoicesCents),
            fields.invoices,
          );
      }
      await replacePayerApplications(trx, tenant.workspaceId, journalId, 'bill', c.bills);
      await replacePayerApplications(trx, tenant.workspaceId, journalId, 'invoice', c.invoices);
    },

    release: releaseApplications,

    /**
     * POST /accounting/payment-details/check: for each bill and invoice a payment names, what it would leave: total,
     * what its other payments pay (bank transactions, journals, credits — the journal being edited left out), this
     * amount, the remainder and the status it would have. Another workspace's or an unknown document is the 404 of
     * its field; nothing is written.
     */
    async details(trx: Knex.Transaction, c: CleanConnections, manualEntryId: string) {
      const fields = connectionFields('manual_entry');
      const out: Record<'bills' | 'invoices', PaymentDetail[]> = { bills: [], invoices: [] };
      for (const [key, kind] of [
        ['bills', 'bill'],
        ['invoices', 'invoice'],
      ] as const) {
        const list = c[key];
        const docs = await documentsOfKind(
          trx,
          kind,
          list.map((x) => x.id),
        );
        const ids = list.map((x) => x.id);
        const payments = await documentPayments(trx, ids);
        const apps = await applicationsOf(trx, ids);
        list.forEach((x, i) => {
          const d = docs.get(x.id);
          if (!d) throw notFound(kind === 'bill' ? CONNECTION_MSG.billNotFound : CONNECTION_MSG.invoiceNotFound, `${fields[key]}.${i}.id`);
          if (d.voided) throw conflict(CONNECTION_MSG.voidedTarget(kind), `${fields[key]}.${i}.id`);
          const paid =
            sumOf((payments.get(x.id) ?? []).map((p) => ({ amountCents: p.amount_cents }))) +
            sumOf((apps.get(x.id) ?? []).filter((a) => a.payer_id !== manualEntryId).map((a) => ({ amountCents: a.amount_cents })));
          const after = paid + x.amountCents;
          out[key].push({
            id: x.id,
            kind,
            partyId: d.party_id ?? '',
            partyName: d.party_name,
            reference: d.reference,
            totalCents: d.total_cents,
            paidCents: paid,
            amountCents: x.amountCents,
            remainingCents: d.total_cents - after,
            paymentStatus: paymentStatus(d.total_cents, after),
            differenceMessages: differenceMessages(d.total_cents, after),
          });
        });
      }
      return { ...out, totalCents: sumOf(c.bills) + sumOf(c.invoices) };
    },
  };
}

export interface PaymentDetail {
  id: string;
  kind: 'bill' | 'invoice';
  partyId: string;
  partyName: string;
  reference: string;
  totalCents: number;
  paidCents: number;
  amountCents: number;
  remainingCents: number;
  paymentStatus: string;
  differenceMessages: string[];
}

export type Payments = ReturnType<typeof createPayments>;

/** Splits a document's application rows into what the view shows (as the paid document, and as the paying journal). */
export function connectionsView(asPaid: readonly ApplicationRow[], asPayer: readonly ApplicationRow[]) {
  const pick = (rows: readonly ApplicationRow[], key: 'payer_id' | 'document_id'): Connection[] =>
    rows.map((a) => ({ id: a[key], amountCents: a.amount_cents }));
  return {
    connectedManualEntries: pick(
      asPaid.filter((a) => a.payer_kind === 'manual_entry'),
      'payer_id',
    ),
    connectedCredits: pick(
      asPaid.filter((a) => a.payer_kind !== 'manual_entry'),
      'payer_id',
    ),
    paidBills: pick(
      asPayer.filter((a) => a.document_kind === 'bill'),
      'document_id',
    ),
    paidInvoices: pick(
      asPayer.filter((a) => a.document_kind === 'invoice'),
      'document_id',
    ),
  };
}
