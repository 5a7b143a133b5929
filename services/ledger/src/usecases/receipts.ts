import { createHash } from 'node:crypto';
import { AppError, isUuid, newId } from '@ledgerline/platform';
import { cleanFileName, RECEIPT_MAX_FILES, RECEIPT_MSG, receiptFileProblem, sniffReceiptType } from '../domain/receipts.js';
import { Problems } from '../domain/validation.js';
import { auditDrawerEvent, rememberMember, transactionExists } from '../store/audit-log-drawer.js';
import { insertReceipt, receiptsByIds, receiptsOf, receiptWithContent, type ReceiptRow } from '../store/receipts-store.js';
import { assertCanEdit, inWorkspace, type LedgerDeps, type Tenant } from './context.js';

export interface ReceiptUpload {
  fileName: string;
  content: Uint8Array;
}
export interface Actor {
  name: string;
  email: string;
}

/**
 * Receipts on a transaction. Stored in the ledger (bytes in `transaction_receipts`) until a documents
 * service exists; the interface (these RPCs) is what moves then.
 */
export class ReceiptUseCases {
  constructor(private readonly deps: LedgerDeps) {}

  /**
   * POST /transactions/receipt: each file whose content is a jpg, png or pdf (by its magic bytes, and its
   * name's extension agrees) of at most 10 MB is attached; the others are answered in `failedFiles`. When
   * none can be attached nothing is stored and the answer is a 400 naming `files`.
   */
  async upload(tenant: Tenant, transactionId: string, files: readonly ReceiptUpload[], actor: Actor | undefined) {
    assertCanEdit(tenant);
    const p = new Problems();
    p.uuid('transactionId', transactionId, { required: true });
    if (files.length === 0) p.add('files', RECEIPT_MSG.filesRequired);
    if (files.length > RECEIPT_MAX_FILES) p.add('files', RECEIPT_MSG.tooManyFiles);
    p.throwIfAny();
    const checked = files.map((f) => ({ ...f, fileName: cleanFileName(f.fileName), problem: receiptFileProblem(cleanFileName(f.fileName), f.content) }));
    const good = checked.filter((f) => f.problem === null);
    const failedFiles = checked.filter((f) => f.problem !== null).map((f) => ({ fileName: f.fileName, reason: f.problem as string }));
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      if (!(await transactionExists(trx, transactionId))) throw AppError.notFound('Transaction');
      if (good.length === 0) throw AppError.invalid([{ field: 'files', message: failedFiles[0]?.reason ?? RECEIPT_MSG.badType }]);
      const userId = tenant.userId ?? null;
      if (userId) await rememberMember(trx, tenant.workspaceId, userId, actor);
      const ids: string[] = [];
      for (const f of good) {
        const id = newId();
        const content = Buffer.from(f.content);
        const contentType = sniffReceiptType(content) as string;
        await insertReceipt(trx, { id, workspace_id: tenant.workspaceId, transaction_id: transactionId, file_name: f.fileName, content_type: contentType, size_bytes: content.length, sha256: createHash('sha256').update(content).digest(), content, uploaded_by: userId });
        await auditDrawerEvent(trx, { workspaceId: tenant.workspaceId, transactionId, userId, event: 'receipt_uploaded', details: { receiptId: id, fileName: f.fileName, contentType, sizeBytes: content.length } });
        ids.push(id);
      }
      return { uploadedFiles: await receiptsByIds(trx, ids), failedFiles, message: RECEIPT_MSG.uploaded };
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

  /** One receipt with its bytes; another workspace's (or an unknown) id is "not found". */
  async file(tenant: Tenant, id: string) {
    if (!isUuid(id)) throw AppError.notFound(RECEIPT_MSG.notFound);
    return inWorkspace(this.deps.db, tenant, async (trx) => {
      const row = await receiptWithContent(trx, id);
      if (!row) throw AppError.notFound(RECEIPT_MSG.notFound);
      return row;
    });
  }
}
