// The documents service's records as the REST answers carry them (proto → JSON; money in decimal dollars).
import { centsToDollars, orNull } from '@ledgerline/platform';
import type { BulkUploadJob } from '@ledgerline/proto/documents/v1/bulk_upload_pb';
import type { Document, Payment, Recurrence } from '@ledgerline/proto/documents/v1/documents_pb';
import type { Draft, DraftBatch } from '@ledgerline/proto/documents/v1/drafts_pb';
import type { FixedAsset } from '@ledgerline/proto/documents/v1/fixed_assets_pb';
import type { TransactionSummary, Upload } from '@ledgerline/proto/documents/v1/uploads_pb';
import { type Kind } from './schemas.js';

/**
 * A bulk-upload job (documents service) as a GET /jobs Job (spec platform-core §3, queue 'bulk upload'): its progress is
 * data.transactionPushed of data.totalTransactions, counted in files; data.uploadType is bill, invoice or receipt and
 * data.requestId the batch (the drafts' bulkUploadId).
 */
export function bulkUploadJobJson(j: BulkUploadJob) {
  return {
    id: j.id,
    status: j.status,
    type: 'bulk upload',
    order: Number(j.order),
    data: { requestId: j.id, accountId: '', transactionPushed: j.processedFiles, totalTransactions: j.totalFiles, uploadType: orNull(j.uploadType) },
    failedReason: orNull(j.failedReason),
    attempts: j.attempts,
    createdOn: j.createdOn,
    finishedOn: orNull(j.finishedOn),
  };
}

export function recurrenceJson(r: Recurrence | undefined): Record<string, unknown> {
  return {
    isRecurredParent: r?.isRecurredParent ?? false,
    recurringStartDate: r?.recurringStartDate ?? '',
    recurringEndDate: r?.recurringEndDate ?? '',
    interval: r?.interval ?? '',
    recurringEndType: r?.recurringEndType ?? '',
    recurringCount: r?.recurringCount ?? 0,
    activity: r?.activity ?? '',
    recurringSchedule: (r?.recurringSchedule ?? []).map((d) => ({ recurrenceDate: d.recurrenceDate, isRecurred: d.isRecurred, documentId: d.documentId })),
    nextRecurrenceDate: r?.nextRecurrenceDate ?? '',
    recurredFromId: r?.recurredFromId ?? '',
  };
}

export function documentJson(k: Kind, d: Document | undefined): Record<string, unknown> {
  if (!d) throw new Error('the documents service answered no document');
  const common = {
    id: d.id,
    voided: d.voided,
    status: d.status,
    totalAmount: centsToDollars(d.totalCents),
    source: d.source,
    journalEntryId: d.journalEntryId,
    version: Number(d.version),
    createdOn: d.createdOn,
    updatedOn: d.updatedOn,
    recurrence: recurrenceJson(d.recurrence),
  };
  const payment = {
    paymentStatus: d.paymentStatus,
    paidAmount: centsToDollars(d.paidCents),
    differenceMessages: d.differenceMessages,
    connectedTransactions: d.connectedTransactions.map((p) => ({ id: p.id, amount: centsToDollars(p.amountCents) })),
  };
  const party = { id: d.party?.id ?? '', name: d.party?.name ?? '' };
  if (k === 'bill') {
    return {
      ...common,
      ...payment,
      ...connectionJson(k, d),
      billDate: d.date,
      dueDate: d.dueDate,
      description: d.description,
      vendor: party,
      billerName: d.billerName || party.name,
      suggestedVendor: d.suggestedParty ? { id: d.suggestedParty.id, name: d.suggestedParty.name } : null,
      invoiceCode: d.reference,
      lineItems: d.lines.map((l) => ({ id: l.id, serviceName: l.serviceName, categoryId: l.categoryId, amount: centsToDollars(l.amountCents) })),
    };
  }
  if (k === 'invoice') {
    return {
      ...common,
      ...payment,
      ...connectionJson(k, d),
      invoiceDate: d.date,
      dueDate: d.dueDate,
      customer: party,
      customerName: d.billerName || party.name,
      suggestedCustomer: d.suggestedParty ? { id: d.suggestedParty.id, name: d.suggestedParty.name } : null,
      referenceNo: d.reference,
      description: d.description,
      companyName: d.companyName,
      companyAddress: d.companyAddress,
      lineItems: d.lines.map((l) => ({
        id: l.id,
        serviceName: l.serviceName,
        categoryId: l.categoryId,
        quantity: Number(l.quantity),
        rate: centsToDollars(l.rateCents),
        amount: centsToDollars(l.amountCents),
      })),
    };
  }
  return {
    ...common,
    ...connectionJson(k, d),
    postingDate: d.date,
    memo: d.description,
    lineItems: d.lines.map((l) => ({
      id: l.id,
      description: l.serviceName,
      categoryId: l.categoryId,
      type: l.direction,
      amount: centsToDollars(l.amountCents),
      debit: l.direction === 'debit' ? centsToDollars(l.amountCents) : 0,
      credit: l.direction === 'credit' ? centsToDollars(l.amountCents) : 0,
    })),
  };
}

export const paymentsJson = (list: readonly Payment[]) => list.map((p) => ({ id: p.id, amount: centsToDollars(p.amountCents) }));

export function connectionJson(
  k: Kind,
  d: { connectedManualEntries: Payment[]; connectedCredits: Payment[]; paidBills: Payment[]; paidInvoices: Payment[] },
): Record<string, unknown> {
  if (k === 'bill') return { connectedManualEntries: paymentsJson(d.connectedManualEntries), connectedVendorCredits: paymentsJson(d.connectedCredits) };
  if (k === 'invoice') return { connectedManualEntries: paymentsJson(d.connectedManualEntries), connectedCreditMemos: paymentsJson(d.connectedCredits) };
  return { paidBills: paymentsJson(d.paidBills), paidInvoices: paymentsJson(d.paidInvoices) };
}

export const problemJson = (p: { field: string; message: string } | undefined) => (p ? { field: p.field, message: p.message } : null);

export function draftJson(d: Draft | undefined): Record<string, unknown> {
  if (!d) throw new Error('the documents service answered no draft');
  return {
    id: d.id,
    draftType: d.draftType,
    entityType: d.entityType,
    metaData: JSON.parse(d.metaDataJson || '{}') as unknown,
    createdByUser: d.createdByUser,
    lastModifiedByUser: d.lastModifiedByUser,
    publishedDate: d.publishedDate,
    createdOn: d.createdOn,
    updatedOn: d.updatedOn,
    bulkUploadId: d.bulkUploadId,
    firstError: problemJson(d.firstError),
  };
}

export const batchJson = (b: DraftBatch | undefined) => ({
  message: b?.message ?? '',
  createdCount: b?.createdCount ?? 0,
  failedCount: b?.failedCount ?? 0,
  success: b?.success ?? false,
  deletedCount: b?.deletedCount ?? 0,
  results: (b?.results ?? []).map((r) => ({ draftId: r.draftId, documentId: r.documentId, error: problemJson(r.error) })),
});

export function fixedAssetJson(a: FixedAsset | undefined, withSchedule: boolean) {
  if (!a) return undefined;
  return {
    id: a.id,
    referenceWorkspaceTransaction: a.referenceWorkspaceTransaction,
    purchaseDate: a.purchaseDate,
    description: a.description,
    assetType: { id: a.assetTypeId, name: a.assetTypeName },
    depreciationStartDate: a.depreciationStartDate,
    usefulLife: a.usefulLife,
    cost: centsToDollars(a.costCents),
    salvageValue: centsToDollars(a.salvageValueCents),
    totalEstimatedUnits: a.totalEstimatedUnits,
    unitProducedPerYear: a.unitProducedPerYear,
    method: a.method,
    status: a.status,
    stoppedOn: a.stoppedOn || null,
    accumulatedDepreciation: centsToDollars(a.accumulatedDepreciationCents),
    carryingValue: centsToDollars(a.carryingValueCents),
    merchantName: a.merchantName,
    qboSynced: a.qboSynced,
    createdAt: a.createdAt,
    ...(withSchedule
      ? {
          schedule: a.schedule.map((m) => ({
            id: m.id,
            depreciationDateTime: m.depreciationDateTime,
            depreciationAsset: a.id,
            isDepreciated: m.isDepreciated,
            beginningCarryingValue: centsToDollars(m.beginningCarryingValueCents),
            endingCarryingValue: centsToDollars(m.endingCarryingValueCents),
            depreciationAmount: centsToDollars(m.depreciationAmountCents),
            accumulatedDepreciation: centsToDollars(m.accumulatedDepreciationCents),
            journalEntryId: m.journalEntryId,
          })),
        }
      : {}),
  };
}

export const summaryJson = (t: TransactionSummary | undefined) =>
  t
    ? {
        id: t.id,
        dateTime: t.date,
        amount: centsToDollars(t.amountCents),
        merchantName: t.merchantName,
        memo: t.memo,
        accountId: t.accountId,
        isoCurrencyCode: t.isoCurrencyCode,
      }
    : null;

export const uploadJson = (u: Upload | undefined) => {
  if (!u) throw new Error('the documents service answered no upload');
  return {
    id: u.id,
    url: u.url,
    signedUrl: u.signedUrl,
    signedUrlExpiresAt: u.signedUrlExpiresAt,
    uploadType: u.uploadType,
    dateTime: u.dateTime || null,
    merchantName: u.merchantName || null,
    amount: u.amountCents === undefined ? null : centsToDollars(u.amountCents),
    workspaceId: u.workspaceId,
    matchedOn: u.matchedOn || null,
    matchedTransaction: summaryJson(u.matchedTransaction),
    receiptStatus: u.receiptStatus,
    matchedBy: u.matchedBy || null,
    matchConfidence: u.matchedBy === 'auto' ? u.matchConfidence : null,
    suggestions: u.suggestions.map((s) => ({ transaction: summaryJson(s.transaction), confidence: s.confidence, reasons: s.reasons })),
    fileName: u.fileName,
    contentType: u.contentType,
    sizeBytes: Number(u.sizeBytes),
    createdAt: u.createdAt,
    createdBy: u.createdBy || null,
    readStatus: u.readStatus || null,
  };
};
