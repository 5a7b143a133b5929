import type { Knex } from '@ledgerline/platform';

/** The highest sequence each open transaction has posted itself (entries only; chart changes answer their own). */
const posted = new WeakMap<Knex.Transaction, number>();

/** Records the sequence numbers of entries `trx` has just posted (journal's `postEntries`, the bank batch). */
export function notePosted(trx: Knex.Transaction, seqs: Iterable<number | string>): void {
  let high = posted.get(trx) ?? 0;
  for (const s of seqs) high = Math.max(high, Number(s));
  if (high > 0) posted.set(trx, high);
}

/**
 * The seq a change answers (reads after writes): the highest sequence of the entries this transaction
 * posted itself — never another writer's, even one that committed meanwhile with a higher number, since
 * reporting waits for exactly that entry and the caller's own could still be on its way (issue #12).
 * When it posted nothing: the workspace's highest commit sequence it sees (0 before the first entry),
 * which is already committed, so a report naming it does not wait for long.
 */
export async function ownSeq(trx: Knex.Transaction, workspaceId: string): Promise<number> {
  const own = posted.get(trx);
  if (own !== undefined) return own;
  const r = (await trx.raw('select coalesce(max(seq), 0)::bigint as seq from journal_entries where workspace_id = ?', [workspaceId])).rows as { seq: string }[];
  return Number(r[0]?.seq ?? 0);
}
