import type { Knex } from '@ledgerline/platform';
import type { TxnRow } from './rows.js';

/** The live transactions linked to a document (entity_type / entity_id), locked, in id order. */
export async function lockTransactionsLinkedTo(trx: Knex.Transaction, entityType: string, entityId: string): Promise<TxnRow[]> {
  return (
    await trx.raw('select * from workspace_transactions where entity_type = ? and entity_id = ? and is_removed = false order by id for update', [
      entityType,
      entityId,
    ])
  ).rows as TxnRow[];
}

/** Links a transaction to a document, or (nulls) unlinks it. */
export async function setEntityLink(trx: Knex.Transaction, id: string, entityType: string | null, entityId: string | null): Promise<void> {
  await trx('workspace_transactions').where({ id }).update({ entity_type: entityType, entity_id: entityId, updated_at: trx.fn.now() });
}

/** The category of a merchant (biller), when it has one. */
export async function billerCategory(trx: Knex.Transaction, billerId: string): Promise<string | null> {
  const row = (await trx('billers').where({ id: billerId }).select('category_id').first()) as { category_id: string | null } | undefined;
  return row?.category_id ?? null;
}
