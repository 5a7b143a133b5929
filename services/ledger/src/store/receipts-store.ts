import type { Knex } from '@ledgerline/platform';

export interface ReceiptRow {
  id: string;
  transaction_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  uploaded_by: string | null;
  uploaded_by_name: string | null;
  created_at: Date;
}

const COLUMNS = ['r.id', 'r.transaction_id', 'r.file_name', 'r.content_type', 'r.size_bytes', 'r.uploaded_by', 'r.created_at'];

function withUploader(trx: Knex.Transaction) {
  return trx('transaction_receipts as r')
    .leftJoin('workspace_members as m', function () {
      this.on('m.workspace_id', 'r.workspace_id').andOn('m.user_id', 'r.uploaded_by');
    })
    .select(...COLUMNS, trx.raw("coalesce(nullif(m.name, ''), m.email) as uploaded_by_name"));
}

/** A row as the ledger wrote them before receipts moved to the documents service (tests of the read-only path). */
export async function insertReceipt(
  trx: Knex.Transaction,
  row: {
    id: string;
    workspace_id: string;
    transaction_id: string;
    file_name: string;
    content_type: string;
    size_bytes: number;
    sha256: Buffer;
    content: Buffer;
    uploaded_by: string | null;
  },
): Promise<void> {
  await trx('transaction_receipts').insert(row);
}

export async function receiptsOf(trx: Knex.Transaction, transactionId: string): Promise<ReceiptRow[]> {
  return (await withUploader(trx).where('r.transaction_id', transactionId).orderBy('r.id')) as ReceiptRow[];
}

export async function receiptWithContent(trx: Knex.Transaction, id: string): Promise<(ReceiptRow & { content: Buffer }) | undefined> {
  return (await withUploader(trx).select('r.content').where('r.id', id).first()) as (ReceiptRow & { content: Buffer }) | undefined;
}
