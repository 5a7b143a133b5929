import type { Knex } from '@ledgerline/platform';

export interface CommentRow {
  id: string;
  transaction_id: string;
  user_id: string;
  user_name: string | null;
  comment: string;
  tagged_user_ids: string[];
  created_at: Date;
}

export async function insertComment(
  trx: Knex.Transaction,
  row: { id: string; workspace_id: string; transaction_id: string; user_id: string; comment: string; tagged_user_ids: string[] },
): Promise<void> {
  await trx('transaction_comments').insert(row);
}

function withAuthor(trx: Knex.Transaction) {
  return trx('transaction_comments as c')
    .leftJoin('workspace_members as m', function () {
      this.on('m.workspace_id', 'c.workspace_id').andOn('m.user_id', 'c.user_id');
    })
    .select(
      'c.id',
      'c.transaction_id',
      'c.user_id',
      'c.comment',
      'c.tagged_user_ids',
      'c.created_at',
      trx.raw("coalesce(nullif(m.name, ''), m.email) as user_name"),
    );
}

/** Oldest first, as a conversation reads. */
export async function commentsOf(trx: Knex.Transaction, transactionId: string): Promise<CommentRow[]> {
  return (await withAuthor(trx).where('c.transaction_id', transactionId).orderBy('c.id')) as CommentRow[];
}

export async function commentById(trx: Knex.Transaction, id: string): Promise<CommentRow | undefined> {
  return (await withAuthor(trx).where('c.id', id).first()) as CommentRow | undefined;
}
