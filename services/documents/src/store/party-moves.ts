import type { Knex } from '@ledgerline/platform';

/**
 * Every bill (deleted ones included, so none is left pointing at a vendor that no longer exists) of the caller's
 * workspace (row-level security) naming `from` now names `to`, with `name` when given. Idempotent: a second run finds
 * nothing left to move. Row locks make it wait for a concurrent change of a bill, then re-check it.
 */
export async function moveBillsToVendor(trx: Knex.Transaction, from: string, to: string, name: string | undefined): Promise<number> {
  if (from === to) return 0;
  return trx('documents')
    .where({ kind: 'bill', party_id: from })
    .update({ party_id: to, ...(name !== undefined ? { party_name: name } : {}), updated_at: trx.fn.now() });
}
