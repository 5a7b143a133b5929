import type { Knex } from '@ledgerline/platform';
import type { RecordView } from '../domain/record.js';

interface RecordRow {
  id: string;
  workspace_id: string;
  title: string;
  created_by: string | null;
  created_at: Date;
}

/** Stores a record in the caller's transaction (row-level security holds it to the tenant's workspace). */
export async function insertRecord(
  trx: Knex.Transaction,
  record: { id: string; workspaceId: string; title: string; createdBy: string | null },
): Promise<RecordView> {
  const [row] = await trx<RecordRow>('billing_records')
    .insert({ id: record.id, workspace_id: record.workspaceId, title: record.title, created_by: record.createdBy })
    .returning('*');
  if (!row) throw new Error('insert into billing_records answered no row');
  return { id: row.id, title: row.title, createdAt: row.created_at };
}
