import type { Knex } from '@ledgerline/platform';

export interface WorkspacePlanRow {
  workspace_id: string;
  plan_id: string;
  plan_name: string;
  users: number;
  changed_at: Date;
}

type Db = Knex | Knex.Transaction;

/** Identity's copy of the workspaces' user limits (billing.plan_changed, decision 0044). */
export const workspacePlans = {
  /** The plans of these workspaces that limit users. */
  limiting: (db: Db, workspaceIds: readonly string[]): Promise<WorkspacePlanRow[]> =>
    db<WorkspacePlanRow>('workspace_plans')
      .whereIn('workspace_id', [...workspaceIds])
      .where('users', '>=', 0)
      .select('*'),
  /** Keeps the newest change: an older one arriving late replaces nothing. */
  apply: async (db: Db, row: WorkspacePlanRow): Promise<void> => {
    await db('workspace_plans')
      .insert(row)
      .onConflict('workspace_id')
      .merge(['plan_id', 'plan_name', 'users', 'changed_at'])
      .where('workspace_plans.changed_at', '<=', row.changed_at);
  },
};
