import type { Knex } from '@ledgerline/platform';

/**
 * The workspace's highest commit sequence as this transaction sees it: the last entry it posted itself,
 * or a later one already committed (0 before the first entry). Reporting waits until it has applied it.
 */
export async function highestSeq(trx: Knex.Transaction, workspaceId: string): Promise<number> {
  const r = (await trx.raw('select coalesce(max(seq), 0)::bigint as seq from journal_entries where workspace_id = ?', [workspaceId])).rows as { seq: string }[];
  return Number(r[0]?.seq ?? 0);
}
