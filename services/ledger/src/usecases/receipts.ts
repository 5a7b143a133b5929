import { AppError, isUuid } from '@ledgerline/platform';
import { RECEIPT_MSG } from '../domain/receipts.js';
import { Problems } from '../domain/validation.js';
import { auditDrawerEvent, receiptsInTrail, transactionExists } from '../store/audit-log-drawer.js';
import { rememberMember } from '../store/workspace-members.js';
import { receiptsOf, receiptWithContent, type ReceiptRow } from '../store/receipts-store.js';
import { assertCanEdit, inWorkspace, type LedgerDeps, type Tenant } from './context.js';

/** A receipt the documents service stored for a transaction (its upload). */
export interface AttachedReceipt {
  id: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
}
export interface Actor {
  name: string;
  email: string;
}

/**
 * Receipts on a transaction. The files are uploads of the documents service (type receipt, matched to the
 * transaction; decision 0031): the ledger records in the transaction's trail that they were attached, and answers
 * the receipts it stored itself before the move (`transaction_receipts`, read only: no row is written any more).
 */
export class ReceiptUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  /**
   * One `receipt_uploaded` trail entry per receipt (by its upload id) not recorded before, and the acting member
   * remembered (their name shows on the receipt and in the trail). Another workspace's transaction: not found.
   */
  async recordAttached(tenant: Tenant, transactionId: string, receipts: readonly AttachedReceipt[], actor: Actor | undefined): Promise<number> {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    if (receipts.length === 0) p.add('receipts', RECEIPT_MSG.filesRequired);
    receipts.forEach((r, i) => p.uuid(`receipts.${i}.id`, r.id, { required: true }));
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      if (!(await transactionExists(trx, transactionId))) throw AppError.notFound('Transaction');
      const userId = tenant.userId ?? null;
      if (userId) await rememberMember(trx, tenant.workspaceId, userId, actor);
      const known = await receiptsInTrail(
        trx,
        transactionId,
        receipts.map((r) => r.id),
      );
      let recorded = 0;
      for (const r of receipts) {
        if (known.has(r.id)) continue;
        known.add(r.id);
        await auditDrawerEvent(trx, {
          workspaceId: tenant.workspaceId,
          transactionId,
          userId,
          event: 'receipt_uploaded',
          details: { receiptId: r.id, fileName: r.fileName, contentType: r.contentType, sizeBytes: r.sizeBytes },
        });
        recorded += 1;
      }
      return recorded;
    });
  }

  async list(tenant: Tenant, transactionId: string): Promise<ReceiptRow[]> {
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    p.throwIfAny();
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      if (!(await transactionExists(trx, transactionId))) throw AppError.notFound('Transaction');
      return receiptsOf(trx, transactionId);
    });
  }

  /** One receipt stored here before the move, with its bytes; another workspace's (or an unknown) id is "not found". */
  async file(tenant: Tenant, id: string) {
    if (!isUuid(id)) throw AppError.notFound(RECEIPT_MSG.notFound);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const row = await receiptWithContent(trx, id);
      if (!row) throw AppError.notFound(RECEIPT_MSG.notFound);
      return row;
    });
  }
}
